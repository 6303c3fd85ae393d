// Package curves computes the threshold views of a classifier's scores:
// receiver operating characteristic (ROC) and precision–recall curves, one
// class against the rest, micro- and macro-averaged, with their areas
// (ROC AUC, average precision), and the reliability diagram of class
// probabilities with the expected calibration error. The definitions are
// scikit-learn's (sklearn.metrics.roc_curve, precision_recall_curve,
// roc_auc_score, average_precision_score) so that its users read the same
// numbers; a cell keeps its curves thinned to a bounded number of points
// and its areas exact.
package curves

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// Binary is one binary curve's sufficient statistics: at each distinct
// score, from the highest down, the true and false positives counted so
// far (scikit-learn's _binary_clf_curve).
type Binary struct {
	// Thresholds are the distinct scores, decreasing; TP[i] and FP[i]
	// count the rows scored at least Thresholds[i] that are positive and
	// negative.
	Thresholds []float64
	TP, FP     []int
}

// Count sorts the rows by score, highest first, and counts the positives
// and negatives at or above each distinct score. Ties are one threshold,
// so the order of the rows does not matter: the same rows in any order
// give the same counts. NaN scores are an error of the caller and sort
// last.
func Count(scores []float64, positive []bool) Binary {
	var pos, neg []float64
	for i, v := range scores {
		if positive[i] {
			pos = append(pos, v)
		} else {
			neg = append(neg, v)
		}
	}
	return countSplit(pos, neg)
}

// countSplit is Count of the positive rows' scores pos and the negative
// rows' scores neg, which it sorts in place. Holding the two classes of
// rows apart, a row costs its score alone.
func countSplit(pos, neg []float64) Binary {
	slices.Sort(pos)
	slices.Sort(neg)
	return countSorted(pos, neg)
}

// countSorted is countSplit of scores sorted increasing, NaN first (as
// slices.Sort orders them): walked from the end, the scores come highest
// first and NaN last. The scores are walked twice: once to count the
// points (one per distinct score, a NaN each: as many as rows at most,
// often far fewer, a knn's votes), then to fill slices of that size. The
// slices grown by append instead cost the micro average of 200 classes
// (4,000,000 decisions, as many points) 1.8 GB allocated and 2.6 s of
// copying, most of a cell's views, on one goroutine.
func countSorted(pos, neg []float64) Binary {
	n := walkSorted(pos, neg, nil)
	c := Binary{Thresholds: make([]float64, 0, n), TP: make([]int, 0, n), FP: make([]int, 0, n)}
	walkSorted(pos, neg, &c)
	return c
}

// walkSorted walks the scores of countSorted from the highest down and
// returns the number of points; when c is not nil it appends each point
// to it.
func walkSorted(pos, neg []float64, c *Binary) int {
	i, j := len(pos)-1, len(neg)-1
	tp, fp, points := 0, 0, 0
	for i >= 0 || j >= 0 {
		var s float64
		switch {
		case j < 0 || i >= 0 && cmp.Compare(pos[i], neg[j]) >= 0:
			s = pos[i]
		default:
			s = neg[j]
		}
		if math.IsNaN(s) {
			// A NaN is no threshold of any other row.
			if i >= 0 && math.IsNaN(pos[i]) {
				tp, i = tp+1, i-1
			} else {
				fp, j = fp+1, j-1
			}
		} else {
			for ; i >= 0 && pos[i] == s; i-- {
				tp++
			}
			for ; j >= 0 && neg[j] == s; j-- {
				fp++
			}
		}
		points++
		if c != nil {
			c.Thresholds = append(c.Thresholds, s)
			c.TP = append(c.TP, tp)
			c.FP = append(c.FP, fp)
		}
	}
	return points
}

