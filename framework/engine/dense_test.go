package engine

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/framework/sparse"
)

// denseCell is a cell of dataset "adult" under pipeline "hash" whose
// learner "centroid" (plugin nc) has the sparse capability or not.
func denseCell(sparseCapable bool) *Cell {
	info := &sdk.LearnerInfo{Name: "nc", Capabilities: sdk.Capabilities{Binary: true, Sparse: sparseCapable}}
	return &Cell{
		Dataset:  &Dataset{Config: &config.Dataset{Name: "adult"}},
		Pipeline: &Pipeline{Config: &config.Pipeline{Name: "hash"}},
		Learner: &Learner{Config: &config.Learner{Name: "centroid"}, Info: info,
			Plugin: &host.Plugin{Binary: host.Binary{Name: "nc"}}},
	}
}

// builtEntry is a matrix entry whose design matrix is m, already built.
func builtEntry(m matrix.Matrix) *matrixEntry {
	e := &matrixEntry{}
	e.m, e.enc = m, matrix.EncodeMatrix(m)
	e.digest.Store(&e.enc.Digest)
	return e
}

// TestDesignDensifiesForDenseLearners: a learner without the sparse
// capability gets the CSR design matrix densified, one dense matrix (one
// digest) shared by every such learner; a sparse learner gets the CSR one;
// both digests are forgotten with the entry's group.
func TestDesignDensifiesForDenseLearners(t *testing.T) {
	// [[1 0 2] [0 0 0] [0 3 0]]
	csr := &sparse.CSR{Rows: 3, Cols: 3, Indptr: []int64{0, 2, 2, 3}, Indices: []int32{0, 2, 1}, Values: []float64{1, 2, 3}}
	dense := mat.NewDense(3, 3, []float64{1, 0, 2, 0, 0, 0, 0, 3, 0})
	e := builtEntry(matrix.Matrix{CSR: csr})
	for _, tt := range []struct {
		name      string
		sparse    bool
		wantCSR   bool
		wantEnc   string
		wantShare bool
	}{
		{"sparse learner", true, true, matrix.EncodeMatrix(matrix.Matrix{CSR: csr}).Digest, false},
		{"dense learner", false, false, matrix.EncodeMatrix(matrix.Matrix{Dense: dense}).Digest, false},
		{"second dense learner", false, false, matrix.EncodeMatrix(matrix.Matrix{Dense: dense}).Digest, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := e.denc
			x, enc, err := design(nil, task{cell: denseCell(tt.sparse)}, e, 8*9)
			if err != nil {
				t.Fatal(err)
			}
			if (x.CSR != nil) != tt.wantCSR || enc.Sparse != tt.wantCSR {
				t.Fatalf("CSR input %v, encoded sparse %v, want %v", x.CSR != nil, enc.Sparse, tt.wantCSR)
			}
			if !tt.wantCSR && !mat.Equal(x.Dense, dense) {
				t.Errorf("dense matrix\n%v\nwant\n%v", mat.Formatted(x.Dense), mat.Formatted(dense))
			}
			if enc.Digest != tt.wantEnc {
				t.Errorf("digest %s, want %s", enc.Digest, tt.wantEnc)
			}
			if tt.wantShare && enc != before {
				t.Error("the second dense learner got a second dense matrix")
			}
		})
	}
	matrices := map[matrixKey]*matrixEntry{{0, 0, 0, 0}: e}
	groups := map[groupKey]*atomic.Int64{{0, 0}: {}}
	if got := unused(groupKey{0, 0}, matrices, groups); len(got) != 2 {
		t.Errorf("unused = %v, want the CSR and the dense digest", got)
	}
}

