package metrics

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// BinaryAUC returns the area under the ROC curve of score for the positive
// rows pos: the Mann–Whitney probability that a random positive scores above
// a random negative, ties counting ½. It returns NaN when pos has no positive
// or no negative row.
func BinaryAUC(pos []bool, score []float64) float64 {
	if len(pos) != len(score) {
		panic("metrics: BinaryAUC: pos and score differ in length")
	}
	idx := make([]int, len(score))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(score[a], score[b]) })
	var nPos, rankSum float64
	for lo := 0; lo < len(idx); {
		hi := lo + 1
		for hi < len(idx) && score[idx[hi]] == score[idx[lo]] {
			hi++
		}
		// Rows lo..hi-1 are tied and share the average 1-based rank.
		rank := float64(lo+1+hi) / 2
		for _, i := range idx[lo:hi] {
			if pos[i] {
				nPos++
				rankSum += rank
			}
		}
		lo = hi
	}
	nNeg := float64(len(pos)) - nPos
	if nPos == 0 || nNeg == 0 {
		return math.NaN()
	}
	return (rankSum - nPos*(nPos+1)/2) / (nPos * nNeg)
}

// OvRAUC returns, for each class k, the one-vs-rest AUC of column k of prob
// (n×K) for the rows whose true label is k, reusing dst when it has room.
// Classes that are absent from y, or that are the class of every row, have
// no ROC curve and get NaN.
func OvRAUC(dst []float64, y []int, prob mat.Matrix) []float64 {
	n, K := prob.Dims()
	if len(y) != n {
		panic("metrics: OvRAUC: labels and probability rows differ in number")
	}
	if cap(dst) < K {
		dst = make([]float64, K)
	}
	dst = dst[:K]
	pos := make([]bool, n)
	col := make([]float64, n)
	for k := 0; k < K; k++ {
		for i := range y {
			pos[i] = y[i] == k
		}
		mat.Col(col, k, prob)
		dst[k] = BinaryAUC(pos, col)
	}
	return dst
}

// Average returns the weighted mean of the scores x that are not NaN (nil
// weights mean uniform) and the number of NaN entries it skipped. With no
// usable entry, or zero total weight, it returns 0.
func Average(x, weights []float64) (mean float64, skipped int) {
	var xs, ws []float64
	for i, v := range x {
		if math.IsNaN(v) {
			skipped++
			continue
		}
		xs = append(xs, v)
		if weights != nil {
			ws = append(ws, weights[i])
		}
	}
	if len(xs) == 0 {
		return 0, skipped
	}
	if weights != nil {
		var tot float64
		for _, w := range ws {
			tot += w
		}
		if tot == 0 {
			return 0, skipped
		}
	}
	return stat.Mean(xs, ws), skipped
}

// PairAUC returns Hand & Till's Â(i, j) = (A(i|j) + A(j|i))/2 over the rows
// whose true class is i or j, where A(i|j) is the AUC of column i of prob
// separating class i from class j. It is NaN if either class is absent.
func PairAUC(y []int, prob mat.Matrix, i, j int) float64 {
	var pos []bool
	var si, sj []float64
	for r, c := range y {
		if c != i && c != j {
			continue
		}
		pos = append(pos, c == i)
		si = append(si, prob.At(r, i))
		sj = append(sj, prob.At(r, j))
	}
	aij := BinaryAUC(pos, si)
	for r := range pos {
		pos[r] = !pos[r]
	}
	aji := BinaryAUC(pos, sj)
	return (aij + aji) / 2
}

// HandTillM returns Hand & Till's (2001) multiclass AUC M: the mean of
// PairAUC over all pairs of classes that occur in y (sklearn's
// roc_auc_score(multi_class="ovo")), and the number of the K = columns of
// prob classes that do not occur in y and were therefore skipped. With fewer
// than two classes present no pair exists: it returns M = 0 and skipped = K.
func HandTillM(y []int, prob mat.Matrix) (m float64, skipped int) {
	_, K := prob.Dims()
	present := make([]bool, K)
	for _, c := range y {
		present[c] = true
	}
	var cls []int
	for k, p := range present {
		if p {
			cls = append(cls, k)
		} else {
			skipped++
		}
	}
	var pairs []float64
	for a := 0; a < len(cls); a++ {
		for b := a + 1; b < len(cls); b++ {
			pairs = append(pairs, PairAUC(y, prob, cls[a], cls[b]))
		}
	}
	if len(pairs) == 0 {
		return 0, K
	}
	return stat.Mean(pairs, nil), skipped
}
