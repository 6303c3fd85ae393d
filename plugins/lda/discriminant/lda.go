package discriminant

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Solver selects how FitLDA computes the discriminant functions.
type Solver int

const (
	// SolverSVD is scikit-learn's solver="svd": it never forms the
	// covariance matrix, whitens the within-class scatter through an SVD of
	// the (column-scaled) within-class centred data, keeps the directions
	// whose singular value exceeds Tol, then keeps the between-class
	// directions with relative singular value above Tol. It handles a
	// singular covariance. Shrinkage is not available with it. The
	// covariance is the unbiased pooled estimate 1/(N−K)·Σ_k Σ_{i∈k}(xᵢ−μ_k)(xᵢ−μ_k)ᵀ.
	SolverSVD Solver = iota
	// SolverLSQR is scikit-learn's solver="lsqr": it forms the covariance
	// Σ = Σ_k π_k·C_k, where C_k is the (optionally shrunk) maximum-likelihood
	// covariance of class k (divisor N_k, so Σ has divisor N, not N−K as in
	// SolverSVD), and solves Σ·W = Mᵀ by minimum-norm least squares
	// (singular values below machine epsilon relative to the largest are
	// dropped, as scipy.linalg.lstsq does).
	SolverLSQR
)

// String returns the solver name as scikit-learn spells it.
func (s Solver) String() string {
	switch s {
	case SolverSVD:
		return "svd"
	case SolverLSQR:
		return "lsqr"
	default:
		return fmt.Sprintf("Solver(%d)", int(s))
	}
}

// DefaultTol is the rank tolerance of the SVD solver (scikit-learn's tol).
const DefaultTol = 1e-4

// LDAOptions configures FitLDA. The zero value is scikit-learn's default
// LinearDiscriminantAnalysis(): SVD solver, no shrinkage, tol 1e-4.
type LDAOptions struct {
	// Solver selects the algorithm; see SolverSVD and SolverLSQR.
	Solver Solver
	// Shrinkage in [0, 1] blends each class covariance C_k with
	// (trace(C_k)/d)·I: (1−Shrinkage)·C_k + Shrinkage·trace(C_k)/d·I, as
	// sklearn.covariance.shrunk_covariance. Requires SolverLSQR.
	Shrinkage float64
	// AutoShrinkage picks the shrinkage of each class by the Ledoit–Wolf
	// lemma computed on the class's standardised features, then rescales,
	// as scikit-learn's shrinkage="auto". Requires SolverLSQR and
	// overrides Shrinkage.
	AutoShrinkage bool
	// Tol is the SVD solver's rank threshold; 0 means DefaultTol.
	Tol float64
}

// LDA is a fitted linear discriminant analysis model with K classes and d
// features. The discriminant of class k is δ_k(x) = Coef_k·x + Intercept_k;
// the prediction is argmax_k δ_k(x) and the class probabilities are the
// softmax of the δ_k.
//
// With SolverSVD, Coef_k = Σ⁻¹μ_k and Intercept_k = −½μ_kᵀΣ⁻¹μ_k + log π_k
// up to an affine function of x common to all classes (the solver keeps
// only the ≤ K−1 between-class directions, as scikit-learn does), so
// predictions and probabilities are those of the textbook discriminants;
// when Σ is singular, Σ⁻¹ acts on the retained subspace only.
//
// A class index in 0..K−1 that has no training sample gets zero
// coefficients and intercept −Inf: it is never predicted and has
// probability 0.
type LDA struct {
	// Coef is K×d.
	Coef *mat.Dense
	// Intercept has length K.
	Intercept []float64
	// Means is K×d, the class means (zero rows for absent classes).
	Means *mat.Dense
	// Priors has length K: N_k/N.
	Priors []float64
	// Xbar is the prior-weighted mean of the class means (length d).
	Xbar []float64
	// Scalings (SolverSVD only) is d×r, the discriminant directions; nil
	// when r = 0. Transform projects onto them.
	Scalings *mat.Dense
	// ExplainedVarianceRatio (SolverSVD only) is the share of between-class
	// variance of each discriminant direction, at most min(K−1, d) values.
	ExplainedVarianceRatio []float64
	// Covariance (SolverLSQR only) is the d×d (shrunk) pooled covariance.
	Covariance *mat.Dense
}

