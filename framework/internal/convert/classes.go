package convert

import "github.com/polyclass/polyclass/framework/problem"

// classesToWire and classesFromWire own the one place where class indices
// are not 0..K−1: a Multiclass problem's targets travel as 1..K with 0 for
// a row not used (protocol v1, see plugin.proto), which Go code never sees.
// Other kinds' targets are returned as they are.
func classesToWire(k problem.ProblemKind, targets []float64) []float64 {
	return shiftClasses(k, targets, 1)
}

func classesFromWire(k problem.ProblemKind, targets []float64) []float64 {
	return shiftClasses(k, targets, -1)
}

func shiftClasses(k problem.ProblemKind, targets []float64, by float64) []float64 {
	if k != problem.Multiclass || targets == nil {
		return targets
	}
	out := make([]float64, len(targets))
	for i, t := range targets {
		out[i] = t + by
	}
	return out
}
