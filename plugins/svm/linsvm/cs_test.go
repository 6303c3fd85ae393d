package linsvm

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// TestCrammerSingerLIBLINEAR checks the Crammer–Singer optimum against
// LIBLINEAR `-s 4` run to eps 1e-10 (testdata/gen_liblinear.py), on dense
// and CSR input. The primal is 1-strongly convex, so
// ½‖W̃ − W̃*‖² ≤ P − D must hold as well.
func TestCrammerSingerLIBLINEAR(t *testing.T) {
	ref := loadLibRef(t)
	for _, tc := range []struct {
		key, data string
		c         float64
	}{
		{"cs_iris_C1", "iris", 1},
		{"cs_wine_C1", "wine", 1},
		{"cs_wine_C10", "wine", 10},
		{"cs_vehicle_C1", "vehicle", 1},
	} {
		x, y, k := wholeFile(t, tc.data)
		want := ref[tc.key]
		for kind, rows := range map[string]Rows{"dense": NewDense(x), "csr": reftest.CSR(x)} {
			r, err := FitCrammerSinger(rows, y, k, nil, Options{C: tc.c, Bias: 1, Tol: tightTol})
			if err != nil {
				t.Fatal(err)
			}
			if !r.Converged {
				t.Errorf("%s/%s: not converged after %d iterations", tc.key, kind, r.Iterations)
			}
			if rel := math.Abs(r.Objective-want.Objective) / want.Objective; rel > 1e-6 {
				t.Errorf("%s/%s: objective %.12g, want %.12g (rel %.3g)", tc.key, kind, r.Objective, want.Objective, rel)
			}
			gap := r.Objective - r.DualObjective
			if math.Abs(gap) > 1e-8*r.Objective {
				t.Errorf("%s/%s: duality gap %.3g", tc.key, kind, gap)
			}
			var dist float64
			for m := range k {
				dd := floats.Distance(r.W.RawRowView(m), want.W[m], 2)
				dist += dd*dd + (r.B[m]-want.B[m])*(r.B[m]-want.B[m])
			}
			if bound := 2*max(want.Objective-r.DualObjective, 0) + 1e-8; dist > bound {
				t.Errorf("%s/%s: ‖ΔW̃‖² = %.3g exceeds strong-convexity bound %.3g", tc.key, kind, dist, bound)
			}
		}
	}
}

