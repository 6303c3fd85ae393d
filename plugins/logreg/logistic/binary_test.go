package logistic

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// breastCancer returns the standardised breast cancer design (whole-file
// mean and population std), labels +1 = malignant, and the reference optima.
func breastCancer(tb testing.TB) (*mat.Dense, []float64, map[string]reftest.Optimum) {
	tb.Helper()
	ds := reftest.Load(tb, "breast_cancer")
	opt := reftest.Optima(tb)
	return ds.Standardized(), reftest.BinaryLabels(ds.Y, ds.Class(tb, "malignant")), opt
}

func TestFitBreastCancerOptima(t *testing.T) {
	x, y, ref := breastCancer(t)
	designs := map[string]Design{"dense": NewDense(x), "csr": NewCSR(reftest.CSR(x))}
	for _, tc := range []struct {
		key string
		c   float64
	}{{"logreg_C0.1", 0.1}, {"logreg_C1", 1}, {"logreg_C10", 10}} {
		want, ok := ref[tc.key]
		if !ok {
			t.Fatalf("reference has no %s", tc.key)
		}
		for _, solver := range []string{SolverNewton, SolverLBFGS} {
			for dname, des := range designs {
				res, err := Fit(des, y, nil, Options{C: tc.c, Solver: solver, Tol: 1e-7})
				if err != nil {
					t.Fatalf("%s %s %s: %v", tc.key, solver, dname, err)
				}
				if rel := math.Abs(res.Objective-want.Objective) / want.Objective; rel > 1e-6 {
					t.Errorf("%s %s %s: objective %.12g, want %.12g (rel %.2g)", tc.key, solver, dname, res.Objective, want.Objective, rel)
				}
				if !res.Converged {
					t.Errorf("%s %s %s: not converged, |g| = %g", tc.key, solver, dname, res.GradNorm)
				}
				// Strong convexity: ‖θ−θ*‖ ≤ ‖∇f(θ)‖ since ∇²f ⪰ I on w;
				// compare the coefficients loosely.
				if d := floats.Distance(res.W, want.W, math.Inf(1)); d > 1e-4*(1+floats.Norm(want.W, math.Inf(1))) {
					t.Errorf("%s %s %s: w differs from reference by %g", tc.key, solver, dname, d)
				}
				if d := math.Abs(res.B - want.B); d > 1e-4*(1+math.Abs(want.B)) {
					t.Errorf("%s %s %s: b = %g, want %g", tc.key, solver, dname, res.B, want.B)
				}
				t.Logf("%s %s %s: f=%.12g |g|=%.3g iters=%d", tc.key, solver, dname, res.Objective, res.GradNorm, res.Iterations)
			}
		}
	}
}

// TestBinaryDerivatives checks the analytic gradient and Hessian-vector
// product against central finite differences at an arbitrary point, with
// row weights, on both design formats.
func TestBinaryDerivatives(t *testing.T) {
	x, y, _ := breastCancer(t)
	n, d := x.Dims()
	s := make([]float64, n)
	for i := range s {
		s[i] = float64(i%4) * 0.5
	}
	theta := make([]float64, d+1)
	v := make([]float64, d+1)
	for j := range theta {
		theta[j] = 0.3 * math.Cos(float64(3*j+1))
		v[j] = math.Sin(float64(j + 2))
	}
	for dname, des := range map[string]Design{"dense": NewDense(x), "csr": NewCSR(reftest.CSR(x))} {
		p := newBinProblem(des, y, s, 1.7)
		g := make([]float64, d+1)
		p.fun(theta)
		p.grad(theta, g)
		fd := fdGrad(p.fun, theta)
		if dist := floats.Distance(g, fd, math.Inf(1)); dist > 1e-6*floats.Norm(g, math.Inf(1)) {
			t.Errorf("%s: gradient differs from finite differences by %g", dname, dist)
		}
		// Hv ≈ (∇f(θ+hv) − ∇f(θ−hv))/(2h).
		hv := make([]float64, d+1)
		p.fun(theta)
		p.grad(theta, g)
		p.hv(v, hv)
		const h = 1e-5
		gp, gm := make([]float64, d+1), make([]float64, d+1)
		tp, tm := make([]float64, d+1), make([]float64, d+1)
		floats.AddScaledTo(tp, theta, h, v)
		floats.AddScaledTo(tm, theta, -h, v)
		p.fun(tp)
		p.grad(tp, gp)
		p.fun(tm)
		p.grad(tm, gm)
		floats.Sub(gp, gm)
		floats.Scale(1/(2*h), gp)
		if dist := floats.Distance(hv, gp, math.Inf(1)); dist > 1e-5*floats.Norm(hv, math.Inf(1)) {
			t.Errorf("%s: Hessian-vector product differs from finite differences by %g", dname, dist)
		}
	}
}

// TestBinaryGradientZeroAtOptimum checks first-order optimality by finite
// differences of the objective alone, for every solver that should reach it.
func TestBinaryGradientZeroAtOptimum(t *testing.T) {
	x, y, _ := breastCancer(t)
	for _, solver := range []string{SolverNewton, SolverLBFGS} {
		for _, c := range []float64{0.1, 1, 10} {
			res, err := Fit(NewDense(x), y, nil, Options{C: c, Solver: solver, Tol: 1e-8})
			if err != nil {
				t.Fatal(err)
			}
			p := newBinProblem(NewDense(x), y, nil, c)
			fd := fdGrad(p.fun, append(append([]float64(nil), res.W...), res.B))
			if nrm := floats.Norm(fd, 2); nrm > 1e-4*c {
				t.Errorf("%s C=%g: ‖finite-difference gradient‖ = %g at the optimum", solver, c, nrm)
			}
			if math.Abs(floats.Norm(fd, 2)-res.GradNorm) > 1e-4*c {
				t.Errorf("%s C=%g: reported GradNorm %g, finite differences %g", solver, c, res.GradNorm, floats.Norm(fd, 2))
			}
		}
	}
}

