package bayes

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/plugins/internal/numpysum"
)

// DefaultAlpha is scikit-learn's alpha: add-one (Laplace) smoothing.
const DefaultAlpha = 1.0

// MinAlpha is the smallest smoothing scikit-learn applies: a smaller
// alpha is raised to it (force_alpha=False, its 1.2 default).
const MinAlpha = 1e-10

// DiscreteOptions configures FitMultinomial and FitBernoulli.
type DiscreteOptions struct {
	// Alpha is the additive smoothing (≥ 0; below MinAlpha it is MinAlpha).
	Alpha float64
	// FitPrior learns the class priors from the class counts; false makes
	// them uniform over the classes with training rows.
	FitPrior bool
	// Binarize is Bernoulli's threshold: a value above it counts as 1,
	// any other as 0. NoBinarize takes the values as they are (they
	// should then be 0 or 1).
	Binarize float64
}

// NoBinarize is a Binarize that leaves the values as they are
// (scikit-learn's binarize=None).
var NoBinarize = math.NaN()

// Discrete is a fitted multinomial or Bernoulli naive Bayes model.
type Discrete struct {
	// FeatureLogProb holds log P(feature j | class c) (K × d).
	FeatureLogProb *mat.Dense
	// ClassLogPrior holds log P(c); −∞ for a class without rows.
	ClassLogPrior []float64
	// FeatureCount and ClassCount are the (weighted) sums the model was
	// estimated from: Σ of each feature over the class's rows, and the
	// number of rows of each class.
	FeatureCount *mat.Dense
	ClassCount   []float64

	bernoulli bool
	binarize  float64
	// negProb is log(1 − P(feature j | class c)) and negSum its pairwise
	// row sums, for Bernoulli.
	negProb *mat.Dense
	negSum  []float64
}

// FitMultinomial fits MultinomialNB(alpha, fit_prior) to the rows of x
// (non-negative: counts, frequencies, one-hot) with classes y in
// 0..numClasses−1 and optional row weights w: log P(j|c) = log(N_cj + α) −
// log Σⱼ(N_cj + α), N_cj the (weighted) sum of feature j over the rows of
// class c. A log probability that overflows ends the fit with an error
// wrapping ErrNonFinite.
func FitMultinomial(x matrix.Matrix, y []int, numClasses int, w []float64, opt DiscreteOptions) (*Discrete, error) {
	m, err := fitCounts(x, y, numClasses, w, opt, false)
	if err != nil {
		return nil, err
	}
	K, d := m.FeatureCount.Dims()
	alpha := smoothing(opt.Alpha)
	m.FeatureLogProb = mat.NewDense(K, d, nil)
	row := make([]float64, d)
	for c := range K {
		for j, v := range m.FeatureCount.RawRowView(c) {
			row[j] = v + alpha
		}
		lc := math.Log(numpysum.Pairwise(row))
		out := m.FeatureLogProb.RawRowView(c)
		for j, v := range row {
			out[j] = math.Log(v) - lc
		}
	}
	if err := checkFinite(m.FeatureLogProb, m.ClassCount, "log probability"); err != nil {
		return nil, err
	}
	return m, nil
}

// FitBernoulli fits BernoulliNB(alpha, binarize, fit_prior): log P(j|c) =
// log(N_cj + α) − log(N_c + 2α), N_cj the (weighted) number of rows of
// class c whose feature j is 1 (above Binarize), N_c the class's rows.
// A log probability that overflows (row weights summing to +Inf, say)
// ends the fit with an error wrapping ErrNonFinite.
func FitBernoulli(x matrix.Matrix, y []int, numClasses int, w []float64, opt DiscreteOptions) (*Discrete, error) {
	m, err := fitCounts(x, y, numClasses, w, opt, true)
	if err != nil {
		return nil, err
	}
	K, d := m.FeatureCount.Dims()
	alpha := smoothing(opt.Alpha)
	m.FeatureLogProb = mat.NewDense(K, d, nil)
	m.negProb = mat.NewDense(K, d, nil)
	m.negSum = make([]float64, K)
	for c := range K {
		lc := math.Log(m.ClassCount[c] + alpha*2)
		out, neg := m.FeatureLogProb.RawRowView(c), m.negProb.RawRowView(c)
		for j, v := range m.FeatureCount.RawRowView(c) {
			out[j] = math.Log(v+alpha) - lc
			neg[j] = math.Log(1 - math.Exp(out[j]))
		}
		m.negSum[c] = numpysum.Pairwise(neg)
	}
	if err := checkFinite(m.FeatureLogProb, m.ClassCount, "log probability"); err != nil {
		return nil, err
	}
	return m, nil
}

// smoothing is scikit-learn's _check_alpha with force_alpha=False.
func smoothing(alpha float64) float64 { return math.Max(alpha, MinAlpha) }

