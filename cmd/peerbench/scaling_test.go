package main

import (
	"bytes"
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

// TestOursScalingCounts: the counted products of a small problem add up
// (every Hessian product is one X·v and one Xᵀ·v).
func TestOursScalingCounts(t *testing.T) {
	x := mat.NewDense(8, 2, []float64{1, 0, 2, 1, -1, 3, 0, 1, 4, -2, 1, 1, -3, 0, 2, 2})
	y := []int{0, 1, 2, 0, 1, 2, 0, 1}
	s := scalingSolver{rows: 8}
	if err := oursScaling(matrix.Matrix{Dense: x}, y, &s); err != nil {
		t.Fatal(err)
	}
	if s.iters < 1 || s.hv < s.iters || s.passes < 2*s.hv+2*s.iters {
		t.Errorf("counts %+v", s)
	}
}

// TestWriteSolverScaling: one row per size, LIBLINEAR's columns dashed
// when it is missing, ratios against the first size.
func TestWriteSolverScaling(t *testing.T) {
	var b bytes.Buffer
	writeSolverScaling(&b, []scalingSolver{
		{rows: 100, iters: 5, hv: 40, passes: 95, ours: time.Second, perHv: 10, d: 54, nnzPR: 12,
			haveLL: true, llIters: 6, llCG: 50, llTrain: 2 * time.Second, llPerHv: 20},
		{rows: 400, iters: 6, hv: 60, passes: 140, ours: 6 * time.Second, perHv: 15, d: 54, nnzPR: 12},
	})
	out := b.String()
	for _, want := range []string{"54 columns, 12 nonzeros", "| 100 | 5.0 | 40.0 | 95.0 | 1.00 s | 10.0 ns | 6.0 | 50.0 | 2.00 s | 20.0 ns | 1.00 | 1.00 |",
		"| 400 | 6.0 | 60.0 | 140.0 | 6.00 s | 15.0 ns | – | – | – | – | 6.00 | – |"} {
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

// TestWriteScalingBudget: the paragraph's ratios, from the figures of the
// published run at 806d4c6 (docs/performance.md).
func TestWriteScalingBudget(t *testing.T) {
	points := []scalingPoint{
		{rows: 25000, wall: 688 * time.Millisecond, fit: 0.124},
		{rows: 100000, wall: 3140 * time.Millisecond, fit: 0.787},
		{rows: 400000, wall: 13 * time.Second, fit: 3.34},
	}
	ss := []scalingSolver{
		{rows: 25000, hv: 116.3, perHv: 18.5, ours: 377 * time.Millisecond},
		{rows: 400000, hv: 197.7, perHv: 21.6, ours: 11900 * time.Millisecond},
	}
	var b bytes.Buffer
	writeScalingBudget(&b, points, ss)
	for _, want := range []string{
		"for 16× the rows the goal allows the whole run 17.00×; it grew 18.90×",
		"bench's fit per fold 26.9× (124 ms → 3.34 s)",
		"from 25000 to 400000 rows the Hessian products per problem grew 1.70× (116.3 → 197.7) and their cost per row 1.17×",
		"rows × products × cost = 16 × 1.70 × 1.17 = 31.8×, the growth of the fits in-process above (31.56×)",
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
