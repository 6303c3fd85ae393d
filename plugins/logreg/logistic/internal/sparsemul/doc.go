// Package sparsemul is the sparse counterpart of blockmul: it multiplies
// rows of a sparse matrix by panels of vectors (one lane per problem of a
// batch) with fused multiply-adds in a fixed order, the same whatever the
// lane, the panel's width or the instructions that run it.
//
// # Layout
//
// A Matrix keeps each row's entries in two runs: the valued entries (index
// and value, in column order) and then the unit entries, equal to 1, as
// indices alone (in column order). One-hot columns, most of the entries
// of an encoded design, so cost 4 bytes of memory traffic instead of 12,
// and no multiplication.
//
// Panels are those of blockmul: a d×w panel V holds vector c in V[j·w+c],
// a rows×w panel T holds it in T[r·w+c]; w is 1 or a multiple of 4.
//
// # Order of the arithmetic
//
// With nv valued entries (k < nv) and nu unit entries (j < nu) in row r,
// nv₄ = nv − nv mod 4 and nu₄ = nu − nu mod 4:
//
//	Mul:        sₘ = fma chain over the valued k < nv₄ with k ≡ m (mod 4), from 0, then
//	            sₘ += v[idx] over the unit j < nu₄ with j ≡ m (mod 4) (m = 0…3);
//	            t = (s₀ + s₂) + (s₁ + s₃), then t = fma(val, v[idx], t) over the valued k ≥ nv₄,
//	            then t += v[idx] over the unit j ≥ nu₄
//	AddTrans:   row after row, h[idx] = fma(val, t[r], h[idx]) over the valued entries,
//	            then h[idx] += t[r] over the unit entries
//	AddTransSq: the same with val·val (rounded) in place of val
//	Hess:       u = (Mul's t + vb)·dd[r]; hb += u; then AddTrans with u
//
// (a unit entry's fma(1, x, s) is s + x, so the unit runs add). On amd64
// processors with AVX2 and FMA the products run in assembly, four lanes at
// a time or one lane with four scalar chains; elsewhere in Go with
// math.FMA.
package sparsemul
