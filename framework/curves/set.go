package curves

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// MaxPoints bounds the points a stored curve keeps (see Thin); its area
// is computed before thinning, exactly.
const MaxPoints = 48

// Bins is the number of equal-width confidence bins of a reliability
// diagram (Guo, Pleiss, Sun & Weinberger, "On calibration of modern
// neural networks", ICML 2017, use 15).
const Bins = 15

// Set is the threshold views of one cell: its out-of-fold scores of every
// fold and repeat pooled.
type Set struct {
	// Rows is the number of scored rows pooled (a row counts once per
	// repeat).
	Rows int `json:"rows"`
	// ROC and PR are the ROC and precision–recall curves.
	ROC Family `json:"roc"`
	PR  Family `json:"pr"`
	// Reliability is the reliability diagram of the class probabilities,
	// nil when the scores are not probabilities (or the data multi-label).
	Reliability *Reliability `json:"reliability,omitempty"`
	// Labels count, for multi-label data, each label's true and false
	// positives and its support (multiclass cells have their confusion
	// matrices instead).
	Labels []LabelCounts `json:"label_counts,omitempty"`
}

// Family is one kind of curve: one per class (that class against the
// rest), micro-averaged (every class's decisions pooled) and
// macro-averaged.
type Family struct {
	Classes []Curve `json:"classes"`
	Micro   Curve   `json:"micro"`
	Macro   Curve   `json:"macro"`
}

// Curve is a curve's points, thinned to at most MaxPoints and rounded to
// four decimals (Thin), and its exact area: the ROC AUC or the average
// precision. X is the false positive rate (ROC) or the recall (PR), Y the
// true positive rate or the precision. In JSON the points are one string,
// "x y x y …", so that an indented cell file spends a line on a curve, not
// one per number.
type Curve struct {
	X, Y []float64
	Area Num
}

// jsonCurve is a Curve as JSON holds it.
type jsonCurve struct {
	Points string `json:"points"`
	Area   Num    `json:"area"`
}

// MarshalJSON implements json.Marshaler.
func (c Curve) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 14*len(c.X))
	for i := range c.X {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendFloat(b, c.X[i], 'g', -1, 64)
		b = append(b, ' ')
		b = strconv.AppendFloat(b, c.Y[i], 'g', -1, 64)
	}
	return json.Marshal(jsonCurve{Points: string(b), Area: c.Area})
}

// UnmarshalJSON implements json.Unmarshaler.
func (c *Curve) UnmarshalJSON(b []byte) error {
	var j jsonCurve
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	f := strings.Fields(j.Points)
	if len(f)%2 != 0 {
		return fmt.Errorf("curve points: %d numbers, not pairs", len(f))
	}
	*c = Curve{X: make([]float64, len(f)/2), Y: make([]float64, len(f)/2), Area: j.Area}
	for i, s := range f {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("curve points: %w", err)
		}
		if i%2 == 0 {
			c.X[i/2] = v
		} else {
			c.Y[i/2] = v
		}
	}
	return nil
}

// Reliability is a reliability diagram: the rows binned by their
// confidence (the largest class probability) into Bins equal-width bins,
// bin m holding the confidences in ((m−1)/Bins, m/Bins] (0 in the first),
// with each bin's mean confidence and accuracy (the share of its rows
// whose most probable class is the true class).
type Reliability struct {
	Count      []int `json:"count"`
	Confidence []Num `json:"confidence"`
	Accuracy   []Num `json:"accuracy"`
	// ECE is the expected calibration error Σ_m (n_m/n)·|acc_m − conf_m|;
	// MCE the largest |acc_m − conf_m| of a bin with rows.
	ECE Num `json:"ece"`
	MCE Num `json:"mce"`
}

// LabelCounts are one label's counts over the pooled rows of a multi-label
// cell: true and false positives, false negatives, and support (the rows
// carrying the label).
type LabelCounts struct {
	TP      int `json:"tp"`
	FP      int `json:"fp"`
	FN      int `json:"fn"`
	Support int `json:"support"`
}

