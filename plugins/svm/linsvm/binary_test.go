package linsvm

import (
	"errors"
	"math"
	"sync"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// tightTol is the stopping tolerance the optimum tests use.
const tightTol = 1e-10

// TestFitBreastCancerOptima checks the hinge-loss optimum against the exact
// reference optima of breast_cancer_optima.json, on dense and CSR input.
// The primal is 1-strongly convex in (w, b), so additionally
// ½‖(w,b) − (w*,b*)‖² ≤ P(w,b) − P* ≤ P(w,b) − D(α) must hold.
func TestFitBreastCancerOptima(t *testing.T) {
	x, y := breastCancer(t)
	ref := reftest.Optima(t)
	xs := map[string]Rows{"dense": NewDense(x), "csr": reftest.CSR(x)}
	for _, tc := range []struct {
		key string
		c   float64
	}{
		{"svm_hinge_C0.1", 0.1},
		{"svm_hinge_C1", 1},
		{"svm_hinge_C10", 10},
	} {
		for kind, rows := range xs {
			t.Run(tc.key+"/"+kind, func(t *testing.T) {
				want := ref[tc.key]
				if len(want.W) == 0 {
					t.Fatalf("reference %s missing", tc.key)
				}
				opt := DefaultOptions()
				opt.C, opt.Tol, opt.MaxIter = tc.c, tightTol, 100000
				r, err := Fit(rows, y, nil, opt)
				if err != nil {
					t.Fatal(err)
				}
				if !r.Converged {
					t.Errorf("not converged after %d iterations", r.Iterations)
				}
				if rel := math.Abs(r.Objective-want.Objective) / want.Objective; rel > 1e-6 {
					t.Errorf("objective %.12g, want %.12g (rel %.3g)", r.Objective, want.Objective, rel)
				}
				gap := r.Objective - r.DualObjective
				if gap < -1e-9*r.Objective || gap > 1e-8*r.Objective {
					t.Errorf("duality gap %.3g (primal %.12g dual %.12g)", gap, r.Objective, r.DualObjective)
				}
				dist := floats.Distance(r.W, want.W, 2)
				dist = dist*dist + (r.B-want.B)*(r.B-want.B)
				if bound := 2*max(gap, 0) + 1e-12; dist > bound {
					t.Errorf("‖Δ(w,b)‖² = %.3g exceeds strong-convexity bound %.3g", dist, bound)
				}
			})
		}
	}
}

// TestFitWorkedExample checks closed-form optima of a two-point problem
// without bias: x = +1 (y = +1), x = −1 (y = −1), so P(w) = ½w² + 2C·ℓ(w).
// Hinge: w = min(2C, 1). Squared hinge: w = 4C/(1+4C).
func TestFitWorkedExample(t *testing.T) {
	x := NewDense(mat.NewDense(2, 1, []float64{1, -1}))
	y := []float64{1, -1}
	for _, tc := range []struct {
		loss    string
		c, want float64
	}{
		{LossHinge, 0.1, 0.2},
		{LossHinge, 0.25, 0.5},
		{LossHinge, 0.5, 1},
		{LossHinge, 3, 1},
		{LossSquaredHinge, 0.25, 0.5},
		{LossSquaredHinge, 1, 0.8},
		{LossSquaredHinge, 10, 40.0 / 41},
	} {
		r, err := Fit(x, y, nil, Options{C: tc.c, Loss: tc.loss, Tol: 1e-12})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.W[0]-tc.want) > 1e-9 || r.B != 0 {
			t.Errorf("%s C=%v: w = %v, b = %v; want w = %v, b = 0", tc.loss, tc.c, r.W[0], r.B, tc.want)
		}
		l := math.Max(0, 1-tc.want)
		if tc.loss == LossSquaredHinge {
			l *= l
		}
		if obj := 0.5*tc.want*tc.want + 2*tc.c*l; math.Abs(r.Objective-obj) > 1e-9 {
			t.Errorf("%s C=%v: objective %v, want %v", tc.loss, tc.c, r.Objective, obj)
		}
	}
}

