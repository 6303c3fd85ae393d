package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/param"
)

// trainingRows checks each parameter the learner's plugin bounds by the
// rows a fit trains on (param.ParamSpec.AtMostTrainingRows: knn's k)
// against the fewest rows a fit of the learner sees on each dataset it
// has cells on: the smallest outer training part; within it, the
// smallest problem of a reduction whose plans train problems on fewer
// rows (plans, from the dry runs: a one-vs-one pair's rows); and, for a
// tuned learner, an inner training part of tuning, which leaves out at
// least one tune fold's share of those rows. A fit with a larger value
// fails, and the cell with it. When every value the learner's cells take
// is over, or some candidate of a tuned learner (tuning fits each), every
// cell of the learner on the dataset (or with that reduction) would fail:
// an error at the parameter; when some values are, a warning naming
// them.
func (ck *checker) trainingRows(g *Grid, l *Learner, plans map[dsRed]problemRows) {
	var bounded []param.ParamSpec
	for _, s := range l.Info.Params {
		if s.AtMostTrainingRows {
			bounded = append(bounded, s)
		}
	}
	if len(bounded) == 0 {
		return
	}
	sets := l.Candidates
	if sets == nil {
		sets, _ = config.Expand(l.Config.Params, l.Info.Params)
	}
	if len(sets) == 0 {
		return
	}
	full := make([]param.Params, len(sets))
	for i, set := range sets {
		full[i] = param.WithDefaults(l.Info.Params, set)
	}
	for _, d := range g.Datasets {
		n, fold := fewestTrainRows(d)
		if n < 0 || !g.hasCells(d, l) {
			continue
		}
		outer := l.innerBound(trainBound{rows: n, where: fmt.Sprintf("the smallest training part (fold %d)", fold)})
		var fewer []trainBound // reductions whose problems train on fewer rows
		for _, red := range g.Reductions {
			if pr, ok := plans[dsRed{d, red}]; ok && pr.Rows < n && red.covers(d) && red.meets(l) {
				fewer = append(fewer, l.innerBound(trainBound{rows: pr.Rows, reduction: red.Config.Name,
					where: fmt.Sprintf("the smallest problem of reduction %q (problem %d, in the training part of fold %d)", red.Config.Name, pr.Problem, pr.Fold)}))
			}
		}
		for _, s := range bounded {
			over, values := overRows(full, s.Name, outer.rows)
			at := learnerParamRange(l.Config, s.Name)
			ck.overBound(l, d, s.Name, at, outer, over, nil, values)
			for _, b := range fewer {
				more, _ := overRows(full, s.Name, b.rows)
				ck.overBound(l, d, s.Name, at, b, more, over, values)
			}
		}
	}
}

// trainBound is the fewest rows a fit of a learner sees on a dataset
// (rows; an upper bound when atMost) and where (a phrase): in an outer
// training part, or in a problem of reduction.
type trainBound struct {
	rows      int
	atMost    bool
	where     string
	reduction string // "" when the bound holds for every reduction
}

// innerBound is b within tuning's inner training parts when l is tuned
// (tune folds = F): each inner part leaves out an inner test fold, and
// one of the F holds at least a 1/F share (rounded up) of b's rows, so
// some inner part holds at most the rest; b itself otherwise.
func (l *Learner) innerBound(b trainBound) trainBound {
	t := l.Config.Tune
	if t == nil || t.Folds < 2 {
		return b
	}
	b.rows -= (b.rows + t.Folds - 1) / t.Folds
	b.atMost = true
	b.where = fmt.Sprintf("an inner training part of tuning (tune folds = %d) within %s", t.Folds, b.where)
	return b
}

// overBound reports the values over (ascending) of learner l's parameter
// name, given at at, that a fit on dataset d cannot take under bound b,
// but for those already reported (done); values is the number of the
// parameter's distinct values.
func (ck *checker) overBound(l *Learner, d *Dataset, name string, at hcl.Range, b trainBound, over, done []float64, values int) {
	over = slices.DeleteFunc(slices.Clone(over), func(v float64) bool { return slices.Contains(done, v) })
	if len(over) == 0 {
		return
	}
	has := "has"
	if b.atMost {
		has = "has at most"
	}
	cells := "every cell of the learner on the dataset"
	if b.reduction != "" {
		cells = fmt.Sprintf("every cell of the learner with reduction %q on the dataset", b.reduction)
	}
	head := fmt.Sprintf("Learner %q: on dataset %q %s %s %d rows, fewer than %s = %s", l.Config.Name, d.Config.Name, b.where, has, b.rows, name, listNumbers(over))
	switch {
	case l.Candidates != nil:
		ck.errorf(at, "Fewer training rows than "+name,
			"%s: a fit needs at least %s training rows, and tuning fits every candidate, so %s would fail.", head, name, cells)
	case len(over)+len(done) == values:
		ck.errorf(at, "Fewer training rows than "+name,
			"%s: a fit needs at least %s training rows, so %s would fail.", head, name, cells)
	default:
		ck.warnf(at, "Fewer training rows than "+name,
			"%s (%d of its %d values): a fit needs at least %s training rows, so the cells with those values would fail.", head, len(over), values, name)
	}
}

// overRows returns the distinct numeric values of parameter name in sets
// that are more than rows, ascending, and the number of its distinct
// values in sets.
func overRows(sets []param.Params, name string, rows int) (over []float64, values int) {
	seen := map[float64]bool{}
	for _, set := range sets {
		v, ok := set[name]
		if !ok || v.Kind() != param.NumberValue || seen[v.Num()] {
			continue
		}
		seen[v.Num()] = true
		if v.Num() > float64(rows) {
			over = append(over, v.Num())
		}
	}
	slices.Sort(over)
	return over, len(seen)
}

// listNumbers lists xs (ascending) for a message: all of up to four, else
// the first three, an ellipsis and the last.
func listNumbers(xs []float64) string {
	shown := xs
	if len(xs) > 4 {
		shown = append(slices.Clone(xs[:3]), xs[len(xs)-1])
	}
	parts := make([]string, len(shown))
	for i, x := range shown {
		parts[i] = param.FormatNumber(x)
	}
	if len(xs) > 4 {
		return strings.Join(parts[:3], ", ") + ", …, " + parts[3]
	}
	return strings.Join(parts, ", ")
}