// fitCounts sums the features of each class's rows (binarized for
// Bernoulli) and sets the class log priors.
func fitCounts(x matrix.Matrix, y []int, numClasses int, w []float64, opt DiscreteOptions, bernoulli bool) (*Discrete, error) {
	n, d := x.Dims()
	if err := checkFit(n, y, numClasses, w); err != nil {
		return nil, err
	}
	if opt.Alpha < 0 || math.IsNaN(opt.Alpha) {
		return nil, fmt.Errorf("bayes: alpha %g is negative", opt.Alpha)
	}
	m := &Discrete{FeatureCount: mat.NewDense(numClasses, d, nil), ClassCount: make([]float64, numClasses),
		ClassLogPrior: make([]float64, numClasses), bernoulli: bernoulli, binarize: opt.Binarize}
	if !bernoulli {
		m.binarize = NoBinarize
	}
	var neg error
	eachValue(x, func(i, j int, v float64) {
		if !bernoulli && v < 0 && neg == nil {
			neg = fmt.Errorf("bayes: multinomial naive Bayes needs non-negative values (counts); row %d column %d is %g", i, j, v)
		}
		v = m.value(v)
		if w != nil {
			v = float64(v * w[i])
		}
		m.FeatureCount.RawRowView(y[i])[j] += v
	})
	if neg != nil {
		return nil, neg
	}
	present := 0
	for i, c := range y {
		if w != nil {
			m.ClassCount[c] += w[i]
		} else {
			m.ClassCount[c]++
		}
	}
	rows := make([]bool, numClasses)
	for _, c := range y {
		if !rows[c] {
			rows[c] = true
			present++
		}
	}
	total := numpysum.Pairwise(m.ClassCount)
	if total <= 0 {
		return nil, errors.New("bayes: the training rows' weights sum to zero")
	}
	for c := range numClasses {
		switch {
		case !rows[c]:
			m.ClassLogPrior[c] = math.Inf(-1)
		case opt.FitPrior:
			m.ClassLogPrior[c] = math.Log(m.ClassCount[c]) - math.Log(total)
		default:
			m.ClassLogPrior[c] = -math.Log(float64(present))
		}
	}
	return m, nil
}

// value is x as the model counts it: binarized (1 above the threshold, 0
// otherwise) when the model binarizes.
func (m *Discrete) value(v float64) float64 {
	if math.IsNaN(m.binarize) {
		return v
	}
	if v > m.binarize {
		return 1
	}
	return 0
}

// eachValue calls f for every stored value of x in row order, columns in
// order within a row: every value of a dense x, the stored ones of a CSR
// x (the others are 0, which add nothing to the counts of either model:
// Binarize must then be ≥ 0 for Bernoulli, as a zero above the threshold
// would count).
func eachValue(x matrix.Matrix, f func(i, j int, v float64)) {
	if x.CSR != nil {
		for i := 0; i < x.CSR.Rows; i++ {
			idx, val := x.CSR.Row(i)
			for p, j := range idx {
				f(i, int(j), val[p])
			}
		}
		return
	}
	n, _ := x.Dims()
	for i := range n {
		for j, v := range x.Dense.RawRowView(i) {
			f(i, j, v)
		}
	}
}

// JointLogLikelihood sets dst (rows × K) to log P(c) + log P(x|c) for
// every row of x: Σⱼ xⱼ log P(j|c) + log P(c) for the multinomial model;
// Σⱼ xⱼ(log P(j|c) − log(1 − P(j|c))) + log P(c) + Σⱼ log(1 − P(j|c))
// for Bernoulli (x binarized). A class without training rows gets −∞.
func (m *Discrete) JointLogLikelihood(dst *mat.Dense, x matrix.Matrix) error {
	n, d := x.Dims()
	K, md := m.FeatureLogProb.Dims()
	if d != md {
		return fmt.Errorf("bayes: %d columns, the model has %d", d, md)
	}
	if r, c := dst.Dims(); r != n || c != K {
		return fmt.Errorf("bayes: output is %d×%d, want %d×%d", r, c, n, K)
	}
	if x.CSR != nil && m.bernoulli && !math.IsNaN(m.binarize) && m.binarize < 0 {
		x = x.AsDense() // a stored zero counts as 1
	}
	dst.Zero()
	coef := m.FeatureLogProb
	if m.bernoulli {
		coef = mat.NewDense(K, d, nil)
		coef.Sub(m.FeatureLogProb, m.negProb)
	}
	eachValue(x, func(i, j int, v float64) {
		v = m.value(v)
		if v == 0 {
			return
		}
		row := dst.RawRowView(i)
		for c := range K {
			row[c] += float64(v * coef.At(c, j))
		}
	})
	for i := range n {
		row := dst.RawRowView(i)
		for c := range K {
			if math.IsInf(m.ClassLogPrior[c], -1) {
				row[c] = math.Inf(-1)
				continue
			}
			if m.bernoulli {
				row[c] += m.ClassLogPrior[c] + m.negSum[c]
			} else {
				row[c] += m.ClassLogPrior[c]
			}
		}
	}
	return nil
}