// TestRowWeightsEqualDuplication checks that integer row weights give the
// same optimum as repeating the rows.
func TestRowWeightsEqualDuplication(t *testing.T) {
	x, y, _ := breastCancer(t)
	n, d := x.Dims()
	s := make([]float64, n)
	var rows []int
	for i := range s {
		s[i] = float64(i % 3) // 0, 1 or 2 copies
		for range i % 3 {
			rows = append(rows, i)
		}
	}
	xd := mat.NewDense(len(rows), d, nil)
	yd := make([]float64, len(rows))
	for k, i := range rows {
		xd.SetRow(k, x.RawRowView(i))
		yd[k] = y[i]
	}
	for _, solver := range []string{SolverNewton, SolverLBFGS} {
		a, err := Fit(NewDense(x), y, s, Options{Solver: solver, Tol: 1e-8})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Fit(NewDense(xd), yd, nil, Options{Solver: solver, Tol: 1e-8})
		if err != nil {
			t.Fatal(err)
		}
		if rel := math.Abs(a.Objective-b.Objective) / b.Objective; rel > 1e-9 {
			t.Errorf("%s: weighted objective %.12g, duplicated %.12g", solver, a.Objective, b.Objective)
		}
		if dist := floats.Distance(a.W, b.W, math.Inf(1)); dist > 1e-5 {
			t.Errorf("%s: weighted and duplicated w differ by %g", solver, dist)
		}
	}
}

// TestBaselineSolvers checks that sgd and gd approach the reference optimum.
// Documented tolerances: gd (Armijo backtracking, or a fixed step below
// 2/L) run to Tol = 1e-4 is within 1e-5 relative of the optimal objective;
// sgd with its default step schedule after 200 epochs (Tol so small that
// every epoch runs) is within 1e-4 relative. Neither may go below the
// optimum.
func TestBaselineSolvers(t *testing.T) {
	x, y, ref := breastCancer(t)
	for _, tc := range []struct {
		name   string
		key    string
		opt    Options
		relTol float64
	}{
		{"gd-backtracking", "logreg_C1", Options{C: 1, Solver: SolverGD, Tol: 1e-4}, 1e-5},
		{"gd-fixed", "logreg_C0.1", Options{C: 0.1, Solver: SolverGD, Step: 0.01, Tol: 1e-4}, 1e-5},
		{"sgd", "logreg_C1", Options{C: 1, Solver: SolverSGD, Epochs: 200, Seed: 1, Tol: 1e-12}, 1e-4},
		{"sgd-csr", "logreg_C0.1", Options{C: 0.1, Solver: SolverSGD, Epochs: 200, Seed: 7, Tol: 1e-12}, 1e-4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			des := Design(NewDense(x))
			if tc.name == "sgd-csr" {
				des = NewCSR(reftest.CSR(x))
			}
			res, err := Fit(des, y, nil, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			want := ref[tc.key].Objective
			rel := (res.Objective - want) / want
			if rel < -1e-12 || rel > tc.relTol {
				t.Errorf("objective %.10g, optimum %.10g (rel %.3g, tolerance %g)", res.Objective, want, rel, tc.relTol)
			}
			t.Logf("objective %.10g rel %.3g iters %d |g| %.3g converged %v", res.Objective, rel, res.Iterations, res.GradNorm, res.Converged)
		})
	}
}

// productCounts counts the products a solver asks of a design.
type productCounts struct {
	Design
	mulVec, trans, transSq int
}

func (c *productCounts) MulVec(dst, x []float64)      { c.mulVec++; c.Design.MulVec(dst, x) }
func (c *productCounts) MulVecTrans(dst, v []float64) { c.trans++; c.Design.MulVecTrans(dst, v) }
func (c *productCounts) MulVecTransSq(dst, v []float64) {
	c.transSq++
	c.Design.MulVecTransSq(dst, v)
}

// TestNewtonPreconditioners: the trust-region Newton solver computes the
// Hessian diagonal (one (X∘X)ᵀ·v pass) at θ = 0 and at every accepted
// step but the one that meets the stopping rule, where it would go
// unused: as many passes as iterations for a problem that converges (the
// 26 one-vs-rest problems of letter, 6 to 8 iterations each), plus the
// one pass of the stopping rule's column scales (coordBounds).
func TestNewtonPreconditioners(t *testing.T) {
	ds := reftest.Load(t, "letter")
	x := NewDense(ds.Standardized())
	for c, y := range reftest.OneVsRest(ds.Y, len(ds.Classes)) {
		pc := &productCounts{Design: x}
		r, err := Fit(pc, y, nil, Options{C: 1})
		if err != nil {
			t.Fatalf("class %d: %v", c, err)
		}
		if !r.Converged || r.Iterations < 2 {
			t.Fatalf("class %d: converged %v after %d iterations, want a converged multi-step solve", c, r.Converged, r.Iterations)
		}
		if pc.transSq != r.Iterations+1 {
			t.Errorf("class %d: %d (X∘X)ᵀ·v passes for %d iterations, want one per iteration and one for the column scales", c, pc.transSq, r.Iterations)
		}
	}
}
