// Package bitstest compares floating-point results bit for bit, for the
// tests of the logistic solver's kernels, which promise the same bits on
// every path (assembly or Go, any lane, any panel width).
package bitstest

import (
	"math"
	"testing"
)

// Same reports whether a and b have the same bits, or are both NaN: the
// payload and sign of a NaN depend on the order of an operation's
// operands, which the compiler may choose.
func Same(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

// Equal fails tb, naming what and the first index that differs, unless
// got and want are the Same entry by entry (got may be longer).
func Equal(tb testing.TB, what string, got, want []float64) {
	tb.Helper()
	if len(got) < len(want) {
		tb.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range want {
		if !Same(got[i], want[i]) {
			tb.Fatalf("%s[%d] = %v (%#x), want %v (%#x)", what, i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
		}
	}
}
