package logistic

import (
	"fmt"
	"math"
	"sync"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// TestSoftmaxTwoClassEqualsBinary checks the K = 2 reduction. With
// v = w₁−w₀ the penalty ½(‖w₀‖²+‖w₁‖²) is minimised at w₀ = −w₁ = −v/2,
// where it equals ¼‖v‖², so softmax with C is binary logistic regression
// with 2C (objective halved): v and b₁−b₀ must match the binary optimum for
// 2C, and the softmax objective must be half of it.
func TestSoftmaxTwoClassEqualsBinary(t *testing.T) {
	x, y, _ := breastCancer(t)
	cls := make([]int, len(y))
	for i, v := range y {
		if v > 0 {
			cls[i] = 1
		}
	}
	for _, c := range []float64{0.05, 0.5, 5} {
		for dname, des := range map[string]Design{"dense": NewDense(x), "csr": NewCSR(reftest.CSR(x))} {
			sm, err := FitSoftmax(des, cls, 2, nil, SoftmaxOptions{C: c, Tol: 1e-9})
			if err != nil {
				t.Fatal(err)
			}
			bin, err := Fit(des, y, nil, Options{C: 2 * c, Tol: 1e-8})
			if err != nil {
				t.Fatal(err)
			}
			v := make([]float64, len(bin.W))
			floats.SubTo(v, sm.W.RawRowView(1), sm.W.RawRowView(0))
			if dist := floats.Distance(v, bin.W, math.Inf(1)); dist > 1e-5 {
				t.Errorf("C=%g %s: w₁−w₀ differs from binary w by %g", c, dname, dist)
			}
			if db := sm.B[1] - sm.B[0]; math.Abs(db-bin.B) > 1e-5 {
				t.Errorf("C=%g %s: b₁−b₀ = %g, binary b = %g", c, dname, db, bin.B)
			}
			if rel := math.Abs(2*sm.Objective-bin.Objective) / bin.Objective; rel > 1e-8 {
				t.Errorf("C=%g %s: 2·softmax objective %.12g, binary %.12g", c, dname, 2*sm.Objective, bin.Objective)
			}
			if s := floats.Sum(sm.B); math.Abs(s) > 1e-12 {
				t.Errorf("C=%g %s: intercepts sum to %g, want 0", c, dname, s)
			}
		}
	}
}

// TestSoftmaxGradientZeroAtOptimum checks the first-order optimality
// conditions with gradients taken by central finite differences of the
// objective (independent of the analytic gradient the solver used), and that
// the class-sum conditions Σₖwₖ = 0 hold.
func TestSoftmaxGradientZeroAtOptimum(t *testing.T) {
	ds := reftest.Load(t, "wine")
	x := ds.Standardized()
	k := len(ds.Classes)
	for _, c := range []float64{0.1, 1, 10} {
		res, err := FitSoftmax(NewDense(x), ds.Y, k, nil, SoftmaxOptions{C: c, Tol: 1e-8})
		if err != nil {
			t.Fatal(err)
		}
		p := newSoftProblem(NewDense(x), ds.Y, k, nil, c)
		theta := append(append([]float64(nil), res.W.RawMatrix().Data...), res.B...)
		fd := fdGrad(p.fun, theta)
		if nrm := floats.Norm(fd, math.Inf(1)); nrm > 1e-4*(1+c) {
			t.Errorf("C=%g: finite-difference gradient at optimum has max entry %g", c, nrm)
		}
		_, d := res.W.Dims()
		sum := make([]float64, d)
		for j := 0; j < k; j++ {
			floats.Add(sum, res.W.RawRowView(j))
		}
		if nrm := floats.Norm(sum, math.Inf(1)); nrm > 1e-6 {
			t.Errorf("C=%g: Σₖ wₖ has max entry %g, want 0", c, nrm)
		}
		if !res.Converged {
			t.Errorf("C=%g: not converged (|g| = %g)", c, res.GradNorm)
		}
	}
}

// fdGrad returns the central finite-difference gradient of f at x.
func fdGrad(f func([]float64) float64, x []float64) []float64 {
	g := make([]float64, len(x))
	xx := append([]float64(nil), x...)
	for j := range x {
		h := 1e-5 * (1 + math.Abs(x[j]))
		xx[j] = x[j] + h
		fp := f(xx)
		xx[j] = x[j] - h
		fm := f(xx)
		xx[j] = x[j]
		g[j] = (fp - fm) / (2 * h)
	}
	return g
}

func TestSoftmaxAnalyticGradient(t *testing.T) {
	ds := reftest.Load(t, "iris")
	n, d := ds.X.Dims()
	x := ds.Standardized()
	k := len(ds.Classes)
	s := make([]float64, n)
	for i := range s {
		s[i] = 0.5 + float64(i%3)
	}
	theta := make([]float64, k*d+k)
	for j := range theta {
		theta[j] = math.Sin(float64(j + 1)) // arbitrary non-optimal point
	}
	for dname, des := range map[string]Design{"dense": NewDense(x), "csr": NewCSR(reftest.CSR(x))} {
		p := newSoftProblem(des, ds.Y, k, s, 2.5)
		g := make([]float64, len(theta))
		p.fun(theta)
		p.grad(theta, g)
		fd := fdGrad(p.fun, theta)
		if dist := floats.Distance(g, fd, math.Inf(1)); dist > 1e-5*floats.Norm(g, math.Inf(1)) {
			t.Errorf("%s: analytic and finite-difference gradients differ by %g", dname, dist)
		}
	}
}

// cvAccuracy runs the reference 10-fold CV of setup ("softmax" or
// "logreg+ova") and returns the number of correct test rows per fold and
// the test-part sizes.
func cvAccuracy(t *testing.T, name, setup string) (correct, sizes []int) {
	t.Helper()
	ds := reftest.Load(t, name)
	folds := reftest.Folds(t, name)
	n, _ := ds.X.Dims()
	if len(folds) != n {
		t.Fatalf("%s: %d fold entries for %d rows", name, len(folds), n)
	}
	k := len(ds.Classes)
	for f := 0; f < 10; f++ {
		xd, ytr, xdte, yte := reftest.Split(ds, folds, f)
		xtr, xte := NewDense(xd), NewDense(xdte)
		scores := mat.NewDense(len(yte), k, nil)
		switch setup {
		case "softmax":
			res, err := FitSoftmax(xtr, ytr, k, nil, SoftmaxOptions{Tol: 1e-6})
			if err != nil {
				t.Fatalf("%s fold %d: %v", name, f, err)
			}
			res.Decision(scores, xte)
		case "logreg+ova":
			// The K problems run concurrently on the shared design.
			var wg sync.WaitGroup
			errs := make([]error, k)
			for c := 0; c < k; c++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					res, err := Fit(xtr, reftest.BinaryLabels(ytr, c), nil, Options{Tol: 1e-6})
					if err != nil {
						errs[c] = err
						return
					}
					scores.SetCol(c, res.Decision(nil, xte))
				}()
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Fatalf("%s fold %d: %v", name, f, err)
				}
			}
		}
		ok := 0
		for j, c := range yte {
			if floats.MaxIdx(scores.RawRowView(j)) == c {
				ok++
			}
		}
		correct = append(correct, ok)
		sizes = append(sizes, len(yte))
	}
	return correct, sizes
}

func TestCVParityWithSklearn(t *testing.T) {
	for _, name := range []string{"iris", "wine", "vehicle", "digits", "segment"} {
		for _, setup := range []string{"softmax", "logreg+ova"} {
			t.Run(fmt.Sprintf("%s/%s", name, setup), func(t *testing.T) {
				ref := reftest.SklearnAccuracy(t, name, setup)
				correct, sizes := cvAccuracy(t, name, setup)
				for f := range correct {
					want := ref[f] * float64(sizes[f])
					if math.Abs(float64(correct[f])-want) > 1.01 {
						t.Errorf("fold %d: %d/%d correct, sklearn %.2f/%d", f, correct[f], sizes[f], want, sizes[f])
					}
				}
			})
		}
	}
}
