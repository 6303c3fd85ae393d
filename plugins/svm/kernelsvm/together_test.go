package kernelsvm

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// togetherRef is testdata/together_qp_ref.json, written by
// scripts/cs_qp_reference.py (cvxopt.solvers.qp).
type togetherRef struct {
	Problems []togetherProblem `json:"problems"`
}

type togetherProblem struct {
	Name      string      `json:"name"`
	Method    string      `json:"method"`
	Kernel    string      `json:"kernel"`
	Gamma     float64     `json:"gamma"`
	Degree    int         `json:"degree"`
	Bias      float64     `json:"bias"`
	C         float64     `json:"C"`
	K         int         `json:"k"`
	Weights   []float64   `json:"weights"`
	X         [][]float64 `json:"x"`
	Y         []int       `json:"y"`
	Objective float64     `json:"objective"`
	Alpha     [][]float64 `json:"alpha"`
}

func loadTogetherRef(t *testing.T) []togetherProblem {
	t.Helper()
	b, err := os.ReadFile("testdata/together_qp_ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref togetherRef
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	return ref.Problems
}

func (p *togetherProblem) design() *mat.Dense {
	x := mat.NewDense(len(p.X), len(p.X[0]), nil)
	for i, r := range p.X {
		x.SetRow(i, r)
	}
	return x
}

func (p *togetherProblem) problem() Problem {
	rows := make([]int, len(p.Y))
	for i := range rows {
		rows[i] = i
	}
	return Problem{Rows: rows, Classes: p.Y, NumClasses: p.K, Weights: p.Weights}
}

func (p *togetherProblem) kernel() Kernel {
	return Kernel{Type: p.Kernel, Gamma: p.Gamma, Degree: p.Degree}
}

func (p *togetherProblem) options(eps float64) TogetherOptions {
	return TogetherOptions{
		Options: Options{Kernel: p.kernel(), C: p.C, Eps: eps},
		Method:  p.Method, Bias: p.Bias,
	}
}

// exactDual evaluates, in float64 from the kernel in k_function's form,
// the outputs F (n×K) of dual variables alpha and the dual objective in
// maximisation form.
func exactDual(p *togetherProblem, alpha *mat.Dense) (f *mat.Dense, obj float64) {
	n, k := alpha.Dims()
	m := methodOf(p.Method, k)
	kern := p.kernel()
	c := mat.NewDense(n, k, nil)
	for i := range n {
		m.coef(c.RawRowView(i), alpha.RawRowView(i), p.Y[i])
	}
	gram := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			gram.Set(i, j, kern.value(nil, p.X[i], nil, p.X[j])+p.Bias*p.Bias)
		}
	}
	f = mat.NewDense(n, k, nil)
	f.Mul(gram, c)
	var lin, quad float64
	for i := range n {
		lin += m.linear(alpha.RawRowView(i), p.Y[i])
		quad += mat.Dot(c.RowView(i), f.RowView(i))
	}
	return f, lin - quad/2
}

// maxViolation returns the largest KKT violation of alpha given outputs f.
func maxViolation(p *togetherProblem, f, alpha *mat.Dense) float64 {
	n, k := alpha.Dims()
	m := methodOf(p.Method, k)
	var v float64
	for i := range n {
		v = max(v, m.violation(f.RawRowView(i), alpha.RawRowView(i), p.Y[i], p.bound(i)))
	}
	return v
}

func (p *togetherProblem) bound(i int) float64 {
	if p.Weights == nil {
		return p.C
	}
	return p.C * p.Weights[i]
}

// checkFeasible reports the first dual variable outside the method's
// feasible set (CS: αᵢᵐ ≤ Cᵢ[m = yᵢ], Σₘ αᵢᵐ = 0; WW: 0 ≤ αᵢᵐ ≤ Cᵢ,
// αᵢ^{yᵢ} = 0).
func checkFeasible(t *testing.T, p *togetherProblem, alpha *mat.Dense) {
	t.Helper()
	n, k := alpha.Dims()
	for i := range n {
		a, y, c := alpha.RawRowView(i), p.Y[i], p.bound(i)
		var sum float64
		for m, v := range a {
			sum += v
			switch {
			case p.Method == CrammerSinger && v > csBound(y, m, c):
				t.Errorf("row %d: α^%d = %v above its bound %v", i, m, v, csBound(y, m, c))
			case p.Method == WestonWatkins && m == y && v != 0:
				t.Errorf("row %d: α of its own class = %v, want 0", i, v)
			case p.Method == WestonWatkins && (v < 0 || v > c):
				t.Errorf("row %d: α^%d = %v outside [0, %v]", i, m, v, c)
			}
		}
		if p.Method == CrammerSinger && math.Abs(sum) > 1e-12*c*float64(k) {
			t.Errorf("row %d: Σₘ αᵐ = %v, want 0", i, sum)
		}
	}
}

