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

// compactForm groups the rows of problems: groups[i] is the group of row
// i, and codes[j][g] the target of problem j on every row of group g. ok
// is false when a problem is not Binary, its targets are not all −1, +0 or
// +1, the problems' row counts differ, or there are no rows. The form is
// smaller than the dense one even with a group per row (a varint index per
// row and an entry per group and problem, against 8 bytes per row and
// problem). Group indices depend on the targets alone: the form is
// deterministic.
func compactForm(problems []problem.Problem) (groups []int32, codes [][]int8, ok bool) {
	if len(problems) == 0 || len(problems[0].Targets) == 0 {
		return nil, nil, false
	}
	n := len(problems[0].Targets)
	gr := &grouping{groups: make([]int32, n), reps: []int{0}, codes: make([][]int8, 0, len(problems))}
	for _, p := range problems {
		if p.Kind != problem.Binary || len(p.Targets) != n {
			return nil, nil, false
		}
		if !gr.add(p.Targets) {
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
// ProblemToPB gives the dense form.
func CompactProblemsToPB(problems []problem.Problem) (out []*pb.Problem, groups []int32, ok bool) {
	groups, codes, ok := compactForm(problems)
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

// CompactTargets are the targets of a problem in compact form: row i's
// target is Code[Groups[i]].
type CompactTargets struct {
	Groups []int32 // group of each row, the row_groups of the message
	Code   []int8  // target of each group: −1, 0 or +1
}

// ProblemsFromPB returns the problems of messages ps, expanding compact
// targets (Problem.code) over groups, the row_groups of the enclosing
// message. A compact problem must be Binary, with a code entry in
// {−1, 0, +1} for every group index in groups.
func ProblemsFromPB(ps []*pb.Problem, groups []int32) ([]problem.Problem, error) {
	out, compact, err := CompactProblemsFromPB(ps, groups)
	if err != nil {
		return nil, err
	}
	for j, c := range compact {
		if c.Code == nil {
			continue
		}
		t := make([]float64, len(c.Groups))
		for i, g := range c.Groups {
			t[i] = float64(c.Code[g])
		}
		out[j].Targets = t
	}
	return out, nil
}

// CompactProblemsFromPB returns the problems of messages ps as
// ProblemsFromPB does, but leaves compact targets compact: a compact
// problem j has nil Targets and its targets in compact[j]. compact[j] is
// the zero CompactTargets for a dense problem, and compact is nil when no
// problem is compact. Every group index in groups is checked against
// every compact problem's code, so Code[Groups[i]] is in range.
func CompactProblemsFromPB(ps []*pb.Problem, groups []int32) (out []problem.Problem, compact []CompactTargets, err error) {
	if len(ps) == 0 {
		return nil, nil, nil
	}
	out = make([]problem.Problem, len(ps))
	span := -1 // 1 + the largest group index, once there is a compact problem
	for j, p := range ps {
		if len(p.GetCode()) == 0 {
			out[j] = ProblemFromPB(p)
			continue
		}
		if span < 0 {
			if span, err = groupSpan(groups); err != nil {
				return nil, nil, err
			}
		}
		code, err := codeFromPB(p, groups, span)
		if err != nil {
			return nil, nil, fmt.Errorf("problem %d: %w", j, err)
		}
		if compact == nil {
			compact = make([]CompactTargets, len(ps))
		}
		compact[j] = CompactTargets{Groups: groups, Code: code}
		out[j] = problem.Problem{Kind: problem.Binary, NumClasses: int(p.GetNumClasses()), Weights: p.GetWeights(), Seed: p.GetSeed()}
	}
	return out, compact, nil
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
	if len(p.GetCode()) < span {
		i := slices.IndexFunc(groups, func(g int32) bool { return int(g) >= len(p.GetCode()) })
		return nil, fmt.Errorf("row %d is in group %d, outside the code's 0..%d", i, groups[i], len(p.GetCode())-1)
	}
	code := make([]int8, len(p.GetCode()))
	for g, v := range p.GetCode() {
		if v < -1 || v > 1 {
			return nil, fmt.Errorf("code entry %d is %d, not -1, 0 or +1", g, v)
		}
		code[g] = int8(v)
	}
	return code, nil
}

// CodeProblemsToPB returns the compact message form of problems whose
// targets come from a code matrix (see sdk.Plan): problem j is column j
// of code, the row groups are the rows' labels, so that row i's target
// is code[labels[i], j]. Every problem must be Binary with nil Targets,
// there must be one per column of code, every entry of code must be −1,
// 0 or +1 and every label a row of code. The problems' dense targets are
// never made.
func CodeProblemsToPB(problems []problem.Problem, code *problem.CodeMatrix, labels []int) ([]*pb.Problem, []int32, error) {
	if err := checkCodeProblems(problems, code, labels); err != nil {
		return nil, nil, err
	}
	groups := make([]int32, len(labels))
	for i, y := range labels {
		groups[i] = int32(y)
	}
	out := make([]*pb.Problem, len(problems))
	for j, p := range problems {
		col := make([]int32, code.Rows)
		for k := range col {
			col[k] = int32(code.Entries[k*code.Cols+j])
		}
		out[j] = &pb.Problem{Kind: pb.Problem_BINARY, Code: col, NumClasses: int32(p.NumClasses), Weights: p.Weights, Seed: p.Seed}
	}
	return out, groups, nil
}

// CodeTargets returns the dense targets of column j of code over the
// rows' labels: code[labels[i], j] for row i. The arguments must have
// passed checkCodeProblems.
func CodeTargets(code *problem.CodeMatrix, j int, labels []int) []float64 {
	t := make([]float64, len(labels))
	for i, y := range labels {
		t[i] = float64(code.Entries[y*code.Cols+j])
	}
	return t
}

// CodeProblemsToDense returns problems with the dense targets
// CodeProblemsToPB would send in compact form (for a receiver that reads
// dense targets only).
func CodeProblemsToDense(problems []problem.Problem, code *problem.CodeMatrix, labels []int) ([]problem.Problem, error) {
	if err := checkCodeProblems(problems, code, labels); err != nil {
		return nil, err
	}
	out := make([]problem.Problem, len(problems))
	for j, p := range problems {
		p.Targets = CodeTargets(code, j, labels)
		out[j] = p
	}
	return out, nil
}

// checkCodeProblems checks the arguments of CodeProblemsToPB.
func checkCodeProblems(problems []problem.Problem, code *problem.CodeMatrix, labels []int) error {
	if code == nil {
		return fmt.Errorf("problems without targets need the plan's code matrix")
	}
	if len(code.Entries) != code.Rows*code.Cols {
		return fmt.Errorf("code matrix %d×%d has %d entries", code.Rows, code.Cols, len(code.Entries))
	}
	if len(problems) != code.Cols {
		return fmt.Errorf("%d problems without targets for the %d columns of the code matrix", len(problems), code.Cols)
	}
	for j, p := range problems {
		if p.Kind != problem.Binary || p.Targets != nil {
			return fmt.Errorf("problem %d: a %s problem with %d targets; problems from the code matrix are binary without targets", j, p.Kind, len(p.Targets))
		}
	}
	for e, v := range code.Entries {
		if v < -1 || v > 1 {
			return fmt.Errorf("code matrix entry (%d, %d) is %d, not -1, 0 or +1", e/code.Cols, e%code.Cols, v)
		}
	}
	for i, y := range labels {
		if y < 0 || y >= code.Rows {
			return fmt.Errorf("row %d has label %d, outside the code matrix's rows 0..%d", i, y, code.Rows-1)
		}
	}
	return nil
}
