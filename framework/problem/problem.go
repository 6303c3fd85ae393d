// Package problem holds what the host and a plugin exchange about the
// problems a reduction makes: a training Problem (its kind and targets),
// a reducer's CodeMatrix and the CodeDiagnostics of that matrix.
//
// It depends on no RPC machinery (no gRPC, no go-plugin, no protobuf).
// Plugin authors meet the same names through package sdk, which
// re-exports them.
package problem

import "fmt"

// ProblemKind is the kind of target of a problem.
type ProblemKind uint8

// Problem kinds.
const (
	// Binary targets are −1 or +1 (0 = row not used).
	Binary ProblemKind = iota + 1
	// Multiclass targets are class indices 0..NumClasses−1 (NotUsed = row
	// not used), as everywhere in Go; only the wire shifts them (see
	// package internal/convert).
	Multiclass
	// Regression targets are real values; every row is used.
	Regression
)

// String names the kind.
func (k ProblemKind) String() string {
	switch k {
	case Binary:
		return "binary"
	case Multiclass:
		return "multiclass"
	case Regression:
		return "regression"
	}
	return "unknown"
}

// Problem is one training problem as the host sends it: one target per row
// of the batch, in the convention of its Kind (Uses tells which rows it
// trains on), held in Targets or, for a Binary problem, in Compact.
type Problem struct {
	Kind    ProblemKind
	Targets []float64
	// Compact, when not nil, holds a Binary problem's targets in place of
	// Targets (then nil): see CompactTargets.
	Compact    *CompactTargets
	NumClasses int
	// Weights are optional per-row weights; nil means all 1.
	Weights []float64
	// Seed seeds the problem's solver; the host sets it.
	Seed uint64
}

// CompactTargets are a Binary problem's targets as one entry per group of
// rows: row i's target is Code[Groups[i]], −1, 0 or +1. The problems of
// one batch share their Groups slice (for a code matrix's problems, the
// rows' classes), so that the K(K−1)/2 one-vs-one problems of K classes
// over n rows hold n group indices in all and K entries each, where dense
// targets would take n float64s each. Every index in Groups must be an
// index of Code.
type CompactTargets struct {
	Groups []int32
	Code   []int8
}

// GroupsID identifies a Groups slice: the IDs of two CompactTargets are
// equal when their Groups are the same slice (same first element and
// length), which is how the problems of a batch share theirs. Every empty
// Groups has the zero ID.
type GroupsID struct {
	first *int32
	n     int
}

// GroupsID returns the ID of c's Groups slice.
func (c *CompactTargets) GroupsID() GroupsID {
	if len(c.Groups) == 0 {
		return GroupsID{}
	}
	return GroupsID{&c.Groups[0], len(c.Groups)}
}

// CodeColumn returns the compact targets of column j of code over rows
// of the given groups (each a row of code: the rows' classes).
func CodeColumn(code CodeMatrix, j int, groups []int32) *CompactTargets {
	col := make([]int8, code.Rows)
	for k := range col {
		col[k] = code.At(k, j)
	}
	return &CompactTargets{Groups: groups, Code: col}
}

// CheckRows reports the first of problems that does not have a target
// for each of n training rows, in Targets or in Compact.
func CheckRows(problems []Problem, n int) error {
	for j, p := range problems {
		switch {
		case p.Targets == nil && p.Compact == nil && n > 0:
			return fmt.Errorf("problem %d has no targets (neither dense nor compact ones) for the %d training rows", j, n)
		case p.Rows() != n:
			return fmt.Errorf("problem %d has %d targets for the %d training rows", j, p.Rows(), n)
		}
	}
	return nil
}

// NotUsed is the target of a row a Multiclass problem does not train on.
const NotUsed = -1

// Rows returns the number of rows p has a target for.
func (p Problem) Rows() int {
	if p.Compact != nil {
		return len(p.Compact.Groups)
	}
	return len(p.Targets)
}

// Target returns the target of row i.
func (p Problem) Target(i int) float64 {
	if c := p.Compact; c != nil {
		return float64(c.Code[c.Groups[i]])
	}
	return p.Targets[i]
}

// Dense returns p with its targets in Targets: p itself when they are
// already there, else a copy with Compact expanded into a new slice.
func (p Problem) Dense() Problem {
	if p.Compact == nil {
		return p
	}
	t := make([]float64, len(p.Compact.Groups))
	for i, g := range p.Compact.Groups {
		t[i] = float64(p.Compact.Code[g])
	}
	p.Targets, p.Compact = t, nil
	return p
}

// Uses reports whether p trains on row i of its batch: a Binary target
// other than 0, a Multiclass target other than NotUsed, every Regression
// row.
func (p Problem) Uses(i int) bool {
	switch p.Kind {
	case Binary:
		return p.Target(i) != 0
	case Multiclass:
		return p.Targets[i] != NotUsed
	}
	return true
}

// CodeMatrix is a K × L ternary output-code matrix, row-major.
type CodeMatrix struct {
	Rows, Cols int
	Entries    []int8
}

// At returns entry (class i, column j).
func (c CodeMatrix) At(i, j int) int8 { return c.Entries[i*c.Cols+j] }