// TestTogetherQPParity checks both all-together solvers against the
// optima cvxopt's general QP solver finds (scripts/cs_qp_reference.py):
// the dual objective at the returned variables, evaluated in float64,
// equals cvxopt's to 1e-6 (relative), the variables are feasible and
// satisfy the KKT conditions to the solver's eps; the objective formula
// is checked on cvxopt's own variables.
func TestTogetherQPParity(t *testing.T) {
	const eps = 1e-8
	for _, p := range loadTogetherRef(t) {
		t.Run(p.Name, func(t *testing.T) {
			ref := mat.NewDense(len(p.Alpha), p.K, nil)
			for i, r := range p.Alpha {
				ref.SetRow(i, r)
			}
			if _, obj := exactDual(&p, ref); math.Abs(obj-p.Objective) > 1e-9*math.Abs(p.Objective) {
				t.Fatalf("objective of cvxopt's variables = %.12g, cvxopt says %.12g: the formulas differ", obj, p.Objective)
			}
			m, err := TrainTogether(context.Background(), NewDense(p.design()), p.problem(), p.options(eps))
			if err != nil {
				t.Fatal(err)
			}
			if !m.Converged() {
				t.Fatalf("not converged after %d sub-problems", m.Iterations())
			}
			_, alpha := m.Dual()
			checkFeasible(t, &p, alpha)
			f, obj := exactDual(&p, alpha)
			if rel := math.Abs(obj-p.Objective) / math.Abs(p.Objective); rel > 1e-6 {
				t.Errorf("dual objective %.12g, cvxopt %.12g: relative difference %.3g > 1e-6", obj, p.Objective, rel)
			}
			if rel := math.Abs(m.DualObjective()-obj) / math.Abs(obj); rel > 1e-6 {
				t.Errorf("reported dual objective %.12g, exact %.12g", m.DualObjective(), obj)
			}
			v := maxViolation(&p, f, alpha)
			if v > kktTol(eps, &p) {
				t.Errorf("largest KKT violation %.3g > %.3g", v, kktTol(eps, &p))
			}
			t.Logf("objective %.12g (cvxopt %.12g, relative difference %.2g), KKT violation %.2g, %d sub-problems, %d support vectors",
				obj, p.Objective, math.Abs(obj-p.Objective)/math.Abs(p.Objective), v, m.Iterations(), m.NumSV())
		})
	}
}

// kktTol is the largest KKT violation the tests accept from a solve with
// eps: the solver checks eps on outputs it recomputed in float64, which
// differ from the tests' by rounding alone.
func kktTol(eps float64, _ *togetherProblem) float64 { return eps * (1 + 1e-6) }

// blobs returns n rows of d features around k random centres (classes
// i mod k, shuffled), drawn from seed.
func blobs(n, k, d int, spread float64, seed uint64) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, 7))
	centres := make([]float64, k*d)
	for i := range centres {
		centres[i] = 1.5 * rng.NormFloat64()
	}
	x := mat.NewDense(n, d, nil)
	y := make([]int, n)
	for i := range n {
		y[i] = i % k
	}
	rng.Shuffle(n, func(i, j int) { y[i], y[j] = y[j], y[i] })
	for i := range n {
		for j := range d {
			x.Set(i, j, centres[y[i]*d+j]+spread*rng.NormFloat64())
		}
	}
	return x, y
}

