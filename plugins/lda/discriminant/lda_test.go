package discriminant

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// TestLDAHandExample checks a 2-D two-class problem worked by hand.
// Both classes have the within-class deviations (1,1), (−1,−1), (1,0),
// (−1,0), so the pooled scatter is 2·[[4,2],[2,2]] and with N−K = 6
// Σ = [[4/3, 2/3], [2/3, 2/3]], Σ⁻¹ = [[3/2, −3/2], [−3/2, 3]].
// μ₀ = (0,0), μ₁ = (2,1), π = (½, ½).
//
// Textbook (LSQR solver, whose Σ has divisor N = 8, i.e. ¾ of the above,
// so Σ⁻¹ is 4/3 larger): coef₀ = 0, intercept₀ = log ½;
// coef₁ = (4/3)·Σ⁻¹μ₁ = (2, 0), intercept₁ = −½·μ₁ᵀcoef₁ + log ½ = −2 + log ½.
//
// SVD solver: the single between-class direction is Σ⁻¹(μ₁−μ₀), and
// sklearn's form is coef_k = Σ⁻¹(μ_k − x̄) with x̄ = (1, ½):
// coef₀ = (−¾, 0), coef₁ = (¾, 0); intercept_k = −½(μ_k−x̄)ᵀΣ⁻¹(μ_k−x̄)
// + log ½ − x̄ᵀcoef_k gives intercept₀ = ⅜ + log ½, intercept₁ = −9/8 + log ½.
// Differences (coef₁−coef₀ = (3/2, 0), intercept₁−intercept₀ = −3/2) are
// the textbook ones with divisor N−K.
func TestLDAHandExample(t *testing.T) {
	dev := [][2]float64{{1, 1}, {-1, -1}, {1, 0}, {-1, 0}}
	mu := [][2]float64{{0, 0}, {2, 1}}
	x := mat.NewDense(8, 2, nil)
	y := make([]int, 8)
	for c := range 2 {
		for i, dv := range dev {
			x.SetRow(4*c+i, []float64{mu[c][0] + dv[0], mu[c][1] + dv[1]})
			y[4*c+i] = c
		}
	}
	l := math.Log(0.5)
	for _, tc := range []struct {
		opts      LDAOptions
		coef      []float64
		intercept []float64
	}{
		{LDAOptions{}, []float64{-0.75, 0, 0.75, 0}, []float64{0.375 + l, -1.125 + l}},
		{LDAOptions{Solver: SolverLSQR}, []float64{0, 0, 2, 0}, []float64{l, -2 + l}},
	} {
		m, err := FitLDA(x, y, 2, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if !floats.EqualApprox(m.Coef.RawMatrix().Data, tc.coef, 1e-12) {
			t.Errorf("%v: coef %v, want %v", tc.opts.Solver, m.Coef.RawMatrix().Data, tc.coef)
		}
		if !floats.EqualApprox(m.Intercept, tc.intercept, 1e-12) {
			t.Errorf("%v: intercept %v, want %v", tc.opts.Solver, m.Intercept, tc.intercept)
		}
	}
	// SVD solver at x = (0, 3): δ₁ − δ₀ = 0 − 3/2; at x = (2, 0): +3/2.
	m, _ := FitLDA(x, y, 2, LDAOptions{})
	q := mat.NewDense(2, 2, []float64{0, 3, 2, 0})
	p := m.PredictProba(nil, q)
	s := 1 / (1 + math.Exp(-1.5))
	want := []float64{s, 1 - s, 1 - s, s}
	if !floats.EqualApprox(p.RawMatrix().Data, want, 1e-12) {
		t.Errorf("proba %v, want %v", p.RawMatrix().Data, want)
	}
	if got := m.Predict(nil, q); got[0] != 0 || got[1] != 1 {
		t.Errorf("predict %v, want [0 1]", got)
	}
	// One discriminant direction; it carries all between-class variance.
	if len(m.ExplainedVarianceRatio) != 1 || math.Abs(m.ExplainedVarianceRatio[0]-1) > 1e-12 {
		t.Errorf("explained variance ratio %v, want [1]", m.ExplainedVarianceRatio)
	}
}

// gaussianClasses draws n rows from K Gaussian classes in d dimensions with
// a shared random covariance and random means.
func gaussianClasses(rng *rand.Rand, n, d, k int) (*mat.Dense, []int) {
	a := mat.NewDense(d, d, nil)
	means := mat.NewDense(k, d, nil)
	for i := range d {
		for j := range d {
			a.Set(i, j, 0.5*rng.NormFloat64())
		}
		a.Set(i, i, a.At(i, i)+1)
		for c := range k {
			means.Set(c, i, 2*rng.NormFloat64())
		}
	}
	x := mat.NewDense(n, d, nil)
	y := make([]int, n)
	z := make([]float64, d)
	for i := range n {
		y[i] = rng.IntN(k)
		for j := range z {
			z[j] = rng.NormFloat64()
		}
		row := x.RawRowView(i)
		for j := range d {
			row[j] = means.At(y[i], j) + floats.Dot(a.RawRowView(j), z)
		}
	}
	return x, y
}

// directLDA computes the textbook discriminants with the pooled covariance
// divided by div and an explicit solve.
func directLDA(t *testing.T, x *mat.Dense, y []int, k int, div func(n, k int) float64) (*mat.Dense, []float64) {
	t.Helper()
	n, d := x.Dims()
	means := mat.NewDense(k, d, nil)
	counts := make([]float64, k)
	for i, c := range y {
		floats.Add(means.RawRowView(c), x.RawRowView(i))
		counts[c]++
	}
	for c := range k {
		floats.Scale(1/counts[c], means.RawRowView(c))
	}
	cov := mat.NewSymDense(d, nil)
	dev := mat.NewVecDense(d, nil)
	for i, c := range y {
		floats.SubTo(dev.RawVector().Data, x.RawRowView(i), means.RawRowView(c))
		cov.SymRankOne(cov, 1, dev)
	}
	cov.ScaleSym(1/div(n, k), cov)
	var chol mat.Cholesky
	if !chol.Factorize(cov) {
		t.Fatal("covariance not positive definite")
	}
	var w mat.Dense
	if err := chol.SolveTo(&w, means.T()); err != nil {
		t.Fatal(err)
	}
	coef := mat.DenseCopyOf(w.T())
	intercept := make([]float64, k)
	for c := range k {
		intercept[c] = -0.5*floats.Dot(coef.RawRowView(c), means.RawRowView(c)) + math.Log(counts[c]/float64(n))
	}
	return coef, intercept
}

// TestLDAMatchesClosedForm checks both solvers against δ_k(x) =
// xᵀΣ⁻¹μ_k − ½μ_kᵀΣ⁻¹μ_k + log π_k computed with a Cholesky solve on
// random full-rank problems (binary and multiclass, K > d and K ≤ d).
func TestLDAMatchesClosedForm(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n, d, k int
		seed    uint64
	}{
		{"binary", 60, 3, 2, 1},
		{"k3d5", 200, 5, 3, 2},
		{"k6d3", 300, 3, 6, 3},
		{"k10d8", 500, 8, 10, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, y := gaussianClasses(rand.New(rand.NewPCG(tc.seed, 7)), tc.n, tc.d, tc.k)
			for _, s := range []struct {
				opts LDAOptions
				div  func(n, k int) float64
			}{
				{LDAOptions{}, func(n, k int) float64 { return float64(n - k) }},
				{LDAOptions{Solver: SolverLSQR}, func(n, k int) float64 { return float64(n) }},
			} {
				m, err := FitLDA(x, y, tc.k, s.opts)
				if err != nil {
					t.Fatal(err)
				}
				coef, intercept := directLDA(t, x, y, tc.k, s.div)
				if s.opts.Solver == SolverSVD {
					// The SVD solver keeps only the between-class subspace
					// (dimension ≤ K−1), which changes every discriminant
					// by the same affine function of x: compare differences
					// to class 0.
					relativeTo0(m.Coef, m.Intercept)
					relativeTo0(coef, intercept)
				}
				if !mat.EqualApprox(m.Coef, coef, 1e-9) {
					t.Errorf("%v: coef\n%v\nwant\n%v", s.opts.Solver, mat.Formatted(m.Coef), mat.Formatted(coef))
				}
				if !floats.EqualApprox(m.Intercept, intercept, 1e-9) {
					t.Errorf("%v: intercept %v, want %v", s.opts.Solver, m.Intercept, intercept)
				}
			}
		})
	}
}

