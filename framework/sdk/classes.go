package sdk

// NotUsed is the target of a row a Multiclass problem does not train on.
const NotUsed = -1

// Uses reports whether p trains on row i of its batch: a Binary target
// other than 0, a Multiclass target other than NotUsed, every Regression
// row.
func (p Problem) Uses(i int) bool {
	switch p.Kind {
	case Binary:
		return p.Targets[i] != 0
	case Multiclass:
		return p.Targets[i] != NotUsed
	}
	return true
}

// classesToWire and classesFromWire own the one place where class indices
// are not 0..K−1: a Multiclass problem's targets travel as 1..K with 0 for
// a row not used (protocol v1, see plugin.proto), which Go code never sees.
// Other kinds' targets are returned as they are.
func classesToWire(k ProblemKind, targets []float64) []float64 {
	return shiftClasses(k, targets, 1)
}

func classesFromWire(k ProblemKind, targets []float64) []float64 {
	return shiftClasses(k, targets, -1)
}

func shiftClasses(k ProblemKind, targets []float64, by float64) []float64 {
	if k != Multiclass || targets == nil {
		return targets
	}
	out := make([]float64, len(targets))
	for i, t := range targets {
		out[i] = t + by
	}
	return out
}