// Num is a float64 that JSON writes as null when it is NaN (an area
// without positives) and reads back as NaN.
type Num float64

// MarshalJSON implements json.Marshaler.
func (x Num) MarshalJSON() ([]byte, error) {
	f := float64(x)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (x *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*x = Num(math.NaN())
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	*x = Num(f)
	return err
}

// Fold is one fold's scored test rows: Scores holds rows × K class
// scores row by row; True the true class of each row (multiclass), or
// TrueSet the rows × K 0/1 label matrix row by row (multi-label), and
// PredSet the predicted one.
type Fold struct {
	Scores           []float64
	True             []int
	TrueSet, PredSet []float64

	// sorted holds, after Prepare, each class's scores split by truth
	// and sorted: class c's positives sorted[c][0], its negatives
	// sorted[c][1].
	sorted [][2][]float64
}

// Prepare returns f with each class's scores split by truth and sorted,
// the part of Compute's work that one fold's rows determine: a cell's
// folds prepared as each finishes leave Compute to merge them. k is the
// number of classes (labels).
func Prepare(k int, f Fold) Fold {
	rows := len(f.Scores) / max(k, 1)
	all := make([]float64, 0, rows*k)
	f.sorted = make([][2][]float64, k)
	for c := range k {
		start := len(all)
		for r := range rows {
			if f.positive(k, r, c) {
				all = append(all, f.Scores[r*k+c])
			}
		}
		mid := len(all)
		for r := range rows {
			if !f.positive(k, r, c) {
				all = append(all, f.Scores[r*k+c])
			}
		}
		pos, neg := all[start:mid:mid], all[mid:len(all):len(all)]
		slices.Sort(pos)
		slices.Sort(neg)
		f.sorted[c] = [2][]float64{pos, neg}
	}
	return f
}

// positive reports whether row r of the fold is of class (has label) c.
func (f *Fold) positive(k, r, c int) bool {
	if f.TrueSet != nil {
		return f.TrueSet[r*k+c] != 0
	}
	return f.True[r] == c
}

// Compute pools the folds' rows of a K-class (or K-label) cell and
// returns their views: per class (label) against the rest, micro- and
// macro-averaged ROC and precision–recall curves, and, when probabilities
// is set and the data is multiclass, the reliability diagram. The result
// depends on the rows alone, not on their order.
func Compute(k int, folds []Fold, probabilities bool) *Set {
	n := 0
	for _, f := range folds {
		n += len(f.Scores) / max(k, 1)
	}
	multi := len(folds) > 0 && folds[0].TrueSet != nil
	s := &Set{Rows: n}
	// One class at a time: its scores split by truth, its curves and
	// areas, its part of the macro averages. A class's scores live only
	// while it is counted, sorted (countSplit); each then joins the
	// pooled decisions of the micro average as a sorted run, and the
	// runs are merged, not sorted again. A pooled decision costs its
	// score alone.
	positives := positiveCount(k, folds, multi)
	microPos, microNeg := make([]float64, 0, positives), make([]float64, 0, n*k-positives)
	var posEnds, negEnds []int
	var pos, neg, buf []float64
	var aucs, aps []float64
	var macroROC, macroPR macro
	for c := range k {
		pos, neg, buf = classScores(k, c, folds, pos[:0], neg[:0], buf)
		rc, pc := classCurves(countSorted(pos, neg), &macroROC, &macroPR)
		s.ROC.Classes, s.PR.Classes = append(s.ROC.Classes, rc), append(s.PR.Classes, pc)
		aucs, aps = append(aucs, float64(rc.Area)), append(aps, float64(pc.Area))
		microPos, microNeg = append(microPos, pos...), append(microNeg, neg...)
		posEnds, negEnds = append(posEnds, len(microPos)), append(negEnds, len(microNeg))
	}
	buf = slices.Grow(buf[:0], max(len(microPos), len(microNeg)))[:max(len(microPos), len(microNeg))]
	mergeRuns(microPos, buf, posEnds)
	mergeRuns(microNeg, buf, negEnds)
	micro := countSorted(microPos, microNeg)
	microPos, microNeg = nil, nil
	fpr, tpr := micro.rates()
	s.ROC.Micro = Thin(fpr, tpr, Num(micro.auc(fpr, tpr)))
	fpr, tpr = nil, nil
	prec, rec := micro.precisionRecall()
	s.PR.Micro = Thin(rec, prec, Num(micro.averagePrecision(prec, rec)))
	mx, my := macroROC.rocMean()
	s.ROC.Macro = Thin(mx, my, Num(meanOf(aucs)))
	mx, my = macroPR.prMean()
	s.PR.Macro = Thin(mx, my, Num(meanOf(aps)))
	if multi {
		s.Labels = labelCounts(k, folds)
	} else if probabilities {
		s.Reliability = reliability(k, folds)
	}
	return s
}

// classScores returns class c's scores of the folds split by truth and
// sorted, in pos and neg (appended to), and the scratch buffer buf: the
// prepared folds' sorted runs merged (Prepare), or the scores sorted.
func classScores(k, c int, folds []Fold, pos, neg, buf []float64) ([]float64, []float64, []float64) {
	prepared := true
	for i := range folds {
		prepared = prepared && folds[i].sorted != nil
	}
	if !prepared {
		for i := range folds {
			f := &folds[i]
			rows := len(f.Scores) / k
			for r := range rows {
				if f.positive(k, r, c) {
					pos = append(pos, f.Scores[r*k+c])
				} else {
					neg = append(neg, f.Scores[r*k+c])
				}
			}
		}
		slices.Sort(pos)
		slices.Sort(neg)
		return pos, neg, buf
	}
	var posEnds, negEnds []int
	for i := range folds {
		pos, neg = append(pos, folds[i].sorted[c][0]...), append(neg, folds[i].sorted[c][1]...)
		posEnds, negEnds = append(posEnds, len(pos)), append(negEnds, len(neg))
	}
	buf = slices.Grow(buf[:0], max(len(pos), len(neg)))[:max(len(pos), len(neg))]
	mergeRuns(pos, buf, posEnds)
	mergeRuns(neg, buf, negEnds)
	return pos, neg, buf
}

// positiveCount returns the number of positive decisions of the pooled
// rows: one per row (multiclass) or one per label set (multi-label).
func positiveCount(k int, folds []Fold, multi bool) int {
	n := 0
	for _, f := range folds {
		if !multi {
			n += len(f.Scores) / max(k, 1)
			continue
		}
		for _, t := range f.TrueSet {
			if t != 0 {
				n++
			}
		}
	}
	return n
}

// classCurves returns one class's ROC and precision–recall curves, thinned,
// with their areas, and adds the class to the macro averages: to the ROC
// average when it has positive and negative rows, to the precision–recall
// one when it has positive rows. A class without positives (or negatives)
// has no curve to draw: its rates are NaN, or its recall 1 throughout.
func classCurves(c Binary, roc, pr *macro) (rc, pc Curve) {
	fpr, tpr := c.rates()
	rc.Area = Num(c.auc(fpr, tpr))
	if c.Positives() > 0 && c.Negatives() > 0 {
		rc = Thin(fpr, tpr, rc.Area)
		roc.addROC(fpr, tpr)
	}
	prec, rec := c.precisionRecall()
	pc.Area = Num(c.averagePrecision(prec, rec))
	if c.Positives() > 0 {
		pc = Thin(rec, prec, pc.Area)
		pr.addPR(rec, prec)
	}
	return rc, pc
}

// macro sums curves interpolated on the grid Linspace(MacroGrid), one
// class at a time, for their mean (MacroROC, MacroPR).
type macro struct {
	grid, sum []float64
	n         int
}

// init makes the grid on first use.
func (m *macro) init() {
	if m.grid == nil {
		m.grid = Linspace(MacroGrid)
		m.sum = make([]float64, MacroGrid)
	}
}

// addROC adds a ROC curve: its true positive rate interpolated at each
// false positive rate of the grid.
func (m *macro) addROC(fpr, tpr []float64) {
	m.init()
	for j, v := range Interp(m.grid, fpr, tpr) {
		m.sum[j] += v
	}
	m.n++
}

// rocMean returns the grid and the mean true positive rate on it.
func (m *macro) rocMean() (fpr, tpr []float64) {
	m.init()
	for j := range m.sum {
		m.sum[j] /= float64(m.n)
	}
	return m.grid, m.sum
}

// addPR adds a precision–recall curve: at each recall of the grid the
// highest precision at that recall or above (the precision a threshold
// reaching at least that recall can have).
func (m *macro) addPR(r, precision []float64) {
	m.init()
	// The points by increasing recall, and the highest precision at each
	// recall or above (a suffix maximum): each grid recall then finds its
	// value at the first point of recall at least its own. The order
	// within a tie of recalls does not matter, as the search finds a
	// tie's first point and the maximum covers the whole tie. A curve of
	// PrecisionRecall runs from the highest recall down: its points
	// reversed are in order.
	n := len(r)
	order := make([]int, n)
	for i := range order {
		order[i] = n - 1 - i
	}
	if !slices.IsSortedFunc(order, func(a, b int) int { return cmp.Compare(r[a], r[b]) }) {
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return r[order[a]] < r[order[b]] })
	}
	best := make([]float64, n+1)
	for i := n - 1; i >= 0; i-- {
		best[i] = math.Max(best[i+1], precision[order[i]])
	}
	i := 0
	for j, x := range m.grid {
		for i < n && r[order[i]] < x {
			i++
		}
		m.sum[j] += best[i]
	}
	m.n++
}

