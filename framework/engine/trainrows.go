package engine

import (
	"slices"
	"strings"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/param"
)

// trainingRows checks each parameter the learner's plugin bounds by the
// rows a fit trains on (param.ParamSpec.AtMostTrainingRows: knn's k)
// against the smallest outer training part of each dataset the learner
// has cells on: a fit on that part with a larger value fails, and the
// cell with it. When every value the learner's cells take is over, every
// cell of the learner on the dataset would fail: an error at the
// parameter; when some are, a warning naming them.
func (ck *checker) trainingRows(g *Grid, l *Learner) {
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
		for _, s := range bounded {
			over, values := overRows(full, s.Name, n)
			if len(over) == 0 {
				continue
			}
			at := learnerParamRange(l.Config, s.Name)
			if len(over) == values {
				ck.errorf(at, "Fewer training rows than "+s.Name,
					"Learner %q: on dataset %q the smallest training part (fold %d) has %d rows, fewer than %s = %s: a fit needs at least %s training rows, so every cell of the learner on the dataset would fail.",
					l.Config.Name, d.Config.Name, fold, n, s.Name, listNumbers(over), s.Name)
				continue
			}
			ck.warnf(at, "Fewer training rows than "+s.Name,
				"Learner %q: on dataset %q the smallest training part (fold %d) has %d rows, fewer than %s = %s (%d of its %d values): a fit needs at least %s training rows, so the cells with those values would fail.",
				l.Config.Name, d.Config.Name, fold, n, s.Name, listNumbers(over), len(over), values, s.Name)
		}
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
