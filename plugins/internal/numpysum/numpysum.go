// Package numpysum sums as NumPy does, so that plugins matching
// scikit-learn's numbers bit for bit add in NumPy's order.
package numpysum

// Pairwise is NumPy's pairwise summation of a contiguous array (what
// np.sum of a vector or along a row does): up to 7 values added in order
// from 0, up to 128 in eight interleaved partial sums, longer ones split
// in two at a multiple of 8.
func Pairwise(a []float64) float64 {
	n := len(a)
	switch {
	case n < 8:
		var s float64
		for _, v := range a {
			s += v
		}
		return s
	case n <= 128:
		var r [8]float64
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := range r {
				r[j] += a[i+j]
			}
		}
		s := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			s += a[i]
		}
		return s
	}
	n2 := n / 2
	n2 -= n2 % 8
	return Pairwise(a[:n2]) + Pairwise(a[n2:])
}
