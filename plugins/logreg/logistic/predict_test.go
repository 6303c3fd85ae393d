package logistic

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sparse"
)

// Worked example: x = [[1,0],[0,2],[-1,1]].
var exampleX = mat.NewDense(3, 2, []float64{1, 0, 0, 2, -1, 1})

func exampleDesigns() map[string]Design {
	return map[string]Design{
		"dense": NewDense(exampleX),
		"csr": NewCSR(&sparse.CSR{Rows: 3, Cols: 2, Indptr: []int64{0, 1, 2, 4},
			Indices: []int32{0, 1, 0, 1}, Values: []float64{1, 2, -1, 1}}),
	}
}

func TestBinaryPrediction(t *testing.T) {
	r := &Result{W: []float64{2, -0.5}, B: 0.25}
	// w·x + b = 2.25, −0.75, −2.25.
	wantDec := []float64{2.25, -0.75, -2.25}
	for name, x := range exampleDesigns() {
		dec := r.Decision(nil, x)
		if !floats.EqualApprox(dec, wantDec, 1e-15) {
			t.Errorf("%s: decision %v, want %v", name, dec, wantDec)
		}
		dst := make([]float64, 3)
		pr := r.Probability(dst, x)
		if &pr[0] != &dst[0] {
			t.Errorf("%s: Probability did not write into dst", name)
		}
		for i, z := range wantDec {
			if want := 1 / (1 + math.Exp(-z)); math.Abs(pr[i]-want) > 1e-15 {
				t.Errorf("%s: P(+1|x%d) = %v, want %v", name, i, pr[i], want)
			}
		}
	}
}

func TestSoftmaxPrediction(t *testing.T) {
	r := &SoftmaxResult{
		W: mat.NewDense(3, 2, []float64{1, 0, 0, 1, -1, -1}),
		B: []float64{0, 0.5, -0.5},
	}
	// Scores: row0 (1,0): [1, 0.5, -1.5]; row1 (0,2): [0, 2.5, -2.5];
	// row2 (-1,1): [-1, 1.5, -0.5].
	want := mat.NewDense(3, 3, []float64{1, 0.5, -1.5, 0, 2.5, -2.5, -1, 1.5, -0.5})
	for name, x := range exampleDesigns() {
		for _, dst := range []*mat.Dense{nil, {}, mat.NewDense(3, 3, nil),
			mat.NewDense(3, 5, nil).Slice(0, 3, 1, 4).(*mat.Dense)} {
			got := r.Decision(dst, x)
			if !mat.EqualApprox(got, want, 1e-15) {
				t.Errorf("%s: decision\n%v\nwant\n%v", name, mat.Formatted(got), mat.Formatted(want))
			}
			pr := r.Probability(dst, x)
			for i := 0; i < 3; i++ {
				row := mat.Row(nil, i, want)
				var sum float64
				for _, v := range row {
					sum += math.Exp(v)
				}
				for k, v := range row {
					if p := math.Exp(v) / sum; math.Abs(pr.At(i, k)-p) > 1e-15 {
						t.Errorf("%s: P(%d|x%d) = %v, want %v", name, k, i, pr.At(i, k), p)
					}
				}
			}
		}
	}
	// Huge scores must not overflow.
	big := &SoftmaxResult{W: mat.NewDense(2, 2, []float64{1000, 0, -1000, 0}), B: []float64{0, 0}}
	pr := big.Probability(nil, NewDense(exampleX))
	if p := pr.At(0, 0); p != 1 || math.IsNaN(pr.At(0, 1)) {
		t.Errorf("P for scores ±1000 = %v, %v; want 1, 0", p, pr.At(0, 1))
	}
}

func TestInputErrors(t *testing.T) {
	x := NewDense(exampleX)
	for _, tc := range []struct {
		name string
		y, s []float64
		opt  Options
	}{
		{"short y", []float64{1, -1}, nil, Options{}},
		{"bad label", []float64{1, 0, -1}, nil, Options{}},
		{"short s", []float64{1, -1, 1}, []float64{1}, Options{}},
		{"negative weight", []float64{1, -1, 1}, []float64{1, -1, 1}, Options{}},
		{"negative C", []float64{1, -1, 1}, nil, Options{C: -1}},
		{"unknown solver", []float64{1, -1, 1}, nil, Options{Solver: "cd"}},
	} {
		if _, err := Fit(x, tc.y, tc.s, tc.opt); !errors.Is(err, ErrInput) {
			t.Errorf("Fit %s: error %v, want ErrInput", tc.name, err)
		}
	}
	for _, tc := range []struct {
		name string
		y    []int
		k    int
	}{
		{"short y", []int{0, 1}, 2},
		{"class out of range", []int{0, 1, 2}, 2},
		{"no classes", []int{0, 0, 0}, 0},
	} {
		if _, err := FitSoftmax(x, tc.y, tc.k, nil, SoftmaxOptions{}); !errors.Is(err, ErrInput) {
			t.Errorf("FitSoftmax %s: error %v, want ErrInput", tc.name, err)
		}
	}
}

// TestSeparableStaysFinite checks the regularised problem on linearly
// separable data: the optimum is finite and both solvers agree.
func TestSeparableStaysFinite(t *testing.T) {
	y := []float64{1, -1, -1}
	var objs []float64
	for _, solver := range []string{SolverNewton, SolverLBFGS} {
		res, err := Fit(NewDense(exampleX), y, nil, Options{C: 100, Solver: solver, Tol: 1e-6})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Converged || math.IsNaN(res.Objective) {
			t.Errorf("%s: converged %v objective %v", solver, res.Converged, res.Objective)
		}
		objs = append(objs, res.Objective)
	}
	if math.Abs(objs[0]-objs[1]) > 1e-9*objs[0] {
		t.Errorf("newton objective %.15g, lbfgs %.15g", objs[0], objs[1])
	}
}
