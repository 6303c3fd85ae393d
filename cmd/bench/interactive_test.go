package main

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/polyclass/polyclass/internal/headless"
)

// visibleRows returns the labels of the rows of a metric's comparison
// table that show, in their order on the page.
func visibleRows(t *testing.T, p *headless.Page, metric string) []string {
	t.Helper()
	var labels []string
	js := fmt.Sprintf(`[...document.querySelectorAll('table.cmp[data-metric=%q] tbody tr')].filter((r) => r.offsetParent !== null).map((r) => r.dataset.label)`, metric)
	if err := p.Eval(js, &labels); err != nil {
		t.Fatal(err)
	}
	return labels
}

// shows reports whether the element selector matches shows on the page.
func shows(t *testing.T, p *headless.Page, selector string) bool {
	t.Helper()
	var ok bool
	if err := p.Eval(fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e !== null && e.offsetParent !== null && !e.hidden })()`, selector), &ok); err != nil {
		t.Fatal(err)
	}
	return ok
}

// summaryMeans reads summary.csv: the mean of each row label × dataset of
// a metric.
func summaryMeans(t *testing.T, dir, metric string) map[[2]string]float64 {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out := map[[2]string]float64{}
	for _, r := range recs[1:] {
		// dataset, encoder, learner, params, reduction, metric, mean, std, n_folds
		if r[5] != metric {
			continue
		}
		v, _ := strconv.ParseFloat(r[6], 64)
		out[[2]string{strings.Join([]string{r[2], r[3], r[4]}, " "), r[0]}] = v
	}
	return out
}

// foldScores reads folds.csv: the fold scores of a row label × dataset ×
// metric, "R.F=VALUE" with the repeat and fold counted from 1.
func foldScores(t *testing.T, dir, label, dataset, metric string) []string {
	t.Helper()
	var out []string
	for _, r := range foldRecords(t, dir, label, dataset, metric) {
		rep, _ := strconv.Atoi(r[5])
		fold, _ := strconv.Atoi(r[6])
		out = append(out, fmt.Sprintf("repeat %d, fold %d: %s", rep+1, fold+1, r[8]))
	}
	return out
}

// foldRecords returns the records of folds.csv in dir of a row label ×
// dataset × metric, in file order. A record is dataset, encoder, learner,
// params, reduction, repeat, fold, metric, value; the row label is
// learner, params and reduction joined by spaces.
func foldRecords(t *testing.T, dir, label, dataset, metric string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "folds.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, r := range recs[1:] {
		if r[0] == dataset && strings.Join([]string{r[2], r[3], r[4]}, " ") == label && r[7] == metric {
			out = append(out, r)
		}
	}
	return out
}

// TestInteractiveReport drives the HTML report of a real run in headless
// Chromium as a reader would: it chooses a metric, sorts by a column
// (twice, to reverse), filters the rows, and rests the pointer on a
// score; after each step it checks what the page shows against the run's
// summary.csv and folds.csv. With -screenshots DIR it writes the report's
// screenshots at 1,400 px wide (make screenshots: docs/).
func TestInteractiveReport(t *testing.T) {
	t.Parallel() // its waits overlap the other parallel tests' (see main_test.go)
	browser(t)
	out, err := htmlRun()
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(out, "htmlcheck.html")
	p := open(t, page, 1400, 900)
	if !shows(t, p, "#controls") {
		t.Fatal("the controls do not show: the script did not run")
	}
	both := []string{"logreg ova", "logreg ovo"}
	if got := visibleRows(t, p, "accuracy"); !slices.Equal(got, both) {
		t.Fatalf("accuracy rows %q, want %q", got, both)
	}
	if top := shots(t, p, "report_top.png", 0); top != "" {
		t.Log(top)
	}

	// Choose macro_f1: its table shows, accuracy's not.
	choose(t, p, "#metric", "macro_f1")
	if shows(t, p, "#metric-accuracy") || !shows(t, p, "#metric-macro_f1") {
		t.Fatalf("after choosing macro_f1: accuracy shows %v, macro_f1 shows %v", shows(t, p, "#metric-accuracy"), shows(t, p, "#metric-macro_f1"))
	}

	// Sort by car: best first, then worst first.
	// summary.csv names the rows in full.
	means := summaryMeans(t, out, "macro_f1")
	full := map[string]string{"logreg ova": "logreg C=1 ova", "logreg ovo": "logreg C=1 ovo"}
	mean := func(row, ds string) float64 { return means[[2]string{full[row], ds}] }
	byCar := slices.Clone(both)
	sort.SliceStable(byCar, func(i, j int) bool { return mean(byCar[i], "car") > mean(byCar[j], "car") })
	if mean(both[0], "car") == mean(both[1], "car") {
		t.Fatal("both rows score alike on car: the sort shows nothing")
	}
	carHead := `table.cmp[data-metric="macro_f1"] th:nth-child(4)`
	var head string
	if err := p.Run(chromedp.Text(carHead, &head, chromedp.ByQuery)); err != nil || head != "car" {
		t.Fatalf("column 4 is %q (%v), want car", head, err)
	}
	if err := p.Run(chromedp.Click(carHead, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if got := visibleRows(t, p, "macro_f1"); !slices.Equal(got, byCar) {
		t.Errorf("sorted by car: rows %q, want %q (means %v)", got, byCar, means)
	}
	if err := p.Run(chromedp.Click(carHead, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	reversed := slices.Clone(byCar)
	slices.Reverse(reversed)
	if got := visibleRows(t, p, "macro_f1"); !slices.Equal(got, reversed) {
		t.Errorf("sorted by car again: rows %q, want %q", got, reversed)
	}

	// Filter: "ovo" keeps one row, and the count says so.
	if err := p.Run(chromedp.SendKeys("#filter", "OvO", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	var count string
	if err := p.Run(chromedp.Text("#shown", &count, chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if got := visibleRows(t, p, "macro_f1"); !slices.Equal(got, []string{"logreg ovo"}) || count != "1 of 2 rows" {
		t.Errorf("filtered by OvO: rows %q, count %q", got, count)
	}

	// Rest the pointer on the ovo row's wine score: its six fold scores.
	cell := `table.cmp[data-metric="macro_f1"] tr[data-label="logreg ovo"] td:nth-child(3)`
	var box struct{ X, Y float64 }
	if err := p.Eval(fmt.Sprintf(`(() => { const b = document.querySelector(%q).getBoundingClientRect(); return {x: b.x + b.width / 2, y: b.y + b.height / 2} })()`, cell), &box); err != nil {
		t.Fatal(err)
	}
	if shows(t, p, "#tip") {
		t.Error("the tooltip shows before the pointer rests on a score")
	}
	if err := p.Run(chromedp.MouseEvent(input.MouseMoved, box.X, box.Y)); err != nil {
		t.Fatal(err)
	}
	var tip string
	if err := p.Run(chromedp.Text("#tip", &tip, chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	want := foldScores(t, out, "logreg C=1 ovo", "wine", "macro_f1")
	if len(want) != 6 {
		t.Fatalf("%d fold scores in folds.csv, want 6", len(want))
	}
	if !shows(t, p, "#tip") || !strings.HasPrefix(tip, "logreg ovo on wine (macro_f1)") {
		t.Errorf("tooltip %q (shows %v)", tip, shows(t, p, "#tip"))
	}
	for _, w := range want {
		if !strings.Contains(tip, w) {
			t.Errorf("tooltip %q lacks %q", tip, w)
		}
	}
	shots(t, p, "report_interactive.png", -1)
	if err := p.Run(chromedp.MouseEvent(input.MouseMoved, 5, 5)); err != nil {
		t.Fatal(err)
	}
	if shows(t, p, "#tip") {
		t.Error("the tooltip stays after the pointer left")
	}
	// Clearing the filter brings both rows back.
	if err := p.Run(chromedp.SendKeys("#filter", strings.Repeat(kb.Backspace, 3), chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if got := visibleRows(t, p, "macro_f1"); len(got) != 2 {
		t.Errorf("filter cleared: rows %q", got)
	}
	checkCurvePanel(t, p)
	noConsole(t, p)
}

// checkCurvePanel chooses car's one-vs-one row in the curve panel: the
// SVG panels draw its 4 classes' curves and the two averages, and the
// legend's macro-averaged AUC is the one of the per-threshold table.
// choose selects the option of the select element sel whose text is text,
// as a person picking it from the list does: the element's value changes
// and it fires a change event. (Typing the text into the select, as this
// test did, picks by the browser's typeahead, which starts over when a key
// comes more than a second after the last: on a loaded machine it picked
// another option.)
func choose(t *testing.T, p *headless.Page, sel, text string) {
	t.Helper()
	var ok bool
	js := fmt.Sprintf(`(() => {
		const s = document.querySelector(%q);
		const o = [...s.options].find((o) => o.textContent === %q);
		if (!o) return false;
		s.focus();
		s.value = o.value;
		s.dispatchEvent(new Event("input", {bubbles: true}));
		s.dispatchEvent(new Event("change", {bubbles: true}));
		return true;
	})()`, sel, text)
	if err := p.Eval(js, &ok); err != nil || !ok {
		t.Fatalf("%s has no option %q (%v)", sel, text, err)
	}
}

func checkCurvePanel(t *testing.T, p *headless.Page) {
	t.Helper()
	var option string
	if err := p.Eval(`[...document.querySelectorAll("#curve-cell option")].find((o) => o.textContent === "car: logreg ovo").value`, &option); err != nil {
		t.Fatal(err)
	}
	choose(t, p, "#curve-cell", "car: logreg ovo")
	var picked string
	if err := p.Run(chromedp.Value("#curve-cell", &picked, chromedp.ByID)); err != nil || picked != option {
		t.Fatalf("curve panel shows option %q (%v), want %q", picked, err, option)
	}
	var lines struct{ ROC, PR, Classes int }
	if err := p.Eval(`({roc: document.querySelectorAll("#roc-svg polyline").length, pr: document.querySelectorAll("#pr-svg polyline").length,
		classes: document.querySelectorAll("#roc-svg polyline.class").length})`, &lines); err != nil {
		t.Fatal(err)
	}
	if lines.ROC != 4+2 || lines.PR != 4+2 || lines.Classes != 4 {
		t.Errorf("car's curves: %+v, want 4 classes and 2 averages in each panel", lines)
	}
	var legend, table string
	if err := p.Eval(`document.querySelector("#curve-legend li:last-child").textContent`, &legend); err != nil {
		t.Fatal(err)
	}
	// car is the third dataset: its views table is views-2.
	if err := p.Eval(`document.querySelector('#views-2 tr[data-label="logreg ovo"]').cells[1].textContent`, &table); err != nil {
		t.Fatal(err)
	}
	want, _ := strconv.ParseFloat(table, 64)
	var got float64
	if _, err := fmt.Sscanf(strings.TrimPrefix(legend, "macro-average: AUC "), "%g", &got); err != nil || math.Abs(got-want) > 0.0005 {
		t.Errorf("legend %q: macro AUC %v, the table says %s", legend, got, table)
	}
	if err := p.Eval(`(() => { const d = document.querySelector('details[data-dataset="car"][data-label="logreg ovo"]'); d.open = true; document.getElementById("curve-panel").scrollIntoView(); scrollBy(0, -420); })()`, nil); err != nil {
		t.Fatal(err)
	}
	shots(t, p, "report_per_class.png", -1)
}

// shots writes the page's viewport to DIR/name when -screenshots DIR is
// set, first scrolled to y (−1: where it is); it returns the path.
func shots(t *testing.T, p *headless.Page, name string, y int) string {
	t.Helper()
	if *screenshots == "" {
		return ""
	}
	if y >= 0 {
		if err := p.Eval(fmt.Sprintf("window.scrollTo(0, %d)", y), nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(*screenshots, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(*screenshots, name)
	if err := p.Screenshot(path); err != nil {
		t.Fatal(err)
	}
	checkScreenshot(t, path, 1400, 900)
	return path
}