// FitLDA fits linear discriminant analysis to the rows of x with classes y
// in 0..numClasses−1. numClasses ≤ 0 means max(y)+1. At least one more
// sample than the number of classes present is required.
func FitLDA(x *mat.Dense, y []int, numClasses int, opts LDAOptions) (*LDA, error) {
	if x == nil {
		return nil, errors.New("discriminant: FitLDA: nil x")
	}
	n, d := x.Dims()
	if d == 0 {
		return nil, errors.New("discriminant: FitLDA: no features")
	}
	if len(y) != n {
		return nil, fmt.Errorf("discriminant: FitLDA: %d labels for %d rows", len(y), n)
	}
	k, err := numClassesOf(y, numClasses)
	if err != nil {
		return nil, fmt.Errorf("discriminant: FitLDA: %w", err)
	}
	if opts.Tol < 0 || math.IsNaN(opts.Tol) {
		return nil, fmt.Errorf("discriminant: FitLDA: negative tolerance %g", opts.Tol)
	}
	if opts.Tol == 0 {
		opts.Tol = DefaultTol
	}
	if opts.Shrinkage < 0 || opts.Shrinkage > 1 || math.IsNaN(opts.Shrinkage) {
		return nil, fmt.Errorf("discriminant: FitLDA: shrinkage %g outside [0, 1]", opts.Shrinkage)
	}
	counts := make([]int, k)
	for _, c := range y {
		counts[c]++
	}
	present := 0
	for _, c := range counts {
		if c > 0 {
			present++
		}
	}
	if n <= present {
		return nil, fmt.Errorf("discriminant: FitLDA: %d samples for %d classes: need more samples than classes", n, present)
	}
	m := &LDA{
		Means:  mat.NewDense(k, d, nil),
		Priors: make([]float64, k),
		Xbar:   make([]float64, d),
	}
	for i := 0; i < n; i++ {
		floats.Add(m.Means.RawRowView(y[i]), x.RawRowView(i))
	}
	for c := 0; c < k; c++ {
		if counts[c] > 0 {
			floats.Scale(1/float64(counts[c]), m.Means.RawRowView(c))
			m.Priors[c] = float64(counts[c]) / float64(n)
			floats.AddScaled(m.Xbar, m.Priors[c], m.Means.RawRowView(c))
		}
	}
	switch opts.Solver {
	case SolverSVD:
		if opts.Shrinkage != 0 || opts.AutoShrinkage {
			return nil, errors.New("discriminant: FitLDA: shrinkage requires SolverLSQR")
		}
		err = m.solveSVD(x, y, counts, present, opts.Tol)
	case SolverLSQR:
		err = m.solveLSQR(x, y, counts, opts)
	default:
		err = fmt.Errorf("unknown solver %v", opts.Solver)
	}
	if err != nil {
		return nil, fmt.Errorf("discriminant: FitLDA (%v solver): %w", opts.Solver, err)
	}
	for c := 0; c < k; c++ {
		if counts[c] == 0 {
			m.Intercept[c] = math.Inf(-1)
		}
	}
	return m, nil
}

// numClassesOf validates y against numClasses (or infers it).
func numClassesOf(y []int, numClasses int) (int, error) {
	if len(y) == 0 {
		return 0, errors.New("no samples")
	}
	maxY := -1
	for i, c := range y {
		if c < 0 || (numClasses > 0 && c >= numClasses) {
			return 0, fmt.Errorf("label %d of row %d outside 0..%d", c, i, numClasses-1)
		}
		maxY = max(maxY, c)
	}
	if numClasses <= 0 {
		numClasses = maxY + 1
	}
	return numClasses, nil
}

