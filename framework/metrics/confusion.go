package metrics

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// Confusion returns the K×K confusion matrix of a fold: element (i, j)
// counts the rows whose actual class is i and predicted class is j.
// It panics if the slices differ in length or hold a label outside [0, K);
// Metric.Eval validates its input before calling it.
func Confusion(trueY, predY []int, K int) *mat.Dense {
	if len(trueY) != len(predY) {
		panic(fmt.Sprintf("metrics: %d true labels but %d predicted labels", len(trueY), len(predY)))
	}
	c := mat.NewDense(K, K, nil)
	for i, t := range trueY {
		p := predY[i]
		if t < 0 || t >= K || p < 0 || p >= K {
			panic(fmt.Sprintf("metrics: row %d has labels (%d, %d) outside [0, %d)", i, t, p, K))
		}
		c.Set(t, p, c.At(t, p)+1)
	}
	return c
}

// ClassScore holds the one-vs-rest counts and scores of one class (or one
// label of a multi-label problem).
type ClassScore struct {
	TP, FP, FN float64 // true positives, false positives, false negatives
	Support    float64 // TP + FN: rows whose actual class is this one
	Predicted  float64 // TP + FP: rows predicted as this class
	Precision  float64 // TP / Predicted, 0 when Predicted = 0
	Recall     float64 // TP / Support, 0 when Support = 0
	F1         float64 // 2·Precision·Recall/(Precision+Recall), 0 when both are 0
}

// PrecisionDefined reports whether the class was predicted at least once.
func (s ClassScore) PrecisionDefined() bool { return s.Predicted > 0 }

// RecallDefined reports whether the class occurs at least once.
func (s ClassScore) RecallDefined() bool { return s.Support > 0 }

// Present reports whether the class occurs among the true or the predicted
// labels, i.e. whether sklearn's multiclass averages include it.
func (s ClassScore) Present() bool { return s.Support > 0 || s.Predicted > 0 }

// newClassScore fills the scores of a class from its counts.
func newClassScore(tp, fp, fn float64) ClassScore {
	s := ClassScore{TP: tp, FP: fp, FN: fn, Support: tp + fn, Predicted: tp + fp}
	s.Precision = ratio(tp, s.Predicted)
	s.Recall = ratio(tp, s.Support)
	s.F1 = f1(s.Precision, s.Recall)
	return s
}

// ratio returns num/den, or 0 when den is 0.
func ratio(num, den float64) float64 {
	if den == 0 {
		return 0
	}
	return num / den
}

// f1 is sklearn 1.2's F-score with beta = 1, evaluated in the same order.
func f1(p, r float64) float64 {
	den := p + r
	if den == 0 {
		return 0
	}
	return 2 * p * r / den
}

// PerClass returns the scores of every class of the square confusion matrix
// c (rows actual, columns predicted), reusing dst when it has room.
func PerClass(dst []ClassScore, c mat.Matrix) []ClassScore {
	K, cols := c.Dims()
	if K != cols {
		panic(fmt.Sprintf("metrics: confusion matrix is %d×%d, not square", K, cols))
	}
	if cap(dst) < K {
		dst = make([]ClassScore, K)
	}
	dst = dst[:K]
	for k := 0; k < K; k++ {
		var rowSum, colSum float64
		for j := 0; j < K; j++ {
			rowSum += c.At(k, j)
			colSum += c.At(j, k)
		}
		tp := c.At(k, k)
		dst[k] = newClassScore(tp, colSum-tp, rowSum-tp)
	}
	return dst
}

// PairTable returns the 2×2 sub-table of the confusion matrix c restricted
// to the rows and columns of classes i and j: [[c_ii, c_ij], [c_ji, c_jj]].
// It ignores rows of other classes and predictions of other classes.
func PairTable(c mat.Matrix, i, j int) *mat.Dense {
	return mat.NewDense(2, 2, []float64{c.At(i, i), c.At(i, j), c.At(j, i), c.At(j, j)})
}

// PairScores returns the precision/recall/F1 of class i and of class j in
// the pairwise comparison "i versus j" (the 2×2 sub-table of PairTable).
func PairScores(c mat.Matrix, i, j int) (si, sj ClassScore) {
	s := PerClass(nil, PairTable(c, i, j))
	return s[0], s[1]
}

// Averaging selects how per-class scores are combined.
type Averaging int

const (
	// Micro pools the counts of all classes before dividing.
	Micro Averaging = iota
	// Macro is the unweighted mean of the per-class scores.
	Macro
	// Weighted is the mean of the per-class scores weighted by support.
	Weighted
)

// String returns "micro", "macro" or "weighted".
func (a Averaging) String() string {
	switch a {
	case Micro:
		return "micro"
	case Macro:
		return "macro"
	case Weighted:
		return "weighted"
	}
	return fmt.Sprintf("Averaging(%d)", int(a))
}

// PRF holds averaged precision, recall and F1 together with the number of
// zero-division cases behind each.
type PRF struct {
	Precision, Recall, F1                         float64
	PrecisionWarnings, RecallWarnings, F1Warnings int
}

// AveragePRF combines per-class scores the way sklearn's
// precision_recall_fscore_support does. When onlyPresent is true, classes
// absent from both the true and the predicted labels are left out (sklearn's
// multiclass behaviour); multi-label problems use every label.
func AveragePRF(scores []ClassScore, avg Averaging, onlyPresent bool) PRF {
	var r PRF
	var tp, pred, support, n float64
	var ps, rs, fs, ws []float64
	for _, s := range scores {
		if onlyPresent && !s.Present() {
			continue
		}
		n++
		tp += s.TP
		pred += s.Predicted
		support += s.Support
		if !s.PrecisionDefined() {
			r.PrecisionWarnings++
		}
		if !s.RecallDefined() {
			r.RecallWarnings++
		}
		if !s.PrecisionDefined() || !s.RecallDefined() {
			r.F1Warnings++
		}
		ps = append(ps, s.Precision)
		rs = append(rs, s.Recall)
		fs = append(fs, s.F1)
		ws = append(ws, s.Support)
	}
	switch avg {
	case Micro:
		r = PRF{Precision: ratio(tp, pred), Recall: ratio(tp, support)}
		r.F1 = f1(r.Precision, r.Recall)
		if pred == 0 {
			r.PrecisionWarnings, r.F1Warnings = 1, 1
		}
		if support == 0 {
			r.RecallWarnings, r.F1Warnings = 1, 1
		}
	case Macro:
		if n == 0 {
			return PRF{PrecisionWarnings: 1, RecallWarnings: 1, F1Warnings: 1}
		}
		r.Precision, r.Recall, r.F1 = stat.Mean(ps, nil), stat.Mean(rs, nil), stat.Mean(fs, nil)
	case Weighted:
		if support == 0 {
			r.PrecisionWarnings++
			r.RecallWarnings++
			r.F1Warnings++
			r.Precision, r.Recall, r.F1 = 0, 0, 0
			return r
		}
		r.Precision, r.Recall, r.F1 = stat.Mean(ps, ws), stat.Mean(rs, ws), stat.Mean(fs, ws)
	default:
		panic(fmt.Sprintf("metrics: unknown average %d", int(avg)))
	}
	return r
}
