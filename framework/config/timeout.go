package config

import (
	"math"
	"time"

	"github.com/polyclass/polyclass/framework/param"
)

// maxTimeout is the largest cv timeout, in seconds: the longest
// time.Duration (about 292 years). A larger one, or +Inf, would overflow
// the duration a run bounds a fold with, which then reads as no bound.
const maxTimeout = float64(math.MaxInt64 / int64(time.Second))

// timeoutProblem says what is wrong with a cv timeout of t seconds, ""
// when nothing is: it is 0 (no bound) or a finite number of seconds from
// a nanosecond to maxTimeout. A positive timeout under a nanosecond would
// round to a zero duration, which means no bound at all.
func timeoutProblem(t float64) string {
	switch {
	case math.IsNaN(t) || math.IsInf(t, 0):
		return "timeout is in seconds and must be a finite number (0 for no bound), not " + param.FormatNumber(t) + "."
	case t < 0:
		return "timeout is in seconds and must not be negative."
	case t > 0 && t < 1e-9:
		return "timeout = " + param.FormatNumber(t) + " s is under a nanosecond and would round to no bound at all; give at least 1e-9, or 0 for no bound."
	case t > maxTimeout:
		return "timeout = " + param.FormatNumber(t) + " s is over the longest bound a run can hold (" + param.FormatNumber(maxTimeout) + " s, about 292 years); give 0 for no bound."
	}
	return ""
}
