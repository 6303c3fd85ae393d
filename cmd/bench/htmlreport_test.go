package main

import (
	"encoding/json"
	"flag"
	"html"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/internal/headless"
)

var screenshots = flag.String("screenshots", "", "directory to keep the screenshots of the HTML report in, for inspection")

// htmlExperiment: three datasets (3, 3 and 4 classes), two reductions with
// code matrices, 3 folds × 2 repeats: 6 cells.
const htmlExperiment = `experiment "htmlcheck" { seed = 3 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
dataset "wine" { path = "%REPO%/experiments/data/wine.csv" }
dataset "car" {
  path        = "%REPO%/experiments/data/car.csv"
  categorical = ["buying", "maint", "doors", "persons", "lug_boot", "safety"]
}
encoder "std" { type = "standardize" }
encoder "onehot" { type = "onehot" }
learner "logreg" { params = { C = 1 } }
reduction "ova" { scheme = "ova" }
reduction "ovo" { scheme = "ovo" }
cv {
  folds   = 3
  repeats = 2
}
metrics = ["accuracy", "macro_f1"]
output { formats = ["markdown", "html"] }
`

// measure runs in the page after it has loaded and writes what the test
// asserts on into the DOM as JSON: the window and document widths, the
// sections, banners, every figure grid's images with their rendered and
// natural widths, and the tables wider than their box.
const measure = `<script>
addEventListener("load", () => {
  const w = (e) => e.getBoundingClientRect().width;
  const r = {
    window: innerWidth,
    scroll: document.documentElement.scrollWidth,
    sections: [...document.querySelectorAll("section[id]")].map((s) => ({id: s.id, width: w(s)})),
    banners: [...document.querySelectorAll(".banner")].map((b) => ({id: b.id, text: b.textContent})),
    grids: [...document.querySelectorAll(".figs")].map((g) => [...g.querySelectorAll("img")].map((i) => ({
      id: i.parentElement.id, width: w(i), natural: i.naturalWidth, complete: i.complete}))),
  };
  const pre = document.createElement("pre");
  pre.id = "measure";
  pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
});
</script>
`

type layout struct {
	Window   float64
	Scroll   float64
	Sections []struct {
		ID    string
		Width float64
	}
	Banners []struct{ ID, Text string }
	Grids   [][]struct {
		ID       string
		Width    float64
		Natural  int
		Complete bool
	}
}

var measured = regexp.MustCompile(`(?s)<pre id="measure">(.*?)</pre>`)

// TestHTMLReportInChromium renders the HTML report of a real run (and of
// the same run made partial) in headless Chromium at 1400 px: no console
// message, every section present, the set-up numbers of the data, the
// code-matrix table with its dataset, the whole width used without
// horizontal scrolling, every image decoded, heat maps at one width, the
// partial-run banner exactly when cells are missing, and a screenshot.
func TestHTMLReportInChromium(t *testing.T) {
	skipUnderRace(t, "the page is checked in a Chromium process")
	t.Parallel() // its waits overlap the other parallel tests' (see main_test.go)
	browser, err := headless.Find()
	if err != nil {
		t.Skip(err) // the message names the apt-get package; CI installs it
	}
	file := writeExperiment(t, htmlExperiment)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	complete := readFile(t, filepath.Join(out, "htmlcheck.html"))
	// A partial run: what an interrupted run leaves, one cell file short.
	cells, _ := filepath.Glob(filepath.Join(out, "cells", "*.json"))
	sort.Strings(cells)
	if len(cells) != 6 {
		t.Fatalf("%d cell files, want 6", len(cells))
	}
	os.Remove(cells[len(cells)-1])
	setStatus(t, out, "interrupted")
	if _, _, err := bench(t, "table", out); err != nil {
		t.Fatal(err)
	}
	partial := readFile(t, filepath.Join(out, "htmlcheck.html"))

	tests := []struct {
		name    string
		html    string
		partial string // the banner's text, "" for none
		heat    int    // heat maps
		dom     []string
	}{
		{"complete", complete, "", 3, []string{
			// set-up: shapes and class counts from the data files
			"<dd>3-fold stratified cross-validation, 2 repeats</dd>", "<dt>Seed</dt><dd>3</dd>",
			`<td>iris</td><td class="num">150</td><td class="num">4 (4 numeric)</td><td class="num">3</td><td class="wrap">setosa: 50, versicolor: 50, virginica: 50</td>`,
			`<td>car</td><td class="num">1728</td><td class="num">6 (6 categorical)</td><td class="num">4</td><td class="wrap">acc: 384, good: 69, unacc: 1210, vgood: 65</td>`,
			`<td>wine</td><td class="num">178</td><td class="num">13 (13 numeric)</td>`,
			"<td>logreg</td>", "<td>reducers</td>",
			// the code-matrix table names the dataset: car's ovo has K = 4
			`<tr><td>iris</td><td>ovo</td><td class="num">3</td><td class="num">3</td>`,
			`<tr><td>car</td><td>ovo</td><td class="num">4</td><td class="num">6</td><td class="num">3.5</td>`,
			// heat maps: test rows of 3 folds × 2 repeats
			"iris: logreg C=1 ", "300 test rows summed over 3 folds × 2 repeats; each true class's row sums to 1",
			"3456 test rows summed over 3 folds × 2 repeats",
		}},
		{"partial", partial, "Partial run: 5 of 6 cells finished (run status: interrupted). The tables and figures show the finished cells only.", 3, []string{
			"<dd>5 of 6 finished, 0 failed (run status: interrupted)</dd>",
		}},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			page := filepath.Join(dir, tc.name+".html")
			if !strings.Contains(tc.html, "</body>") {
				t.Fatal("no </body> in the report")
			}
			os.WriteFile(page, []byte(strings.Replace(tc.html, "</body>", measure+"</body>", 1)), 0o644)
			p, err := browser.DumpDOM(t.Context(), page, 1400, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Console) > 0 {
				t.Errorf("console messages:\n%s", strings.Join(p.Console, "\n"))
			}
			for _, want := range tc.dom {
				if !strings.Contains(p.DOM, want) {
					t.Errorf("rendered page lacks %q", want)
				}
			}
			m := measured.FindStringSubmatch(p.DOM)
			if m == nil {
				t.Fatalf("the page's load handler did not run:\n%s", p.DOM)
			}
			var l layout
			if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &l); err != nil {
				t.Fatal(err)
			}
			checkLayout(t, l, tc.partial, tc.heat)

			shot := filepath.Join(dir, tc.name+".png")
			// The report as written, without the measuring script.
			report := filepath.Join(dir, tc.name+"_report.html")
			os.WriteFile(report, []byte(tc.html), 0o644)
			console, err := browser.Screenshot(t.Context(), report, shot, 1400, 3200)
			if err != nil {
				t.Fatal(err)
			}
			if len(console) > 0 {
				t.Errorf("console messages in the screenshot run:\n%s", strings.Join(console, "\n"))
			}
			checkScreenshot(t, shot)
			if *screenshots != "" {
				os.MkdirAll(*screenshots, 0o755)
				b, _ := os.ReadFile(shot)
				os.WriteFile(filepath.Join(*screenshots, "report_"+tc.name+".png"), b, 0o644)
			}
		})
	}
}

