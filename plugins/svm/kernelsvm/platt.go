package kernelsvm

import (
	"math"

	"github.com/polyclass/polyclass/framework/calibrate"
)

// plattFolds is the number of folds of the cross-validation behind the
// sigmoid (LIBSVM's nr_fold in svm_binary_svc_probability).
const plattFolds = 5

// plattCV fits Platt's sigmoid to 5-fold cross-validated decision values
// of lay, as LIBSVM's svm_binary_svc_probability: rows shuffled with
// rand() (rng), each fold's held-out rows scored by a model trained on the
// others with the same bounds, then sigmoidTrain. The sigmoid gives the
// probability of lay's internal label +1.
func plattCV(src kernelSource, pred predictKernel, lay *layout, opt Options, rng randSource, s *solver) (a, b float64) {
	l := len(lay.rows)
	perm := make([]int, l)
	for i := range perm {
		perm[i] = i
	}
	for i := range l {
		j := i + rng.next()%(l-i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	dec := make([]float64, l)
	sub := make([]int, 0, l)
	for f := range plattFolds {
		begin, end := f*l/plattFolds, (f+1)*l/plattFolds
		sub = append(append(sub[:0], perm[:begin]...), perm[end:]...)
		pc, nc := 0, 0
		for _, k := range sub {
			if lay.y[k] > 0 {
				pc++
			} else {
				nc++
			}
		}
		var fixed float64
		switch {
		case pc == 0 && nc == 0:
			fixed = 0
		case nc == 0:
			fixed = 1
		case pc == 0:
			fixed = -1
		default:
			foldDecisions(dec, src, pred, lay, sub, perm[begin:end], opt, s)
			continue
		}
		for _, k := range perm[begin:end] {
			dec[k] = fixed
		}
	}
	return sigmoidTrain(dec, lay.y)
}

// foldDecisions trains on the rows sub of lay (positions in lay) and
// writes the decision values of the rows test into dec. The training set
// is ordered as svm_train orders a {+1, −1} set: the +1 rows first, each
// side in the order of sub.
func foldDecisions(dec []float64, src kernelSource, pred predictKernel, lay *layout, sub, test []int, opt Options, s *solver) {
	in := &layout{}
	for _, side := range [2]int8{1, -1} {
		for _, k := range sub {
			if lay.y[k] == side {
				in.rows = append(in.rows, lay.rows[k])
				in.y = append(in.y, side)
				in.c = append(in.c, lay.c[k])
			}
		}
	}
	fit := solveLayout(src, in, opt, s)
	var svs []int
	var coef []float64
	for i, c := range fit.coef {
		if c != 0 {
			svs, coef = append(svs, in.rows[i]), append(coef, c)
		}
	}
	for _, k := range test {
		var sum float64
		for i, r := range svs {
			sum += coef[i] * pred.between(lay.rows[k], r)
		}
		dec[k] = sum - fit.sol.rho
	}
}

// sigmoidTrain fits P(y = +1 | f) = 1/(1 + exp(A·f + B)) to decision values
// dec with labels y as LIBSVM's sigmoid_train does: the project's one
// Platt solver, calibrate.FitSigmoidTol, with LIBSVM's tolerance.
func sigmoidTrain(dec []float64, y []int8) (a, b float64) {
	pos := make([]bool, len(y))
	for i, v := range y {
		pos[i] = v > 0
	}
	s := calibrate.FitSigmoidTol(dec, pos, calibrate.LIBSVMTol)
	return s.A, s.B
}

// sigmoidPredict returns 1/(1 + exp(A·f + B)) as LIBSVM computes it.
func sigmoidPredict(f, a, b float64) float64 {
	return calibrate.Sigmoid{A: a, B: b}.Predict(f)
}

// couple sets p to the class probabilities that best fit the pairwise
// probabilities r (r[i][j] = P(i | i or j), r[j][i] = 1 − r[i][j]) by
// Wu, Lin & Weng's second method (2004, "Probability estimates for
// multi-class classification by pairwise coupling", JMLR 5), as LIBSVM's
// multiclass_probability: min ½pᵀQp over the simplex by a fixed-point
// iteration, stopping when max |(Qp)_t − pᵀQp| < 0.005/k or after
// max(100, k) iterations.
func couple(r [][]float64, p []float64) {
	k := len(p)
	maxIter := max(100, k)
	q := make([][]float64, k)
	qp := make([]float64, k)
	eps := 0.005 / float64(k)
	for t := range k {
		p[t] = 1.0 / float64(k)
		q[t] = make([]float64, k)
		q[t][t] = 0
		for j := range t {
			q[t][t] += r[j][t] * r[j][t]
			q[t][j] = q[j][t]
		}
		for j := t + 1; j < k; j++ {
			q[t][t] += r[j][t] * r[j][t]
			q[t][j] = -r[j][t] * r[t][j]
		}
	}
	for range maxIter {
		var pqp float64
		for t := range k {
			qp[t] = 0
			for j := range k {
				qp[t] += q[t][j] * p[j]
			}
			pqp += p[t] * qp[t]
		}
		maxErr := 0.0
		for t := range k {
			if e := math.Abs(qp[t] - pqp); e > maxErr {
				maxErr = e
			}
		}
		if maxErr < eps {
			break
		}
		for t := range k {
			diff := (-qp[t] + pqp) / q[t][t]
			p[t] += diff
			pqp = (pqp + diff*(diff*q[t][t]+2*qp[t])) / (1 + diff) / (1 + diff)
			for j := range k {
				qp[j] = (qp[j] + diff*q[t][j]) / (1 + diff)
				p[j] /= (1 + diff)
			}
		}
	}
}
