package linsvm

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// denseRow returns row i of x as d dense values.
func denseRow(x Rows, i, d int) []float64 {
	idx, val := x.Row(i)
	if idx == nil {
		return val[:d]
	}
	out := make([]float64, d)
	for k, j := range idx {
		out[j] = val[k]
	}
	return out
}

// binaryObjectives returns the primal objective of r's weights and the
// dual objective of its α, each computed from its definition (LIBLINEAR's
// problems, with x̃ = (x, Bias) and w̃ = (w, B/Bias)):
//
//	P(w̃) = ½‖w̃‖² + C Σ sᵢ ξᵢ,  ξᵢ = max(0, 1 − yᵢ w̃·x̃ᵢ) (squared for the squared hinge)
//	D(α) = Σ αᵢ − ½‖Σ αᵢyᵢx̃ᵢ‖² (− Σ αᵢ²/(4Csᵢ) for the squared hinge)
//
// and the largest violation of the box 0 ≤ αᵢ ≤ Csᵢ (hinge; αᵢ ≥ 0 for
// the squared hinge, and αᵢ = 0 where sᵢ = 0).
func binaryObjectives(x Rows, y, s []float64, opt Options, r *Result) (primal, dual, box float64) {
	n, d := x.Dims()
	weight := func(i int) float64 {
		if s == nil {
			return 1
		}
		return s[i]
	}
	wt := append(append([]float64(nil), r.W...), 0)
	if opt.Bias > 0 {
		wt[d] = r.B / opt.Bias
	}
	primal = 0.5 * floats.Dot(wt, wt)
	wa := make([]float64, d+1)
	for i := range n {
		xi := append(append([]float64(nil), denseRow(x, i, d)...), max(opt.Bias, 0))
		m := y[i] * floats.Dot(wt, xi)
		loss := max(0, 1-m)
		if opt.Loss == LossSquaredHinge {
			loss *= loss
		}
		primal += opt.C * weight(i) * loss
		a := r.Alpha[i]
		floats.AddScaled(wa, a*y[i], xi)
		dual += a
		switch {
		case a < 0:
			box = max(box, -a)
		case weight(i) == 0:
			box = max(box, a)
		case opt.Loss == LossHinge:
			box = max(box, a-opt.C*weight(i))
		default:
			dual -= a * a / (4 * opt.C * weight(i))
		}
	}
	dual -= 0.5 * floats.Dot(wa, wa)
	return primal, dual, box
}

// TestFitOptimal checks Fit's optimum on every path through the solver:
// dense, CSR, behind an interface (the generic path) and sparsified
// designs, both losses, with and without a bias and row weights (some 0).
// At a tight tolerance the α it returns is feasible and the weights it
// returns attain the dual's value (a duality gap of zero, each objective
// computed from its definition), so both are optimal; the result reports
// those objectives; and the dense, CSR and interface paths, which see the
// same matrix, find the same weights.
func TestFitOptimal(t *testing.T) {
	for key, in := range identicalInputs(t, "iris", "wine") {
		for _, loss := range []string{LossHinge, LossSquaredHinge} {
			for _, tc := range []struct {
				bias, c float64
				weights bool
			}{{1, 1, false}, {0, 0.5, true}, {2, 10, true}} {
				t.Run(fmt.Sprintf("%s/%s/%+v", key, loss, tc), func(t *testing.T) {
					n, _ := in.x.Dims()
					var s []float64
					if tc.weights {
						s = rowWeights(n, 3)
					}
					opt := Options{C: tc.c, Loss: loss, Bias: tc.bias, Tol: tightTol, MaxIter: 100000, Seed: 1}
					y := reftest.BinaryLabels(in.y, 1)
					r, err := Fit(in.x, y, s, opt)
					if err != nil {
						t.Fatal(err)
					}
					p, d, box := binaryObjectives(in.x, y, s, opt, r)
					if box > 1e-12 {
						t.Errorf("α outside its box by %.3g", box)
					}
					if gap := p - d; gap < -1e-9*p || gap > 1e-7*p {
						t.Errorf("primal %.15g, dual %.15g: gap %.3g (%d iterations, converged %v)", p, d, gap, r.Iterations, r.Converged)
					}
					if math.Abs(r.Objective-p) > 1e-9*p || math.Abs(r.DualObjective-d) > 1e-9*p {
						t.Errorf("reported objectives %.15g, %.15g; from their definitions %.15g, %.15g", r.Objective, r.DualObjective, p, d)
					}
				})
			}
		}
	}
}

