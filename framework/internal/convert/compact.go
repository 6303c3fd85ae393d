package convert

import (
	"fmt"
	"math"
	"slices"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/problem"
)

// Compact targets: a batch of Binary problems over the same rows whose
// targets are constant on groups of rows (the rows of one class, for the
// code-matrix reductions) travels as one group index per row (the
// message's row_groups) and, per problem, the target of each group
// (Problem.code), instead of one float64 per row and problem.

// ternary returns t as an entry of a code column and whether t is one of
// −1, +0 and +1 (a −0 or any other value has no compact form).
func ternary(t float64) (int8, bool) {
	switch math.Float64bits(t) {
	case math.Float64bits(-1):
		return -1, true
	case 0:
		return 0, true
	case math.Float64bits(1):
		return 1, true
	}
	return 0, false
}

// compactForm groups the rows of problems (their targets made dense):
// groups[i] is the group of row i, and codes[j][g] the target of problem
// j on every row of group g. ok is false when a problem is not Binary,
// its targets are not all −1, +0 or +1, the problems' row counts differ,
// or there are no rows. The form is
// smaller than the dense one even with a group per row (a varint index per
// row and an entry per group and problem, against 8 bytes per row and
// problem). Group indices depend on the targets alone: the form is
// deterministic.
func compactForm(problems []problem.Problem) (groups []int32, codes [][]int8, ok bool) {
	if len(problems) == 0 || problems[0].Rows() == 0 {
		return nil, nil, false
	}
	n := problems[0].Rows()
	gr := &grouping{groups: make([]int32, n), reps: []int{0}, codes: make([][]int8, 0, len(problems))}
	for _, p := range problems {
		if p.Kind != problem.Binary || p.Rows() != n {
			return nil, nil, false
		}
		if !gr.add(p.Dense().Targets) {
			return nil, nil, false
		}
	}
	return gr.groups, gr.codes, true
}

// grouping is the partition of a batch's rows into groups on which every
// problem seen so far is constant.
type grouping struct {
	groups []int32  // group of each row
	reps   []int    // first row of each group
	codes  [][]int8 // per problem seen, the target of each group
	// scratch of split
	table   []int32
	claimed []bool
}

// add adds a problem's targets, splitting groups as they require, and
// reports whether they are all −1, +0 or +1.
func (gr *grouping) add(t []float64) bool {
	col, ok := gr.constant(t)
	if !ok {
		col, ok = gr.split(t)
	}
	gr.codes = append(gr.codes, col)
	return ok
}

// constant returns the code column of t when t is constant on every group
// (once the groups are the classes, every further problem of a code
// matrix): one comparison per row. ok is false otherwise or when a
// target is not −1, +0 or +1.
func (gr *grouping) constant(t []float64) ([]int8, bool) {
	col := make([]int8, len(gr.reps))
	val := make([]uint64, len(gr.reps))
	for g, r := range gr.reps {
		v, ok := ternary(t[r])
		if !ok {
			return nil, false
		}
		col[g], val[g] = v, math.Float64bits(t[r])
	}
	t = t[:len(gr.groups)] // hoists the bounds check of t[i] out of the loop
	for i, g := range gr.groups {
		if math.Float64bits(t[i]) != val[g] {
			return nil, false
		}
	}
	return col, true
}

// split splits every group by its rows' targets in t and returns t's code
// column: a group's first value keeps the group's index, any other value
// opens a new group, whose entries in the earlier problems are its
// parent's. ok is false when a target is not −1, +0 or +1.
func (gr *grouping) split(t []float64) ([]int8, bool) {
	G := len(gr.reps)
	gr.table = slices.Grow(gr.table[:0], 3*G)[:3*G]
	for k := range gr.table {
		gr.table[k] = -1
	}
	gr.claimed = slices.Grow(gr.claimed[:0], G)[:G]
	clear(gr.claimed)
	col := make([]int8, G, G+2)
	for i, x := range t {
		v, ok := ternary(x)
		if !ok {
			return nil, false
		}
		g := gr.groups[i]
		key := 3*g + int32(v) + 1
		id := gr.table[key]
		if id < 0 {
			if id = g; gr.claimed[g] {
				id = int32(len(gr.reps))
				gr.reps = append(gr.reps, i)
				col = append(col, v)
				for k, c := range gr.codes {
					gr.codes[k] = append(c, c[g])
				}
			} else {
				gr.claimed[g], col[g] = true, v
			}
			gr.table[key] = id
		}
		gr.groups[i] = id
	}
	return col, true
}

// CompactProblemsToPB returns the message form of problems with compact
// targets and the row groups they refer to, when every problem has that
// form (see Problem.code in plugin.proto); ok is false otherwise, and
// ProblemToPB gives the dense form. Problems that share compact targets'
// groups (see problem.CompactTargets) go as they are; any other batch of
// Binary problems whose targets are −1, +0 and +1 is grouped afresh.
func CompactProblemsToPB(problems []problem.Problem) (out []*pb.Problem, groups []int32, ok bool) {
	codes, groups, ok := sharedCodes(problems)
	if !ok {
		groups, codes, ok = compactForm(problems)
	}
	if !ok {
		return nil, nil, false
	}
	out = make([]*pb.Problem, len(problems))
	for j, p := range problems {
		code := make([]int32, len(codes[j]))
		for g, v := range codes[j] {
			code[g] = int32(v)
		}
		out[j] = &pb.Problem{Kind: pb.Problem_BINARY, Code: code, NumClasses: int32(p.NumClasses), Weights: p.Weights, Seed: p.Seed}
	}
	return out, groups, true
}