// prMean returns the grid and the mean precision on it, from the highest
// recall down as the classes' curves run.
func (m *macro) prMean() (recall, precision []float64) {
	m.init()
	for j := range m.sum {
		m.sum[j] /= float64(m.n)
	}
	slicesReverse(m.grid)
	slicesReverse(m.sum)
	return m.grid, m.sum
}

// MacroGrid is the number of points of the macro-averaged curves: the
// grid of scikit-learn's ROC example, numpy's linspace(0, 1, 1000).
const MacroGrid = 1000

// MacroROC averages ROC curves as scikit-learn's ROC example does: on the
// false positive rates of Linspace(MacroGrid), the mean of the classes'
// true positive rates, each interpolated there (Interp). The caller
// leaves out the classes without positive or negative rows, and reports
// the area as the mean of the classes' AUCs (scikit-learn's
// roc_auc_score, average="macro").
func MacroROC(fprs, tprs [][]float64) (fpr, tpr []float64) {
	var m macro
	for i := range fprs {
		m.addROC(fprs[i], tprs[i])
	}
	return m.rocMean()
}

// MacroPR averages precision–recall curves: on the recalls of
// Linspace(MacroGrid), the mean over the classes of their interpolated
// precision, the highest precision at that recall or above (the precision
// a threshold reaching at least that recall can have), from the highest
// recall down as the classes' curves run. The caller leaves out the
// classes without positive rows, and reports the area as the mean of the
// classes' average precisions (scikit-learn's average_precision_score,
// average="macro").
func MacroPR(recalls, precisions [][]float64) (recall, precision []float64) {
	var m macro
	for i := range recalls {
		m.addPR(recalls[i], precisions[i])
	}
	return m.prMean()
}

