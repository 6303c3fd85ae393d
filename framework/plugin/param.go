package plugin

import "github.com/polyclass/polyclass/framework/param"

// The parameter vocabulary lives in package param, which has no RPC
// dependency; these aliases keep it in the plugin author's one import.

// ValueKind tells which field of a Value is set.
type ValueKind = param.ValueKind

// Value kinds.
const (
	NullValue   = param.NullValue
	NumberValue = param.NumberValue
	StringValue = param.StringValue
	BoolValue   = param.BoolValue
	ListValue   = param.ListValue
)

// Value is a parameter value: a number, a string, a bool or a list of values.
// The zero Value is null.
type Value = param.Value

// Params maps parameter names to values.
type Params = param.Params

// ParamType is the type of a parameter.
type ParamType = param.ParamType

// Parameter types (see package param).
const (
	NumberParam         = param.NumberParam
	IntegerParam        = param.IntegerParam
	StringParam         = param.StringParam
	BoolParam           = param.BoolParam
	NumberListParam     = param.NumberListParam
	StringListParam     = param.StringListParam
	NumberMatrixParam   = param.NumberMatrixParam
	NumberOrStringParam = param.NumberOrStringParam
	AnyParam            = param.AnyParam
)

// AnyName is the name of a spec that admits undeclared parameter names
// (its Type must be AnyParam).
const AnyName = param.AnyName

// ParamSpec declares a parameter a plugin accepts.
type ParamSpec = param.ParamSpec

// Condition is one case in which a parameter applies (see
// ParamSpec.AppliesWhen and param.Condition).
type Condition = param.Condition

// Clause is one clause of a Condition: parameter Param has one of the
// values OneOf.
type Clause = param.Clause

// When returns the condition that parameter name has one of the string
// values, e.g. When("solver", "sgd") for a parameter only the sgd solver
// reads.
func When(name string, values ...string) Condition { return param.When(name, values...) }

// OnProblems returns the condition that the learner fits problems of one
// of the kinds given, e.g. OnProblems(Multiclass) for a parameter read
// only under scheme none.
func OnProblems(kinds ...ProblemKind) Condition { return param.OnProblems(kinds...) }

// Number returns a number value.
func Number(f float64) Value { return param.Number(f) }

// String returns a string value.
func String(s string) Value { return param.String(s) }

// Bool returns a bool value.
func Bool(b bool) Value { return param.Bool(b) }

// List returns a list value.
func List(vs ...Value) Value { return param.List(vs...) }

// Bound returns a pointer to f, for ParamSpec.Min and ParamSpec.Max.
func Bound(f float64) *float64 { return param.Bound(f) }

// LookupSpec returns the spec of the parameter name: the spec of that name,
// else the AnyName spec when there is one.
func LookupSpec(specs []ParamSpec, name string) (ParamSpec, bool) {
	return param.LookupSpec(specs, name)
}

// CheckParams checks p against specs (see param.CheckParams).
func CheckParams(specs []ParamSpec, p Params) []error { return param.CheckParams(specs, p) }

// WithDefaults returns p completed with the defaults of specs (see
// param.WithDefaults).
func WithDefaults(specs []ParamSpec, p Params) Params { return param.WithDefaults(specs, p) }

// ParamError is an error about one parameter (see param.ParamError): a
// plugin returns it from Fit, Plan or Decode, and the SDK sends the
// parameter's name with the error's status so that the host locates the
// error at the parameter's attribute in the experiment file.
type ParamError = param.ParamError

// WithParam blames parameter name for err; a nil err stays nil.
func WithParam(name string, err error) error { return param.WithParam(name, err) }
