package discriminant

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Ridge is a fitted multi-output linear regression t ≈ Intercept + xᵀ·Coef
// with d features and M outputs.
type Ridge struct {
	// Coef is d×M.
	Coef *mat.Dense
	// Intercept has length M.
	Intercept []float64
	// Rank is the numerical rank of the centred (weighted) design.
	Rank int
}

// FitRidge minimises Σᵢ wᵢ·‖tᵢ − b − Bᵀxᵢ‖² + ridge·‖B‖²_F over the
// intercept b (never penalised) and the d×M coefficients B, for the rows
// xᵢ of x and tᵢ of t (N×M). weights nil means all 1; weights must be
// non-negative with a positive sum.
//
// The intercept is eliminated by centring x and t on their weighted means;
// the centred problem is solved through one thin SVD UΣVᵀ of the weighted
// centred design: B = V·diag(σ/(σ²+ridge))·Uᵀ·T. With ridge = 0 this is
// ordinary least squares; singular values at most eps·max(N, d)·σ_max are
// treated as zero (numpy.linalg.lstsq's default), giving the minimum-norm
// solution when the design is rank deficient.
func FitRidge(x *mat.Dense, t mat.Matrix, weights []float64, ridge float64) (*Ridge, error) {
	if x == nil || t == nil {
		return nil, errors.New("discriminant: FitRidge: nil x or t")
	}
	n, d := x.Dims()
	nt, m := t.Dims()
	if nt != n {
		return nil, fmt.Errorf("discriminant: FitRidge: x has %d rows, t %d", n, nt)
	}
	if n == 0 || d == 0 || m == 0 {
		return nil, fmt.Errorf("discriminant: FitRidge: empty problem (%d rows, %d features, %d outputs)", n, d, m)
	}
	if ridge < 0 || math.IsNaN(ridge) || math.IsInf(ridge, 0) {
		return nil, fmt.Errorf("discriminant: FitRidge: invalid ridge %g", ridge)
	}
	if weights != nil && len(weights) != n {
		return nil, fmt.Errorf("discriminant: FitRidge: %d weights for %d rows", len(weights), n)
	}
	var wsum float64
	for i := 0; i < n; i++ {
		w := weightAt(weights, i)
		if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("discriminant: FitRidge: invalid weight %g at row %d", w, i)
		}
		wsum += w
	}
	if wsum <= 0 {
		return nil, errors.New("discriminant: FitRidge: weights sum to zero")
	}
	xbar := make([]float64, d)
	tbar := make([]float64, m)
	trow := make([]float64, m)
	for i := 0; i < n; i++ {
		w := weightAt(weights, i) / wsum
		floats.AddScaled(xbar, w, x.RawRowView(i))
		mat.Row(trow, i, t)
		floats.AddScaled(tbar, w, trow)
	}
	a := mat.NewDense(n, d, nil)
	b := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		sw := math.Sqrt(weightAt(weights, i))
		ar := a.RawRowView(i)
		floats.SubTo(ar, x.RawRowView(i), xbar)
		floats.Scale(sw, ar)
		br := b.RawRowView(i)
		mat.Row(br, i, t)
		floats.Sub(br, tbar)
		floats.Scale(sw, br)
	}
	r := &Ridge{Coef: mat.NewDense(d, m, nil), Intercept: tbar}
	var svd mat.SVD
	if err := factorize(&svd, a, mat.SVDThin, "the design"); err != nil {
		return nil, fmt.Errorf("discriminant: FitRidge: %w", err)
	}
	s := svd.Values(nil)
	cutoff := epsilon * float64(max(n, d)) * s[0]
	f := make([]float64, len(s))
	for j, sv := range s {
		if sv > cutoff && sv > 0 {
			r.Rank++
			f[j] = sv / (sv*sv + ridge)
		} else if ridge > 0 {
			f[j] = sv / (sv*sv + ridge)
		}
	}
	if s[0] > 0 {
		var u, v, utb mat.Dense
		svd.UTo(&u)
		svd.VTo(&v)
		utb.Mul(u.T(), b) // k×M
		for j := range f {
			floats.Scale(f[j], utb.RawRowView(j))
		}
		r.Coef.Mul(&v, &utb)
	}
	// Intercept = t̄ − x̄ᵀB.
	var xb mat.VecDense
	xb.MulVec(r.Coef.T(), mat.NewVecDense(d, xbar))
	for j := 0; j < m; j++ {
		r.Intercept[j] -= xb.AtVec(j)
	}
	return r, nil
}

func weightAt(w []float64, i int) float64 {
	if w == nil {
		return 1
	}
	return w[i]
}

// Predict stores Intercept + xᵢᵀ·Coef for each row of x in dst (which must
// be empty or N×M; nil allocates) and returns it.
func (r *Ridge) Predict(dst *mat.Dense, x mat.Matrix) *mat.Dense {
	if dst == nil {
		dst = &mat.Dense{}
	}
	dst.Mul(x, r.Coef)
	n, m := dst.Dims()
	for i := 0; i < n; i++ {
		floats.Add(dst.RawRowView(i)[:m], r.Intercept)
	}
	return dst
}

// LSQ is least-squares (optionally ridge) regression of the one-hot class
// indicator matrix on the features, predicting the class with the largest
// fitted indicator. It suffers from masking: with K ≥ 3 classes a class
// can be dominated everywhere (see ESL §4.2).
type LSQ struct {
	// Ridge holds the K-output regression (Coef is d×K).
	Ridge *Ridge
}

// FitLSQ regresses the N×K indicator matrix Y (Y_ik = 1 when y_i = k) on
// x with an unpenalised intercept and penalty ridge on the coefficients
// (0 = ordinary least squares, minimum-norm when rank deficient); see
// FitRidge. numClasses ≤ 0 means max(y)+1; weights nil means all 1.
func FitLSQ(x *mat.Dense, y []int, numClasses int, weights []float64, ridge float64) (*LSQ, error) {
	if x == nil {
		return nil, errors.New("discriminant: FitLSQ: nil x")
	}
	n, _ := x.Dims()
	if len(y) != n {
		return nil, fmt.Errorf("discriminant: FitLSQ: %d labels for %d rows", len(y), n)
	}
	k, err := numClassesOf(y, numClasses)
	if err != nil {
		return nil, fmt.Errorf("discriminant: FitLSQ: %w", err)
	}
	ind := mat.NewDense(n, k, nil)
	for i, c := range y {
		ind.Set(i, c, 1)
	}
	r, err := FitRidge(x, ind, weights, ridge)
	if err != nil {
		return nil, fmt.Errorf("discriminant: FitLSQ: %w", err)
	}
	return &LSQ{Ridge: r}, nil
}

// DecisionFunction stores the N×K fitted indicator values of the rows of x
// in dst (empty or N×K; nil allocates) and returns it.
func (l *LSQ) DecisionFunction(dst *mat.Dense, x mat.Matrix) *mat.Dense {
	return l.Ridge.Predict(dst, x)
}

// Predict stores the argmax class of each row of x in dst (reused when its
// length matches) and returns it.
func (l *LSQ) Predict(dst []int, x mat.Matrix) []int {
	return argmaxRows(dst, l.DecisionFunction(nil, x))
}