// mergeRuns sorts x, the sorted runs x[ends[i−1]:ends[i]] one after
// another (ends[len−1] = len(x)), by merging neighbouring runs pairwise
// through buf (len(buf) ≥ len(x)), in the order slices.Sort gives
// (increasing, NaN first). From parallelMerge values on, the merges of a
// round run on as many goroutines as there are processors (the micro
// average's 4,000,000 decisions in 200 runs, at a cell's end); each
// writes its own part of buf, so the result is the same.
func mergeRuns(x, buf []float64, ends []int) {
	dst := x
	ends = slices.Clone(ends)
	parallel := len(x) >= parallelMerge
	for len(ends) > 1 {
		var pairs [][3]int // start, middle, end of each merge of the round
		start, out := 0, ends[:0]
		for r := 0; r < len(ends); r += 2 {
			if r+1 == len(ends) {
				copy(buf[start:], x[start:ends[r]])
				out = append(out, ends[r])
				break
			}
			pairs = append(pairs, [3]int{start, ends[r], ends[r+1]})
			start = ends[r+1]
			out = append(out, start)
		}
		mergePairs(x, buf, pairs, parallel)
		x, buf, ends = buf[:len(x)], x, out
	}
	copy(dst, x)
}

// parallelMerge is the fewest values whose rounds of merges mergeRuns
// spreads over the processors.
const parallelMerge = 1 << 18

