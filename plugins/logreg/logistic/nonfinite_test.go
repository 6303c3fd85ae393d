package logistic

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// hangGuard is how long a fit of the extreme-value tests may take before
// the test reports it as spinning; the fits take milliseconds.
const hangGuard = 60 * time.Second

// within runs f and fails the test when it does not return within
// hangGuard (the goroutine is left behind: it spins).
func within(t *testing.T, name string, f func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatalf("%s: still running after %v: the solver spins", name, hangGuard)
	}
}

// evalCounter counts the MulVec calls (one per objective evaluation) of
// the solvers that use the design's own products.
type evalCounter struct {
	Design
	mulVecs atomic.Int64
}

func (c *evalCounter) MulVec(dst, x []float64) {
	c.mulVecs.Add(1)
	c.Design.MulVec(dst, x)
}

// TestNewtonExtremeFeatureEnds is issue 55's case 7: iris with one sepal
// length of 1e160 (or minmax-encoded to [0, 1e308]), one-vs-rest logreg.
// The newton solver spun until cv.timeout: its Hessian diagonal overflows
// to +Inf, every trial step is NaN and never accepted, and only accepted
// steps counted against MaxIter. It now ends with an error naming the
// non-finite value.
func TestNewtonExtremeFeatureEnds(t *testing.T) {
	for _, tt := range []struct {
		kind, want string
	}{
		{"1e160", "logistic: newton solver: non-finite value: newton iteration 1: Hessian diagonal entry 0 is +Inf"},
		{"minmax1e308", "logistic: newton solver: non-finite value: newton iteration 0: gradient entry 0 is -Inf"},
	} {
		t.Run(tt.kind, func(t *testing.T) {
			x, y := reftest.ExtremeIris(t, tt.kind)
			probs := make([]BatchProblem, 3)
			for k, yk := range reftest.OneVsRest(y, 3) {
				probs[k] = BatchProblem{Y: yk}
			}
			var err error
			within(t, tt.kind, func() { _, err = FitBatch(context.Background(), NewDense(x), probs, Options{Tol: 1e-4}) })
			if !errors.Is(err, ErrNonFinite) {
				t.Fatalf("FitBatch: error %v, want one wrapping ErrNonFinite", err)
			}
			if first := strings.Split(err.Error(), "\n")[0]; !strings.HasSuffix(first, tt.want) {
				t.Errorf("FitBatch: first error %q, want it to end in %q", first, tt.want)
			}
		})
	}
}

// TestExtremeValuesEndWithinBound is the property of issue 55: whatever
// the values (features of ±1e308, 1e160, C or row weights of 1e308, all
// row weights 0), every binary solver and the softmax solver return, with
// a result within MaxIter iterations and at most
// (MaxIter+1)·(tronMaxRejects+1)+3 objective evaluations, or with an error
// wrapping ErrNonFinite.
func TestExtremeValuesEndWithinBound(t *testing.T) {
	const maxIter = 50
	type setup struct {
		name string
		kind string  // reftest.ExtremeIris's change
		c    float64 // C
		w    float64 // every row weight; -1: none
	}
	var setups []setup
	for _, kind := range reftest.ExtremeKinds {
		setups = append(setups, setup{kind, kind, 1, -1})
	}
	setups = append(setups,
		setup{"C=1e308", "1e160", 1e308, -1},
		setup{"weights 1e308", "1e160", 1, 1e308},
		setup{"weights 0", "1e160", 1, 0},
	)
	for _, s := range setups {
		x, y := reftest.ExtremeIris(t, s.kind)
		n, _ := x.Dims()
		var w []float64
		if s.w >= 0 {
			w = make([]float64, n)
			for i := range w {
				w[i] = s.w
			}
		}
		for _, solver := range []string{SolverNewton, SolverLBFGS, SolverGD, SolverSGD} {
			t.Run(s.name+"/"+solver, func(t *testing.T) {
				des := &evalCounter{Design: NewDense(x)}
				var res *Result
				var err error
				within(t, solver, func() {
					res, err = fit(des, reftest.BinaryLabels(y, 0), w, Options{C: s.c, Solver: solver, MaxIter: maxIter, Epochs: maxIter})
				})
				checkBound(t, err, res != nil, func() int { return res.Iterations }, maxIter)
				if evals, most := des.mulVecs.Load(), int64((maxIter+1)*(tronMaxRejects+1)+3); solver != SolverSGD && evals > most {
					t.Errorf("%d objective evaluations, want at most %d", evals, most)
				}
			})
		}
		t.Run(s.name+"/softmax", func(t *testing.T) {
			var res *SoftmaxResult
			var err error
			within(t, "softmax", func() {
				res, err = FitSoftmax(NewDense(x), y, 3, w, SoftmaxOptions{C: s.c, MaxIter: maxIter})
			})
			checkBound(t, err, res != nil, func() int { return res.Iterations }, maxIter)
		})
	}
}

