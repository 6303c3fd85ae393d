package discriminant

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// randomRegression returns an n×d design, n×m targets and positive weights.
func randomRegression(seed uint64, n, d, m int) (x, t *mat.Dense, w []float64) {
	rng := rand.New(rand.NewPCG(seed, 99))
	x = mat.NewDense(n, d, nil)
	t = mat.NewDense(n, m, nil)
	w = make([]float64, n)
	for i := range n {
		for j := range d {
			x.Set(i, j, rng.NormFloat64()+float64(j)) // non-zero column means
		}
		for j := range m {
			t.Set(i, j, rng.NormFloat64()+3*float64(j)*x.At(i, 0))
		}
		w[i] = 0.2 + rng.Float64()
	}
	return x, t, w
}

// normalEquations solves (ZᵀWZ + ridge·D)β = ZᵀWT with Z = [1 X] and
// D = diag(0, 1, …, 1) (intercept unpenalised) by a Cholesky
// factorisation, returning β ((d+1)×m, intercept first).
func normalEquations(t *testing.T, x, tg *mat.Dense, w []float64, ridge float64) *mat.Dense {
	t.Helper()
	n, d := x.Dims()
	z := mat.NewDense(n, d+1, nil)
	wz := mat.NewDense(n, d+1, nil)
	for i := range n {
		z.Set(i, 0, 1)
		copy(z.RawRowView(i)[1:], x.RawRowView(i))
		floats.ScaleTo(wz.RawRowView(i), weightAt(w, i), z.RawRowView(i))
	}
	var a mat.Dense
	a.Mul(wz.T(), z)
	for j := 1; j <= d; j++ {
		a.Set(j, j, a.At(j, j)+ridge)
	}
	var chol mat.Cholesky
	if !chol.Factorize(mat.NewSymDense(d+1, a.RawMatrix().Data)) {
		t.Fatal("normal equations not positive definite")
	}
	var rhs, beta mat.Dense
	rhs.Mul(wz.T(), tg)
	if err := chol.SolveTo(&beta, &rhs); err != nil {
		t.Fatal(err)
	}
	return &beta
}

// checkBeta compares a Ridge model with β from the normal equations.
func checkBeta(t *testing.T, r *Ridge, beta *mat.Dense, tol float64) {
	t.Helper()
	rows, _ := beta.Dims()
	if !floats.EqualApprox(r.Intercept, beta.RawRowView(0), tol) {
		t.Errorf("intercept %v, normal equations %v", r.Intercept, beta.RawRowView(0))
	}
	if !mat.EqualApprox(r.Coef, beta.Slice(1, rows, 0, len(r.Intercept)), tol) {
		t.Errorf("coef\n%v\nnormal equations\n%v", mat.Formatted(r.Coef), mat.Formatted(beta.Slice(1, rows, 0, len(r.Intercept))))
	}
}

// TestRidgeNormalEquations checks FitRidge against the normal equations
// (equivalently: the gradient of the objective vanishes at the solution),
// with and without weights, for ridge 0 (OLS, N > d) and ridge > 0.
func TestRidgeNormalEquations(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n, d, m  int
		ridge    float64
		weighted bool
	}{
		{"ols", 40, 5, 3, 0, false},
		{"wls", 40, 5, 3, 0, true},
		{"ridge", 40, 5, 3, 2.5, false},
		{"weighted ridge", 30, 8, 2, 0.7, true},
		{"ridge wide", 6, 10, 2, 1.3, true}, // d > N: only ridge makes it unique
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, tg, w := randomRegression(uint64(tc.n*tc.d), tc.n, tc.d, tc.m)
			if !tc.weighted {
				w = nil
			}
			r, err := FitRidge(x, tg, w, tc.ridge)
			if err != nil {
				t.Fatal(err)
			}
			checkBeta(t, r, normalEquations(t, x, tg, w, tc.ridge), 1e-9)
			if want := min(tc.n-1, tc.d); r.Rank != want {
				t.Errorf("rank %d, want %d", r.Rank, want)
			}
			// Predict is the fitted linear function.
			p := r.Predict(nil, x)
			for i := range tc.n {
				for j := range tc.m {
					want := r.Intercept[j] + floats.Dot(x.RawRowView(i), mat.Col(nil, j, r.Coef))
					if math.Abs(p.At(i, j)-want) > 1e-12*math.Max(1, math.Abs(want)) {
						t.Fatalf("predict[%d][%d] = %g, want %g", i, j, p.At(i, j), want)
					}
				}
			}
		})
	}
}