// TestDenseBudgetError: a sparse matrix whose dense form exceeds the
// budget fails with an error naming the learner, its plugin, the dataset,
// the pipeline, the sizes and the flag that raises the budget; a dense
// matrix or a sparse learner is never refused.
func TestDenseBudgetError(t *testing.T) {
	// 40000 × 8192 hashed columns: 40000·8192·8 B = 2,621,440,000 B.
	wide := matrix.Matrix{CSR: &sparse.CSR{Rows: 40000, Cols: 8192, Indptr: make([]int64, 40001)}}
	for _, tt := range []struct {
		name   string
		x      matrix.Matrix
		sparse bool
		budget int64
		want   []string // substrings of the error; nil: no error
	}{
		{"over the default budget", wide, false, DefaultDenseBudget, []string{
			"learner centroid (plugin nc) takes dense input only",
			"dataset adult under pipeline hash gives a 40000 × 8192 sparse design matrix: 2.4 GiB dense, over the 2 GiB budget",
			"--dense-budget", "fewer hash buckets"}},
		{"over a small budget", matrix.Matrix{CSR: &sparse.CSR{Rows: 3, Cols: 3, Indptr: make([]int64, 4)}}, false, 71, []string{
			"a 3 × 3 sparse design matrix: 72 B dense, over the 71 B budget"}},
		{"at the budget", matrix.Matrix{CSR: &sparse.CSR{Rows: 3, Cols: 3, Indptr: make([]int64, 4)}}, false, 72, nil},
		{"sparse learner", wide, true, DefaultDenseBudget, nil},
		{"dense matrix", matrix.Matrix{Dense: mat.NewDense(3, 3, nil)}, false, 8, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := forLearner(denseCell(tt.sparse), tt.x, tt.budget)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("error %v, want none", err)
				}
				return
			}
			var be *DenseBudgetError
			if !errors.As(err, &be) {
				t.Fatalf("error %v, want a *DenseBudgetError", err)
			}
			r, c := tt.x.Dims()
			if be.Rows != r || be.Cols != c || be.Bytes != int64(8*r*c) || be.Budget != tt.budget {
				t.Errorf("error fields %+v", be)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nlacks %q", err, w)
				}
			}
		})
	}
}

func TestByteSize(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 B", 1023: "1023 B", 1024: "1 KiB", 1536: "1.5 KiB", 2 << 30: "2 GiB",
		2621440000: "2.4 GiB", 5 << 40: "5 TiB",
	} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestFoldsKeepValidateBudget: a cell whose design matrix fitted on every
// row is over the dense budget (validate's warning) fails each fold with
// that error, even when the fold's own matrix, with fewer columns, would
// fit (campaign 4 x12: validate said 20000 × 20001, 3 GiB, over 2 GiB,
// and run densified each fold's 20000 × 13335, 1.99 GiB); a sparse
// learner's cell is not marked. On the code before, the fold's matrix
// alone was checked and the run densified it.
func TestFoldsKeepValidateBudget(t *testing.T) {
	const budget = 100
	// fold: 3 × 4 (96 B dense, under 100 B); every row: 3 × 5 (120 B).
	fold := matrix.Matrix{CSR: &sparse.CSR{Rows: 3, Cols: 4, Indptr: make([]int64, 4)}}
	for _, tt := range []struct {
		name   string
		sparse bool
		want   string // "" no error
	}{
		{"dense learner", false, "gives a 3 × 5 sparse design matrix: 120 B dense, over the 100 B budget"},
		{"sparse learner", true, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := denseCell(tt.sparse)
			r := &resolver{opt: ResolveOptions{DenseBudget: budget},
				designs: map[designKey]designShape{{c.Dataset, c.Pipeline}: {rows: 3, cols: 5, csr: true}}}
			r.denseBudgets(&Grid{Cells: []*Cell{c}})
			if warned := len(r.diags) == 1; warned == tt.sparse {
				t.Errorf("warnings %v", r.diags)
			}
			for _, step := range []struct {
				name string
				err  error
			}{
				{"forLearner", func() error { _, err := forLearner(c, fold, budget); return err }()},
				{"design", func() error { _, _, err := design(nil, task{cell: c}, builtEntry(fold), budget); return err }()},
			} {
				switch {
				case tt.want == "" && step.err != nil:
					t.Errorf("%s: %v, want no error", step.name, step.err)
				case tt.want != "" && (step.err == nil || !strings.Contains(step.err.Error(), tt.want)):
					t.Errorf("%s: %v, want %q", step.name, step.err, tt.want)
				}
			}
		})
	}
}
