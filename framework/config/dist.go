package config

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/polyclass/polyclass/framework/param"
)

// DistKind names a search-space distribution of a tuned parameter.
type DistKind string

// The distributions a tune block samples from (strategy "random", or
// "halving" with n_iter).
const (
	// LogUniform draws exp(u), u uniform in [log a, log b): a number
	// whose logarithm is uniform, 0 < a < b (scipy.stats.loguniform).
	LogUniform DistKind = "loguniform"
	// Uniform draws a number uniform in [a, b), a < b.
	Uniform DistKind = "uniform"
	// RandInt draws a whole number uniform in a, a+1, …, b−1
	// (scipy.stats.randint: b excluded).
	RandInt DistKind = "randint"
	// Choice draws one of the listed values, each as likely.
	Choice DistKind = "choice"
)

// Distribution is a search space for one tuned parameter, written as a
// function call in a learner's params: loguniform(1e-3, 1e3),
// uniform(0, 1), randint(1, 10) or choice(["rbf", "linear"]).
type Distribution struct {
	Kind DistKind
	// Low and High bound LogUniform, Uniform and RandInt.
	Low, High float64
	// Choices are Choice's values.
	Choices []param.Value
}

// distType is the cty capsule type that carries a *Distribution from a
// function call to the learner's params.
var distType = cty.Capsule("distribution", reflect.TypeOf(Distribution{}))

// String writes the distribution as it is written in a file.
func (d *Distribution) String() string {
	if d.Kind == Choice {
		parts := make([]string, len(d.Choices))
		for i, v := range d.Choices {
			parts[i] = v.String()
			if v.Kind() == param.StringValue {
				parts[i] = strconv.Quote(v.Str())
			}
		}
		return fmt.Sprintf("choice([%s])", strings.Join(parts, ", "))
	}
	return fmt.Sprintf("%s(%s, %s)", d.Kind, param.FormatNumber(d.Low), param.FormatNumber(d.High))
}

// Sample draws one value from the distribution with r.
func (d *Distribution) Sample(r *rand.Rand) param.Value {
	switch d.Kind {
	case LogUniform:
		lo, hi := math.Log(d.Low), math.Log(d.High)
		return param.Number(math.Exp(lo + r.Float64()*(hi-lo)))
	case Uniform:
		return param.Number(d.Low + r.Float64()*(d.High-d.Low))
	case RandInt:
		return param.Number(d.Low + float64(r.Int64N(int64(d.High-d.Low))))
	}
	return d.Choices[r.IntN(len(d.Choices))]
}

// CheckSpec checks the distribution against the parameter's spec: a
// number distribution for a number parameter (randint also for an
// integer one), bounds the spec admits, and choices it accepts.
func (d *Distribution) CheckSpec(s param.ParamSpec) error {
	if d.Kind == Choice {
		for _, v := range d.Choices {
			if err := s.Check(v); err != nil {
				return err
			}
		}
		return nil
	}
	switch {
	case s.Type == param.IntegerParam && d.Kind != RandInt:
		return fmt.Errorf("%s is an integer parameter: %s draws fractions; use randint(a, b) or choice([...])", s.Name, d.Kind)
	case s.Type != param.IntegerParam && s.Type != param.NumberParam:
		return fmt.Errorf("%s is a %s parameter: %s draws numbers; use choice([...])", s.Name, s.Type, d.Kind)
	}
	hi := d.High
	if d.Kind == RandInt {
		hi-- // randint(a, b) never draws b
	}
	for _, v := range []float64{d.Low, hi} {
		if err := s.Check(param.Number(v)); err != nil {
			return fmt.Errorf("it can draw %s: %w", param.FormatNumber(v), err)
		}
	}
	return nil
}

// distFuncs are the search-space functions of experiment files.
func distFuncs() map[string]function.Function {
	return map[string]function.Function{
		"loguniform": boundsFunc(LogUniform),
		"uniform":    boundsFunc(Uniform),
		"randint":    boundsFunc(RandInt),
		"choice":     choiceFunc,
	}
}

// boundsFunc is the function kind(a, b) of a distribution with bounds.
func boundsFunc(kind DistKind) function.Function {
	return function.New(&function.Spec{
		Description: fmt.Sprintf("%s(a, b): a search space for a tuned parameter", kind),
		Params: []function.Parameter{
			{Name: "a", Type: cty.Number},
			{Name: "b", Type: cty.Number},
		},
		Type: function.StaticReturnType(distType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			a, _ := args[0].AsBigFloat().Float64()
			b, _ := args[1].AsBigFloat().Float64()
			d := &Distribution{Kind: kind, Low: a, High: b}
			if err := d.checkBounds(); err != nil {
				return cty.NilVal, err
			}
			return cty.CapsuleVal(distType, d), nil
		},
	})
}

// checkBounds checks the bounds of a LogUniform, Uniform or RandInt
// distribution, naming the argument at fault.
func (d *Distribution) checkBounds() error {
	a, b := d.Low, d.High
	for i, v := range []float64{a, b} {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return function.NewArgErrorf(i, "%s needs finite bounds, not %v", d.Kind, v)
		}
		if d.Kind == RandInt && v != math.Trunc(v) {
			return function.NewArgErrorf(i, "randint(a, b) draws whole numbers: its bounds must be whole numbers, not %v", v)
		}
	}
	if d.Kind == LogUniform && a <= 0 {
		return function.NewArgErrorf(0, "loguniform(a, b) needs 0 < a < b, not a = %s", param.FormatNumber(a))
	}
	if a >= b {
		return function.NewArgErrorf(1, "%s(a, b) needs a < b, not a = %s, b = %s", d.Kind, param.FormatNumber(a), param.FormatNumber(b))
	}
	if math.IsInf(b-a, 0) {
		return function.NewArgErrorf(1, "%s(a, b) needs b - a to be a finite number", d.Kind)
	}
	if d.Kind == RandInt && b-a > param.MaxInteger {
		return function.NewArgErrorf(1, "randint(a, b) spans at most %d values", int64(param.MaxInteger))
	}
	return nil
}

// choiceFunc is choice([v1, v2, …]): one of the values, each as likely.
var choiceFunc = function.New(&function.Spec{
	Description: "choice([...]): a search space of listed values for a tuned parameter",
	Params:      []function.Parameter{{Name: "values", Type: cty.DynamicPseudoType}},
	Type:        function.StaticReturnType(distType),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v := args[0]
		t := v.Type()
		if !t.IsTupleType() && !t.IsListType() && !t.IsSetType() {
			return cty.NilVal, function.NewArgErrorf(0, "choice takes a list such as [\"rbf\", \"linear\"], not %s", t.FriendlyName())
		}
		if v.LengthInt() == 0 {
			return cty.NilVal, function.NewArgErrorf(0, "choice needs at least one value")
		}
		var choices []param.Value
		for _, e := range v.AsValueSlice() {
			pv, err := toValue(e)
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			if pv.Kind() == param.ListValue {
				return cty.NilVal, function.NewArgErrorf(0, "choice's values are numbers, strings or bools, not lists")
			}
			choices = append(choices, pv)
		}
		return cty.CapsuleVal(distType, &Distribution{Kind: Choice, Choices: choices}), nil
	},
})

// asDistribution returns the distribution v carries, if it carries one.
func asDistribution(v cty.Value) (*Distribution, bool) {
	if v.IsNull() || !v.IsKnown() || !v.Type().Equals(distType) {
		return nil, false
	}
	return v.EncapsulatedValue().(*Distribution), true
}