// sharedCodes returns the codes of problems and their groups when every
// problem is Binary with compact targets over one Groups slice (the same
// array, not equal values), that slice is not empty and each code has an
// entry −1, 0 or +1 for every group index in it.
func sharedCodes(problems []problem.Problem) (codes [][]int8, groups []int32, ok bool) {
	if len(problems) == 0 || problems[0].Compact == nil || len(problems[0].Compact.Groups) == 0 {
		return nil, nil, false
	}
	groups = problems[0].Compact.Groups
	span, err := groupSpan(groups)
	if err != nil {
		return nil, nil, false
	}
	codes = make([][]int8, len(problems))
	for j, p := range problems {
		c := p.Compact
		if p.Kind != problem.Binary || c == nil || len(c.Groups) != len(groups) || &c.Groups[0] != &groups[0] || checkCode(c.Code, groups, span) != nil {
			return nil, nil, false
		}
		codes[j] = c.Code
	}
	return codes, groups, true
}

// ProblemsToPB returns the message form of a batch of problems (a plan's,
// or a Fit request's): with compact targets and the row groups they refer
// to when compact is set (the receiver reads them) and the problems have
// that form, else with dense targets and no groups.
func ProblemsToPB(problems []problem.Problem, compact bool) ([]*pb.Problem, []int32) {
	if compact {
		if out, groups, ok := CompactProblemsToPB(problems); ok {
			return out, groups
		}
	}
	out := make([]*pb.Problem, len(problems))
	for i, p := range problems {
		out[i] = ProblemToPB(p)
	}
	return out, nil
}

// ProblemsFromPB returns the problems of messages ps, leaving compact
// targets (Problem.code) compact: such a problem gets nil Targets and
// Compact over groups, the row_groups of the enclosing message, shared by
// every compact problem of the batch. A compact problem must be Binary,
// with a code entry in {−1, 0, +1} for every group index in groups.
func ProblemsFromPB(ps []*pb.Problem, groups []int32) ([]problem.Problem, error) {
	if len(ps) == 0 {
		return nil, nil
	}
	out := make([]problem.Problem, len(ps))
	span := -1 // 1 + the largest group index, once there is a compact problem
	for j, p := range ps {
		if len(p.GetCode()) == 0 {
			out[j] = ProblemFromPB(p)
			continue
		}
		if span < 0 {
			var err error
			if span, err = groupSpan(groups); err != nil {
				return nil, err
			}
		}
		code, err := codeFromPB(p, groups, span)
		if err != nil {
			return nil, fmt.Errorf("problem %d: %w", j, err)
		}
		out[j] = problem.Problem{Kind: problem.Binary, Compact: &problem.CompactTargets{Groups: groups, Code: code},
			NumClasses: int(p.GetNumClasses()), Weights: p.GetWeights(), Seed: p.GetSeed()}
	}
	return out, nil
}

// groupSpan returns 1 + the largest index in groups, which must not be
// negative.
func groupSpan(groups []int32) (int, error) {
	span := 0
	for i, g := range groups {
		if g < 0 {
			return 0, fmt.Errorf("row %d is in group %d; group indices are not negative", i, g)
		}
		span = max(span, int(g)+1)
	}
	return span, nil
}

// codeFromPB returns the code of compact problem p, checked to cover the
// groups 0..span-1 of groups.
func codeFromPB(p *pb.Problem, groups []int32, span int) ([]int8, error) {
	if p.GetKind() != pb.Problem_BINARY {
		return nil, fmt.Errorf("compact targets (code) on a %s problem; only BINARY problems have them", p.GetKind())
	}
	if len(p.GetTargets()) > 0 {
		return nil, fmt.Errorf("both targets (%d) and code (%d)", len(p.GetTargets()), len(p.GetCode()))
	}
	if err := checkCode(p.GetCode(), groups, span); err != nil {
		return nil, err
	}
	code := make([]int8, len(p.GetCode()))
	for g, v := range p.GetCode() {
		code[g] = int8(v)
	}
	return code, nil
}

// CheckCompact checks the compact targets of problems: a problem with
// Compact must be Binary without Targets, every group index must be an
// index of its Code and every entry −1, 0 or +1. The error names the
// first problem at fault.
func CheckCompact(problems []problem.Problem) error {
	spans := map[problem.GroupsID]int{} // 1 + the largest index of each Groups slice
	for j, p := range problems {
		c := p.Compact
		if c == nil {
			continue
		}
		if p.Kind != problem.Binary || p.Targets != nil {
			return fmt.Errorf("problem %d: compact targets on a %s problem with %d dense targets; only a binary problem without dense targets has them", j, p.Kind, len(p.Targets))
		}
		span := 0
		if len(c.Groups) > 0 {
			var ok bool
			key := c.GroupsID()
			if span, ok = spans[key]; !ok {
				var err error
				if span, err = groupSpan(c.Groups); err != nil {
					return fmt.Errorf("problem %d: %w", j, err)
				}
				spans[key] = span
			}
		}
		if err := checkCode(c.Code, c.Groups, span); err != nil {
			return fmt.Errorf("problem %d: %w", j, err)
		}
	}
	return nil
}

// checkCode checks that code has an entry −1, 0 or +1 for every group of
// groups, whose indices are below span.
func checkCode[T int8 | int32](code []T, groups []int32, span int) error {
	if len(code) < span {
		i := slices.IndexFunc(groups, func(g int32) bool { return int(g) >= len(code) })
		return fmt.Errorf("row %d is in group %d, outside the code's 0..%d", i, groups[i], len(code)-1)
	}
	for g, v := range code {
		if v < -1 || v > 1 {
			return fmt.Errorf("code entry %d is %d, not -1, 0 or +1", g, v)
		}
	}
	return nil
}
