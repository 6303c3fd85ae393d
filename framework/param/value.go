package param

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ValueKind tells which field of a Value is set.
type ValueKind uint8

// Value kinds.
const (
	NullValue ValueKind = iota
	NumberValue
	StringValue
	BoolValue
	ListValue
)

// Value is a parameter value: a number, a string, a bool or a list of values.
// The zero Value is null.
type Value struct {
	kind ValueKind
	num  float64
	str  string
	b    bool
	list []Value
}

// Number returns a number value.
func Number(f float64) Value { return Value{kind: NumberValue, num: f} }

// String returns a string value.
func String(s string) Value { return Value{kind: StringValue, str: s} }

// Bool returns a bool value.
func Bool(b bool) Value { return Value{kind: BoolValue, b: b} }

// List returns a list value.
func List(vs ...Value) Value { return Value{kind: ListValue, list: vs} }

// Kind returns the kind of v.
func (v Value) Kind() ValueKind { return v.kind }

// IsNull reports whether v is the zero Value.
func (v Value) IsNull() bool { return v.kind == NullValue }

// Num returns the number held by v, or NaN.
func (v Value) Num() float64 {
	if v.kind != NumberValue {
		return math.NaN()
	}
	return v.num
}

// Str returns the string held by v, or "".
func (v Value) Str() string { return v.str }

// Truth returns the bool held by v.
func (v Value) Truth() bool { return v.b }

// Elems returns the elements of a list value.
func (v Value) Elems() []Value { return v.list }

