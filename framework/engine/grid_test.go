package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/framework/sparse"
)

func TestSubsetProblems(t *testing.T) {
	ps := []sdk.Problem{{Kind: sdk.Binary, Targets: []float64{1, -1, 0, 1}, Weights: []float64{1, 2, 3, 4}, Seed: 9}}
	got := subsetProblems(ps, []int{3, 1})
	if g := got[0]; g.Targets[0] != 1 || g.Targets[1] != -1 || g.Weights[0] != 4 || g.Weights[1] != 2 || g.Seed != 9 {
		t.Fatalf("subset %+v", g)
	}
	if ps[0].Targets[0] != 1 || len(ps[0].Targets) != 4 {
		t.Fatal("subsetProblems modified its input")
	}
}

// Compact targets stay compact: the problems that shared their groups
// share the subset, each keeps its code, and the targets are the dense
// subset's.
func TestSubsetCompactProblems(t *testing.T) {
	groups := []int32{0, 1, 2, 1, 0}
	other := []int32{0, 0, 1, 1, 1}
	ps := []sdk.Problem{
		{Kind: sdk.Binary, Compact: &sdk.CompactTargets{Groups: groups, Code: []int8{1, -1, 0}}, Weights: []float64{1, 2, 3, 4, 5}},
		{Kind: sdk.Binary, Compact: &sdk.CompactTargets{Groups: other, Code: []int8{-1, 1}}},
		{Kind: sdk.Binary, Compact: &sdk.CompactTargets{Groups: groups, Code: []int8{0, 1, -1}}, Seed: 3},
		{Kind: sdk.Regression, Targets: []float64{0.5, 1, 1.5, 2, 2.5}},
	}
	idx := []int{4, 2, 1}
	got := subsetProblems(ps, idx)
	for j, p := range got {
		want := subsetProblems([]sdk.Problem{ps[j].Dense()}, idx)[0]
		if d := p.Dense(); !slices.Equal(d.Targets, want.Targets) || !slices.Equal(d.Weights, want.Weights) || d.Seed != want.Seed {
			t.Errorf("problem %d: subset %+v, want %+v", j, d, want)
		}
		if (p.Compact != nil) != (ps[j].Compact != nil) {
			t.Errorf("problem %d: compact %v, input's %v", j, p.Compact, ps[j].Compact)
		}
	}
	if g0, g2 := got[0].Compact.Groups, got[2].Compact.Groups; &g0[0] != &g2[0] || !slices.Equal(g0, []int32{0, 2, 1}) {
		t.Errorf("problems 0 and 2: groups %v and %v, want one slice [0 2 1]", g0, g2)
	}
	if g := got[1].Compact.Groups; !slices.Equal(g, []int32{1, 1, 0}) {
		t.Errorf("problem 1: groups %v, want [1 1 0]", g)
	}
	if !slices.Equal(groups, []int32{0, 1, 2, 1, 0}) {
		t.Fatal("subsetProblems modified its input")
	}
}

func TestAppendColumns(t *testing.T) {
	extra := mat.NewDense(2, 2, []float64{0.5, 0, 0.25, 1})
	d := appendColumns(matrix.Matrix{Dense: mat.NewDense(2, 1, []float64{7, 8})}, extra)
	if !mat.Equal(d.Dense, mat.NewDense(2, 3, []float64{7, 0.5, 0, 8, 0.25, 1})) {
		t.Fatalf("dense: %v", mat.Formatted(d.Dense))
	}
	csr := &sparse.CSR{Rows: 2, Cols: 3, Indptr: []int64{0, 1, 1}, Indices: []int32{2}, Values: []float64{5}}
	s := appendColumns(matrix.Matrix{CSR: csr}, extra)
	if err := s.CSR.Validate(); err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{0, 0, 5, 0.5, 0}, {0, 0, 0, 0.25, 1}}
	for i, row := range want {
		for j, v := range row {
			if got := s.CSR.At(i, j); got != v {
				t.Errorf("csr[%d,%d] = %v, want %v", i, j, got, v)
			}
		}
	}
}