// solveSVD is scikit-learn 1.2's LinearDiscriminantAnalysis._solve_svd.
func (m *LDA) solveSVD(x *mat.Dense, y []int, counts []int, present int, tol float64) error {
	n, d := x.Dims()
	k := len(counts)
	m.Coef = mat.NewDense(k, d, nil)
	m.Intercept = make([]float64, k)
	// Within-class centred data, scaled column-wise by its standard deviation.
	xc := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		floats.SubTo(xc.RawRowView(i), x.RawRowView(i), m.Means.RawRowView(y[i]))
	}
	std := make([]float64, d)
	col := make([]float64, n)
	for j := 0; j < d; j++ {
		mat.Col(col, j, xc)
		mean := floats.Sum(col) / float64(n)
		var ss float64
		for _, v := range col {
			ss += (v - mean) * (v - mean)
		}
		std[j] = math.Sqrt(ss / float64(n))
		if std[j] == 0 {
			std[j] = 1
		}
	}
	sf := math.Sqrt(1 / float64(n-present))
	for i := 0; i < n; i++ {
		row := xc.RawRowView(i)
		for j := range row {
			row[j] = sf * row[j] / std[j]
		}
	}
	var svd mat.SVD
	if err := factorize(&svd, xc, mat.SVDThinV, "within-class data"); err != nil {
		return err
	}
	s := svd.Values(nil)
	rank := 0
	for _, v := range s {
		if v > tol {
			rank++
		}
	}
	m.setLogPriors()
	if rank == 0 {
		return nil
	}
	var v mat.Dense
	svd.VTo(&v)
	// scal = (Vt[:rank]/std)ᵀ / S[:rank], d×rank.
	scal := mat.NewDense(d, rank, nil)
	for j := 0; j < d; j++ {
		row := scal.RawRowView(j)
		for r := 0; r < rank; r++ {
			row[r] = v.At(j, r) / std[j] / s[r]
		}
	}
	// Between-class: weighted centred means in the whitened space.
	fac := 1.0
	if present > 1 {
		fac = 1 / float64(present-1)
	}
	mc := mat.NewDense(present, d, nil) // centred means of present classes
	wmc := mat.NewDense(present, d, nil)
	idx := make([]int, 0, present)
	for c := 0; c < k; c++ {
		if counts[c] == 0 {
			continue
		}
		p := len(idx)
		idx = append(idx, c)
		floats.SubTo(mc.RawRowView(p), m.Means.RawRowView(c), m.Xbar)
		floats.ScaleTo(wmc.RawRowView(p), math.Sqrt(float64(n)*m.Priors[c]*fac), mc.RawRowView(p))
	}
	var between mat.Dense
	between.Mul(wmc, scal)
	var svd2 mat.SVD
	if err := factorize(&svd2, &between, mat.SVDThinV, "between-class means"); err != nil {
		return err
	}
	s2 := svd2.Values(nil)
	maxComp := min(present-1, d)
	var total float64
	for _, v := range s2 {
		total += v * v
	}
	if total > 0 {
		for i := 0; i < min(maxComp, len(s2)); i++ {
			m.ExplainedVarianceRatio = append(m.ExplainedVarianceRatio, s2[i]*s2[i]/total)
		}
	}
	rank2 := 0
	for _, v := range s2 {
		if v > tol*s2[0] {
			rank2++
		}
	}
	if rank2 == 0 {
		return nil
	}
	var v2 mat.Dense
	svd2.VTo(&v2)
	m.Scalings = mat.NewDense(d, rank2, nil)
	m.Scalings.Mul(scal, v2.Slice(0, rank, 0, rank2))
	var coefp, coef mat.Dense
	coefp.Mul(mc, m.Scalings)        // present×rank2
	coef.Mul(&coefp, m.Scalings.T()) // present×d
	for p, c := range idx {
		cr := coefp.RawRowView(p)
		m.Intercept[c] = -0.5*floats.Dot(cr, cr) + math.Log(m.Priors[c])
		m.Coef.SetRow(c, coef.RawRowView(p))
		m.Intercept[c] -= floats.Dot(m.Xbar, coef.RawRowView(p))
	}
	return nil
}

// setLogPriors sets Intercept to log π_k (coefficients zero), the model
// when no discriminant direction survives.
func (m *LDA) setLogPriors() {
	for c, p := range m.Priors {
		if p > 0 {
			m.Intercept[c] = math.Log(p)
		}
	}
}

// solveLSQR is scikit-learn 1.2's LinearDiscriminantAnalysis._solve_lstsq.
func (m *LDA) solveLSQR(x *mat.Dense, y []int, counts []int, opts LDAOptions) error {
	_, d := x.Dims()
	k := len(counts)
	rows := make([][]int, k)
	for i, c := range y {
		rows[c] = append(rows[c], i)
	}
	cov := mat.NewDense(d, d, nil)
	for c := 0; c < k; c++ {
		if counts[c] == 0 {
			continue
		}
		xk := mat.NewDense(counts[c], d, nil)
		for r, i := range rows[c] {
			xk.SetRow(r, x.RawRowView(i))
		}
		ck := classCovariance(xk, opts.Shrinkage, opts.AutoShrinkage)
		cov.Add(cov, scaled(m.Priors[c], ck))
	}
	m.Covariance = cov
	var svd mat.SVD
	if err := factorize(&svd, cov, mat.SVDThin, "the covariance"); err != nil {
		return err
	}
	m.Coef = mat.NewDense(k, d, nil)
	m.Intercept = make([]float64, k)
	m.setLogPriors()
	if s := svd.Values(nil); s[0] == 0 {
		return nil
	}
	rank := svd.Rank(epsilon)
	var w mat.Dense // d×K
	svd.SolveTo(&w, m.Means.T(), rank)
	m.Coef.Copy(w.T())
	for c := 0; c < k; c++ {
		if counts[c] == 0 {
			continue
		}
		m.Intercept[c] = -0.5*floats.Dot(m.Means.RawRowView(c), m.Coef.RawRowView(c)) + math.Log(m.Priors[c])
	}
	return nil
}

