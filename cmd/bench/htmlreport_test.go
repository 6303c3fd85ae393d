package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/polyclass/polyclass/internal/headless"
)

var screenshots = flag.String("screenshots", "", "directory to write the screenshots of the HTML report into (make screenshots: docs/)")

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
output { formats = ["markdown", "csv", "html"] }
`

// measure is evaluated in the page: what the layout checks assert on, the
// window and document widths, the sections, banners, and every figure
// grid's images with their rendered and natural widths.
const measure = `(() => {
  const w = (e) => e.getBoundingClientRect().width;
  return {
    window: innerWidth,
    scroll: document.documentElement.scrollWidth,
    sections: [...document.querySelectorAll("section[id]")].map((s) => ({id: s.id, width: w(s)})),
    banners: [...document.querySelectorAll(".banner")].map((b) => ({id: b.id, text: b.textContent})),
    grids: [...document.querySelectorAll(".figs")].map((g) => [...g.querySelectorAll("img")].map((i) => ({
      id: i.parentElement.id, width: w(i), natural: i.naturalWidth, complete: i.complete}))),
  };
})()`

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

// The one Chromium of the package's tests, started by the first test that
// needs it and stopped by TestMain.
var (
	chromiumOnce sync.Once
	chromium     *headless.Browser
	chromiumErr  error
)

// browser returns the tests' Chromium.
func browser(t *testing.T) *headless.Browser {
	t.Helper()
	skipUnderRace(t, "the page is checked in a Chromium process")
	chromiumOnce.Do(func() { chromium, chromiumErr = headless.Start(context.Background()) })
	if chromiumErr != nil {
		t.Fatal(chromiumErr) // make test-deps installs it
	}
	return chromium
}

// closeBrowser stops the tests' Chromium, when one started.
func closeBrowser() {
	if chromium != nil {
		chromium.Close()
	}
}

// htmlRun runs htmlExperiment once for the tests of the HTML report and
// returns its results directory.
var htmlRun = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp(pluginsDir, "htmlreport-") // removed by TestMain
	if err != nil {
		return "", err
	}
	// The data beside the file, as a user's experiment has it: the
	// report (and the screenshots of docs/) show data/iris.csv.
	if err := os.MkdirAll(filepath.Join(dir, "experiments", "data"), 0o755); err != nil {
		return "", err
	}
	for _, name := range []string{"iris.csv", "wine.csv", "car.csv"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "experiments", "data", name))
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, "experiments", "data", name), b, 0o644); err != nil {
			return "", err
		}
	}
	file := filepath.Join(dir, "experiments", "htmlcheck.hcl")
	if err := os.WriteFile(file, []byte(strings.ReplaceAll(htmlExperiment, "%REPO%/experiments/", "")), 0o644); err != nil {
		return "", err
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr strings.Builder
	args := []string{"run", "--plugins", pluginsDir, "--quiet", "-o", out, file}
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		return "", fmt.Errorf("%v\n%s", err, stderr.String())
	}
	return out, nil
})

// open opens page in the tests' Chromium at width × height and closes it
// when the test ends.
func open(t *testing.T, page string, width, height int) *headless.Page {
	t.Helper()
	p, err := browser(t).Open(page, width, height)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// noConsole fails the test when the page wrote to the console.
func noConsole(t *testing.T, p *headless.Page) {
	t.Helper()
	var ok bool
	if err := p.Eval("true", &ok); err != nil { // a round trip: the events are in
		t.Fatal(err)
	}
	if c := p.Console(); len(c) > 0 {
		t.Errorf("console messages:\n%s", strings.Join(c, "\n"))
	}
}

// TestHTMLReportInChromium renders the HTML report of a real run (and of
// the same run made partial) in headless Chromium at 1400 px: no console
// message, every section present, the set-up numbers of the data, the
// code-matrix table with its dataset, the whole width used without
// horizontal scrolling, every image decoded, heat maps at one width, the
// partial-run banner exactly when cells are missing, and a screenshot.
func TestHTMLReportInChromium(t *testing.T) {
	t.Parallel() // its waits overlap the other parallel tests' (see main_test.go)
	browser(t)
	src, err := htmlRun()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := os.CopyFS(out, os.DirFS(src)); err != nil {
		t.Fatal(err)
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
			"iris: logreg ov", "300 test rows summed over 3 folds × 2 repeats; each true class's row sums to 1",
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
			os.WriteFile(page, []byte(tc.html), 0o644)
			p := open(t, page, 1400, 1000)
			var dom string
			if err := p.Eval("document.documentElement.outerHTML", &dom); err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.dom {
				if !strings.Contains(dom, want) {
					t.Errorf("rendered page lacks %q", want)
				}
			}
			var l layout
			if err := p.Eval(measure, &l); err != nil {
				t.Fatal(err)
			}
			checkLayout(t, l, tc.partial, tc.heat)
			noConsole(t, p)

			shot := filepath.Join(dir, tc.name+".png")
			tall := open(t, page, 1400, 3200)
			if err := tall.Screenshot(shot); err != nil {
				t.Fatal(err)
			}
			noConsole(t, tall)
			checkScreenshot(t, shot, 1400, 3200)
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
	if len(l.Grids) != 4 {
		t.Fatalf("%d figure grids, want 4 (two metrics, curves, heat maps)", len(l.Grids))
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
		if g == 3 {
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
func checkScreenshot(t *testing.T, path string, width, height int) {
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
	if got := img.Bounds().Size(); got.X != width || got.Y != height {
		t.Errorf("screenshot %v, want %d×%d", got, width, height)
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
