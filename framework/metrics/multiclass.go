package metrics

import (
	"math"
)

// accuracy is the fraction of correct predictions.
func accuracy(in *Input) (float64, int) {
	var ok float64
	for i, t := range in.True {
		if in.Pred[i] == t {
			ok++
		}
	}
	return ok / float64(len(in.True)), 0
}

// balancedAccuracy is sklearn's balanced_accuracy_score: the mean recall of
// the classes present in the true labels; predicted-only classes are dropped
// and counted as warnings.
func balancedAccuracy(in *Input) (float64, int) {
	var rec []float64
	warn := 0
	for _, s := range PerClass(nil, Confusion(in.True, in.Pred, in.K)) {
		switch {
		case s.RecallDefined():
			rec = append(rec, s.Recall)
		case s.Present():
			warn++
		}
	}
	m, _ := Average(rec, nil)
	return m, warn
}

// kappa is sklearn's cohen_kappa_score (unweighted), evaluated in its order:
// 1 − Σ_{i≠j} C_ij / Σ_{i≠j} E_ij with E = outer(column sums, row sums)/n.
func kappa(in *Input) (float64, int) {
	c := Confusion(in.True, in.Pred, in.K)
	K := in.K
	predSum := make([]float64, K) // sklearn's sum0 (column sums)
	trueSum := make([]float64, K) // sklearn's sum1 (row sums)
	var n float64
	for i := 0; i < K; i++ {
		for j := 0; j < K; j++ {
			v := c.At(i, j)
			trueSum[i] += v
			predSum[j] += v
			n += v
		}
	}
	var obs, exp float64
	for i := 0; i < K; i++ {
		for j := 0; j < K; j++ {
			if i == j {
				continue
			}
			obs += c.At(i, j)
			exp += predSum[i] * trueSum[j] / n
		}
	}
	if exp == 0 {
		return 0, 1
	}
	return 1 - obs/exp, 0
}

// mcc is sklearn's multiclass matthews_corrcoef.
func mcc(in *Input) (float64, int) {
	c := Confusion(in.True, in.Pred, in.K)
	K := in.K
	t := make([]float64, K)
	p := make([]float64, K)
	var correct, n float64
	for i := 0; i < K; i++ {
		correct += c.At(i, i)
		for j := 0; j < K; j++ {
			v := c.At(i, j)
			t[i] += v
			p[j] += v
			n += v
		}
	}
	var tp, pp, tt float64
	for k := 0; k < K; k++ {
		tp += t[k] * p[k]
		pp += p[k] * p[k]
		tt += t[k] * t[k]
	}
	covYtYp := correct*n - tp
	covYpYp := n*n - pp
	covYtYt := n*n - tt
	if covYpYp*covYtYt == 0 {
		return 0, 1
	}
	return covYtYp / math.Sqrt(covYtYt*covYpYp), 0
}

// LogLossEps is the clipping bound of log_loss: float64 machine epsilon,
// 2⁻⁵² ≈ 2.22e-16, as scikit-learn ≥ 1.2 uses by default (eps="auto"; later
// versions removed the parameter and always clip at the dtype's epsilon).
// 1e-15 was scikit-learn's default before 1.2.
const LogLossEps = 0x1p-52

// logLoss clips each probability to [eps, 1−eps], renormalises the row and
// averages −log of the true class's probability (scikit-learn ≥ 1.2).
func logLoss(in *Input) (float64, int) {
	_, K := in.Prob.Dims()
	row := make([]float64, K)
	var sum float64
	for i, t := range in.True {
		var tot float64
		for k := range row {
			row[k] = math.Min(math.Max(in.Prob.At(i, k), LogLossEps), 1-LogLossEps)
			tot += row[k]
		}
		sum += -math.Log(row[t] / tot)
	}
	return sum / float64(len(in.True)), 0
}

// brier is the multiclass Brier score mean_i Σ_k (p_ik − [y_i = k])².
func brier(in *Input) (float64, int) {
	_, K := in.Prob.Dims()
	var sum float64
	for i, t := range in.True {
		for k := 0; k < K; k++ {
			d := in.Prob.At(i, k)
			if k == t {
				d--
			}
			sum += d * d
		}
	}
	return sum / float64(len(in.True)), 0
}