// relativeTo0 subtracts row 0 of coef and intercept[0] from every class.
func relativeTo0(coef *mat.Dense, intercept []float64) {
	k, _ := coef.Dims()
	c0 := mat.Row(nil, 0, coef)
	b0 := intercept[0]
	for c := range k {
		floats.Sub(coef.RawRowView(c), c0)
		intercept[c] -= b0
	}
}

// TestLDASingularCovariance appends a duplicated column, a constant column
// and a complete one-hot block (whose columns sum to 1) to a full-rank
// problem: the pooled covariance is singular, yet the SVD solver fits and
// gives the same discriminant values as on the full-rank reduced problem
// (the one-hot block minus its last column).
func TestLDASingularCovariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const n, d, k, levels = 240, 3, 3, 3
	xs, y := gaussianClasses(rng, n, d, k)
	cat := make([]int, n)
	for i := range cat {
		// Category depends on the class, so the block is informative.
		cat[i] = (y[i] + rng.IntN(2)) % levels
	}
	full := mat.NewDense(n, d+levels+2, nil)
	reduced := mat.NewDense(n, d+levels-1, nil)
	for i := range n {
		row := full.RawRowView(i)
		copy(row, xs.RawRowView(i))
		row[d+cat[i]] = 1
		row[d+levels] = row[0] // duplicate of column 0
		row[d+levels+1] = 3    // constant
		copy(reduced.RawRowView(i), row[:d+levels-1])
	}
	const ntr = 180
	fit := func(x *mat.Dense, opts LDAOptions) (*LDA, *mat.Dense) {
		_, c := x.Dims()
		m, err := FitLDA(x.Slice(0, ntr, 0, c).(*mat.Dense), y[:ntr], k, opts)
		if err != nil {
			t.Fatalf("fit %d columns: %v", c, err)
		}
		return m, m.DecisionFunction(nil, x.Slice(ntr, n, 0, c))
	}
	_, dRed := fit(reduced, LDAOptions{})
	mFull, dFull := fit(full, LDAOptions{})
	if !mat.EqualApprox(dFull, dRed, 1e-8) {
		t.Errorf("decision values differ with the singular columns:\n%v\nvs\n%v",
			mat.Formatted(dFull.Slice(0, 3, 0, k)), mat.Formatted(dRed.Slice(0, 3, 0, k)))
	}
	pf, pr := argmaxRows(nil, dFull), argmaxRows(nil, dRed)
	for i := range pf {
		if pf[i] != pr[i] {
			t.Errorf("test row %d: prediction %d with singular columns, %d without", i, pf[i], pr[i])
		}
	}
	if r, _ := mFull.Scalings.Dims(); r != d+levels+2 {
		t.Errorf("scalings have %d rows, want %d", r, d+levels+2)
	}
	// The LSQR solver needs shrinkage to make the covariance invertible; it
	// must still fit and give finite scores.
	for _, opts := range []LDAOptions{{Solver: SolverLSQR}, {Solver: SolverLSQR, Shrinkage: 0.1}, {Solver: SolverLSQR, AutoShrinkage: true}} {
		_, dl := fit(full, opts)
		for _, v := range dl.RawMatrix().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%+v: non-finite decision value %v", opts, v)
			}
		}
	}
}

