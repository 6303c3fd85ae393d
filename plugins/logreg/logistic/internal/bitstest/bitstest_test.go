package bitstest

import (
	"math"
	"testing"
)

func TestSame(t *testing.T) {
	for _, c := range []struct {
		a, b float64
		want bool
	}{
		{1, 1, true},
		{0, math.Copysign(0, -1), false},
		{math.NaN(), -math.NaN(), true},
		{math.NaN(), 1, false},
		{math.Inf(1), math.Inf(1), true},
		{1, math.Nextafter(1, 2), false},
	} {
		if got := Same(c.a, c.b); got != c.want {
			t.Errorf("Same(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