// TestFitSamePathsSameWeights: the dense, CSR and interface paths, which
// see the same matrix, find the same optimum.
func TestFitSamePathsSameWeights(t *testing.T) {
	in := identicalInputs(t, "vehicle")
	for _, loss := range []string{LossHinge, LossSquaredHinge} {
		opt := Options{C: 1, Loss: loss, Bias: 1, Tol: tightTol, MaxIter: 100000, Seed: 2}
		n, _ := in["vehicle/dense"].x.Dims()
		s := rowWeights(n, 4)
		y := reftest.BinaryLabels(in["vehicle/dense"].y, 2)
		want, err := Fit(in["vehicle/dense"].x, y, s, opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, kind := range []string{"csr", "wrapped"} {
			got, err := Fit(in["vehicle/"+kind].x, y, s, opt)
			if err != nil {
				t.Fatal(err)
			}
			if dist := floats.Distance(got.W, want.W, math.Inf(1)); dist > 1e-8 || math.Abs(got.B-want.B) > 1e-8 {
				t.Errorf("%s %s: weights differ from the dense path's by %.3g (b %v, %v)", loss, kind, dist, got.B, want.B)
			}
		}
	}
}

// TestFitCrammerSingerOptimal is TestFitOptimal for FitCrammerSinger, with
//
//	P(W̃) = ½Σₖ‖w̃ₖ‖² + C Σ sᵢ ξᵢ,  ξᵢ = maxₖ(w̃ₖ·x̃ᵢ + 1 − [k = yᵢ]) − w̃_{yᵢ}·x̃ᵢ
//	D(α) = Σᵢ α_i^{yᵢ} − ½Σₖ‖Σᵢ α_i^k x̃ᵢ‖²
//
// A row whose x̃ᵢ is 0 (no bias, all its features 0: the sparsified
// designs have some) is skipped by the solver, as by LIBLINEAR's, leaving
// its α at 0: its ξᵢ is 1 whatever W̃, so W̃ is still optimal, and the
// dual's optimum puts α_i^{yᵢ} = C·sᵢ there, which the gap counts.
func TestFitCrammerSingerOptimal(t *testing.T) {
	for key, in := range identicalInputs(t, "iris", "wine") {
		for _, tc := range []struct {
			bias, c float64
			weights bool
		}{{1, 1, false}, {0, 0.5, true}, {2, 10, true}} {
			t.Run(fmt.Sprintf("%s/%+v", key, tc), func(t *testing.T) {
				n, d := in.x.Dims()
				var s []float64
				if tc.weights {
					s = rowWeights(n, 3)
				}
				opt := Options{C: tc.c, Bias: tc.bias, Tol: tightTol, MaxIter: 100000, Seed: 5}
				r, err := FitCrammerSinger(in.x, in.y, in.k, s, opt)
				if err != nil {
					t.Fatal(err)
				}
				wt := make([][]float64, in.k) // the weights' w̃ₖ
				wa := make([][]float64, in.k) // Σᵢ α_i^k x̃ᵢ
				var p, dual float64
				var zeroRows int
				for k := range in.k {
					wt[k] = append(append([]float64(nil), r.W.RawRowView(k)...), 0)
					if tc.bias > 0 {
						wt[k][d] = r.B[k] / tc.bias
					}
					wa[k] = make([]float64, d+1)
					p += 0.5 * floats.Dot(wt[k], wt[k])
				}
				for i := range n {
					xi := append(append([]float64(nil), denseRow(in.x, i, d)...), max(tc.bias, 0))
					fy := floats.Dot(wt[in.y[i]], xi)
					xiMax := 0.0
					for k := range in.k {
						if k != in.y[i] {
							xiMax = max(xiMax, floats.Dot(wt[k], xi)+1-fy)
						}
						floats.AddScaled(wa[k], r.Alpha.At(i, k), xi)
					}
					si := 1.0
					if s != nil {
						si = s[i]
					}
					p += tc.c * si * xiMax
					dual += r.Alpha.At(i, in.y[i])
					if floats.Norm(xi, 2) == 0 {
						dual += tc.c*si - r.Alpha.At(i, in.y[i]) // α_i^{yᵢ} at its optimum
						zeroRows++
					}
					if a := r.Alpha.At(i, in.y[i]); a > tc.c*si+1e-12 || a < -1e-12 {
						t.Errorf("row %d: α_y = %v outside [0, C·s]", i, a)
					}
				}
				for k := range in.k {
					dual -= 0.5 * floats.Dot(wa[k], wa[k])
				}
				if gap := p - dual; gap < -1e-9*p || gap > 1e-6*p {
					t.Errorf("primal %.15g, dual %.15g: gap %.3g (%d iterations, converged %v)", p, dual, gap, r.Iterations, r.Converged)
				}
				if math.Abs(r.Objective-p) > 1e-9*p || (zeroRows == 0 && math.Abs(r.DualObjective-dual) > 1e-9*p) {
					t.Errorf("reported objectives %.15g, %.15g; from their definitions %.15g, %.15g", r.Objective, r.DualObjective, p, dual)
				}
			})
		}
	}
}