// TestLDAAbsentClass fits with numClasses = 4 while class 2 has no sample:
// it is never predicted, has probability 0 and the other classes'
// discriminants equal those of a 3-class fit with relabelled classes.
func TestLDAAbsentClass(t *testing.T) {
	x, y3 := gaussianClasses(rand.New(rand.NewPCG(5, 6)), 120, 4, 3)
	y4 := make([]int, len(y3))
	for i, c := range y3 {
		y4[i] = c
		if c == 2 {
			y4[i] = 3
		}
	}
	for _, opts := range []LDAOptions{{}, {Solver: SolverLSQR, AutoShrinkage: true}} {
		m3, err := FitLDA(x, y3, 3, opts)
		if err != nil {
			t.Fatal(err)
		}
		m4, err := FitLDA(x, y4, 4, opts)
		if err != nil {
			t.Fatal(err)
		}
		d3 := m3.DecisionFunction(nil, x)
		d4 := m4.DecisionFunction(nil, x)
		p4 := m4.PredictProba(nil, x)
		for i := range y3 {
			for c3, c4 := range []int{0, 1, 3} {
				if math.Abs(d3.At(i, c3)-d4.At(i, c4)) > 1e-9 {
					t.Fatalf("%v row %d: class %d score %g, 3-class fit %g", opts.Solver, i, c4, d4.At(i, c4), d3.At(i, c3))
				}
			}
			if !math.IsInf(d4.At(i, 2), -1) || p4.At(i, 2) != 0 {
				t.Fatalf("%v row %d: absent class score %g, probability %g", opts.Solver, i, d4.At(i, 2), p4.At(i, 2))
			}
		}
		for i, p := range m4.Predict(nil, x) {
			if p == 2 {
				t.Fatalf("%v: absent class predicted for row %d", opts.Solver, i)
			}
		}
	}
}

