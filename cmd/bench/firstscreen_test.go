package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wideExperiment: 12 rows (logreg at four C × one-vs-all, one-vs-one and
// a random dense code) on 6 datasets, with a baseline and Bayesian
// comparisons (simplex plots across the datasets): the larger report of
// TestReportFirstScreen. Two folds keep it quick.
const wideExperiment = `experiment "wide" { seed = 5 }
dataset "iris" { path = "data/iris.csv" }
dataset "wine" { path = "data/wine.csv" }
dataset "glass" { path = "data/glass.csv" }
dataset "vehicle" { path = "data/vehicle.csv" }
dataset "car" {
  path        = "data/car.csv"
  categorical = ["buying", "maint", "doors", "persons", "lug_boot", "safety"]
}
dataset "iris_again" { path = "data/iris.csv" }
encoder "std" { type = "standardize" }
encoder "onehot" { type = "onehot" }
learner "logreg" { params = { C = [0.01, 0.1, 1, 10] } }
reduction "ova" { scheme = "ova" }
reduction "ovo" { scheme = "ovo" }
reduction "random_dense" {
  scheme = "ecoc"
  code   = "random_dense"
  decode = "loss:exp"
}
cv { folds = 2 }
metrics = ["accuracy", "macro_f1"]
output {
  formats  = ["html"]
  baseline = "logreg C=1 ova"
  rope     = 0.01
}
`

// firstScreen is evaluated in the page, every details element opened:
// where the first comparison table starts and its metric, the window and
// document widths, and every table whose box (its scrolling div.wide,
// else its parent) is narrower than the table, or that reaches past the
// window.
const firstScreen = `(() => {
  document.querySelectorAll("details").forEach((d) => { d.open = true });
  const first = document.querySelector("table.cmp");
  const wide = [...document.querySelectorAll("table")].map((t) => {
    const box = t.closest(".wide") || t.parentElement;
    const r = t.getBoundingClientRect();
    return {name: t.id || t.className || t.closest("[id]").id, table: t.scrollWidth, box: box.clientWidth, right: r.right};
  }).filter((t) => t.table > t.box || t.right > innerWidth);
  return {
    first: first ? first.getBoundingClientRect().top : -1, metric: first ? first.dataset.metric : "",
    tables: document.querySelectorAll("table").length,
    window: innerWidth, scroll: document.documentElement.scrollWidth, wide: wide,
  };
})()`

// firstScreenLayout is what firstScreen measures.
type firstScreenLayout struct {
	First  float64
	Metric string
	Tables int
	Window float64
	Scroll float64
	Wide   []struct {
		Name       string
		Table, Box float64
		Right      float64
	}
}

// runReportExperiment writes src as NAME.hcl beside a copy of the data files it
// names, runs it and returns the path of its HTML report.
func runReportExperiment(t *testing.T, name, src string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"iris.csv", "wine.csv", "glass.csv", "vehicle.csv", "car.csv"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "experiments", "data", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "data", f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, name+".hcl")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr strings.Builder
	args := []string{"run", "--plugins", pluginsDir, "--quiet", "-o", out, file}
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	return filepath.Join(out, name+".html")
}

// TestReportFirstScreen opens the HTML report of the quickstart (5 rows,
// 3 datasets, 10 folds) and of wideExperiment (12 rows, 6 datasets, with
// Bayesian comparisons) in headless Chromium at 1400 × 900: the first
// comparison table starts within the first screen, the page does not
// scroll sideways, and every table fits its box (it wraps, or scrolls
// inside a div.wide), details opened.
func TestReportFirstScreen(t *testing.T) {
	t.Parallel() // its waits overlap the other parallel tests' (see main_test.go)
	browser(t)
	quickstart, err := os.ReadFile("../../experiments/quickstart.hcl")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, src string
		tables    int // tables in the report, at least
	}{
		{"quickstart", string(quickstart), 20},
		{"wide", wideExperiment, 80},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := runReportExperiment(t, tc.name, tc.src)
			p := open(t, page, 1400, 900)
			var l firstScreenLayout
			if err := p.Eval(firstScreen, &l); err != nil {
				t.Fatal(err)
			}
			if l.First < 0 || l.First >= 900 {
				t.Errorf("the first comparison table starts %v px down; want within the first screen (900 px)", l.First)
			}
			if l.Metric != "accuracy" {
				t.Errorf("the first comparison table is %q's, want accuracy's (the first metric)", l.Metric)
			}
			if l.Tables < tc.tables {
				t.Errorf("%d tables, want at least %d", l.Tables, tc.tables)
			}
			if l.Scroll > l.Window {
				t.Errorf("document %v px wide in a %v px window: horizontal scrolling", l.Scroll, l.Window)
			}
			for _, w := range l.Wide {
				t.Errorf("table %s is %v px wide in a box of %v px (right edge %v px of %v)", w.Name, w.Table, w.Box, w.Right, l.Window)
			}
			noConsole(t, p)
		})
	}
}
