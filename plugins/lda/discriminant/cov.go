package discriminant

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// classCovariance is scikit-learn 1.2's discriminant_analysis._cov for one
// class: the maximum-likelihood covariance (divisor n), shrunk by the given
// amount, or Ledoit–Wolf on standardised features when auto is set.
func classCovariance(x *mat.Dense, shrinkage float64, auto bool) *mat.Dense {
	if auto {
		n, d := x.Dims()
		mean, scale := standardScale(x)
		z := mat.NewDense(n, d, nil)
		z.Apply(func(i, j int, v float64) float64 { return (v - mean[j]) / scale[j] }, x)
		s, _ := LedoitWolf(z)
		s.Apply(func(i, j int, v float64) float64 { return scale[i] * v * scale[j] }, s)
		return s
	}
	emp := EmpiricalCovariance(x)
	if shrinkage == 0 {
		return emp
	}
	return ShrunkCovariance(emp, shrinkage)
}

// standardScale returns the column means and the population standard
// deviations of x, with the scale of (numerically) constant columns set to
// 1 as scikit-learn's StandardScaler does.
func standardScale(x *mat.Dense) (mean, scale []float64) {
	n, d := x.Dims()
	mean = make([]float64, d)
	scale = make([]float64, d)
	col := make([]float64, n)
	fn := float64(n)
	for j := 0; j < d; j++ {
		mat.Col(col, j, x)
		mu := floats.Sum(col) / fn
		var ss float64
		for _, v := range col {
			ss += (v - mu) * (v - mu)
		}
		variance := ss / fn
		mean[j] = mu
		// sklearn.utils.extmath / preprocessing._is_constant_feature bound.
		bound := fn*epsilon*variance + (fn*mu*epsilon)*(fn*mu*epsilon)
		if variance <= bound {
			scale[j] = 1
		} else {
			scale[j] = math.Sqrt(variance)
		}
	}
	return mean, scale
}

// EmpiricalCovariance returns the maximum-likelihood covariance of the rows
// of x: (x−x̄)ᵀ(x−x̄)/n, as sklearn.covariance.empirical_covariance.
func EmpiricalCovariance(x *mat.Dense) *mat.Dense {
	n, d := x.Dims()
	xc := centred(x)
	cov := mat.NewDense(d, d, nil)
	cov.Mul(xc.T(), xc)
	cov.Scale(1/float64(n), cov)
	return cov
}

// centred returns a copy of x with its column means subtracted.
func centred(x *mat.Dense) *mat.Dense {
	n, d := x.Dims()
	mean := make([]float64, d)
	for i := 0; i < n; i++ {
		floats.Add(mean, x.RawRowView(i))
	}
	floats.Scale(1/float64(n), mean)
	xc := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		floats.SubTo(xc.RawRowView(i), x.RawRowView(i), mean)
	}
	return xc
}

// ShrunkCovariance returns (1−shrinkage)·cov + shrinkage·(trace(cov)/d)·I,
// as sklearn.covariance.shrunk_covariance. cov is not modified.
func ShrunkCovariance(cov *mat.Dense, shrinkage float64) *mat.Dense {
	d, _ := cov.Dims()
	mu := mat.Trace(cov) / float64(d)
	out := mat.NewDense(d, d, nil)
	out.Scale(1-shrinkage, cov)
	for j := 0; j < d; j++ {
		out.Set(j, j, out.At(j, j)+shrinkage*mu)
	}
	return out
}

// LedoitWolf returns the Ledoit–Wolf shrunk covariance of the rows of x
// (centred first) and the shrinkage used, as sklearn.covariance.ledoit_wolf
// with assume_centered=False. With one column the shrinkage is 0.
func LedoitWolf(x *mat.Dense) (*mat.Dense, float64) {
	n, d := x.Dims()
	xc := centred(x)
	fn, fd := float64(n), float64(d)
	emp := mat.NewDense(d, d, nil)
	emp.Mul(xc.T(), xc) // XᵀX, not yet divided by n
	if d == 1 {
		emp.Scale(1/fn, emp)
		return emp, 0
	}
	x2 := mat.NewDense(n, d, nil)
	x2.MulElem(xc, xc)
	var b mat.Dense
	b.Mul(x2.T(), x2)
	beta0 := mat.Sum(&b)
	var delta0 float64
	for j := 0; j < d; j++ {
		for _, v := range emp.RawRowView(j) {
			delta0 += v * v
		}
	}
	delta0 /= fn * fn
	traceSum := mat.Trace(emp) / fn // Σ_j emp_cov_trace_j
	mu := traceSum / fd
	beta := 1 / (fd * fn) * (beta0/fn - delta0)
	delta := (delta0 - 2*mu*traceSum + fd*mu*mu) / fd
	beta = math.Min(beta, delta)
	shrinkage := 0.0
	if beta != 0 {
		shrinkage = beta / delta
	}
	emp.Scale(1/fn, emp)
	return ShrunkCovariance(emp, shrinkage), shrinkage
}
