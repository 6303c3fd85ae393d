// Package softplus computes the logistic loss of many margins at once:
// for a margin t, e = exp(−|t|) and l = log(1 + exp(−t)), without
// overflow, the two quantities a logistic regression solver needs of every
// row at every iterate.
//
// Eval runs four margins at a time in assembly on amd64 processors with
// AVX2 and FMA, and in Go elsewhere (and for the margins left over), with
// the same operations in the same order, so the results are the same bits
// on every machine with IEEE-754 fused multiply-add. Loss runs eight at a
// time where the processor also has AVX-512 (the same operations on each
// margin, the terms summed in the same order).
//
// # Method
//
// exp(x), x = −|t| clamped to −746 (below which exp(x) rounds to 0), with
// Cody and Waite's reduction: k = round(x·log₂e), r = x − k·ln2 in two fma
// steps (ln2 split in fdlibm's hi and lo parts), exp(r) by its Taylor
// polynomial of degree 13 in Horner form with fma (|r| ≤ 0.347, so the
// truncation error is below 5e-18 relatively), scaled by 2^⌊k/2⌋·2^(k−⌊k/2⌋),
// two exact scalings but for the last, which may round into the subnormal
// range.
//
// log1p(e), 0 ≤ e ≤ 1, as fdlibm's log1p (the algorithm of Go's
// math.Log1p, whose coefficients Lp1…Lp7 it uses): f = e when
// e < √2 − 1, else f = (1 + e)/2 − 1 with k = 1 and the rounding error of
// 1 + e as correction c; then s = f/(2 + f), z = s², R = z·P(z) (Horner
// with fma) and log1p(e) = k·ln2_hi − ((f²/2 − (s·(f²/2 + R) + (k·ln2_lo +
// c))) − f).
//
// Both are within about one unit in the last place of math.Exp and
// math.Log1p (TestAccuracy measures it); l = log1p(e) + max(−t, 0).
package softplus
