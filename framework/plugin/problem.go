package plugin

import "github.com/polyclass/polyclass/framework/problem"

// The problem vocabulary lives in package problem, which has no RPC
// dependency; these aliases keep it in the plugin author's one import.

// ProblemKind is the kind of target of a problem.
type ProblemKind = problem.ProblemKind

// Problem kinds (see package problem for their target conventions).
const (
	Binary     = problem.Binary
	Multiclass = problem.Multiclass
	Regression = problem.Regression
)

// Problem is one training problem as the host sends it: one target per row
// of the batch, in the convention of its Kind (Uses tells which rows it
// trains on), held in Targets or, for a Binary problem, in Compact. A
// Learner never sees compact targets: its FitInput has them dense.
type Problem = problem.Problem

// CompactTargets are a Binary problem's targets as one entry per group of
// rows (see package problem).
type CompactTargets = problem.CompactTargets

// CodeColumn returns the compact targets of column j of code over rows of
// the given groups, each a row of code (the rows' classes).
func CodeColumn(code CodeMatrix, j int, groups []int32) *CompactTargets {
	return problem.CodeColumn(code, j, groups)
}

// CodeMatrix is a K × L ternary output-code matrix, row-major.
type CodeMatrix = problem.CodeMatrix

// NotUsed is the target of a row a Multiclass problem does not train on.
const NotUsed = problem.NotUsed

// CodeDiagnostics summarises the quality of the code matrix behind a
// reducer's plan (see package problem for the distance it uses).
type CodeDiagnostics = problem.CodeDiagnostics