func slicesReverse(x []float64) {
	for i, j := 0, len(x)-1; i < j; i, j = i+1, j-1 {
		x[i], x[j] = x[j], x[i]
	}
}

// Thin keeps at most MaxPoints of the points (x, y): the first, the last,
// and in between each point at least a step (in |Δx| + |Δy|) from the last
// kept, the step the smallest of 2/MaxPoints·1.5^i that keeps few enough;
// then it rounds the coordinates to four decimals. area is stored as it is.
func Thin(x, y []float64, area Num) Curve {
	// keep returns the points kept at step, or false as soon as there
	// are more than MaxPoints.
	out := make([]int, 0, MaxPoints+1)
	keep := func(step float64) ([]int, bool) {
		out = out[:0]
		for i := range x {
			if i == 0 || i == len(x)-1 {
				out = append(out, i)
			} else if l := out[len(out)-1]; math.Abs(x[i]-x[l])+math.Abs(y[i]-y[l]) >= step {
				out = append(out, i)
			}
			if len(out) > MaxPoints {
				return nil, false
			}
		}
		return out, true
	}
	idx, ok := keep(0)
	for step := 2.0 / MaxPoints; !ok; step *= 1.5 {
		idx, ok = keep(step)
	}
	c := Curve{X: make([]float64, len(idx)), Y: make([]float64, len(idx)), Area: area}
	for j, i := range idx {
		c.X[j], c.Y[j] = round4(x[i]), round4(y[i])
	}
	return c
}

