package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/outcome"
)

// TestParamsCell: the params cell writes a row's parameters as a paper
// does — "name = value", a tuned row's searched parameters as a set of
// candidates or a distribution, each marked tuned, searched first, all
// joined by "; " so that a set's commas stay unambiguous.
func TestParamsCell(t *testing.T) {
	for _, c := range []struct{ name, params, want string }{
		{"none", "", "–"},
		{"one fixed", "C=1", "C = 1"},
		{"several fixed", "C=10,kernel=rbf", "C = 10; kernel = rbf"},
		{"tuned set beside a fixed one", "C=[0.1, 1, 10],solver=lbfgs (tuned)", "C ∈ {0.1, 1, 10} tuned; solver = lbfgs"},
		{"searched first", "alpha=0.5,gamma=[0.1, 1] (tuned)", "gamma ∈ {0.1, 1} tuned; alpha = 0.5"},
		{"several searched", "C=loguniform(0.001, 1000),gamma=[0.1, 1],kernel=rbf (tuned)",
			"C ~ loguniform(0.001, 1000) tuned; gamma ∈ {0.1, 1} tuned; kernel = rbf"},
		{"choice", `kernel=choice(["rbf", "linear"]) (tuned)`, `kernel ~ choice(["rbf", "linear"]) tuned`},
		{"randint and uniform", "k=randint(1, 10),w=uniform(0, 1) (tuned)", "k ~ randint(1, 10) tuned; w ~ uniform(0, 1) tuned"},
		{"a list-typed parameter's candidates", "hidden=[[10], [10, 10]] (tuned)", "hidden ∈ {[10], [10, 10]} tuned"},
		{"an untuned row's list is its value", "hidden=[10, 10]", "hidden = [10, 10]"},
		{"an untuned row's distribution-like string is its value", "strategy=uniform(0, 1)", "strategy = uniform(0, 1)"},
		{"a labelled tuned learner", "(tuned)", "tuned"},
		{"tuned, nothing searched named", "solver=lbfgs (tuned)", "tuned; solver = lbfgs"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := paramsCell(c.params); got != c.want {
				t.Errorf("paramsCell(%q)\n got %s\nwant %s", c.params, got, c.want)
			}
		})
	}
}

// TestParamsCellInFormats: the rows table of a run without a recorded
// set-up writes a tuned row's params cell in the paper's form in
// Markdown and HTML, and the CSV files keep the cell's coordinates as
// the results name them (the key scripts join on).
func TestParamsCellInFormats(t *testing.T) {
	const tuned = "C=[0.1, 1, 10],solver=lbfgs (tuned)"
	acc := []float64{0.9, 0.8, 0.85}
	cells := []*outcome.CellResult{
		mkCell("iris", "logreg", tuned, "ova", 100, 50, withErr(acc)),
		mkCell("iris", "svm", "C=1,kernel=rbf", "ova", 100, 50, withErr(acc)),
	}
	tables := BuildTables(Spec{Experiment: "cellform", Metrics: []string{"accuracy"}}, cells)
	var md, html, csv bytes.Buffer
	if err := WriteMarkdown(&md, tables, cells); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&html, HTMLReport{Tables: tables, Cells: cells}); err != nil {
		t.Fatal(err)
	}
	if err := WriteSummaryCSV(&csv, Summarise(cells, []string{"accuracy"})); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ format, got, want string }{
		{"markdown", md.String(), "| logreg | C ∈ {0.1, 1, 10} tuned; solver = lbfgs | ova |"},
		{"markdown", md.String(), "| svm | C = 1; kernel = rbf | ova |"},
		{"html", html.String(), "<td>logreg</td><td>C ∈ {0.1, 1, 10} tuned; solver = lbfgs</td><td>ova</td>"},
		{"csv", csv.String(), `iris,default,logreg,"C=[0.1, 1, 10],solver=lbfgs (tuned)",ova,accuracy,`},
	} {
		if !strings.Contains(c.got, c.want) {
			t.Errorf("%s lacks %q:\n%s", c.format, c.want, c.got)
		}
	}
}