// epsilon is the float64 machine epsilon (2⁻⁵²), numpy's finfo.eps.
const epsilon = 0x1p-52

func scaled(f float64, a *mat.Dense) *mat.Dense {
	var out mat.Dense
	out.Scale(f, a)
	return &out
}

// DecisionFunction stores the K discriminant values of each row of x in dst
// (which must be empty or N×K; nil allocates) and returns it.
func (m *LDA) DecisionFunction(dst *mat.Dense, x mat.Matrix) *mat.Dense {
	return linearScores(dst, x, m.Coef, m.Intercept)
}

// PredictProba stores the class probabilities (softmax of the
// discriminants, as scikit-learn's predict_proba) of each row of x in dst
// and returns it.
func (m *LDA) PredictProba(dst *mat.Dense, x mat.Matrix) *mat.Dense {
	dst = m.DecisionFunction(dst, x)
	softmaxRows(dst)
	return dst
}

// Predict stores the predicted class of each row of x in dst (reused when
// its length matches) and returns it.
func (m *LDA) Predict(dst []int, x mat.Matrix) []int {
	return argmaxRows(dst, m.DecisionFunction(nil, x))
}

// Transform projects the rows of x onto the discriminant directions,
// (x − Xbar)·Scalings, as scikit-learn's transform for the SVD solver. It
// returns an error when the model has no Scalings (LSQR solver, or no
// discriminant direction).
func (m *LDA) Transform(dst *mat.Dense, x mat.Matrix) (*mat.Dense, error) {
	if m.Scalings == nil {
		return nil, errors.New("discriminant: Transform: model has no discriminant directions (SVD solver only)")
	}
	n, d := x.Dims()
	if dr, _ := m.Scalings.Dims(); d != dr {
		return nil, fmt.Errorf("discriminant: Transform: x has %d columns, model %d", d, dr)
	}
	xc := mat.NewDense(n, d, nil)
	xc.Apply(func(i, j int, v float64) float64 { return v - m.Xbar[j] }, x)
	if dst == nil {
		dst = &mat.Dense{}
	}
	dst.Mul(xc, m.Scalings)
	return dst, nil
}

// linearScores computes x·coefᵀ + intercept into dst.
func linearScores(dst *mat.Dense, x mat.Matrix, coef *mat.Dense, intercept []float64) *mat.Dense {
	if dst == nil {
		dst = &mat.Dense{}
	}
	dst.Mul(x, coef.T())
	r, c := dst.Dims()
	for i := 0; i < r; i++ {
		row := dst.RawRowView(i)
		for j := 0; j < c; j++ {
			row[j] += intercept[j]
		}
	}
	return dst
}

// softmaxRows replaces each row of a by its softmax.
func softmaxRows(a *mat.Dense) {
	r, _ := a.Dims()
	for i := 0; i < r; i++ {
		row := a.RawRowView(i)
		mx := floats.Max(row)
		var sum float64
		for j, v := range row {
			row[j] = math.Exp(v - mx)
			sum += row[j]
		}
		floats.Scale(1/sum, row)
	}
}

// argmaxRows returns the index of the largest value of each row (the first
// one on ties).
func argmaxRows(dst []int, a *mat.Dense) []int {
	r, _ := a.Dims()
	if len(dst) != r {
		dst = make([]int, r)
	}
	for i := range dst {
		dst[i] = floats.MaxIdx(a.RawRowView(i))
	}
	return dst
}

// ErrNonFinite reports a fit whose data or intermediate matrices hold a
// NaN or an infinity (features too large for their squares, say): gonum's
// SVD iterates without end on such a matrix, so the fit ends with this
// error before it.
var ErrNonFinite = errors.New("non-finite value")

// factorize computes the SVD of a (of the given kind) into svd; what names
// a in the errors: one wrapping ErrNonFinite when an entry of a is NaN or
// infinite, or one saying the SVD did not converge.
func factorize(svd *mat.SVD, a mat.Matrix, kind mat.SVDKind, what string) error {
	r, c := a.Dims()
	for i := range r {
		for j := range c {
			if v := a.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: entry (%d, %d) of the SVD's input (%s) is %v", ErrNonFinite, i, j, what, v)
			}
		}
	}
	if !svd.Factorize(a, kind) {
		return fmt.Errorf("SVD of %s did not converge", what)
	}
	return nil
}
