package bayes

import (
	"errors"
	"fmt"
	"math"

	"github.com/polyclass/polyclass/plugins/internal/numpysum"
	"gonum.org/v1/gonum/mat"
)

// DefaultVarSmoothing is scikit-learn's var_smoothing: the share of the
// largest feature variance added to every variance.
const DefaultVarSmoothing = 1e-9

// Gaussian is a fitted Gaussian naive Bayes model.
type Gaussian struct {
	// Theta holds the class means, one row per class (K × d).
	Theta *mat.Dense
	// Var holds the class variances plus Epsilon (K × d).
	Var *mat.Dense
	// ClassCount is the number of training rows of each class (their
	// summed weights with row weights), ClassPrior its share.
	ClassCount, ClassPrior []float64
	// Epsilon is VarSmoothing times the largest variance of a feature over
	// all training rows.
	Epsilon float64
}

// FitGaussian fits GaussianNB(var_smoothing=varSmoothing) to the rows of
// x with classes y in 0..numClasses−1 and, when w is not nil, row weights
// w (scikit-learn's sample_weight). For class c with rows i (weights wᵢ,
// W = Σwᵢ): θ_cj = Σ wᵢxᵢⱼ/W and σ²_cj = Σ wᵢ(xᵢⱼ − θ_cj)²/W + ε, with
// ε = varSmoothing·maxⱼ Var(x_·ⱼ) over all rows, unweighted; the prior of
// c is W over the total weight. A mean or variance that overflows (a NaN
// or an infinity) ends the fit with an error wrapping ErrNonFinite.
func FitGaussian(x *mat.Dense, y []int, numClasses int, w []float64, varSmoothing float64) (*Gaussian, error) {
	n, d := x.Dims()
	if err := checkFit(n, y, numClasses, w); err != nil {
		return nil, err
	}
	if varSmoothing < 0 {
		return nil, fmt.Errorf("bayes: var_smoothing %g is negative", varSmoothing)
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	_, v := meanVar(x, all, nil)
	g := &Gaussian{
		Theta: mat.NewDense(numClasses, d, nil), Var: mat.NewDense(numClasses, d, nil),
		ClassCount: make([]float64, numClasses), ClassPrior: make([]float64, numClasses),
	}
	for _, s := range v {
		g.Epsilon = math.Max(g.Epsilon, s)
	}
	g.Epsilon *= varSmoothing
	for c, rows := range classRows(y, numClasses) {
		if len(rows) == 0 {
			continue
		}
		var cw []float64
		if w != nil {
			cw = make([]float64, len(rows))
			for k, i := range rows {
				cw[k] = w[i]
			}
			g.ClassCount[c] = numpysum.Pairwise(cw)
		} else {
			g.ClassCount[c] = float64(len(rows))
		}
		m, s := meanVar(x, rows, cw)
		g.Theta.SetRow(c, m)
		for j := range s {
			s[j] += g.Epsilon
		}
		g.Var.SetRow(c, s)
	}
	total := numpysum.Pairwise(g.ClassCount)
	if total <= 0 {
		return nil, errors.New("bayes: the training rows' weights sum to zero")
	}
	for c, k := range g.ClassCount {
		g.ClassPrior[c] = k / total
	}
	if err := checkFinite(g.Theta, g.ClassCount, "mean"); err != nil {
		return nil, err
	}
	if err := checkFinite(g.Var, g.ClassCount, "variance"); err != nil {
		return nil, err
	}
	return g, nil
}

// meanVar returns the (weighted) mean and variance of each column of x
// over the given rows, summed in row order as NumPy sums along axis 0
// (np.mean and np.var; np.average, whose total weight is a pairwise sum,
// with weights w).
func meanVar(x *mat.Dense, rows []int, w []float64) (mean, variance []float64) {
	_, d := x.Dims()
	mean, variance = make([]float64, d), make([]float64, d)
	div := float64(len(rows))
	if w != nil {
		div = numpysum.Pairwise(w)
	}
	for k, i := range rows {
		for j, v := range x.RawRowView(i) {
			if w != nil {
				v = float64(v * w[k])
			}
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= div
	}
	for k, i := range rows {
		for j, v := range x.RawRowView(i) {
			t := v - mean[j]
			t = float64(t * t)
			if w != nil {
				t = float64(t * w[k])
			}
			variance[j] += t
		}
	}
	for j := range variance {
		variance[j] /= div
	}
	return mean, variance
}

// JointLogLikelihood sets dst (rows × K) to log P(c) + log P(x|c) for
// every row of x and class c, as GaussianNB._joint_log_likelihood:
// log π_c − ½Σⱼ log(2π σ²_cj) − ½Σⱼ (xⱼ − θ_cj)²/σ²_cj, each sum pairwise.
// A class without training rows gets −∞.
func (g *Gaussian) JointLogLikelihood(dst, x *mat.Dense) error {
	n, d := x.Dims()
	K, gd := g.Theta.Dims()
	if d != gd {
		return fmt.Errorf("bayes: %d columns, the model has %d", d, gd)
	}
	if r, c := dst.Dims(); r != n || c != K {
		return fmt.Errorf("bayes: output is %d×%d, want %d×%d", r, c, n, K)
	}
	terms := make([]float64, d)
	for c := range K {
		if g.ClassCount[c] == 0 {
			for i := range n {
				dst.Set(i, c, math.Inf(-1))
			}
			continue
		}
		prior := math.Log(g.ClassPrior[c])
		theta, v := g.Theta.RawRowView(c), g.Var.RawRowView(c)
		for j := range terms {
			terms[j] = math.Log(2 * math.Pi * v[j])
		}
		norm := -0.5 * numpysum.Pairwise(terms)
		for i := range n {
			for j, xv := range x.RawRowView(i) {
				t := xv - theta[j]
				terms[j] = float64(t*t) / v[j]
			}
			dst.Set(i, c, prior+(norm-0.5*numpysum.Pairwise(terms)))
		}
	}
	return nil
}
