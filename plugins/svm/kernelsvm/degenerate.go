package kernelsvm

import (
	"math"
	"slices"
)

// degenerateTol is the spread of off-diagonal kernel values, relative to
// the largest kernel value read, under which degenerate calls a kernel
// matrix degenerate.
const degenerateTol = 1e-12

// degeneratePairs bounds the pairs of rows degenerate reads: a kernel
// matrix whose first degeneratePairs off-diagonal values are all alike
// is taken to be degenerate. A matrix that is not degenerate shows it
// within a few pairs, so the bound only costs time on a degenerate one.
const degeneratePairs = 1 << 20

// degenerateMinPairs is the fewest pairs of distinct rows on which
// degenerate calls a kernel matrix degenerate: the one value of two rows
// (or of a row and its duplicates) says nothing of the kernel.
const degenerateMinPairs = 3

// degenerate reports whether the kernel matrix of k on the rows of x is
// degenerate: every off-diagonal value K(xᵢ, xⱼ) of two rows with
// different values the same up to degenerateTol times the largest value
// read (up to degeneratePairs pairs, row by row in the order of rows; at
// least degenerateMinPairs of them). Duplicated rows are left out, as
// their value is the diagonal's (1 for rbf). Such a kernel cannot tell the
// rows apart: rbf with a gamma that makes exp(−γ‖xᵢ − xⱼ‖²) underflow
// to 0 for every pair (the kernel matrix is the identity), sigmoid with a
// coef0 or gamma that saturates tanh to ±1, poly of degree 0 or with a
// coef0 that swamps γ·xᵢ·xⱼ. The model trained on it gives every row
// unlike its training rows one decision value: a constant model. A
// linear kernel, fewer than degenerateMinPairs pairs of distinct rows or
// a non-finite value is never degenerate
// (the solver reports non-finite values itself).
func degenerate(k *Kernel, x *Data, rows []int) bool {
	if k.Type == Linear {
		return false
	}
	lo, hi, scale := math.Inf(1), math.Inf(-1), 0.0
	pairs := 0
	for a, i := range rows {
		ia, va := x.row(i)
		scale = max(scale, math.Abs(k.value(ia, va, ia, va)))
		for _, j := range rows[a+1:] {
			ib, vb := x.row(j)
			if slices.Equal(ia, ib) && slices.Equal(va, vb) {
				continue
			}
			v := k.value(ia, va, ib, vb)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
			lo, hi, scale = min(lo, v), max(hi, v), max(scale, math.Abs(v))
			if hi-lo > degenerateTol*scale {
				return false
			}
			if pairs++; pairs >= degeneratePairs {
				return true
			}
		}
	}
	return pairs >= degenerateMinPairs
}
