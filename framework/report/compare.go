package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/safetext"
)

// DiffKind says how two runs differ.
type DiffKind int

const (
	// Value: a metric of a fold has different values.
	Value DiffKind = iota
	// Added: a cell, fold or metric is only in the second run.
	Added
	// Missing: a cell, fold or metric is only in the first run.
	Missing
	// Outcome: a cell failed in one run and not in the other, or failed
	// with a different error.
	Outcome
)

// String returns the kind's name.
func (k DiffKind) String() string {
	switch k {
	case Value:
		return "value"
	case Added:
		return "added"
	case Missing:
		return "missing"
	case Outcome:
		return "outcome"
	}
	return fmt.Sprintf("DiffKind(%d)", int(k))
}

// Difference is one difference between two runs of an experiment.
type Difference struct {
	Kind DiffKind
	// Cell is the cell's key (outcome.ID.Key).
	Cell string
	// Repeat and Fold are −1 for a difference of the whole cell.
	Repeat, Fold int
	// Metric is empty for a difference of a whole cell or fold.
	Metric string
	// A and B are the two values (Kind Value).
	A, B float64
	// Detail describes an Outcome difference.
	Detail string
}

// String describes the difference on one line, the cell's key and the
// metric's name escaped (safetext.OneLine): they come from cell files, which an
// edit may have given an escape sequence (campaign 10's B08k, printed by
// bench rerun).
func (d Difference) String() string {
	where := safetext.OneLine(d.Cell)
	if d.Repeat >= 0 {
		where += fmt.Sprintf(" repeat %d fold %d", d.Repeat, d.Fold)
	}
	if d.Metric != "" {
		where += " " + safetext.OneLine(d.Metric)
	}
	switch d.Kind {
	case Value:
		return fmt.Sprintf("%s: %s → %s (Δ %s)", where, num(d.A), num(d.B), num(d.B-d.A))
	case Outcome:
		return fmt.Sprintf("%s: %s", where, d.Detail)
	}
	return fmt.Sprintf("%s: %s", where, d.Kind)
}

// Compare lists every difference between the cells of run a and run b
// (e.g. a recorded run and its re-execution): cells, folds and metric
// values that differ (exact float equality; NaN equals NaN), and cells,
// folds or metrics present in only one run. Cells are matched by ID, folds
// by (repeat, fold). metricNames limits the metrics compared; nil compares
// every metric either run recorded. The result is sorted by cell, repeat,
// fold and metric.
func Compare(a, b []*outcome.CellResult, metricNames []string) []Difference {
	ia, ib := cellIndex(a), cellIndex(b)
	var out []Difference
	for key := range unionKeys(ia, ib) {
		out = append(out, compareCell(key, ia[key], ib[key], metricNames)...)
	}
	sortDifferences(out)
	return out
}

// cellIndex maps each cell's key (outcome.ID.Key) to the cell.
func cellIndex(cs []*outcome.CellResult) map[string]*outcome.CellResult {
	m := map[string]*outcome.CellResult{}
	for _, c := range cs {
		m[c.Key()] = c
	}
	return m
}

// unionKeys is the set of the keys of a and b.
func unionKeys[K comparable, V any](a, b map[K]V) map[K]bool {
	keys := make(map[K]bool, len(a)+len(b))
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	return keys
}

// compareCell lists the differences between cell ca of run a and cb of
// run b, both of key (nil where the run lacks the cell): the cell missing
// or added, its outcome, else its folds'.
func compareCell(key string, ca, cb *outcome.CellResult, metricNames []string) []Difference {
	whole := func(k DiffKind, detail string) []Difference {
		return []Difference{{Kind: k, Cell: key, Repeat: -1, Fold: -1, Detail: detail}}
	}
	switch {
	case cb == nil:
		return whole(Missing, "")
	case ca == nil:
		return whole(Added, "")
	case ca.Error != cb.Error:
		return whole(Outcome, fmt.Sprintf("error %q → %q", ca.Error, cb.Error))
	}
	fa, fb := foldIndex(ca.Folds), foldIndex(cb.Folds)
	var out []Difference
	for k := range unionKeys(fa, fb) {
		x, y := fa[k], fb[k]
		if x == nil || y == nil {
			kind := Missing
			if x == nil {
				kind = Added
			}
			out = append(out, Difference{Kind: kind, Cell: key, Repeat: k.repeat, Fold: k.fold})
			continue
		}
		out = append(out, compareFold(key, k, x, y, metricNames)...)
	}
	return out
}

// foldKey identifies a fold of a cell.
type foldKey struct{ repeat, fold int }

// foldIndex maps each fold's (repeat, fold) to the fold.
func foldIndex(folds []outcome.FoldResult) map[foldKey]*outcome.FoldResult {
	m := map[foldKey]*outcome.FoldResult{}
	for i := range folds {
		m[foldKey{folds[i].Repeat, folds[i].Fold}] = &folds[i]
	}
	return m
}

// compareFold lists the metric differences between fold x of run a and
// fold y of run b: over metricNames, or over every metric either recorded
// when metricNames is nil.
func compareFold(key string, k foldKey, x, y *outcome.FoldResult, metricNames []string) []Difference {
	names := metricNames
	if names == nil {
		for m := range unionKeys(x.Metrics, y.Metrics) {
			names = append(names, m)
		}
	}
	var out []Difference
	for _, m := range names {
		va, oka := x.Metrics[m]
		vb, okb := y.Metrics[m]
		d := Difference{Cell: key, Repeat: k.repeat, Fold: k.fold, Metric: m, A: va, B: vb}
		switch {
		case !oka && !okb:
			continue
		case !okb:
			d.Kind = Missing
		case !oka:
			d.Kind = Added
		case va == vb || (va != va && vb != vb):
			continue
		default:
			d.Kind = Value
		}
		out = append(out, d)
	}
	return out
}

// sortDifferences sorts diffs by cell, repeat, fold and metric.
func sortDifferences(diffs []Difference) {
	sort.Slice(diffs, func(i, j int) bool {
		x, y := diffs[i], diffs[j]
		if x.Cell != y.Cell {
			return x.Cell < y.Cell
		}
		if x.Repeat != y.Repeat {
			return x.Repeat < y.Repeat
		}
		if x.Fold != y.Fold {
			return x.Fold < y.Fold
		}
		return x.Metric < y.Metric
	})
}

// WriteDifferences writes a report of diffs: "no differences" or their
// number and one line each.
func WriteDifferences(w io.Writer, diffs []Difference) error {
	var b strings.Builder
	if len(diffs) == 0 {
		b.WriteString("no differences\n")
	} else {
		fmt.Fprintf(&b, "%d differences:\n", len(diffs))
		for _, d := range diffs {
			b.WriteString("  " + d.String() + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
