package sdk

// The contract a plugin implements lives in package plugin, which depends
// on no RPC machinery (the host's side uses it without this package's
// server); these aliases keep it in the plugin author's one import.

import "github.com/polyclass/polyclass/framework/plugin"

// Component is plugin.Component.
type Component = plugin.Component

// Matrix is plugin.Matrix.
type Matrix = plugin.Matrix

// BatchFitter is plugin.BatchFitter.
type BatchFitter = plugin.BatchFitter

// ParallelBatchFitter is plugin.ParallelBatchFitter.
type ParallelBatchFitter = plugin.ParallelBatchFitter

// ParamChecker is plugin.ParamChecker.
type ParamChecker = plugin.ParamChecker

// SchemeChecker is plugin.SchemeChecker.
type SchemeChecker = plugin.SchemeChecker

// SharedFitter is plugin.SharedFitter.
type SharedFitter = plugin.SharedFitter

// BatchPredictor is plugin.BatchPredictor.
type BatchPredictor = plugin.BatchPredictor

// ProbabilityModel is plugin.ProbabilityModel.
type ProbabilityModel = plugin.ProbabilityModel

// ValueKind is plugin.ValueKind.
type ValueKind = plugin.ValueKind

// Value is plugin.Value.
type Value = plugin.Value

// Params is plugin.Params.
type Params = plugin.Params

// ParamType is plugin.ParamType.
type ParamType = plugin.ParamType

// ParamSpec is plugin.ParamSpec.
type ParamSpec = plugin.ParamSpec

// Condition is plugin.Condition.
type Condition = plugin.Condition

// Clause is plugin.Clause.
type Clause = plugin.Clause

// ParamError is plugin.ParamError.
type ParamError = plugin.ParamError

// ProblemKind is plugin.ProblemKind.
type ProblemKind = plugin.ProblemKind

// Problem is plugin.Problem.
type Problem = plugin.Problem

// CompactTargets is plugin.CompactTargets.
type CompactTargets = plugin.CompactTargets

// CodeMatrix is plugin.CodeMatrix.
type CodeMatrix = plugin.CodeMatrix

// CodeDiagnostics is plugin.CodeDiagnostics.
type CodeDiagnostics = plugin.CodeDiagnostics

// Capabilities is plugin.Capabilities.
type Capabilities = plugin.Capabilities

// LearnerInfo is plugin.LearnerInfo.
type LearnerInfo = plugin.LearnerInfo

// FitInput is plugin.FitInput.
type FitInput = plugin.FitInput

// Learner is plugin.Learner.
type Learner = plugin.Learner

// InputBorrower is plugin.InputBorrower.
type InputBorrower = plugin.InputBorrower

// Model is plugin.Model.
type Model = plugin.Model

// ConvergenceReporter is plugin.ConvergenceReporter.
type ConvergenceReporter = plugin.ConvergenceReporter

// Scheme is plugin.Scheme.
type Scheme = plugin.Scheme

// ReducerInfo is plugin.ReducerInfo.
type ReducerInfo = plugin.ReducerInfo

// PlanRequest is plugin.PlanRequest.
type PlanRequest = plugin.PlanRequest

// StageSpec is plugin.StageSpec.
type StageSpec = plugin.StageSpec

// Plan is plugin.Plan.
type Plan = plugin.Plan

// PlanDescription is plugin.PlanDescription.
type PlanDescription = plugin.PlanDescription

// DecodeRequest is plugin.DecodeRequest.
type DecodeRequest = plugin.DecodeRequest

// Decoding is plugin.Decoding.
type Decoding = plugin.Decoding

// Reducer is plugin.Reducer.
type Reducer = plugin.Reducer

// Constants of the contract (see package plugin).
const (
	NullValue           = plugin.NullValue
	NumberValue         = plugin.NumberValue
	StringValue         = plugin.StringValue
	BoolValue           = plugin.BoolValue
	ListValue           = plugin.ListValue
	NumberParam         = plugin.NumberParam
	IntegerParam        = plugin.IntegerParam
	StringParam         = plugin.StringParam
	BoolParam           = plugin.BoolParam
	NumberListParam     = plugin.NumberListParam
	StringListParam     = plugin.StringListParam
	NumberMatrixParam   = plugin.NumberMatrixParam
	NumberOrStringParam = plugin.NumberOrStringParam
	AnyParam            = plugin.AnyParam
	AnyName             = plugin.AnyName
	Binary              = plugin.Binary
	Multiclass          = plugin.Multiclass
	Regression          = plugin.Regression
	NotUsed             = plugin.NotUsed
)

// ErrBatchDeclined is plugin.ErrBatchDeclined: the same value, so that errors.Is matches either.
var ErrBatchDeclined = plugin.ErrBatchDeclined

// When is plugin.When.
func When(name string, values ...string) Condition { return plugin.When(name, values...) }

// OnProblems is plugin.OnProblems.
func OnProblems(kinds ...ProblemKind) Condition { return plugin.OnProblems(kinds...) }

// Number is plugin.Number.
func Number(f float64) Value { return plugin.Number(f) }

// String is plugin.String.
func String(s string) Value { return plugin.String(s) }

// Bool is plugin.Bool.
func Bool(b bool) Value { return plugin.Bool(b) }

// List is plugin.List.
func List(vs ...Value) Value { return plugin.List(vs...) }

// Bound is plugin.Bound.
func Bound(f float64) *float64 { return plugin.Bound(f) }

// LookupSpec is plugin.LookupSpec.
func LookupSpec(specs []ParamSpec, name string) (ParamSpec, bool) {
	return plugin.LookupSpec(specs, name)
}

// CheckParams is plugin.CheckParams.
func CheckParams(specs []ParamSpec, p Params) []error { return plugin.CheckParams(specs, p) }

// WithDefaults is plugin.WithDefaults.
func WithDefaults(specs []ParamSpec, p Params) Params { return plugin.WithDefaults(specs, p) }

// WithParam is plugin.WithParam.
func WithParam(name string, err error) error { return plugin.WithParam(name, err) }

// CodeColumn is plugin.CodeColumn.
func CodeColumn(code CodeMatrix, j int, groups []int32) *CompactTargets {
	return plugin.CodeColumn(code, j, groups)
}

// ClassIndex returns the index of the class name names among classes: by
// its spelling, else as a decimal number (see plugin.ClassIndex).
func ClassIndex(name string, classes []string) int { return plugin.ClassIndex(name, classes) }
