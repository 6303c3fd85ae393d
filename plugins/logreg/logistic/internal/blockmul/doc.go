// Package blockmul multiplies a block of rows of a dense matrix by several
// vectors at once — the products of the binary problems of a batch that
// share one design — with fused multiply-adds in a fixed order.
//
// # Layout
//
// The vectors sit side by side in panels of w lanes, one lane per problem:
// a d×w panel V holds vector c in V[j·w+c] (j < d) and a rows×w panel T
// holds it in T[r·w+c]. w is 1 (one vector) or a multiple of 4; lanes
// beyond the problems in use are padding, which no other lane depends on.
// The matrix block x has rows rows of d entries, row r starting at
// x[r·stride].
//
// # Order of the arithmetic
//
// Every entry is computed with the same operations in the same order,
// whatever w, the lane it sits in, the values of the other lanes, the
// number of rows a call is given or the instructions that run it, so a
// problem gets the same bits alone as in any batch and on any machine with
// IEEE-754 fused multiply-add (math.FMA). With d₄ = d − d mod 4:
//
//	Mul:        sₖ = fma chain over the columns j < d₄ with j ≡ k (mod 4), from 0, in order (k = 0…3);
//	            t[r,c] = (s₀ + s₂) + (s₁ + s₃), then t = fma(x[r,j], v[j,c], t) for j = d₄, …, d−1
//	AddTrans:   h[j,c] = fma(x[r,j], t[r,c], h[j,c])            for r = 0, 1, …, rows−1
//	AddTransSq: h[j,c] = fma(x[r,j]·x[r,j], t[r,c], h[j,c])     for r = 0, 1, …
//	Hess:       u = (Mul's t[r,c] + vb[c])·dd[r,c]; hb[c] += u; then AddTrans with u
//
// The four partial sums of Mul let one vector's dot products run four
// columns at a time. A call continues the sums in h and hb, so a matrix
// processed block after block gives the bits of one call on the whole
// matrix.
//
// On amd64 processors with AVX2 and FMA the products run in assembly:
// several lanes at a time, or four columns at a time for one vector, the
// transpose products four rows at a time. Elsewhere, and for the last rows
// of a transpose product that are not a multiple of four, they run in Go
// with math.FMA.
package blockmul