// TestFitSquaredHinge checks the L2-loss solver against LIBLINEAR `-s 1`
// (testdata/gen_liblinear.py) and checks that the primal gradient
// w̃ − 2C·Σ yᵢ max(0, 1−yᵢf(xᵢ)) x̃ᵢ vanishes at the returned weights.
func TestFitSquaredHinge(t *testing.T) {
	x, y := breastCancer(t)
	ref := loadLibRef(t)
	for _, tc := range []struct {
		key string
		c   float64
	}{
		{"sqhinge_breast_cancer_C0.1", 0.1},
		{"sqhinge_breast_cancer_C1", 1},
	} {
		want := ref[tc.key]
		opt := Options{C: tc.c, Loss: LossSquaredHinge, Bias: 1, Tol: tightTol, MaxIter: 100000}
		r, err := Fit(NewDense(x), y, nil, opt)
		if err != nil {
			t.Fatal(err)
		}
		if rel := math.Abs(r.Objective-want.Objective) / want.Objective; rel > 1e-6 {
			t.Errorf("%s: objective %.12g, want %.12g (rel %.3g)", tc.key, r.Objective, want.Objective, rel)
		}
		if d := floats.Distance(r.W, want.WBin, math.Inf(1)); d > 1e-5 || math.Abs(r.B-want.BBin) > 1e-5 {
			t.Errorf("%s: w differs from LIBLINEAR by %.3g, b %v vs %v", tc.key, d, r.B, want.BBin)
		}
		n, d := x.Dims()
		grad := append(append([]float64(nil), r.W...), r.B)
		for i := range n {
			m := 1 - y[i]*r.Decision(NewDense(x), i)
			if m <= 0 {
				continue
			}
			for j := range d {
				grad[j] -= 2 * tc.c * y[i] * m * x.At(i, j)
			}
			grad[d] -= 2 * tc.c * y[i] * m
		}
		if g := floats.Norm(grad, math.Inf(1)); g > 1e-6 {
			t.Errorf("%s: primal gradient norm %.3g at the optimum", tc.key, g)
		}
	}
}