func TestFinishCellReportsLowestFailedFold(t *testing.T) {
	c := &Cell{Dataset: &Dataset{NumFolds: 5}}
	r := &outcome.CellResult{Folds: make([]outcome.FoldResult, 10)}
	finishCell(r, map[int]error{7: errors.New("late"), 3: errors.New("early"), 1: errSkipped}, c)
	if r.Error != "repeat 0 fold 3: early" || r.Folds != nil {
		t.Fatalf("error %q folds %v", r.Error, r.Folds)
	}
}

func TestFinishCellPrefersOwnFailure(t *testing.T) {
	c := &Cell{Dataset: &Dataset{NumFolds: 3}}
	r := &outcome.CellResult{Folds: make([]outcome.FoldResult, 3)}
	collateral := fmt.Errorf("plugin p: %w: stopped after another fold's timeout", errPluginDied)
	finishCell(r, map[int]error{0: collateral, 2: errors.New("did not answer within the fold's timeout")}, c)
	if r.Error != "repeat 0 fold 2: did not answer within the fold's timeout" {
		t.Fatalf("error %q, want fold 2's own failure", r.Error)
	}
	r = &outcome.CellResult{Folds: make([]outcome.FoldResult, 3)}
	finishCell(r, map[int]error{1: collateral}, c)
	if !strings.HasPrefix(r.Error, "repeat 0 fold 1: plugin p") {
		t.Fatalf("error %q, want the collateral failure when there is nothing else", r.Error)
	}
}

func TestUnusedKeepsDigestsOfUnfinishedGroups(t *testing.T) {
	entry := func(d string) *matrixEntry {
		e := &matrixEntry{}
		if d != "" {
			e.digest.Store(&d)
		}
		return e
	}
	matrices := map[matrixKey]*matrixEntry{
		{0, 0, 0, 0}: entry("x"), {0, 0, 0, 1}: entry("x"), {0, 0, 0, 2}: entry("y"),
		{0, 1, 0, 0}: entry("y"), {0, 1, 0, 1}: entry(""), // group (0,1) still running
		{1, 0, 0, 0}: entry("x"), // group (1,0) finished
	}
	groups := map[groupKey]*atomic.Int64{{0, 0}: {}, {0, 1}: {}, {1, 0}: {}}
	groups[groupKey{0, 1}].Store(3)
	got := unused(groupKey{0, 0}, matrices, groups)
	if len(got) != 1 || got[0] != "x" {
		t.Fatalf("unused = %v, want [x] (y is still in use by group (0,1))", got)
	}
}

func TestDoneForgetsAFinishedFoldsMatrixOfAFittedPipeline(t *testing.T) {
	entry := func(d string, refs int64) *matrixEntry {
		e := &matrixEntry{}
		if d != "" {
			e.digest.Store(&d)
		}
		e.refs.Store(refs)
		return e
	}
	// Group (0,0) fits on each fold: fold 0 is done, fold 1 runs, fold 2
	// is not encoded yet.
	matrices := map[matrixKey]*matrixEntry{
		{0, 0, 0, 0}: entry("a", 0), {0, 0, 0, 1}: entry("b", 1), {0, 0, 0, 2}: entry("", 1),
		// Group (0,1) fits nothing: one matrix for every fold.
		{0, 1, 0, 0}: entry("r", 0), {0, 1, 0, 1}: entry("r", 1), {0, 1, 0, 2}: entry("", 1),
		// Group (1,0) made fold 0's matrix of group (2,0), which runs.
		{1, 0, 0, 0}: entry("s", 0), {1, 0, 0, 1}: entry("t", 0), {2, 0, 0, 0}: entry("s", 1),
	}
	for _, tt := range []struct {
		k    matrixKey
		want []string
	}{
		{matrixKey{0, 0, 0, 0}, []string{"a"}},
		{matrixKey{0, 1, 0, 0}, nil}, // the pipeline's folds may share it
		{matrixKey{1, 0, 0, 0}, nil}, // in use by group (2,0)
		{matrixKey{1, 0, 0, 1}, []string{"t"}},
	} {
		if got := done(tt.k, matrices); !slices.Equal(got, tt.want) {
			t.Errorf("done(%v) = %v, want %v", tt.k, got, tt.want)
		}
	}
}