// String formats v the way it is written in an experiment file and in
// result tables: 0.1, "ova", true, [1, 2].
func (v Value) String() string {
	switch v.kind {
	case NumberValue:
		return strconv.FormatFloat(v.num, 'g', -1, 64)
	case StringValue:
		return v.str
	case BoolValue:
		return strconv.FormatBool(v.b)
	case ListValue:
		parts := make([]string, len(v.list))
		for i, e := range v.list {
			parts[i] = e.String()
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return "null"
}

// Equal reports whether v and w hold the same value.
func (v Value) Equal(w Value) bool {
	if v.kind != w.kind {
		return false
	}
	switch v.kind {
	case NumberValue:
		return v.num == w.num
	case StringValue:
		return v.str == w.str
	case BoolValue:
		return v.b == w.b
	case ListValue:
		if len(v.list) != len(w.list) {
			return false
		}
		for i := range v.list {
			if !v.list[i].Equal(w.list[i]) {
				return false
			}
		}
	}
	return true
}

// Params holds parameter values by name.
//
// A plugin's Fit, Plan and Decode, and an encoder's constructor, receive
// their parameters completed by WithDefaults: the ParamSpec's Default is the
// one place a default is written, so the accessors below take none. They
// return the zero value (0, "", false) only for a parameter that is absent
// and declared without a default.
type Params map[string]Value

// Float returns the number parameter name, or 0 when it is absent.
func (p Params) Float(name string) float64 {
	if v, ok := p[name]; ok && v.kind == NumberValue {
		return v.num
	}
	return 0
}

// Int returns the integer parameter name, or 0 when it is absent.
func (p Params) Int(name string) int {
	if v, ok := p[name]; ok && v.kind == NumberValue {
		return int(v.num)
	}
	return 0
}

// Str returns the string parameter name, or "" when it is absent.
func (p Params) Str(name string) string {
	if v, ok := p[name]; ok && v.kind == StringValue {
		return v.str
	}
	return ""
}

// Bool returns the bool parameter name, or false when it is absent.
func (p Params) Bool(name string) bool {
	if v, ok := p[name]; ok && v.kind == BoolValue {
		return v.b
	}
	return false
}

// Floats returns the number-list parameter name, or nil.
func (p Params) Floats(name string) []float64 {
	v, ok := p[name]
	if !ok || v.kind != ListValue {
		return nil
	}
	out := make([]float64, len(v.list))
	for i, e := range v.list {
		out[i] = e.Num()
	}
	return out
}

// Strings returns the string-list parameter name, or nil.
func (p Params) Strings(name string) []string {
	v, ok := p[name]
	if !ok || v.kind != ListValue {
		return nil
	}
	out := make([]string, len(v.list))
	for i, e := range v.list {
		out[i] = e.String()
	}
	return out
}

// Matrix returns the number-matrix parameter name, or nil.
func (p Params) Matrix(name string) [][]float64 {
	v, ok := p[name]
	if !ok || v.kind != ListValue {
		return nil
	}
	out := make([][]float64, len(v.list))
	for i, row := range v.list {
		for _, e := range row.list {
			out[i] = append(out[i], e.Num())
		}
	}
	return out
}

// String formats p as name=value pairs in name order, the form used to
// label a parameter combination in result tables.
func (p Params) String() string {
	names := make([]string, 0, len(p))
	for n := range p {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + "=" + p[n].String()
	}
	return strings.Join(parts, ",")
}

// ParamType is the type of a parameter.
type ParamType uint8

// Parameter types.
const (
	NumberParam ParamType = iota + 1
	IntegerParam
	StringParam
	BoolParam
	NumberListParam
	StringListParam
	NumberMatrixParam
	// NumberOrStringParam takes a number or a string (folds = 5 or "loo");
	// Allowed then lists the accepted strings.
	NumberOrStringParam
	// AnyParam takes any value; a list expands into one combination per
	// element, as for a scalar. A spec of this type named AnyName admits
	// every parameter name the other specs do not declare.
	AnyParam
)

// AnyName is the name of a spec that admits undeclared parameter names
// (its Type must be AnyParam): a bridge plugin to a library whose
// parameters it cannot list checks them itself when it trains.
const AnyName = "*"

var paramTypeNames = map[ParamType]string{
	NumberParam: "number", IntegerParam: "integer", StringParam: "string", BoolParam: "bool",
	NumberListParam: "list(number)", StringListParam: "list(string)", NumberMatrixParam: "list(list(number))",
	NumberOrStringParam: "number or string", AnyParam: "any",
}

// String returns the HCL-style name of t.
func (t ParamType) String() string {
	if s, ok := paramTypeNames[t]; ok {
		return s
	}
	return "unknown"
}

// Scalar reports whether t holds a single value (so that a list given for
// it in an experiment file expands into one combination per element).
func (t ParamType) Scalar() bool {
	return t <= BoolParam || t == NumberOrStringParam || t == AnyParam
}

// LookupSpec returns the spec of the parameter name: the spec of that name,
// else the AnyName spec when there is one.
func LookupSpec(specs []ParamSpec, name string) (ParamSpec, bool) {
	var wildcard *ParamSpec
	for i, s := range specs {
		if s.Name == name {
			return s, true
		}
		if s.Name == AnyName && s.Type == AnyParam {
			wildcard = &specs[i]
		}
	}
	if wildcard != nil {
		w := *wildcard
		w.Name = name
		return w, true
	}
	return ParamSpec{}, false
}

// MaxInteger bounds the magnitude of every IntegerParam value, whatever
// its spec's Min and Max: 2⁵³, beyond which a float64 (the protocol's
// number) no longer holds every whole number, and far inside int64, so
// that a plugin converting it to an int never overflows (max_iter = 1e20
// would wrap to a negative count).
const MaxInteger = 1 << 53

// ParamSpec describes one parameter: its type, default and allowed range
// (an IntegerParam's also bounded by MaxInteger).
type ParamSpec struct {
	Name        string
	Type        ParamType
	Description string
	Default     Value
	// Min and Max are inclusive bounds for numbers, unless nil.
	Min, Max *float64
	// MinExclusive makes Min a strict bound.
	MinExclusive bool
	// Allowed lists the accepted strings of a string parameter.
	Allowed []string
	// AppliesWhen says when the parameter affects the fit: when any of
	// its conditions holds; empty means always. It informs the set-up
	// table and the experiment file's checks only: a plugin receives and
	// checks every parameter as before.
	AppliesWhen []Condition
	// Budget declares an integer parameter that bounds how much work one
	// fit does (iterations, epochs): a tune block may name it as its
	// resource (resource = "max_iter"), and successive halving or
	// hyperband then grows it round by round on every row.
	Budget bool
	// DefaultMeans says what the default stands for when the default
	// value is a placeholder (LIBSVM's gamma = 0 for "1/features"); empty
	// when the default is what it says. The set-up table shows it in
	// place of the default value, so that gamma reads "1/features", not 0.
	DefaultMeans string
	// AtMostTrainingRows declares an integer parameter whose value may not
	// exceed the rows a fit trains on (knn's k, the neighbours it finds
	// among them): the host checks each value against the smallest
	// training part of each dataset before any cell runs.
	AtMostTrainingRows bool
}

// FormatNumber formats f for messages and listings: a whole number below
// 2⁵³ in magnitude in full (4294967295, not 4.294967295e+09), any other
// number as strconv's shortest 'g' form.
func FormatNumber(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// Bound returns a pointer to f, for ParamSpec.Min and Max.
func Bound(f float64) *float64 { return &f }

// Check reports whether v is a valid value of the parameter.
func (s ParamSpec) Check(v Value) error {
	check, ok := checkers[s.Type]
	if !ok {
		return fmt.Errorf("%s has an unknown parameter type", s.Name)
	}
	return check(s, v)
}

// checkers holds the check of each parameter type: one function a type.
var checkers = map[ParamType]func(ParamSpec, Value) error{
	NumberParam:         checkNumber,
	IntegerParam:        checkNumber,
	StringParam:         checkString,
	BoolParam:           checkBool,
	NumberListParam:     checkList,
	StringListParam:     checkList,
	NumberMatrixParam:   checkMatrix,
	NumberOrStringParam: checkNumberOrString,
	AnyParam:            checkAny,
}

// checkNumber checks a NumberParam or IntegerParam value: a finite number,
// whole for an integer (and within ±MaxInteger), within Min and Max.
func checkNumber(s ParamSpec, v Value) error {
	if v.kind != NumberValue {
		return fmt.Errorf("%s must be a number, not %s", s.Name, kindName(v.kind))
	}
	if s.Type == IntegerParam && v.num != math.Trunc(v.num) {
		return fmt.Errorf("%s must be a whole number, not %v", s.Name, v.num)
	}
	if math.IsNaN(v.num) {
		return fmt.Errorf("%s must not be NaN", s.Name)
	}
	if math.IsInf(v.num, 0) {
		return fmt.Errorf("%s = %v is not a finite number (a literal beyond ±1.8e308, such as 1e400, is infinite)", s.Name, v.num)
	}
	if s.Type == IntegerParam && math.Abs(v.num) > MaxInteger {
		return fmt.Errorf("%s = %s is out of range: an integer parameter lies within ±%s (2⁵³, the whole numbers a float64 holds exactly)", s.Name, FormatNumber(v.num), strconv.FormatInt(MaxInteger, 10))
	}
	return s.checkBounds(v.num)
}

// checkBounds checks f against the spec's Min (strict when MinExclusive)
// and Max.
func (s ParamSpec) checkBounds(f float64) error {
	if s.Min != nil && (f < *s.Min || (s.MinExclusive && f == *s.Min)) {
		op := ">="
		if s.MinExclusive {
			op = ">"
		}
		return fmt.Errorf("%s = %s is out of range: it must be %s %s", s.Name, FormatNumber(f), op, FormatNumber(*s.Min))
	}
	if s.Max != nil && f > *s.Max {
		return fmt.Errorf("%s = %s is out of range: it must be <= %s", s.Name, FormatNumber(f), FormatNumber(*s.Max))
	}
	return nil
}

// checkString checks a StringParam value: a string, one of Allowed when
// the spec lists any.
func checkString(s ParamSpec, v Value) error {
	if v.kind != StringValue {
		return fmt.Errorf("%s must be a string, not %s", s.Name, kindName(v.kind))
	}
	if len(s.Allowed) == 0 || slices.Contains(s.Allowed, v.str) {
		return nil
	}
	return fmt.Errorf("%s = %q is not one of %s", s.Name, v.str, quoteList(s.Allowed))
}

// checkBool checks a BoolParam value.
func checkBool(s ParamSpec, v Value) error {
	if v.kind != BoolValue {
		return fmt.Errorf("%s must be a bool, not %s", s.Name, kindName(v.kind))
	}
	return nil
}

// checkList checks a NumberListParam or StringListParam value: a list
// whose elements all have the type's kind, the numbers finite.
func checkList(s ParamSpec, v Value) error {
	if v.kind != ListValue {
		return fmt.Errorf("%s must be a list, not %s", s.Name, kindName(v.kind))
	}
	want := NumberValue
	if s.Type == StringListParam {
		want = StringValue
	}
	for i, e := range v.list {
		if e.kind != want {
			return fmt.Errorf("%s[%d] must be a %s, not %s", s.Name, i, kindName(want), kindName(e.kind))
		}
		if e.kind == NumberValue && !finite(e.num) {
			return fmt.Errorf("%s[%d] = %v is not a finite number", s.Name, i, e.num)
		}
	}
	return nil
}

// checkMatrix checks a NumberMatrixParam value: a list of lists of finite
// numbers.
func checkMatrix(s ParamSpec, v Value) error {
	if v.kind != ListValue {
		return fmt.Errorf("%s must be a list of lists of numbers, not %s", s.Name, kindName(v.kind))
	}
	for i, row := range v.list {
		if row.kind != ListValue {
			return fmt.Errorf("%s[%d] must be a list of numbers, not %s", s.Name, i, kindName(row.kind))
		}
		for j, e := range row.list {
			if e.kind != NumberValue {
				return fmt.Errorf("%s[%d][%d] must be a number, not %s", s.Name, i, j, kindName(e.kind))
			}
			if !finite(e.num) {
				return fmt.Errorf("%s[%d][%d] = %v is not a finite number", s.Name, i, j, e.num)
			}
		}
	}
	return nil
}

// checkNumberOrString checks a NumberOrStringParam value: a number as a
// NumberParam with the spec's bounds, a string as a StringParam with its
// Allowed.
func checkNumberOrString(s ParamSpec, v Value) error {
	switch v.kind {
	case NumberValue:
		return checkNumber(ParamSpec{Name: s.Name, Type: NumberParam, Min: s.Min, Max: s.Max, MinExclusive: s.MinExclusive}, v)
	case StringValue:
		return checkString(ParamSpec{Name: s.Name, Type: StringParam, Allowed: s.Allowed}, v)
	}
	return fmt.Errorf("%s must be a number or a string, not %s", s.Name, kindName(v.kind))
}

// checkAny checks an AnyParam value: any value but null.
func checkAny(s ParamSpec, v Value) error {
	if v.kind == NullValue {
		return fmt.Errorf("%s has no value", s.Name)
	}
	return nil
}

// finite reports whether f is neither NaN nor infinite.
func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func kindName(k ValueKind) string {
	switch k {
	case NumberValue:
		return "number"
	case StringValue:
		return "string"
	case BoolValue:
		return "bool"
	case ListValue:
		return "list"
	}
	return "null"
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// CheckDefault checks the spec's default, when it has one, against the
// spec itself: a plugin whose default fails its own schema would be handed
// a value it declares invalid whenever an experiment leaves the parameter
// out (the user's values are checked, the defaults filled in after).
func (s ParamSpec) CheckDefault() error {
	if s.Default.IsNull() {
		return nil
	}
	if err := s.Check(s.Default); err != nil {
		return fmt.Errorf("the default of parameter %s fails its own schema: %w", s.Name, err)
	}
	return nil
}

// CheckParams checks p against specs: every name must be declared and every
// value valid. It returns one error per problem, in name order.
func CheckParams(specs []ParamSpec, p Params) []error {
	names := make([]string, 0, len(p))
	for n := range p {
		names = append(names, n)
	}
	sort.Strings(names)
	var errs []error
	for _, n := range names {
		s, ok := LookupSpec(specs, n)
		if !ok {
			valid := make([]string, 0, len(specs))
			for _, s := range specs {
				valid = append(valid, s.Name)
			}
			errs = append(errs, WithParam(n, fmt.Errorf("unknown parameter %q; valid parameters: %s", n, strings.Join(valid, ", "))))
			continue
		}
		if err := s.Check(p[n]); err != nil {
			errs = append(errs, WithParam(n, err))
		}
	}
	return errs
}

// WithDefaults returns p completed with the default of every spec it lacks.
func WithDefaults(specs []ParamSpec, p Params) Params {
	out := make(Params, len(specs)+len(p))
	for _, s := range specs {
		if !s.Default.IsNull() {
			out[s.Name] = s.Default
		}
	}
	for n, v := range p {
		out[n] = v
	}
	return out
}
