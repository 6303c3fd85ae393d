package config

import (
	"fmt"
	"math"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// maxProductValues bounds the combinations setproduct may make: 100,000,
// far more than an experiment file names, far fewer than exhaust memory.
const maxProductValues = 100_000

// guarded returns f checked by check before it runs: check returns the
// argument error that stops the call, or nil.
func guarded(f function.Function, check func(args []cty.Value) error) function.Function {
	spec := &function.Spec{Description: f.Description(), Params: f.Params(), VarParam: f.VarParam(),
		Type: func(args []cty.Value) (cty.Type, error) { return f.ReturnTypeForValues(args) },
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if err := check(args); err != nil {
				return cty.NilVal, err
			}
			return f.Call(args)
		}}
	return function.New(spec)
}

// floats returns args as numbers, ok false when one is not a known number.
func floats(args []cty.Value) ([]float64, bool) {
	out := make([]float64, len(args))
	for i, a := range args {
		if !a.IsKnown() || a.IsNull() || a.Type() != cty.Number {
			return nil, false
		}
		out[i], _ = a.AsBigFloat().Float64()
	}
	return out, true
}

// powFunc is go-cty's pow, which panics (a Go stack in the message) when
// the result is not a number: pow(-8, 1/3).
var powFunc = guarded(stdlib.PowFunc, func(args []cty.Value) error {
	if f, ok := floats(args); ok && math.IsNaN(math.Pow(f[0], f[1])) {
		return function.NewArgErrorf(1, "pow(%g, %g) is not a number: a negative base needs a whole exponent", f[0], f[1])
	}
	return nil
})

// logFunc is go-cty's log, which panics when the result is not a number:
// log(-1, 10), log(1, 1).
var logFunc = guarded(stdlib.LogFunc, func(args []cty.Value) error {
	if f, ok := floats(args); ok && math.IsNaN(math.Log(f[0])/math.Log(f[1])) {
		return function.NewArgErrorf(0, "log(%g, %g) is not a number: log needs a number >= 0 and a base > 0 other than 1", f[0], f[1])
	}
	return nil
})

// setProductFunc is go-cty's setproduct, refused when it would make more
// than maxProductValues combinations (campaign 5 h02: setproduct of three
// range(1000) asked for 24 GB and bench died out of memory).
var setProductFunc = guarded(stdlib.SetProductFunc, func(args []cty.Value) error {
	n := 1.0
	for _, a := range args {
		if !a.IsKnown() || a.IsNull() || !a.CanIterateElements() {
			return nil
		}
		n *= float64(a.LengthInt())
	}
	if n > maxProductValues {
		return function.NewArgErrorf(0, "setproduct would make %.0f combinations, more than the %d an experiment file may make", n, maxProductValues)
	}
	return nil
})

// Bounds on what the functions of an experiment file may take and make
// (campaign 5 h03, h04, h06: flatten, distinct and sort of a million
// values, and text doubled to 1 GiB, ran for minutes). range() has its
// own, smaller bound of 1024 values, from go-cty.
const (
	// MaxFunctionValues bounds the values a function may take in its
	// arguments together, or make: the elements of lists, sets, tuples, maps and
	// objects, counted at every depth.
	MaxFunctionValues = 100_000
	// MaxFunctionText bounds the bytes of text a function may take in
	// its arguments together, or make, counted over every string it holds: 1 MiB.
	MaxFunctionText = 1 << 20
)

// size counts the values and the bytes of text v holds, at every depth,
// stopping as soon as either passes its bound.
type size struct{ values, text int }

// over reports whether s passes a bound.
func (s size) over() bool { return s.values > MaxFunctionValues || s.text > MaxFunctionText }

// add counts v into s, stopping once s is over a bound; unknown and null
// values count nothing.
func (s *size) add(v cty.Value) {
	if s.over() || !v.IsKnown() || v.IsNull() {
		return
	}
	v, _ = v.Unmark()
	switch {
	case v.Type() == cty.String:
		s.text += len(v.AsString())
	case v.CanIterateElements():
		for it := v.ElementIterator(); it.Next() && !s.over(); {
			_, e := it.Element()
			s.values++
			s.add(e)
		}
	}
}

// err says which bound s passes, what the function was to do with
// the value (take, make) and its name.
func (s size) err(name, verb string) error {
	if s.values > MaxFunctionValues {
		return fmt.Errorf("%s would %s more than %d values, the most a function in an experiment file may %s", name, verb, MaxFunctionValues, verb)
	}
	return fmt.Errorf("%s would %s more than %d bytes of text (1 MiB), the most a function in an experiment file may %s", name, verb, MaxFunctionText, verb)
}

// bounded returns f refusing arguments (all together) and a result that
// hold more than MaxFunctionValues values or MaxFunctionText bytes of
// text; the arguments are checked before f works out its type (flatten's type
// flattens), so a call too large costs only the counting.
func bounded(name string, f function.Function) function.Function {
	spec := &function.Spec{Description: f.Description(), Params: f.Params(), VarParam: f.VarParam(),
		Type: func(args []cty.Value) (cty.Type, error) {
			var s size
			for i, a := range args {
				if s.add(a); s.over() {
					return cty.NilType, function.NewArgError(i, s.err(name, "take"))
				}
			}
			return f.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			v, err := f.Call(args)
			if err != nil {
				return v, err
			}
			var s size
			if s.add(v); s.over() {
				return cty.NilVal, s.err(name, "make")
			}
			return v, nil
		}}
	return function.New(spec)
}
