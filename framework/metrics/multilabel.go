package metrics

import "gonum.org/v1/gonum/mat"

// labelScores returns the per-label ClassScore of a multi-label fold.
func labelScores(trueSet, predSet mat.Matrix) []ClassScore {
	n, K := trueSet.Dims()
	s := make([]ClassScore, K)
	for k := 0; k < K; k++ {
		var tp, fp, fn float64
		for i := 0; i < n; i++ {
			y, z := trueSet.At(i, k) == 1, predSet.At(i, k) == 1
			switch {
			case y && z:
				tp++
			case z:
				fp++
			case y:
				fn++
			}
		}
		s[k] = newClassScore(tp, fp, fn)
	}
	return s
}

// exampleBased averages f(|Y∩Z|, |Y|, |Z|) over rows; f also reports whether
// the row's value was a zero-division case, which is counted.
func exampleBased(in *Input, f func(inter, yn, zn float64) (float64, bool)) (float64, int) {
	n, K := in.TrueSet.Dims()
	var sum float64
	warn := 0
	for i := 0; i < n; i++ {
		var inter, yn, zn float64
		for k := 0; k < K; k++ {
			y, z := in.TrueSet.At(i, k), in.PredSet.At(i, k)
			inter += y * z
			yn += y
			zn += z
		}
		v, undefined := f(inter, yn, zn)
		if undefined {
			warn++
		}
		sum += v
	}
	return sum / float64(n), warn
}

// hammingLoss is the fraction of wrongly predicted (row, label) cells.
func hammingLoss(in *Input) (float64, int) {
	n, K := in.TrueSet.Dims()
	var diff float64
	for i := 0; i < n; i++ {
		for k := 0; k < K; k++ {
			if in.TrueSet.At(i, k) != in.PredSet.At(i, k) {
				diff++
			}
		}
	}
	return diff / float64(n*K), 0
}

// subsetAccuracy is the fraction of rows predicted exactly.
func subsetAccuracy(in *Input) (float64, int) {
	n, K := in.TrueSet.Dims()
	var ok float64
	for i := 0; i < n; i++ {
		same := true
		for k := 0; k < K && same; k++ {
			same = in.TrueSet.At(i, k) == in.PredSet.At(i, k)
		}
		if same {
			ok++
		}
	}
	return ok / float64(n), 0
}