// round4 rounds to four decimals; NaN stays NaN (and is written as null
// only in areas: a curve of a class without positives is not drawn).
func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// reliability bins the pooled rows of a multiclass cell by confidence.
func reliability(k int, folds []Fold) *Reliability {
	count := make([]int, Bins)
	confs := make([][]float64, Bins)
	correct := make([]int, Bins)
	total := 0
	for _, f := range folds {
		rows := len(f.Scores) / k
		for r := range rows {
			p := f.Scores[r*k : (r+1)*k]
			best := 0
			for c := 1; c < k; c++ {
				if p[c] > p[best] {
					best = c
				}
			}
			b := Bin(p[best])
			count[b]++
			confs[b] = append(confs[b], p[best])
			if best == f.True[r] {
				correct[b]++
			}
			total++
		}
	}
	rel := &Reliability{Count: count, Confidence: make([]Num, Bins), Accuracy: make([]Num, Bins)}
	ece, mce := 0.0, 0.0
	for b := range Bins {
		if count[b] == 0 {
			rel.Confidence[b], rel.Accuracy[b] = Num(math.NaN()), Num(math.NaN())
			continue
		}
		// Summed in increasing order: the same rows in any order give
		// the same bits.
		slices.Sort(confs[b])
		sum := 0.0
		for _, v := range confs[b] {
			sum += v
		}
		c := sum / float64(count[b])
		a := float64(correct[b]) / float64(count[b])
		rel.Confidence[b], rel.Accuracy[b] = Num(c), Num(a)
		gap := math.Abs(a - c)
		ece += float64(count[b]) / float64(total) * gap
		mce = math.Max(mce, gap)
	}
	rel.ECE, rel.MCE = Num(ece), Num(mce)
	if total == 0 {
		rel.ECE, rel.MCE = Num(math.NaN()), Num(math.NaN())
	}
	return rel
}

// Bin returns the reliability bin of a confidence p: m − 1 for p in
// ((m−1)/Bins, m/Bins], 0 for p ≤ 0, Bins − 1 for p ≥ 1.
func Bin(p float64) int {
	return min(max(int(math.Ceil(p*Bins))-1, 0), Bins-1)
}

// labelCounts counts each label's decisions over the pooled rows of a
// multi-label cell.
func labelCounts(k int, folds []Fold) []LabelCounts {
	out := make([]LabelCounts, k)
	for _, f := range folds {
		for i, t := range f.TrueSet {
			c := i % k
			p := f.PredSet != nil && f.PredSet[i] != 0
			switch {
			case t != 0 && p:
				out[c].TP++
			case t != 0:
				out[c].FN++
			case p:
				out[c].FP++
			}
			if t != 0 {
				out[c].Support++
			}
		}
	}
	return out
}
