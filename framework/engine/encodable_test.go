package engine

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/data"
	"github.com/polyclass/polyclass/framework/encode"
)

// failingStep is an encoding step that fails when fails says so of the
// training rows it is fitted on.
type failingStep struct{ fails func(train []int) bool }

func (s failingStep) FitTransform(f *encode.Frame, ctx *encode.Context) (*encode.Frame, error) {
	if s.fails(ctx.Train) {
		return nil, fmt.Errorf("fails on %d training rows", len(ctx.Train))
	}
	return f, nil
}

// TestEncodableFoldFailure: a pipeline that fails fitted on every row is
// fitted again on each training part of the first repeat, as the run fits
// it: when a fold fails, every cell of the dataset with the pipeline would
// fail (a cell fails with any of its folds), an error at the encoder of
// the failing step naming the fold; when every fold fits, the warning
// about the whole dataset stays.
func TestEncodableFoldFailure(t *testing.T) {
	// Six rows in three folds: fold f tests rows f and f+3.
	const rows = 6
	folds := []int{0, 1, 2, 0, 1, 2}
	lacks := func(row int) func([]int) bool {
		return func(train []int) bool { return !slices.Contains(train, row) }
	}
	encRange := hcl.Range{Filename: "exp.hcl", Start: hcl.Pos{Line: 4, Column: 1, Byte: 40}, End: hcl.Pos{Line: 4, Column: 12, Byte: 51}}
	pathRange := hcl.Range{Filename: "exp.hcl", Start: hcl.Pos{Line: 2, Column: 10, Byte: 20}, End: hcl.Pos{Line: 2, Column: 18, Byte: 28}}
	for _, tt := range []struct {
		name     string
		fails    func([]int) bool
		severity hcl.DiagnosticSeverity // 0: no diagnostic
		at       hcl.Range
		detail   string
	}{
		{"fails on any rows", func([]int) bool { return true }, hcl.DiagError, encRange,
			`Dataset "d", pipeline "p" step 2 (bad), fitted on the training rows of fold 0 (repeat 0) as the run fits it: fails on 4 training rows; every cell of dataset "d" with pipeline "p" would fail.`},
		{"fails without row 2: fold 2", func(train []int) bool { return len(train) == rows || lacks(2)(train) }, hcl.DiagError, encRange,
			`Dataset "d", pipeline "p" step 2 (bad), fitted on the training rows of fold 2 (repeat 0) as the run fits it: fails on 4 training rows; every cell of dataset "d" with pipeline "p" would fail.`},
		{"fails on every row only", func(train []int) bool { return len(train) == rows }, hcl.DiagWarning, pathRange,
			`Dataset "d", pipeline "p" step 2 (bad), fitted on every row: fails on 6 training rows`},
		{"fails in fold 1 only", lacks(1), 0, hcl.Range{}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &resolver{ctx: context.Background(), designs: map[designKey]designShape{},
				exp: &config.Experiment{Seed: 1, Encoders: []*config.Encoder{{Name: "ok"}, {Name: "bad", DeclRange: encRange}}}}
			d := &Dataset{Config: &config.Dataset{Name: "d", PathRange: pathRange}, Table: &data.Table{NumRows: rows},
				Classes: []string{"a", "b"}, Labels: []int{0, 1, 0, 1, 0, 1},
				Folds: [][]int{folds}, NumFolds: 3,
				Features: &encode.Frame{Rows: rows, Num: []encode.NumCol{{Name: "x", Vals: []float64{1, 2, 3, 4, 5, 6}}}}}
			ok := failingStep{func([]int) bool { return false }}
			p := &Pipeline{Config: &config.Pipeline{Name: "p", Steps: []string{"ok", "bad"}}, Steps: []encode.Step{ok, failingStep{tt.fails}}}
			r.encodable(d, p, encoderColumns{})
			if tt.severity == 0 {
				if len(r.diags) != 0 {
					t.Errorf("diagnostics %v, want none", r.diags)
				}
				return
			}
			if len(r.diags) != 1 {
				t.Fatalf("diagnostics %v, want one", r.diags)
			}
			got := r.diags[0]
			if got.Severity != tt.severity || got.Detail != tt.detail || got.Subject == nil || *got.Subject != tt.at {
				t.Errorf("got %v at %v: %q\nwant %v at %v: %q", got.Severity, got.Subject, got.Detail, tt.severity, tt.at, tt.detail)
			}
		})
	}
}