// TestLDAProbaIsSoftmax checks that probabilities are the softmax of the
// decision values (rows sum to 1, log-ratios equal score differences).
func TestLDAProbaIsSoftmax(t *testing.T) {
	x, y := gaussianClasses(rand.New(rand.NewPCG(8, 9)), 90, 3, 4)
	m, err := FitLDA(x, y, 4, LDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := m.DecisionFunction(nil, x)
	p := m.PredictProba(nil, x)
	for i := range y {
		if s := floats.Sum(p.RawRowView(i)); math.Abs(s-1) > 1e-12 {
			t.Fatalf("row %d: probabilities sum to %g", i, s)
		}
		for c := 1; c < 4; c++ {
			lr := math.Log(p.At(i, c) / p.At(i, 0))
			if want := d.At(i, c) - d.At(i, 0); math.Abs(lr-want) > 1e-8*math.Max(1, math.Abs(want)) {
				t.Fatalf("row %d class %d: log ratio %g, score difference %g", i, c, lr, want)
			}
		}
	}
}

// TestLDATransform checks that the discriminant coordinates are
// uncorrelated with unit pooled within-class variance (divisor N−K).
func TestLDATransform(t *testing.T) {
	const n, k = 300, 4
	x, y := gaussianClasses(rand.New(rand.NewPCG(3, 4)), n, 5, k)
	m, err := FitLDA(x, y, k, LDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	z, err := m.Transform(nil, x)
	if err != nil {
		t.Fatal(err)
	}
	_, r := z.Dims()
	if r != k-1 {
		t.Fatalf("%d discriminant directions, want %d", r, k-1)
	}
	zm, err := FitLDA(z, y, k, LDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Within-class covariance of z is the identity, so LDA on z has
	// coef_k = mean_k(z).
	if !mat.EqualApprox(zm.Coef, zm.Means, 1e-9) {
		t.Errorf("LDA on transformed data: coef\n%v\n≠ means\n%v", mat.Formatted(zm.Coef), mat.Formatted(zm.Means))
	}
	if _, err := (&LDA{}).Transform(nil, x); err == nil {
		t.Error("Transform without scalings: no error")
	}
}

// TestFitLDAErrors checks the input validation.
func TestFitLDAErrors(t *testing.T) {
	x := mat.NewDense(4, 2, []float64{0, 1, 1, 0, 2, 2, 3, 1})
	for _, tc := range []struct {
		name    string
		y       []int
		k       int
		opts    LDAOptions
		wantErr string
	}{
		{"label count", []int{0, 1, 0}, 2, LDAOptions{}, "3 labels for 4 rows"},
		{"label range", []int{0, 1, 2, 0}, 2, LDAOptions{}, "outside 0..1"},
		{"negative label", []int{0, -1, 1, 0}, 0, LDAOptions{}, "outside"},
		{"too few samples", []int{0, 1, 2, 3}, 0, LDAOptions{}, "need more samples than classes"},
		{"shrinkage range", []int{0, 1, 0, 1}, 2, LDAOptions{Solver: SolverLSQR, Shrinkage: 1.5}, "outside [0, 1]"},
		{"shrinkage with svd", []int{0, 1, 0, 1}, 2, LDAOptions{Shrinkage: 0.5}, "requires SolverLSQR"},
		{"auto with svd", []int{0, 1, 0, 1}, 2, LDAOptions{AutoShrinkage: true}, "requires SolverLSQR"},
		{"unknown solver", []int{0, 1, 0, 1}, 2, LDAOptions{Solver: 7}, "unknown solver"},
		{"negative tol", []int{0, 1, 0, 1}, 2, LDAOptions{Tol: -1}, "negative tolerance"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FitLDA(x, tc.y, tc.k, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

// TestLDAConstantFeatures: with every feature constant no direction
// survives and the model predicts the majority class from the priors.
func TestLDAConstantFeatures(t *testing.T) {
	x := mat.NewDense(5, 2, []float64{1, 2, 1, 2, 1, 2, 1, 2, 1, 2})
	y := []int{0, 1, 1, 1, 0}
	m, err := FitLDA(x, y, 2, LDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{math.Log(0.4), math.Log(0.6)}
	if !floats.EqualApprox(m.Intercept, want, 1e-15) || mat.Norm(m.Coef, 1) != 0 {
		t.Errorf("coef %v intercept %v, want 0 and %v", m.Coef.RawMatrix().Data, m.Intercept, want)
	}
	if p := m.Predict(nil, x); p[0] != 1 {
		t.Errorf("predicted %d, want majority class 1", p[0])
	}
}
