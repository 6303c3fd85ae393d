package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// TestHTMLNavLinksEverySection: the HTML report's navigation links every
// section it shows, in the sections' order, each by its Nav or else its
// Title (the tuning searches, the rows of the tables and the values set
// by convention had none), and every section has an id to link to.
func TestHTMLNavLinksEverySection(t *testing.T) {
	views := allViewsCells()
	viewsSetup := goldenSetup()
	viewsSetup.Rows = goldenRows()
	conv := conventionCells()
	for _, tc := range []struct {
		name    string
		report  HTMLReport
		wantNav string
	}{
		{"every view", HTMLReport{Tables: BuildTables(Spec{Experiment: "views", Metrics: []string{"accuracy"}, Setup: viewsSetup}, views), Cells: views, Setup: viewsSetup},
			`<nav><a href="#metric-accuracy">accuracy</a><a href="#selected">Selected parameters</a>` +
				`<a href="#searches">Tuning searches</a><a href="#code-matrices">Code matrices</a><a href="#per-class">Per class</a><a href="#setup">Set-up</a></nav>`},
		{"conventions", HTMLReport{Tables: BuildTables(Spec{Experiment: "conventions", Metrics: []string{"accuracy", "macro_f1"}}, conv), Cells: conv},
			`<nav><a href="#metric-accuracy">accuracy</a><a href="#metric-macro_f1">macro_f1</a><a href="#rows">Rows of the tables</a><a href="#code-matrices">Code matrices</a>` +
				`<a href="#conventions">Values set by convention</a><a href="#per-class">Per class</a></nav>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteHTML(&b, tc.report); err != nil {
				t.Fatal(err)
			}
			html := b.String()
			nav := regexp.MustCompile(`<nav>.*</nav>`).FindString(html)
			if nav != tc.wantNav {
				t.Errorf("nav\n%s\nwant\n%s", nav, tc.wantNav)
			}
			for _, m := range regexp.MustCompile(`<section([^>]*)>`).FindAllStringSubmatch(html, -1) {
				id := regexp.MustCompile(`id="([^"]+)"`).FindStringSubmatch(m[1])
				if id == nil {
					t.Errorf("a section without an id: %s", m[0])
					continue
				}
				if !strings.Contains(nav, `href="#`+id[1]+`"`) {
					t.Errorf("section %q has no link in the nav %s", id[1], nav)
				}
			}
		})
	}
}

// TestHTMLBayesPlotsFolded: a metric's Bayesian plots are folded in a
// closed details element under one line that counts them, so that the
// next metric's table is not pages below; its box plot and critical
// difference diagrams stay shown. Markdown has no figures.
func TestHTMLBayesPlotsFolded(t *testing.T) {
	rope := 0.01
	cells := bayesCells()
	tables := BuildTables(Spec{Experiment: "b", Metrics: []string{"accuracy", "error"}, Baseline: "base", Rope: &rope}, cells)
	figs, err := BuildFigures(tables, cells, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteHTML(&b, HTMLReport{Tables: tables, Cells: cells, Figures: figs}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, tc := range []struct{ metric, summary string }{
		{"accuracy", "1 Bayesian plot of accuracy (click to show)"},
		{"error", "1 Bayesian plot of error (click to show)"},
	} {
		t.Run(tc.metric, func(t *testing.T) {
			start := strings.Index(html, `<section id="metric-`+tc.metric+`"`)
			if start < 0 {
				t.Fatalf("no section of %s", tc.metric)
			}
			sec, _, _ := strings.Cut(html[start:], "</section>")
			open := strings.Index(sec, `<details class="report"><summary>`+tc.summary+"</summary>")
			bayes := strings.Index(sec, `<figure id="fig-bayes_`+tc.metric+"_")
			if open < 0 || bayes < open || strings.LastIndex(sec, "</details>") < bayes {
				t.Errorf("the Bayesian plot of %s is not folded under %q (details at %d, plot at %d)", tc.metric, tc.summary, open, bayes)
			}
			if box := strings.Index(sec, `<figure id="fig-box_`+tc.metric+`"`); box < 0 || box > open {
				t.Errorf("the box plot of %s is not shown before the folded plots (at %d, fold at %d)", tc.metric, box, open)
			}
		})
	}
}