// primal returns the primal objective of the outputs f (n×K, exact) of
// dual variables alpha: ½Σₘ‖wₘ‖² + Σᵢ Cᵢ·ξᵢ with ξᵢ = maxₘ(fᵢᵐ + eᵢᵐ) −
// fᵢ^{yᵢ} (CS) or Σ_{m≠yᵢ} max(0, 2 − fᵢ^{yᵢ} + fᵢᵐ) (WW).
func primal(p *togetherProblem, f, alpha *mat.Dense) float64 {
	n, k := alpha.Dims()
	m := methodOf(p.Method, k)
	c := make([]float64, k)
	var quad, loss float64
	for i := range n {
		fi, y := f.RawRowView(i), p.Y[i]
		m.coef(c, alpha.RawRowView(i), y)
		for j := range k {
			quad += c[j] * fi[j]
		}
		var xi float64
		for j := range k {
			switch {
			case p.Method == CrammerSinger:
				xi = max(xi, csGrad(fi, y, j)-fi[y])
			case j != y:
				xi += max(0, 2-fi[y]+fi[j])
			}
		}
		loss += p.bound(i) * xi
	}
	return quad/2 + loss
}

// gapFactor returns Σᵢ Cᵢ (CS) or (K − 1)·Σᵢ Cᵢ (WW): the duality gap is
// at most it times the largest KKT violation.
func gapFactor(p *togetherProblem) float64 {
	var s float64
	for i := range p.Y {
		s += p.bound(i)
	}
	if p.Method == WestonWatkins {
		s *= float64(p.K - 1)
	}
	return s
}

// TestTogetherDualityGap checks, on generated problems of both methods,
// kernels and several C, with and without shrinking, that the solution
// at eps = 1e-8 satisfies the KKT conditions and closes the duality gap
// (0 ≤ primal − dual ≤ the bound the KKT violation gives); and that
// shrinking does not change the optimum.
func TestTogetherDualityGap(t *testing.T) {
	const eps = 1e-8
	cases := []struct {
		method, kernel string
		n, k           int
		gamma, bias, c float64
	}{
		{CrammerSinger, RBF, 120, 5, 0.5, 0, 1},
		{CrammerSinger, RBF, 150, 3, 2, 1, 100},
		{CrammerSinger, Linear, 100, 4, 0, 1, 0.5},
		{CrammerSinger, Poly, 80, 3, 0.5, 0, 1},
		{WestonWatkins, RBF, 120, 5, 0.5, 0, 1},
		{WestonWatkins, RBF, 150, 3, 2, 1, 100},
		{WestonWatkins, Linear, 100, 4, 0, 1, 0.5},
		{WestonWatkins, Poly, 80, 3, 0.5, 0, 1},
	}
	for ci, tc := range cases {
		x, y := blobs(tc.n, tc.k, 3, 1, uint64(ci))
		p := togetherProblem{Method: tc.method, Kernel: tc.kernel, Gamma: tc.gamma, Degree: 3, Bias: tc.bias, C: tc.c, K: tc.k, Y: y}
		for i := range tc.n {
			p.X = append(p.X, x.RawRowView(i))
		}
		var objs []float64
		for _, shrink := range []bool{true, false} {
			name := fmt.Sprintf("%s/%s/C=%g/shrinking=%v", tc.method, tc.kernel, tc.c, shrink)
			t.Run(name, func(t *testing.T) {
				o := p.options(eps)
				o.NoShrinking = !shrink
				m, err := TrainTogether(context.Background(), NewDense(x), p.problem(), o)
				if err != nil {
					t.Fatal(err)
				}
				_, alpha := m.Dual()
				checkFeasible(t, &p, alpha)
				f, dual := exactDual(&p, alpha)
				pr := primal(&p, f, alpha)
				gap := pr - dual
				v := maxViolation(&p, f, alpha)
				if v > kktTol(eps, &p) {
					t.Errorf("largest KKT violation %.3g > %.3g", v, kktTol(eps, &p))
				}
				// Row i's share of the gap is at most Cᵢ·vᵢ (CS) or
				// (K−1)·Cᵢ·vᵢ (WW), vᵢ its KKT violation.
				bound := v * gapFactor(&p)
				if slack := 1e-9 * math.Abs(pr); gap < -slack || gap > bound+slack {
					t.Errorf("primal %.12g, dual %.12g: gap %.3g outside [0, %.3g]", pr, dual, gap, bound)
				}
				t.Logf("primal %.12g, gap %.3g (relative %.2g), KKT violation %.2g, %d sub-problems", pr, gap, gap/pr, v, m.Iterations())
				objs = append(objs, dual)
			})
		}
		if len(objs) == 2 && math.Abs(objs[0]-objs[1]) > 1e-7*math.Abs(objs[1]) {
			t.Errorf("case %d: dual %.12g with shrinking, %.12g without", ci, objs[0], objs[1])
		}
	}
}