// checkBound fails the test unless err wraps ErrNonFinite, or err is nil
// and the result (ok) took at most maxIter iterations.
func checkBound(t *testing.T, err error, ok bool, iters func() int, maxIter int) {
	t.Helper()
	switch {
	case err != nil && !errors.Is(err, ErrNonFinite):
		t.Errorf("error %v, want nil or one wrapping ErrNonFinite", err)
	case err == nil && !ok:
		t.Errorf("no result and no error")
	case err == nil && iters() > maxIter:
		t.Errorf("%d iterations, want at most %d", iters(), maxIter)
	}
}

// TestOverflowingLossWeights is issue 55's case 11 in the solver: logreg
// with C = 1e308 or a class weight of 1e308 (row weights of 1e308) on
// iris, one-vs-rest. The loss at θ = 0 overflows to +Inf; the newton
// solver returned θ = 0 at once as converged (its stopping threshold,
// from the overflowing gradient, was met by any gradient): a constant
// model, accuracy 1/3. It now ends with an error at iteration 0. With
// every weight 0 the gradient is 0: the fit stops at once with the
// constant model w = 0, b = 0, which scores every row alike (the tables
// flag its folds, see package report's TestGoldenTied).
func TestOverflowingLossWeights(t *testing.T) {
	ds := reftest.Load(t, "iris")
	n, _ := ds.X.Dims()
	fill := func(v float64) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = v
		}
		return s
	}
	const overflow = "logistic: newton solver: non-finite value: newton iteration 0: objective entry 0 is +Inf"
	for _, tt := range []struct {
		name string
		c    float64
		s    []float64
		want string // "" for the constant model
	}{
		{"C=1e308", 1e308, nil, overflow},
		{"weights 1e308", 1, fill(1e308), overflow},
		{"weights 0", 1, fill(0), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var res *Result
			var err error
			within(t, tt.name, func() { res, err = Fit(NewDense(ds.X), reftest.BinaryLabels(ds.Y, 0), tt.s, Options{C: tt.c}) })
			switch {
			case tt.want != "" && (!errors.Is(err, ErrNonFinite) || err.Error() != tt.want):
				t.Errorf("error %v, want %q", err, tt.want)
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want the constant model", err)
			case tt.want == "" && (res.Iterations != 0 || res.B != 0 || res.W[0] != 0 || res.W[3] != 0):
				t.Errorf("%d iterations, w = %v, b = %v; want 0 iterations and w = 0, b = 0", res.Iterations, res.W, res.B)
			}
		})
	}
}

// TestNewtonLargeScaleFits is campaign 11f's false refusal: iris with
// every feature multiplied by 1e100, one-vs-rest logreg, newton. The
// gradient is near 1e100 and the Hessian's diagonal near 1e200, so the
// first trust region √(gᵀMg) overflowed to +Inf and the fit ended with
// "trust region is +Inf", where the problem is an ordinary one. The
// region's norm is now computed with scaling when its plain sum
// overflows: each class fits, its stopping rule met, and the three
// classify the training rows at least 90 % right (98 %; lbfgs 96 %).
func TestNewtonLargeScaleFits(t *testing.T) {
	ds := reftest.Load(t, "iris")
	x := ds.X
	x.Scale(1e100, x)
	n, _ := x.Dims()
	scores := map[string][]float64{}
	for _, solver := range []string{SolverNewton, SolverLBFGS} {
		s := make([]float64, 3*n)
		for k, yk := range reftest.OneVsRest(ds.Y, 3) {
			var res *Result
			var err error
			within(t, solver, func() { res, err = fit(NewDense(x), yk, nil, Options{C: 1, Solver: solver, Tol: 1e-4}) })
			if err != nil {
				t.Fatalf("%s, class %d: %v", solver, k, err)
			}
			if solver == SolverNewton && !res.Converged {
				t.Errorf("newton, class %d: not converged after %d iterations (gradient norm %g)", k, res.Iterations, res.GradNorm)
			}
			for i := range n {
				s[3*i+k] = res.B
				for j, w := range res.W {
					s[3*i+k] += w * x.At(i, j)
				}
			}
		}
		scores[solver] = s
	}
	acc := func(s []float64) float64 {
		right := 0
		for i, yi := range ds.Y {
			best := 0
			for k := 1; k < 3; k++ {
				if s[3*i+k] > s[3*i+best] {
					best = k
				}
			}
			if best == yi {
				right++
			}
		}
		return float64(right) / float64(len(ds.Y))
	}
	for _, solver := range []string{SolverNewton, SolverLBFGS} {
		if a := acc(scores[solver]); a < 0.9 {
			t.Errorf("%s: training accuracy %.4f, want at least 0.9", solver, a)
		}
	}
}
