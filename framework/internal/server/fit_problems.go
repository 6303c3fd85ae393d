package server

import (
	"errors"
	"fmt"
	"slices"

	"github.com/polyclass/polyclass/framework/internal/convert"
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/plugin"
)

// A Fit request's problems may carry compact targets: a code entry per
// row group instead of a target per row (see Problem.code in
// plugin.proto). The learner server keeps them compact and builds each
// problem's FitInput from the rows of the groups it uses, so that a
// one-vs-one batch (325 problems on letter, two classes each) never
// expands to a dense target per row and problem.

// groupRows lists the rows of each row group, as ascending positions in a
// request's rows.
type groupRows [][]int

// fitProblems returns the problems of a Fit request and, when some have
// compact targets, the rows of each of the request's row groups.
func fitProblems(req *pb.FitRequest) ([]plugin.Problem, groupRows, error) {
	ps, err := convert.ProblemsFromPB(req.GetProblems(), req.GetRowGroups())
	if err != nil {
		return nil, nil, err
	}
	var members groupRows
	if slices.ContainsFunc(ps, func(p plugin.Problem) bool { return p.Compact != nil }) {
		members = newGroupRows(req.GetRowGroups())
	}
	return ps, members, nil
}

// newGroupRows returns the rows of each group of groups, whose indices
// are not negative, in one backing array.
func newGroupRows(groups []int32) groupRows {
	var count []int
	for _, g := range groups {
		if int(g) >= len(count) {
			count = append(count, make([]int, int(g)+1-len(count))...)
		}
		count[g]++
	}
	all := make([]int, len(groups))
	members := make(groupRows, len(count))
	off := 0
	for g, c := range count {
		members[g] = all[off : off : off+c]
		off += c
	}
	for i, g := range groups {
		members[g] = append(members[g], i)
	}
	return members
}

// convertProblem converts a problem's targets and weights over rows to a
// FitInput without X and returns the rows the problem uses, in the order
// of rows. members holds the rows of each group for a compact problem.
func convertProblem(rows []int, members groupRows, p plugin.Problem) (plugin.FitInput, []int, error) {
	if p.Compact != nil {
		return convertCompact(rows, members, p)
	}
	return convertDense(rows, p)
}

// convertDense converts a problem with a target per row.
func convertDense(rows []int, p plugin.Problem) (plugin.FitInput, []int, error) {
	if len(p.Targets) != len(rows) {
		return plugin.FitInput{}, nil, fmt.Errorf("%d targets for %d rows", len(p.Targets), len(rows))
	}
	if p.Weights != nil && len(p.Weights) != len(rows) {
		return plugin.FitInput{}, nil, fmt.Errorf("%d weights for %d rows", len(p.Weights), len(rows))
	}
	m := usedRows(p)
	in := plugin.FitInput{Kind: p.Kind, NumClasses: p.NumClasses, Seed: p.Seed}
	if p.Kind == plugin.Multiclass {
		in.Classes = make([]int, 0, m)
	} else {
		in.Targets = make([]float64, 0, m)
	}
	if p.Weights != nil {
		in.Weights = make([]float64, 0, m)
	}
	used := make([]int, 0, m)
	for i, t := range p.Targets {
		switch p.Kind {
		case plugin.Binary:
			if t != 0 && t != 1 && t != -1 {
				return plugin.FitInput{}, nil, fmt.Errorf("binary target %v at row %d is not −1, 0 or +1", t, rows[i])
			}
			if t == 0 {
				continue
			}
			in.Targets = append(in.Targets, t)
		case plugin.Multiclass:
			if t != float64(int(t)) || t < plugin.NotUsed || int(t) >= p.NumClasses {
				return plugin.FitInput{}, nil, fmt.Errorf("class target %v at row %d is not a class index 0..%d (or %d, not used)", t, rows[i], p.NumClasses-1, plugin.NotUsed)
			}
			if t == plugin.NotUsed {
				continue
			}
			in.Classes = append(in.Classes, int(t))
		case plugin.Regression:
			in.Targets = append(in.Targets, t)
		default:
			return plugin.FitInput{}, nil, fmt.Errorf("unknown problem kind %d", p.Kind)
		}
		used = append(used, rows[i])
		if p.Weights != nil {
			in.Weights = append(in.Weights, p.Weights[i])
		}
	}
	if len(used) == 0 {
		return plugin.FitInput{}, nil, errors.New("the problem uses no rows")
	}
	return in, used, nil
}

// usedRows counts the rows a dense problem uses (a Binary target other
// than 0, a Multiclass target other than NotUsed, every Regression
// target), so that its input is allocated once.
func usedRows(p plugin.Problem) int {
	m := 0
	for _, t := range p.Targets {
		switch {
		case p.Kind == plugin.Binary && t == 0, p.Kind == plugin.Multiclass && t == plugin.NotUsed:
		default:
			m++
		}
	}
	return m
}

// convertCompact converts a problem with compact targets, visiting only
// the rows of the groups it uses (a code entry other than 0).
func convertCompact(rows []int, members groupRows, p plugin.Problem) (plugin.FitInput, []int, error) {
	groups, code := p.Compact.Groups, p.Compact.Code
	if len(groups) != len(rows) {
		return plugin.FitInput{}, nil, fmt.Errorf("%d targets for %d rows", len(groups), len(rows))
	}
	if p.Weights != nil && len(p.Weights) != len(rows) {
		return plugin.FitInput{}, nil, fmt.Errorf("%d weights for %d rows", len(p.Weights), len(rows))
	}
	var runs [][]int
	m := 0
	for g, rs := range members {
		if code[g] != 0 && len(rs) > 0 {
			runs = append(runs, rs)
			m += len(rs)
		}
	}
	if m == 0 {
		return plugin.FitInput{}, nil, errors.New("the problem uses no rows")
	}
	var pos []int // positions in rows of the rows used; nil for all of them
	if m < len(rows) {
		pos = mergeRuns(runs, m)
	}
	in := plugin.FitInput{Kind: plugin.Binary, NumClasses: p.NumClasses, Seed: p.Seed, Targets: make([]float64, m)}
	if p.Weights != nil {
		in.Weights = make([]float64, m)
	}
	used := make([]int, m)
	for k := range m {
		i := k
		if pos != nil {
			i = pos[k]
		}
		in.Targets[k], used[k] = float64(code[groups[i]]), rows[i]
		if p.Weights != nil {
			in.Weights[k] = p.Weights[i]
		}
	}
	return in, used, nil
}

// mergeRuns returns the union of ascending, disjoint runs in ascending
// order; m is their total length. A single run is returned as it is.
func mergeRuns(runs [][]int, m int) []int {
	if len(runs) == 1 {
		return runs[0]
	}
	for len(runs) > 2 {
		next := runs[:0:0]
		for k := 0; k+1 < len(runs); k += 2 {
			next = append(next, mergeTwo(make([]int, 0, len(runs[k])+len(runs[k+1])), runs[k], runs[k+1]))
		}
		if len(runs)%2 == 1 {
			next = append(next, runs[len(runs)-1])
		}
		runs = next
	}
	return mergeTwo(make([]int, 0, m), runs[0], runs[1])
}

// mergeTwo appends the ascending merge of ascending runs a and b to dst.
func mergeTwo(dst, a, b []int) []int {
	for len(a) > 0 && len(b) > 0 {
		if a[0] < b[0] {
			dst, a = append(dst, a[0]), a[1:]
		} else {
			dst, b = append(dst, b[0]), b[1:]
		}
	}
	return append(append(dst, a...), b...)
}
