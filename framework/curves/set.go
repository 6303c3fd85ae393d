package curves

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
// number of classes (labels). The classes are spread over the processors
// (a cell's last fold prepares its 200 classes with no other fold left to
// run beside it), each in its own part of one slice: the part's bounds
// come from the classes' row counts, so the parts are those of one class
// after another, whatever the order they are filled in.
func Prepare(k int, f Fold) Fold {
	rows := len(f.Scores) / max(k, 1)
	all := make([]float64, rows*k)
	positives := f.positives(k, rows)
	f.sorted = make([][2][]float64, k)
	forEachClass(k, func(c int, buf []float64) []float64 {
		// Class c's rows are all[c·rows : (c+1)·rows], its positives first.
		begin, mid := c*rows, c*rows+positives[c]
		pos, neg := all[begin:begin:mid], all[mid:mid:begin+rows]
		for r := range rows {
			if f.positive(k, r, c) {
				pos = append(pos, f.Scores[r*k+c])
			} else {
				neg = append(neg, f.Scores[r*k+c])
			}
		}
		slices.Sort(pos)
		slices.Sort(neg)
		f.sorted[c] = [2][]float64{pos, neg}
		return buf
	})
	return f
}

// positives returns the number of positive rows of each class (label)
// of a fold of rows rows.
func (f *Fold) positives(k, rows int) []int {
	n := make([]int, k)
	if f.TrueSet != nil {
		for i, t := range f.TrueSet[:rows*k] {
			if t != 0 {
				n[i%k]++
			}
		}
		return n
	}
	for _, c := range f.True[:rows] {
		if c >= 0 && c < k { // another value is no class's positive (positive)
			n[c]++
		}
	}
	return n
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
	// Each class on its own, the classes spread over the processors: its
	// scores split by truth and sorted (merged from the folds' sorted
	// runs, each fold prepared unless it came so), its curves and areas, its curves on
	// the grid of the macro averages, summed afterwards in class order.
	// A class's sorted scores are a run of the pooled decisions of the
	// micro average, in place: the runs are merged, not sorted again. A
	// pooled decision costs its score alone.
	folds = prepared(k, folds)
	posEnds, negEnds := classSizes(k, folds)
	microPos, microNeg := make([]float64, last(posEnds)), make([]float64, last(negEnds))
	views := make([]classView, k)
	grid := Linspace(MacroGrid)
	forEachClass(k, func(c int, buf []float64) []float64 {
		pos, neg := microPos[start(posEnds, c):posEnds[c]], microNeg[start(negEnds, c):negEnds[c]]
		buf = classScores(c, folds, pos, neg, buf)
		views[c] = viewOf(countSorted(pos, neg), grid)
		return buf
	})
	var aucs, aps []float64
	var macroROC, macroPR macro
	for _, v := range views {
		s.ROC.Classes, s.PR.Classes = append(s.ROC.Classes, v.roc), append(s.PR.Classes, v.pr)
		aucs, aps = append(aucs, float64(v.roc.Area)), append(aps, float64(v.pr.Area))
		macroROC.add(v.rocAt)
		macroPR.add(v.prAt)
	}
	buf := make([]float64, max(len(microPos), len(microNeg)))
	mergeRuns(microPos, buf, posEnds)
	mergeRuns(microNeg, buf, negEnds)
	micro := countSorted(microPos, microNeg)
	// The micro ROC curve beside the micro precision–recall one: each
	// walks every pooled decision's point (4,000,000 of them for 200
	// classes), after every class is done.
	var roc sync.WaitGroup
	roc.Go(func() {
		fpr, tpr := micro.rates()
		s.ROC.Micro = Thin(fpr, tpr, Num(micro.auc(fpr, tpr)))
	})
	prec, rec := micro.precisionRecall()
	s.PR.Micro = Thin(rec, prec, Num(micro.averagePrecision(prec, rec)))
	roc.Wait()
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

// prepared returns the folds, each prepared (Prepare) unless it is
// already: a copy of the slice when one is not.
func prepared(k int, folds []Fold) []Fold {
	for i := range folds {
		if folds[i].sorted == nil {
			out := slices.Clone(folds)
			for j := i; j < len(out); j++ {
				if out[j].sorted == nil {
					out[j] = Prepare(k, out[j])
				}
			}
			return out
		}
	}
	return folds
}

// classSizes returns the ends of each class's positive and negative
// decisions of the prepared folds laid one class after another: class
// c's positives are [posEnds[c−1], posEnds[c]).
func classSizes(k int, folds []Fold) (posEnds, negEnds []int) {
	posEnds, negEnds = make([]int, k), make([]int, k)
	p, q := 0, 0
	for c := range k {
		for i := range folds {
			p, q = p+len(folds[i].sorted[c][0]), q+len(folds[i].sorted[c][1])
		}
		posEnds[c], negEnds[c] = p, q
	}
	return posEnds, negEnds
}

// start returns where run c of ends begins.
func start(ends []int, c int) int {
	if c == 0 {
		return 0
	}
	return ends[c-1]
}

// forEachClass calls do for each class 0 ≤ c < k, on as many goroutines
// as there are processors (at most k), each with its scratch buffer.
func forEachClass(k int, do func(c int, buf []float64) []float64) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), k) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []float64
			for c := int(next.Add(1) - 1); c < k; c = int(next.Add(1) - 1) {
				buf = do(c, buf)
			}
		}()
	}
	wg.Wait()
}