// checkLayout asserts on the measured page.
func checkLayout(t *testing.T, l layout, partial string, heat int) {
	t.Helper()
	if l.Window != 1400 {
		t.Errorf("window %v px, want 1400", l.Window)
	}
	if l.Scroll > l.Window {
		t.Errorf("document %v px wide in a %v px window: horizontal scrolling", l.Scroll, l.Window)
	}
	ids := map[string]float64{}
	for _, s := range l.Sections {
		ids[s.ID] = s.Width
	}
	for _, id := range []string{"setup", "metric-accuracy", "metric-macro_f1", "code-matrices", "confusion"} {
		w, ok := ids[id]
		switch {
		case !ok:
			t.Errorf("no section %q (sections %v)", id, ids)
		case w < 0.9*l.Window:
			t.Errorf("section %q is %v px wide, %.0f%% of the window; want ≥ 90%%", id, w, 100*w/l.Window)
		}
	}
	var banner string
	for _, b := range l.Banners {
		if b.ID == "partial" {
			banner = b.Text
		}
	}
	if banner != partial {
		t.Errorf("partial-run banner %q, want %q", banner, partial)
	}
	if len(l.Grids) != 3 {
		t.Fatalf("%d figure grids, want 3 (two metrics, heat maps)", len(l.Grids))
	}
	for g, imgs := range l.Grids {
		for _, img := range imgs {
			if !img.Complete || img.Natural == 0 {
				t.Errorf("figure %s not decoded", img.ID)
			}
			if math.Abs(img.Width-imgs[0].Width) > 0.5 {
				t.Errorf("figure %s is %v px wide, %s %v px: want equal widths", img.ID, img.Width, imgs[0].ID, imgs[0].Width)
			}
		}
		if g == 2 {
			if len(imgs) != heat {
				t.Errorf("%d heat maps, want %d", len(imgs), heat)
			}
			for _, img := range imgs {
				if !strings.HasPrefix(img.ID, "fig-confusion_") {
					t.Errorf("figure %s among the heat maps", img.ID)
				}
			}
		}
	}
}

// checkScreenshot asserts that the screenshot has the window's size and
// shows a page (many colours: text, tables and figures), not a blank one.
func checkScreenshot(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got.X != 1400 || got.Y != 3200 {
		t.Errorf("screenshot %v, want 1400×3200", got)
	}
	colours := map[uint32]bool{}
	for y := 0; y < img.Bounds().Dy(); y += 3 {
		for x := 0; x < img.Bounds().Dx(); x += 3 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[r>>8<<16|g>>8<<8|b>>8] = true
		}
	}
	if len(colours) < 50 {
		t.Errorf("screenshot has %d colours: a blank page?", len(colours))
	}
}

// setStatus rewrites the status of a results directory's manifest.
func setStatus(t *testing.T, dir, status string) {
	t.Helper()
	path := filepath.Join(dir, "manifest.json")
	var m map[string]any
	if err := json.Unmarshal([]byte(readFile(t, path)), &m); err != nil {
		t.Fatal(err)
	}
	m["status"] = status
	b, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
