package engine

import (
	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/plugin"
)

// ClassWeights turns a class_weight setting into per-row weights of the
// problems a reduction plans on a fold's training part.
//
// Balanced weighs the rows of class k by n / (K · n_k), scikit-learn's
// class_weight = "balanced", counted on the rows the problem uses
// (Problem.Uses): for a binary problem of a reduction from the problem's own
// positives and negatives (K = 2), so that one-vs-all problems are
// balanced whatever the class sizes; for a native multiclass problem from
// its targets (K = the classes present); for a regression problem from the
// rows' classes (multiclass data only; else unweighted). ByClass gives the
// weight of each class index; a row of class k weighs ByClass[k] in every
// problem. Weights multiply those the reducer set.
type ClassWeights struct {
	Balanced bool
	ByClass  []float64
}

// newClassWeights resolves w against the classes of a dataset; a class
// that w does not name weighs 1. It returns nil for no setting.
func newClassWeights(w *config.ClassWeight, classes []string) *ClassWeights {
	if w == nil {
		return nil
	}
	if w.Balanced {
		return &ClassWeights{Balanced: true}
	}
	cw := &ClassWeights{ByClass: make([]float64, len(classes))}
	for k := range classes {
		cw.ByClass[k] = 1
	}
	// By each named class (plugin.ClassIndex: "1.0" names class 1 of
	// data compared as numbers); the checker refused two names of one
	// class.
	for name, v := range w.ByClass {
		if k := plugin.ClassIndex(name, classes); k >= 0 {
			cw.ByClass[k] = v
		}
	}
	return cw
}

// Weigh returns p with its weights multiplied by the class weights of its
// rows; labels are the classes of the rows p's targets are aligned with
// (nil for multi-label data). A nil receiver returns p unchanged.
func (w *ClassWeights) Weigh(p plugin.Problem, labels []int) plugin.Problem {
	if w == nil {
		return p
	}
	var f []float64
	switch {
	case !w.Balanced:
		if labels == nil {
			return p
		}
		f = make([]float64, len(labels))
		for i, k := range labels {
			f[i] = w.ByClass[k]
		}
	case p.Kind == plugin.Binary:
		f = balanced(p.Rows(), func(i int) int {
			switch t := p.Target(i); {
			case t > 0:
				return 1
			case t < 0:
				return 0
			}
			return -1
		})
	case p.Kind == plugin.Multiclass:
		f = balanced(len(p.Targets), func(i int) int { return int(p.Targets[i]) }) // NotUsed is −1
	case labels != nil:
		f = balanced(len(labels), func(i int) int { return labels[i] })
	default:
		return p
	}
	q := p
	q.Weights = make([]float64, len(f))
	for i, v := range f {
		q.Weights[i] = v
		if p.Weights != nil {
			q.Weights[i] *= p.Weights[i]
		}
	}
	return q
}

// balanced returns n / (K · n_k) for each of rows rows, where row i is of
// class class(i) and is used when that class is not negative; n counts
// the rows used and K the classes among them. Unused rows weigh 1.
func balanced(rows int, class func(i int) int) []float64 {
	of := make([]int, rows)
	count := map[int]int{}
	n := 0
	for i := range of {
		if of[i] = class(i); of[i] < 0 {
			continue
		}
		count[of[i]]++
		n++
	}
	out := make([]float64, rows)
	for i, k := range of {
		out[i] = 1
		if k >= 0 {
			out[i] = float64(n) / (float64(len(count)) * float64(count[k]))
		}
	}
	return out
}