// TestFitKKT checks the optimality conditions of the dual at a tight
// tolerance for both losses: 0 ≤ αᵢ ≤ Uᵢ, w̃ = Σαᵢyᵢx̃ᵢ and, with
// mᵢ = yᵢf(xᵢ), for the hinge αᵢ = 0 ⇒ mᵢ ≥ 1−ε, 0 < αᵢ < C ⇒ |mᵢ−1| ≤ ε,
// αᵢ = C ⇒ mᵢ ≤ 1+ε; for the squared hinge αᵢ = 0 ⇒ mᵢ ≥ 1−ε and
// αᵢ > 0 ⇒ |mᵢ − 1 + αᵢ/(2C)| ≤ ε.
func TestFitKKT(t *testing.T) {
	x, y := breastCancer(t)
	n, d := x.Dims()
	const eps = 1e-7
	for _, tc := range []struct {
		loss string
		c    float64
	}{
		{LossHinge, 0.1}, {LossHinge, 1}, {LossHinge, 10},
		{LossSquaredHinge, 0.1}, {LossSquaredHinge, 1},
	} {
		r, err := Fit(NewDense(x), y, nil, Options{C: tc.c, Loss: tc.loss, Bias: 1, Tol: tightTol, MaxIter: 100000, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		wt := make([]float64, d+1)
		var free, atUpper int
		for i := range n {
			a := r.Alpha[i]
			m := y[i] * r.Decision(NewDense(x), i)
			switch {
			case a < 0 || (tc.loss == LossHinge && a > tc.c):
				t.Errorf("%s C=%v: α[%d] = %v outside [0, C]", tc.loss, tc.c, i, a)
			case a == 0:
				if m < 1-eps {
					t.Errorf("%s C=%v: α[%d] = 0 but margin %v < 1", tc.loss, tc.c, i, m)
				}
			case tc.loss == LossSquaredHinge:
				free++
				if math.Abs(m-1+a/(2*tc.c)) > eps {
					t.Errorf("%s C=%v: α[%d] = %v but margin %v ≠ 1 − α/2C", tc.loss, tc.c, i, a, m)
				}
			case a == tc.c:
				atUpper++
				if m > 1+eps {
					t.Errorf("%s C=%v: α[%d] = C but margin %v > 1", tc.loss, tc.c, i, m)
				}
			default:
				free++
				if math.Abs(m-1) > eps {
					t.Errorf("%s C=%v: 0 < α[%d] < C but margin %v ≠ 1", tc.loss, tc.c, i, m)
				}
			}
			for j := range d {
				wt[j] += a * y[i] * x.At(i, j)
			}
			wt[d] += a * y[i]
		}
		if free == 0 {
			t.Errorf("%s C=%v: no free support vector; the test checks nothing", tc.loss, tc.c)
		}
		got := append(append([]float64(nil), r.W...), r.B)
		if dist := floats.Distance(got, wt, math.Inf(1)); dist > 1e-9 {
			t.Errorf("%s C=%v: w̃ differs from Σαyx̃ by %.3g", tc.loss, tc.c, dist)
		}
		if gap := r.Objective - r.DualObjective; gap > 1e-8*r.Objective || gap < -1e-9*r.Objective {
			t.Errorf("%s C=%v: duality gap %.3g", tc.loss, tc.c, gap)
		}
		t.Logf("%s C=%v: %d free, %d at C, %d iterations", tc.loss, tc.c, free, atUpper, r.Iterations)
	}
}

// TestFitDefaultTolGap checks that the default LIBLINEAR tolerance already
// yields a small relative duality gap and a converged run. (At C = 10 the
// default 1000 iterations do not suffice, as for LIBLINEAR itself.)
func TestFitDefaultTolGap(t *testing.T) {
	x, y := breastCancer(t)
	for _, c := range []float64{0.1, 1} {
		opt := DefaultOptions()
		opt.C = c
		r, err := Fit(NewDense(x), y, nil, opt)
		if err != nil {
			t.Fatal(err)
		}
		gap := (r.Objective - r.DualObjective) / r.Objective
		if !r.Converged || gap < 0 || gap > 0.02 {
			t.Errorf("C=%v: converged %v, relative gap %.3g", c, r.Converged, gap)
		}
	}
}

// TestFitDenseCSR checks that dense and CSR input give the same result on
// a sparse design (digits scaled to [0,1], about half zeros), both at the
// default and at a tight tolerance.
func TestFitDenseCSR(t *testing.T) {
	ds := reftest.Load(t, "digits")
	x := mat.DenseCopyOf(ds.X)
	x.Scale(1.0/16, x)
	y := reftest.BinaryLabels(ds.Y, 3)
	csr := reftest.CSR(x)
	if nnz, n := csr.NNZ(), len(y)*64; nnz > n*3/4 {
		t.Fatalf("digits is not sparse: %d of %d entries", nnz, n)
	}
	for _, tc := range []struct {
		loss string
		tol  float64
	}{
		{LossHinge, 0}, {LossHinge, tightTol}, {LossSquaredHinge, 0}, {LossSquaredHinge, tightTol},
	} {
		opt := Options{C: 1, Loss: tc.loss, Bias: 1, Tol: tc.tol, MaxIter: 100000, Seed: 3}
		rd, err := Fit(NewDense(x), y, nil, opt)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := Fit(csr, y, nil, opt)
		if err != nil {
			t.Fatal(err)
		}
		if d := floats.Distance(rd.W, rs.W, math.Inf(1)); d > 1e-8 || math.Abs(rd.B-rs.B) > 1e-8 {
			t.Errorf("%s tol %v: dense and CSR weights differ by %.3g (b %v vs %v)", tc.loss, tc.tol, d, rd.B, rs.B)
		}
		if math.Abs(rd.Objective-rs.Objective) > 1e-10*rd.Objective {
			t.Errorf("%s tol %v: objectives %.15g vs %.15g", tc.loss, tc.tol, rd.Objective, rs.Objective)
		}
	}
}

// TestFitRowWeights checks that an integer row weight is equivalent to
// repeating the row (same optimum) and that weight 0 removes the row.
func TestFitRowWeights(t *testing.T) {
	x, y := breastCancer(t)
	n, d := x.Dims()
	s := make([]float64, n)
	var rows []int
	for i := range n {
		s[i] = float64(i % 3) // 0, 1, 2
		for range i % 3 {
			rows = append(rows, i)
		}
	}
	rep := mat.NewDense(len(rows), d, nil)
	yRep := make([]float64, len(rows))
	for k, i := range rows {
		rep.SetRow(k, x.RawRowView(i))
		yRep[k] = y[i]
	}
	for _, loss := range []string{LossHinge, LossSquaredHinge} {
		opt := Options{C: 1, Loss: loss, Bias: 1, Tol: tightTol, MaxIter: 100000}
		rw, err := Fit(NewDense(x), y, s, opt)
		if err != nil {
			t.Fatal(err)
		}
		rr, err := Fit(NewDense(rep), yRep, nil, opt)
		if err != nil {
			t.Fatal(err)
		}
		if rel := math.Abs(rw.Objective-rr.Objective) / rr.Objective; rel > 1e-7 {
			t.Errorf("%s: weighted objective %.12g, repeated rows %.12g", loss, rw.Objective, rr.Objective)
		}
		if dist := floats.Distance(rw.W, rr.W, 2); dist > 1e-3 {
			t.Errorf("%s: weighted and repeated weights differ by %.3g", loss, dist)
		}
		for i := 0; i < n; i += 3 {
			if rw.Alpha[i] != 0 {
				t.Errorf("%s: row %d has weight 0 but α = %v", loss, i, rw.Alpha[i])
			}
		}
	}
}

// TestFitDeterministicConcurrent checks that a seed fixes the result, that
// different seeds still reach the optimum, and that concurrent calls on a
// shared design give the sequential answer (run with -race).
func TestFitDeterministicConcurrent(t *testing.T) {
	x, y := breastCancer(t)
	rows := NewDense(x)
	want, err := Fit(rows, y, nil, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	got := make([]*Result, 4)
	errs := make([]error, 4)
	for g := range got {
		wg.Go(func() { got[g], errs[g] = Fit(rows, y, nil, DefaultOptions()) })
	}
	wg.Wait()
	for g, r := range got {
		if errs[g] != nil {
			t.Fatal(errs[g])
		}
		if !floats.Equal(r.W, want.W) || r.B != want.B || r.Iterations != want.Iterations {
			t.Errorf("goroutine %d: result differs from the sequential run", g)
		}
	}
	other := DefaultOptions()
	other.Seed = 99
	r, err := Fit(rows, y, nil, other)
	if err != nil {
		t.Fatal(err)
	}
	if floats.Equal(r.W, want.W) {
		t.Errorf("seeds 0 and 99 gave identical weights; the seed has no effect")
	}
}

// TestFitInputErrors checks argument validation.
func TestFitInputErrors(t *testing.T) {
	x := NewDense(mat.NewDense(2, 1, []float64{1, -1}))
	for _, tc := range []struct {
		name string
		y, s []float64
		opt  Options
	}{
		{"label", []float64{1, 0}, nil, Options{}},
		{"length", []float64{1}, nil, Options{}},
		{"weights length", []float64{1, -1}, []float64{1}, Options{}},
		{"negative weight", []float64{1, -1}, []float64{1, -1}, Options{}},
		{"negative C", []float64{1, -1}, nil, Options{C: -1}},
		{"loss", []float64{1, -1}, nil, Options{Loss: "log"}},
		{"tol", []float64{1, -1}, nil, Options{Tol: -1}},
		{"maxiter", []float64{1, -1}, nil, Options{MaxIter: -1}},
		{"bias", []float64{1, -1}, nil, Options{Bias: math.NaN()}},
	} {
		if _, err := Fit(x, tc.y, tc.s, tc.opt); !errors.Is(err, ErrInput) {
			t.Errorf("%s: error %v, want ErrInput", tc.name, err)
		}
	}
}