// TestRidgeOLSExactFit: with ridge 0 and noiseless targets the generating
// coefficients are recovered exactly.
func TestRidgeOLSExactFit(t *testing.T) {
	x, _, _ := randomRegression(3, 25, 4, 1)
	b := []float64{1.5, -2, 0, 0.25}
	tg := mat.NewDense(25, 1, nil)
	for i := range 25 {
		tg.Set(i, 0, 7+floats.Dot(x.RawRowView(i), b))
	}
	r, err := FitRidge(x, tg, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !floats.EqualApprox(r.Coef.RawMatrix().Data, b, 1e-12) || math.Abs(r.Intercept[0]-7) > 1e-12 {
		t.Errorf("coef %v intercept %v, want %v and 7", r.Coef.RawMatrix().Data, r.Intercept, b)
	}
}

// TestRidgeInterceptUnpenalised: shifting the targets by a constant moves
// only the intercept, shifting the features moves the intercept by
// −shift·B, and a huge penalty drives the coefficients to 0 while the
// intercept tends to the weighted target mean (it would go to 0 if it
// were penalised).
func TestRidgeInterceptUnpenalised(t *testing.T) {
	x, tg, w := randomRegression(17, 30, 3, 2)
	const ridge = 4.0
	base, err := FitRidge(x, tg, w, ridge)
	if err != nil {
		t.Fatal(err)
	}
	shift := []float64{100, -50}
	tShift := mat.NewDense(30, 2, nil)
	tShift.Apply(func(i, j int, v float64) float64 { return v + shift[j] }, tg)
	r, err := FitRidge(x, tShift, w, ridge)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.EqualApprox(r.Coef, base.Coef, 1e-10) {
		t.Error("target shift changed the coefficients")
	}
	for j := range shift {
		if math.Abs(r.Intercept[j]-base.Intercept[j]-shift[j]) > 1e-9 {
			t.Errorf("output %d: intercept moved by %g, want %g", j, r.Intercept[j]-base.Intercept[j], shift[j])
		}
	}
	xs := []float64{10, -20, 5}
	xShift := mat.NewDense(30, 3, nil)
	xShift.Apply(func(i, j int, v float64) float64 { return v + xs[j] }, x)
	r, err = FitRidge(xShift, tg, w, ridge)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.EqualApprox(r.Coef, base.Coef, 1e-10) {
		t.Error("feature shift changed the coefficients")
	}
	for j := range 2 {
		want := base.Intercept[j] - floats.Dot(xs, mat.Col(nil, j, base.Coef))
		if math.Abs(r.Intercept[j]-want) > 1e-9 {
			t.Errorf("output %d: intercept %g after feature shift, want %g", j, r.Intercept[j], want)
		}
	}
	r, err = FitRidge(x, tg, w, 1e12)
	if err != nil {
		t.Fatal(err)
	}
	wsum := floats.Sum(w)
	for j := range 2 {
		var mean float64
		for i := range 30 {
			mean += w[i] * tg.At(i, j) / wsum
		}
		if math.Abs(r.Intercept[j]-mean) > 1e-8 {
			t.Errorf("output %d: intercept %g under huge ridge, weighted mean %g", j, r.Intercept[j], mean)
		}
	}
	if n := mat.Norm(r.Coef, math.Inf(1)); n > 1e-8 {
		t.Errorf("coefficients %g under huge ridge, want ≈ 0", n)
	}
}

// TestRidgeRankDeficient: with a duplicated column and ridge 0 the fit is
// the minimum-norm OLS solution: the duplicates share the coefficient
// equally and the fitted values equal those without the duplicate.
func TestRidgeRankDeficient(t *testing.T) {
	x, tg, _ := randomRegression(23, 40, 3, 2)
	xd := mat.NewDense(40, 4, nil)
	for i := range 40 {
		copy(xd.RawRowView(i), x.RawRowView(i))
		xd.Set(i, 3, x.At(i, 1))
	}
	r3, err := FitRidge(x, tg, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	r4, err := FitRidge(xd, tg, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r4.Rank != 3 {
		t.Errorf("rank %d, want 3", r4.Rank)
	}
	if !mat.EqualApprox(r4.Predict(nil, xd), r3.Predict(nil, x), 1e-10) {
		t.Error("fitted values differ with the duplicated column")
	}
	for j := range 2 {
		if a, b, whole := r4.Coef.At(1, j), r4.Coef.At(3, j), r3.Coef.At(1, j); math.Abs(a-b) > 1e-10 || math.Abs(a+b-whole) > 1e-10 {
			t.Errorf("output %d: duplicate coefficients %g, %g; want both %g/2", j, a, b, whole)
		}
	}
}

// TestFitRidgeErrors checks the input validation.
func TestFitRidgeErrors(t *testing.T) {
	x := mat.NewDense(3, 1, []float64{1, 2, 3})
	tg := mat.NewDense(3, 1, []float64{1, 2, 3})
	for _, tc := range []struct {
		name    string
		t       *mat.Dense
		w       []float64
		ridge   float64
		wantErr string
	}{
		{"rows", mat.NewDense(2, 1, nil), nil, 0, "x has 3 rows, t 2"},
		{"negative ridge", tg, nil, -1, "invalid ridge"},
		{"weights length", tg, []float64{1, 1}, 0, "2 weights for 3 rows"},
		{"negative weight", tg, []float64{1, -1, 1}, 0, "invalid weight"},
		{"zero weights", tg, []float64{0, 0, 0}, 0, "sum to zero"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FitRidge(x, tc.t, tc.w, tc.ridge)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

// maskingData is the textbook masking example (ESL §4.2, figure 4.2):
// three classes on a line centred at −4, 0 and 4.
func maskingData() (*mat.Dense, []int) {
	var xs []float64
	var y []int
	for c, centre := range []float64{-4, 0, 4} {
		for _, off := range []float64{-1, -0.5, 0, 0.5, 1} {
			xs = append(xs, centre+off)
			y = append(y, c)
		}
	}
	return mat.NewDense(len(xs), 1, xs), y
}

// TestLSQMasking: by symmetry the middle class's least-squares indicator
// fit is flat at 1/3, while the outer classes' lines cross at 1/3 over
// x = 0, so LSQ never predicts the middle class; LDA does, for every
// middle training point. With the quadratic term x² added (ESL's remedy)
// LSQ recovers it.
func TestLSQMasking(t *testing.T) {
	x, y := maskingData()
	lsq, err := FitLSQ(x, y, 3, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if s, b := lsq.Ridge.Coef.At(0, 1), lsq.Ridge.Intercept[1]; math.Abs(s) > 1e-12 || math.Abs(b-1.0/3) > 1e-12 {
		t.Errorf("middle indicator fit slope %g intercept %g, want 0 and 1/3", s, b)
	}
	const ng = 1201
	grid := mat.NewDense(ng, 1, nil)
	for i := range ng {
		grid.Set(i, 0, -6.005+0.01*float64(i)) // never exactly 0
	}
	for i, p := range lsq.Predict(nil, grid) {
		if p == 1 {
			t.Fatalf("LSQ predicted the masked middle class at x = %g", grid.At(i, 0))
		}
	}
	lda, err := FitLDA(x, y, 3, LDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pl := lda.Predict(nil, x)
	pq := lsq.Predict(nil, x)
	for i := range y {
		if y[i] == 1 && pl[i] != 1 {
			t.Errorf("LDA predicted %d for middle-class point x = %g", pl[i], x.At(i, 0))
		}
		if y[i] != 1 && (pl[i] != y[i] || pq[i] != y[i]) {
			t.Errorf("outer point x = %g: LDA %d, LSQ %d, want %d", x.At(i, 0), pl[i], pq[i], y[i])
		}
	}
	xq := mat.NewDense(len(y), 2, nil)
	for i := range y {
		v := x.At(i, 0)
		xq.SetRow(i, []float64{v, v * v})
	}
	quad, err := FitLSQ(xq, y, 3, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if acc := reftest.Accuracy(quad.Predict(nil, xq), y); acc != 1 {
		t.Errorf("LSQ on (x, x²): training accuracy %g, want 1", acc)
	}
}

// TestLSQIsRidgeOnIndicators: FitLSQ equals FitRidge on the one-hot
// targets, and its decision values sum to 1 in every row (the indicator
// columns sum to 1 and the intercept is unpenalised).
func TestLSQIsRidgeOnIndicators(t *testing.T) {
	x, y := gaussianClasses(rand.New(rand.NewPCG(31, 32)), 80, 4, 4)
	_, w := x.Dims()
	weights := make([]float64, len(y))
	for i := range weights {
		weights[i] = 1 + float64(i%3)
	}
	for _, ridge := range []float64{0, 3} {
		l, err := FitLSQ(x, y, 4, weights, ridge)
		if err != nil {
			t.Fatal(err)
		}
		ind := mat.NewDense(len(y), 4, nil)
		for i, c := range y {
			ind.Set(i, c, 1)
		}
		r, err := FitRidge(x, ind, weights, ridge)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.EqualApprox(l.Ridge.Coef, r.Coef, 1e-12) || !floats.EqualApprox(l.Ridge.Intercept, r.Intercept, 1e-12) {
			t.Errorf("ridge %g: LSQ differs from FitRidge on indicators", ridge)
		}
		d := l.DecisionFunction(nil, x)
		for i := range y {
			if s := floats.Sum(d.RawRowView(i)); math.Abs(s-1) > 1e-10 {
				t.Fatalf("ridge %g row %d: decision values sum to %g", ridge, i, s)
			}
		}
		if r, c := l.Ridge.Coef.Dims(); r != w || c != 4 {
			t.Errorf("coef is %d×%d, want %d×4", r, c, w)
		}
	}
	if _, err := FitLSQ(x, y[:5], 4, nil, 0); err == nil {
		t.Error("FitLSQ with mismatched labels: no error")
	}
}
