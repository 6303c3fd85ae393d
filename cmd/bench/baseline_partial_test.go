package main

import (
	"fmt"
	"strings"
	"testing"
)

// partialExperiment is the experiment of TestValidateBaselineBesideErrors:
// iris, logreg and knn under ova, ovo and an ECOC code, a baseline at
// line 14, and the case's mistake given as one of its parts.
const partialExperiment = `experiment "t" { seed = 1 }
dataset "iris" { path = "%s" }
encoder "std" { type = "%s" }
learner "logreg" { params = { C = %s } }
learner "knn" { params = { k = %s } }
reduction "ova" { scheme = "ova" }
reduction "ovo" { scheme = "ovo" }
reduction "ecoc" {
  scheme = "%s"
  matrix = %s
}
metrics = [%s]
output {
  baseline = "%s"
  rope     = %s
  formats  = [%s]
}
`

// TestValidateBaselineBesideErrors: a baseline that names a learner of the
// file but no row of its tables ("logreg ovr" for "logreg ova") is
// reported in the same pass as the file's other mistakes, at its place,
// when its rows are known: a data file that does not load, an encoder of
// an unknown type (no dataset or pipeline binds, yet the rows are the
// learners' and reductions'), another learner's parameter, a metric, the
// rope, a code matrix (its reduction binds), an unknown output format in
// its own block. Before, any other error in
// the file hid it until that error was fixed (a new user needed five
// passes for twelve mistakes). It stays unreported when the mistake is in
// a block whose rows it may name: its own learner's parameters, or a
// reduction it names that did not bind.
func TestValidateBaselineBesideErrors(t *testing.T) {
	const badMatrix = "[[1, 2, -1], [-1, 1, -1], [-1, -1, 1]]"
	type parts struct{ path, encoder, c, k, scheme, matrix, metrics, baseline, rope, formats string }
	good := parts{"%REPO%/experiments/data/iris.csv", "standardize", "[1, 10]", "5", "ecoc",
		"[[1, -1, -1], [-1, 1, -1], [-1, -1, 1]]", `"accuracy"`, "logreg ovr", "0.01", `"markdown"`}
	wrongBaseline := []string{"exp.hcl:14:14: error: Unknown baseline", `baseline "logreg ovr" matches no row (rows: "logreg C=1 ova", `}
	for _, tc := range []struct {
		name   string
		edit   func(*parts)
		want   []string // each once
		errors int      // errors in all
	}{
		{name: "alone", edit: func(*parts) {}, want: wrongBaseline, errors: 1},
		{name: "data file missing", edit: func(p *parts) { p.path = "nope.csv" },
			want: append([]string{"exp.hcl:2:25: error: Cannot load dataset"}, wrongBaseline...), errors: 2},
		{name: "encoder type misspelt", edit: func(p *parts) { p.encoder = "standardise" },
			want: append([]string{"exp.hcl:3:24: error: Unknown encoder type"}, wrongBaseline...), errors: 2},
		{name: "another learner's parameter", edit: func(p *parts) { p.k = "0" },
			want: append([]string{"exp.hcl:5:32: error: Invalid parameter value", "learner knn: k = 0 is out of range"}, wrongBaseline...), errors: 2},
		{name: "metric misspelt", edit: func(p *parts) { p.metrics = `"f1_macro"` },
			want: append([]string{"exp.hcl:12:12: error: Unknown metric"}, wrongBaseline...), errors: 2},
		// A value read whole (an unknown format, a metric listed twice)
		// leaves its block or attribute whole: the baseline beside the
		// format, the unknown metric beside the repeated one, still show.
		{name: "output format unknown", edit: func(p *parts) { p.formats = `"markdown", "pdf"` },
			want: append([]string{"exp.hcl:16:14: error: Unknown output format"}, wrongBaseline...), errors: 2},
		{name: "metric twice and one unknown", edit: func(p *parts) { p.metrics = `"accuracy", "accuracy", "auc"` },
			want: append([]string{"exp.hcl:12:24: error: Duplicate metric", "exp.hcl:12:36: error: Unknown metric", `unknown metric "auc"`}, wrongBaseline...), errors: 3},
		{name: "rope too wide", edit: func(p *parts) { p.rope = "5" },
			want: append([]string{"exp.hcl:15:14: error: Rope wider than the metric"}, wrongBaseline...), errors: 2},
		{name: "a code matrix", edit: func(p *parts) { p.matrix = badMatrix },
			want: append([]string{"exp.hcl:10:12: error: Invalid reduction"}, wrongBaseline...), errors: 2},
		{name: "a code matrix, the baseline under it", edit: func(p *parts) {
			p.matrix = badMatrix
			p.baseline = "logreg C=100 ecoc"
		}, want: []string{"exp.hcl:10:12: error: Invalid reduction", "exp.hcl:14:14: error: Unknown baseline", `baseline "logreg C=100 ecoc" matches no row`}, errors: 2},
		{name: "its own learner's parameter", edit: func(p *parts) { p.c = "[1, -1]" },
			want: []string{"error: Invalid parameter value", "learner logreg: C = -1 is out of range"}, errors: 1},
		{name: "the reduction it names", edit: func(p *parts) {
			p.scheme = "ecocc"
			p.baseline = "logreg C=1 ecoc"
		}, want: []string{"exp.hcl:9:12: error: Unknown scheme"}, errors: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // its own file and plugin processes
			p := good
			tc.edit(&p)
			file := writeExperiment(t, fmt.Sprintf(partialExperiment, p.path, p.encoder, p.c, p.k, p.scheme, p.matrix, p.metrics, p.baseline, p.rope, p.formats))
			_, stderr, err := bench(t, "validate", file)
			if err == nil {
				t.Fatalf("validate accepted a file with mistakes:\n%s", stderr)
			}
			for _, w := range tc.want {
				if n := strings.Count(stderr, w); n != 1 {
					t.Errorf("validate's output holds %q %d times, want once:\n%s", w, n, stderr)
				}
			}
			if n := strings.Count(stderr, ": error: "); n != tc.errors {
				t.Errorf("validate printed %d errors, want %d:\n%s", n, tc.errors, stderr)
			}
		})
	}
}