// classScores fills pos and neg, sized by classSizes, with class c's
// scores of the prepared folds split by truth, sorted: the folds' sorted
// runs merged through the scratch buffer buf, which it returns.
func classScores(c int, folds []Fold, pos, neg, buf []float64) []float64 {
	posEnds, negEnds := make([]int, len(folds)), make([]int, len(folds))
	p, q := 0, 0
	for i := range folds {
		p += copy(pos[p:], folds[i].sorted[c][0])
		q += copy(neg[q:], folds[i].sorted[c][1])
		posEnds[i], negEnds[i] = p, q
	}
	if n := max(len(pos), len(neg)); cap(buf) < n {
		buf = make([]float64, n)
	}
	mergeRuns(pos, buf[:len(pos)], posEnds)
	mergeRuns(neg, buf[:len(neg)], negEnds)
	return buf
}

// classView is one class's share of a cell's views: its ROC and
// precision–recall curves, thinned, with their areas, and the curves on
// the grid of the macro averages (nil when the class is left out of an
// average).
type classView struct {
	roc, pr     Curve
	rocAt, prAt []float64
}

// viewOf returns the view of a class's counts c. A class without
// positives (or negatives) has no curve to draw: its rates are NaN, or
// its recall 1 throughout. It joins the ROC average when it has positive
// and negative rows, the precision–recall one when it has positive rows.
func viewOf(c Binary, grid []float64) classView {
	var v classView
	fpr, tpr := c.rates()
	v.roc.Area = Num(c.auc(fpr, tpr))
	if c.Positives() > 0 && c.Negatives() > 0 {
		v.roc = Thin(fpr, tpr, v.roc.Area)
		v.rocAt = Interp(grid, fpr, tpr)
	}
	prec, rec := c.precisionRecall()
	v.pr.Area = Num(c.averagePrecision(prec, rec))
	if c.Positives() > 0 {
		v.pr = Thin(rec, prec, v.pr.Area)
		v.prAt = prAt(grid, rec, prec)
	}
	return v
}

// macro sums curves given on the grid Linspace(MacroGrid), one class
// at a time in class order, for their mean (MacroROC, MacroPR).
type macro struct {
	sum []float64
	n   int
}

// add adds a curve's values on the grid; nil adds nothing.
func (m *macro) add(at []float64) {
	if at == nil {
		return
	}
	if m.sum == nil {
		m.sum = make([]float64, MacroGrid)
	}
	for j, v := range at {
		m.sum[j] += v
	}
	m.n++
}

// mean returns the grid and the mean of the curves on it (NaN without
// curves).
func (m *macro) mean() (grid, mean []float64) {
	if m.sum == nil {
		m.sum = make([]float64, MacroGrid)
	}
	for j := range m.sum {
		m.sum[j] /= float64(m.n)
	}
	return Linspace(MacroGrid), m.sum
}

// rocMean returns the grid of false positive rates and the mean true
// positive rate on it.
func (m *macro) rocMean() (fpr, tpr []float64) { return m.mean() }

// prMean returns the grid of recalls and the mean precision on it, from
// the highest recall down as the classes' curves run.
func (m *macro) prMean() (recall, precision []float64) {
	recall, precision = m.mean()
	slicesReverse(recall)
	slicesReverse(precision)
	return recall, precision
}

// prAt returns a precision–recall curve on the recalls of grid
// (increasing): at each the highest precision at that recall or above
// (the precision a threshold reaching at least that recall can have).
func prAt(grid, r, precision []float64) []float64 {
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
	out := make([]float64, len(grid))
	i := 0
	for j, x := range grid {
		for i < n && r[order[i]] < x {
			i++
		}
		out[j] = best[i]
	}
	return out
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
	grid := Linspace(MacroGrid)
	for i := range fprs {
		m.add(Interp(grid, fprs[i], tprs[i]))
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
	grid := Linspace(MacroGrid)
	for i := range recalls {
		m.add(prAt(grid, recalls[i], precisions[i]))
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
