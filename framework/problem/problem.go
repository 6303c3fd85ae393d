// Package problem holds what the host and a plugin exchange about the
// problems a reduction makes: a training Problem (its kind and targets),
// a reducer's CodeMatrix and the CodeDiagnostics of that matrix.
//
// It depends on no RPC machinery (no gRPC, no go-plugin, no protobuf).
// Plugin authors meet the same names through package sdk, which
// re-exports them.
package problem

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
// trains on).
type Problem struct {
	Kind       ProblemKind
	Targets    []float64
	NumClasses int
	// Weights are optional per-row weights; nil means all 1.
	Weights []float64
	// Seed seeds the problem's solver; the host sets it.
	Seed uint64
}

// NotUsed is the target of a row a Multiclass problem does not train on.
const NotUsed = -1

// Uses reports whether p trains on row i of its batch: a Binary target
// other than 0, a Multiclass target other than NotUsed, every Regression
// row.
func (p Problem) Uses(i int) bool {
	switch p.Kind {
	case Binary:
		return p.Targets[i] != 0
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