// mergePairs merges each pair of neighbouring runs of x (start, middle,
// end) into the same place of buf, on several goroutines when parallel.
func mergePairs(x, buf []float64, pairs [][3]int, parallel bool) {
	one := func(p [3]int) { merge(buf[p[0]:p[2]], x[p[0]:p[1]], x[p[1]:p[2]]) }
	if !parallel || len(pairs) < 2 {
		for _, p := range pairs {
			one(p)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(pairs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(pairs); i = int(next.Add(1) - 1) {
				one(pairs[i])
			}
		}()
	}
	wg.Wait()
}

// merge merges the sorted a and b into dst (len(a) + len(b)), a's first
// where they tie.
func merge(dst, a, b []float64) {
	i, j := 0, 0
	for k := range dst {
		if j == len(b) || i < len(a) && !cmp.Less(b[j], a[i]) {
			dst[k], i = a[i], i+1
		} else {
			dst[k], j = b[j], j+1
		}
	}
}

// Positives and Negatives return the number of positive and negative
// rows.
func (c Binary) Positives() int { return last(c.TP) }

// Negatives returns the number of negative rows.
func (c Binary) Negatives() int { return last(c.FP) }

func last(x []int) int {
	if len(x) == 0 {
		return 0
	}
	return x[len(x)-1]
}

// ROC returns the ROC curve as scikit-learn's roc_curve with
// drop_intermediate=False: the false and true positive rates at every
// distinct threshold, after a first point (0, 0) at threshold +Inf. With
// no positive (or no negative) rows the true (false) positive rate is
// NaN, as scikit-learn's.
func (c Binary) ROC() (fpr, tpr, thresholds []float64) {
	fpr, tpr = c.rates()
	thresholds = make([]float64, len(fpr))
	thresholds[0] = math.Inf(1)
	copy(thresholds[1:], c.Thresholds)
	return fpr, tpr, thresholds
}

// rates is ROC without the thresholds.
func (c Binary) rates() (fpr, tpr []float64) {
	p, n := float64(c.Positives()), float64(c.Negatives())
	m := len(c.TP) + 1
	fpr, tpr = make([]float64, m), make([]float64, m)
	for i := range c.TP {
		fpr[i+1] = float64(c.FP[i]) / n
		tpr[i+1] = float64(c.TP[i]) / p
	}
	return fpr, tpr
}

// PrecisionRecall returns the precision–recall curve as scikit-learn's
// precision_recall_curve (version 1.2): precision and recall at every
// distinct threshold, from the lowest threshold up, then the point
// (recall 0, precision 1) without a threshold. With no positive rows the
// recall is 1 throughout.
func (c Binary) PrecisionRecall() (precision, recall, thresholds []float64) {
	precision, recall = c.precisionRecall()
	thresholds = make([]float64, 0, len(c.Thresholds))
	for i := len(c.Thresholds) - 1; i >= 0; i-- {
		thresholds = append(thresholds, c.Thresholds[i])
	}
	return precision, recall, thresholds
}

// precisionRecall is PrecisionRecall without the thresholds.
func (c Binary) precisionRecall() (precision, recall []float64) {
	p := float64(c.Positives())
	m := len(c.TP)
	precision, recall = make([]float64, 0, m+1), make([]float64, 0, m+1)
	for i := m - 1; i >= 0; i-- {
		prec := 0.0
		if s := c.TP[i] + c.FP[i]; s > 0 {
			prec = float64(c.TP[i]) / float64(s)
		}
		rec := 1.0
		if p > 0 {
			rec = float64(c.TP[i]) / p
		}
		precision = append(precision, prec)
		recall = append(recall, rec)
	}
	return append(precision, 1), append(recall, 0)
}

// AUC returns the area under the ROC curve by the trapezoidal rule
// (scikit-learn's roc_auc_score of one binary problem); NaN without
// positive or negative rows.
func (c Binary) AUC() float64 {
	fpr, tpr, _ := c.ROC()
	return c.auc(fpr, tpr)
}

// auc is AUC of the curve ROC gave.
func (c Binary) auc(fpr, tpr []float64) float64 {
	if c.Positives() == 0 || c.Negatives() == 0 {
		return math.NaN()
	}
	return Trapezoid(fpr, tpr)
}

// AveragePrecision returns Σ (R_n − R_(n−1)) P_n over the thresholds
// (scikit-learn's average_precision_score); NaN without positive rows
// (scikit-learn then warns and gives a meaningless value).
func (c Binary) AveragePrecision() float64 {
	precision, recall, _ := c.PrecisionRecall()
	return c.averagePrecision(precision, recall)
}

// averagePrecision is AveragePrecision of the curve PrecisionRecall gave.
func (c Binary) averagePrecision(precision, recall []float64) float64 {
	if c.Positives() == 0 {
		return math.NaN()
	}
	ap := 0.0
	for i := 0; i+1 < len(recall); i++ {
		ap -= (recall[i+1] - recall[i]) * precision[i]
	}
	return ap
}

// Trapezoid returns the area under the points (x, y) by the trapezoidal
// rule, x non-decreasing (numpy's trapz, scikit-learn's auc).
func Trapezoid(x, y []float64) float64 {
	a := 0.0
	for i := 1; i < len(x); i++ {
		a += (x[i] - x[i-1]) * (y[i] + y[i-1]) / 2
	}
	return a
}

// Interp returns the piecewise-linear interpolation of the points (xp,
// fp), xp non-decreasing, at each of x, as numpy's interp: beyond the
// ends the end values; at a repeated xp the last of its values (on a ROC
// curve the top of a vertical step).
func Interp(x, xp, fp []float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		// j: the last index with xp[j] ≤ v.
		j := sort.Search(len(xp), func(k int) bool { return xp[k] > v }) - 1
		switch {
		case j < 0:
			out[i] = fp[0]
		case j >= len(xp)-1:
			out[i] = fp[len(fp)-1]
		case v == xp[j]:
			out[i] = fp[j]
		default:
			out[i] = fp[j] + (fp[j+1]-fp[j])*(v-xp[j])/(xp[j+1]-xp[j])
		}
	}
	return out
}

// Linspace returns n ≥ 2 evenly spaced points from 0 to 1, as numpy's
// linspace(0, 1, n): i/(n−1), the last exactly 1.
func Linspace(n int) []float64 {
	g := make([]float64, n)
	step := 1 / float64(n-1)
	for i := range g {
		g[i] = float64(i) * step
	}
	g[n-1] = 1
	return g
}

// meanOf returns the mean of the non-NaN values of x, NaN when there are
// none, summing in order.
func meanOf(x []float64) float64 {
	s, n := 0.0, 0
	for _, v := range x {
		if !math.IsNaN(v) {
			s += v
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return s / float64(n)
}
