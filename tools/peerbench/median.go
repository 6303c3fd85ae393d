package main

import "slices"

// median returns the median of xs: the middle value, or the mean of the
// two middle values for an even count (rounded toward zero for integers
// and durations); 0 for no values. xs is not modified. It is peerbench's
// one median: every "median of N runs" of the report is this.
func median[T ~int64 | ~float64](xs []T) T {
	n := len(xs)
	if n == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
