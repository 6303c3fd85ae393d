package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/polyclass/polyclass/framework/outcome"
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

// String describes the difference on one line.
func (d Difference) String() string {
	where := d.Cell
	if d.Repeat >= 0 {
		where += fmt.Sprintf(" repeat %d fold %d", d.Repeat, d.Fold)
	}
	if d.Metric != "" {
		where += " " + d.Metric
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
	index := func(cs []*outcome.CellResult) map[string]*outcome.CellResult {
		m := map[string]*outcome.CellResult{}
		for _, c := range cs {
			m[c.Key()] = c
		}
		return m
	}
	ia, ib := index(a), index(b)
	var out []Difference
	whole := func(k DiffKind, cell, detail string) Difference {
		return Difference{Kind: k, Cell: cell, Repeat: -1, Fold: -1, Detail: detail}
	}
	keys := map[string]bool{}
	for k := range ia {
		keys[k] = true
	}
	for k := range ib {
		keys[k] = true
	}
	for key := range keys {
		ca, cb := ia[key], ib[key]
		switch {
		case cb == nil:
			out = append(out, whole(Missing, key, ""))
			continue
		case ca == nil:
			out = append(out, whole(Added, key, ""))
			continue
		case ca.Error != cb.Error:
			out = append(out, whole(Outcome, key, fmt.Sprintf("error %q → %q", ca.Error, cb.Error)))
			continue
		}
		type fk struct{ r, f int }
		fa, fb := map[fk]*outcome.FoldResult{}, map[fk]*outcome.FoldResult{}
		for i := range ca.Folds {
			fa[fk{ca.Folds[i].Repeat, ca.Folds[i].Fold}] = &ca.Folds[i]
		}
		for i := range cb.Folds {
			fb[fk{cb.Folds[i].Repeat, cb.Folds[i].Fold}] = &cb.Folds[i]
		}
		folds := map[fk]bool{}
		for k := range fa {
			folds[k] = true
		}
		for k := range fb {
			folds[k] = true
		}
		for k := range folds {
			x, y := fa[k], fb[k]
			if x == nil || y == nil {
				kind := Missing
				if x == nil {
					kind = Added
				}
				out = append(out, Difference{Kind: kind, Cell: key, Repeat: k.r, Fold: k.f})
				continue
			}
			names := metricNames
			if names == nil {
				seen := map[string]bool{}
				for m := range x.Metrics {
					seen[m] = true
				}
				for m := range y.Metrics {
					seen[m] = true
				}
				for m := range seen {
					names = append(names, m)
				}
			}
			for _, m := range names {
				va, oka := x.Metrics[m]
				vb, okb := y.Metrics[m]
				d := Difference{Cell: key, Repeat: k.r, Fold: k.f, Metric: m, A: va, B: vb}
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
		}
	}
	sort.Slice(out, func(i, j int) bool {
		x, y := out[i], out[j]
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
	return out
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
