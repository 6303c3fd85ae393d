package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/sparse"
)

// TestParseTRONLog: LIBLINEAR's TRON lines give the steps and CG steps;
// other lines are skipped.
func TestParseTRONLog(t *testing.T) {
	out := []byte("init f 6.931e+03 |g| 1.2e+03\n" +
		"iter  1 act 6.403e-01 pre 6.330e-01 delta 8.961e-01 f 3.466e+00 |g| 1.471e+00 CG   2\n" +
		"iter  2 act 1.125e-03 pre 1.123e-03 delta 8.961e-01 f 2.825e+00 |g| 5.826e-02 CG  13\n" +
		"WARNING: reaching max number of iterations\n")
	if it, cg := parseTRONLog(out); it != 2 || cg != 15 {
		t.Errorf("parseTRONLog = %d steps, %d CG, want 2, 15", it, cg)
	}
}

// TestEncodeCovertype: numeric columns standardized (population std),
// then the sorted levels of wilderness_area and soil_type one-hot, classes
// numbered in order of appearance; dense while the design's density is at
// least encode.SparseDensity (3 non-zeros in 5 columns), CSR below it (3
// in 11, with more soil types), as bench gives it to the plugin.
func TestEncodeCovertype(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.csv")
	csv := "elevation,wilderness_area,soil_type,class\n" +
		"1,Rawah,7202,3\n" +
		"3,Cache la Poudre,4703,1\n" +
		"5,Rawah,4703,3\n"
	if err := os.WriteFile(path, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	x, y, err := encodeCovertype(path)
	if err != nil {
		t.Fatal(err)
	}
	s := math.Sqrt(8.0 / 3)
	want := mat.NewDense(3, 5, []float64{
		-2 / s, 0, 1, 0, 1,
		0, 1, 0, 1, 0,
		2 / s, 0, 1, 1, 0,
	})
	if x.CSR != nil || !mat.EqualApprox(x.Dense, want, 1e-15) {
		t.Errorf("x = %+v, want dense %v", x, mat.Formatted(want))
	}
	if !slices.Equal(y, []int{0, 1, 0}) {
		t.Errorf("y = %v", y)
	}
	if nonzerosPerRow(x) != 3 {
		t.Errorf("nonzerosPerRow = %d, want 3", nonzerosPerRow(x))
	}

	wide := filepath.Join(dir, "wide.csv")
	csv = "elevation,wilderness_area,soil_type,class\n"
	for i := range 8 {
		csv += fmt.Sprintf("%d,%s,%d,%d\n", i, []string{"Rawah", "Comanche"}[i%2], 7000+i, i%3)
	}
	if err := os.WriteFile(wide, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	x, _, err = encodeCovertype(wide)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := x.Dims(); x.CSR == nil || r != 8 || c != 11 || x.CSR.NNZ() != 8*3 || nonzerosPerRow(x) != 3 {
		t.Fatalf("wide design: CSR %v, %d×%d, %d non-zeros a row", x.CSR != nil, r, c, nonzerosPerRow(x))
	}
	if v := x.CSR.At(5, 3+5); v != 1 { // elevation, then Comanche and Rawah, then soil 7000 to 7007
		t.Errorf("row 5, soil 7005's indicator = %v, want 1", v)
	}
}

// csrOf returns x in CSR form, its zeros left out.
func csrOf(x *mat.Dense) *sparse.CSR {
	r, c := x.Dims()
	m := &sparse.CSR{Rows: r, Cols: c, Indptr: make([]int64, r+1)}
	for i := range r {
		for j := range c {
			if v := x.At(i, j); v != 0 {
				m.Indices, m.Values = append(m.Indices, int32(j)), append(m.Values, v)
			}
		}
		m.Indptr[i+1] = int64(len(m.Values))
	}
	return m
}

// TestOursScaling: the logreg learner fits the 3 one-vs-rest problems of
// a small design, dense and CSR, and the time per problem and row is the
// time over both.
func TestOursScaling(t *testing.T) {
	y := []int{0, 1, 2, 0, 1, 2, 0, 1}
	x := mat.NewDense(8, 2, []float64{1, 0, 2, 1, -1, 3, 0, 1, 4, -2, 1, 1, -3, 0, 2, 2})
	for _, m := range []matrix.Matrix{{Dense: x}, {CSR: csrOf(x)}} {
		s := scalingSolver{rows: 8}
		if err := oursScaling(context.Background(), m, y, &s); err != nil {
			t.Fatal(err)
		}
		if want := float64(s.ours.Nanoseconds()) / (3 * 8); s.ours <= 0 || s.perRow != want {
			t.Errorf("CSR %v: %v for the fits, %.1f ns per problem and row, want %.1f", m.CSR != nil, s.ours, s.perRow, want)
		}
	}
}

// TestWriteSolverScaling: one row per size, LIBLINEAR's columns dashed
// when it is missing, ratios against the first size.
func TestWriteSolverScaling(t *testing.T) {
	var b bytes.Buffer
	writeSolverScaling(&b, []scalingSolver{
		{rows: 100, ours: time.Second, perRow: 10, d: 54, nnzPR: 12,
			haveLL: true, llIters: 6, llCG: 50, llTrain: 2 * time.Second, llPerRow: 20},
		{rows: 400, ours: 6 * time.Second, perRow: 15, d: 54, nnzPR: 12},
	})
	out := b.String()
	for _, want := range []string{"54 columns, 12 nonzeros",
		"| 100 | 1.00 s | 10.0 ns | 6.0 | 50.0 | 2.00 s | 20.0 ns | 1.00 | 1.00 |",
		"| 400 | 6.00 s | 15.0 ns | – | – | – | – | 6.00 | – |"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestDesignOfSizes: the design is described once when the sizes share
// it, size by size when its form differs between them.
func TestDesignOfSizes(t *testing.T) {
	a := scalingSolver{rows: 100, d: 54, nnzPR: 12, csr: true}
	b := scalingSolver{rows: 400, d: 54, nnzPR: 12, csr: true}
	if got := designOfSizes([]scalingSolver{a, b}); strings.Count(got, "54 columns") != 1 || !strings.Contains(got, "a CSR matrix") || strings.Contains(got, "rows:") {
		t.Errorf("same design: %q", got)
	}
	b.csr = false
	got := designOfSizes([]scalingSolver{a, b})
	for _, want := range []string{"100 rows: 54 columns, 12 nonzeros a row, a CSR matrix", "; 400 rows: 54 columns, 12 nonzeros a row, a dense matrix"} {
		if !strings.Contains(got, want) {
			t.Errorf("designs differ: %q lacks %q", got, want)
		}
	}
}

// TestWriteScalingBudget: the paragraph's ratios: the whole run's and
// bench's fits' growth against the bound, and the solvers' own.
func TestWriteScalingBudget(t *testing.T) {
	points := []scalingPoint{
		{rows: 25000, wall: 454 * time.Millisecond, fit: 0.098},
		{rows: 100000, wall: 1970 * time.Millisecond, fit: 0.573},
		{rows: 400000, wall: 9370 * time.Millisecond, fit: 2.65},
	}
	ss := []scalingSolver{
		{rows: 25000, ours: 333 * time.Millisecond, haveLL: true, llTrain: time.Second, llCG: 20},
		{rows: 400000, ours: 11300 * time.Millisecond, haveLL: true, llTrain: 30 * time.Second, llCG: 35.5},
	}
	var b bytes.Buffer
	writeScalingBudget(&b, points, ss)
	for _, want := range []string{
		"for 16× the rows the target allows the whole run 17.00×; it grew 20.64×",
		"bench's fit per fold 27.0× (98 ms → 2.65 s)",
		"From 25000 to 400000 rows (16×) the 7 fits in this process grew 33.93× and LIBLINEAR's training 30.00× (its CG steps per problem 20.0 → 35.5).",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("paragraph lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	writeScalingBudget(&b, points[:1], ss)
	if b.Len() != 0 {
		t.Errorf("one size: %q, want nothing", b.String())
	}
}