// TestCrammerSingerKKT checks the dual feasibility and optimality
// conditions at a tight tolerance: Σₖ α_i^k = 0, α_i^{yᵢ} ≤ C, α_i^k ≤ 0
// (k ≠ yᵢ), W̃ = Σ αᵢ x̃ᵢ (to rounding), and complementary slackness: with
// gₖ = fₖ(xᵢ) + 1 − [yᵢ=k] and ξᵢ = maxₖ gₖ − f_{yᵢ}(xᵢ), every k with
// α_i^k ≠ 0 (other than the slack-bound case) attains the max of gₖ, and
// rows with α_i^{yᵢ} < C have ξᵢ ≈ 0.
func TestCrammerSingerKKT(t *testing.T) {
	x, y, k := wholeFile(t, "vehicle")
	n, d := x.Dims()
	const c, eps = 1.0, 1e-6
	r, err := FitCrammerSinger(NewDense(x), y, k, nil, Options{C: c, Bias: 1, Tol: tightTol, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	wt := mat.NewDense(k, d+1, nil)
	f := make([]float64, k)
	var atC, inner int
	for i := range n {
		a := r.Alpha.RawRowView(i)
		if s := floats.Sum(a); math.Abs(s) > 1e-12 {
			t.Errorf("row %d: Σα = %v", i, s)
		}
		r.Decision(f, NewDense(x), i)
		gmax := math.Inf(-1)
		for m := range k {
			g := f[m] + 1
			if m == y[i] {
				g--
			}
			gmax = max(gmax, g)
		}
		for m := range k {
			g := f[m] + 1
			if m == y[i] {
				g--
				if a[m] > c || a[m] < -1e-12 { // α_y = −Σ others ≥ 0 up to rounding
					t.Errorf("row %d: α_y = %v outside [0, C]", i, a[m])
				}
			} else if a[m] > 0 {
				t.Errorf("row %d class %d: α = %v > 0", i, m, a[m])
			}
			// α_i^k < 0 only where the constraint for k is active.
			if m != y[i] && a[m] < 0 && g < gmax-eps {
				t.Errorf("row %d class %d: α = %v but g = %v < max %v", i, m, a[m], g, gmax)
			}
			for j := range d {
				wt.Set(m, j, wt.At(m, j)+a[m]*x.At(i, j))
			}
			wt.Set(m, d, wt.At(m, d)+a[m])
		}
		xi := gmax - f[y[i]]
		if a[y[i]] < c {
			inner++
			if xi > eps {
				t.Errorf("row %d: α_y = %v < C but slack %v > 0", i, a[y[i]], xi)
			}
		} else {
			atC++
		}
	}
	if atC == 0 || inner == 0 {
		t.Errorf("degenerate test: %d rows at C, %d inside", atC, inner)
	}
	for m := range k {
		got := append(append([]float64(nil), r.W.RawRowView(m)...), r.B[m])
		// W̃ is updated incrementally over ~10⁴ passes, so allow drift.
		if dd := floats.Distance(got, wt.RawRowView(m), math.Inf(1)); dd > 1e-7 {
			t.Errorf("class %d: W̃ differs from Σαx̃ by %.3g", m, dd)
		}
	}
}

// TestCrammerSingerDenseCSRDefaultTol checks dense and CSR input agree on a
// sparse design at the default tolerance, and that the default tolerance
// converges with a small gap.
func TestCrammerSingerDenseCSRDefaultTol(t *testing.T) {
	ds := reftest.Load(t, "digits")
	x := mat.DenseCopyOf(ds.X)
	x.Scale(1.0/16, x)
	opt := DefaultOptions()
	rd, err := FitCrammerSinger(NewDense(x), ds.Y, 10, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := FitCrammerSinger(reftest.CSR(x), ds.Y, 10, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.EqualApprox(rd.W, rs.W, 1e-8) || !floats.EqualApprox(rd.B, rs.B, 1e-8) {
		t.Errorf("dense and CSR models differ")
	}
	if gap := (rd.Objective - rd.DualObjective) / rd.Objective; !rd.Converged || gap < 0 || gap > 0.05 {
		t.Errorf("default tol: converged %v, relative gap %.3g", rd.Converged, gap)
	}
}

// TestCrammerSingerWorkedExample: two classes, one point each, x = ±1, no
// bias. By symmetry w₁ = −w₀ = (v), and ξ = max(0, 1 − 2v) for both rows,
// so P = v² + 2C·max(0, 1−2v): v = min(2C, ½).
func TestCrammerSingerWorkedExample(t *testing.T) {
	x := NewDense(mat.NewDense(2, 1, []float64{-1, 1}))
	y := []int{0, 1}
	for _, c := range []float64{0.1, 0.3, 0.5, 2} {
		r, err := FitCrammerSinger(x, y, 2, nil, Options{C: c, Tol: 1e-12})
		if err != nil {
			t.Fatal(err)
		}
		v := math.Min(2*c, 0.5)
		if math.Abs(r.W.At(1, 0)-v) > 1e-9 || math.Abs(r.W.At(0, 0)+v) > 1e-9 {
			t.Errorf("C=%v: W = %v, want ±%v", c, mat.Formatted(r.W.T()), v)
		}
		if obj := v*v + 2*c*math.Max(0, 1-2*v); math.Abs(r.Objective-obj) > 1e-9 {
			t.Errorf("C=%v: objective %v, want %v", c, r.Objective, obj)
		}
	}
}

// TestCrammerSingerInputErrors checks argument validation.
func TestCrammerSingerInputErrors(t *testing.T) {
	x := NewDense(mat.NewDense(2, 1, []float64{1, -1}))
	for _, tc := range []struct {
		name string
		y    []int
		k    int
		s    []float64
	}{
		{"one class", []int{0, 0}, 1, nil},
		{"class range", []int{0, 2}, 2, nil},
		{"negative class", []int{0, -1}, 2, nil},
		{"length", []int{0}, 2, nil},
		{"weights", []int{0, 1}, 2, []float64{1, math.Inf(1)}},
	} {
		if _, err := FitCrammerSinger(x, tc.y, tc.k, tc.s, Options{}); !errors.Is(err, ErrInput) {
			t.Errorf("%s: error %v, want ErrInput", tc.name, err)
		}
	}
}
