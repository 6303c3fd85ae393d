package kernelsvm

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// evaluator computes training kernel values between rows of one Data as
// LIBSVM's Kernel class does: through the rows' dot product and, for the
// rbf kernel, their squared norms computed once. For a dense design it
// holds the rows of each row group transposed, so that a row's dot
// products with a whole group take d vector operations (one per column)
// instead of one chain of additions per row; each sum still adds the
// products column by column, as LIBSVM's dot.
type evaluator struct {
	kern   Kernel
	x      *Data
	sq     []float64 // ‖x_i‖², rbf only
	groups *rowGroups
	// xt[g] holds group g's rows transposed: column c of the design at
	// xt[g][c·n_g:(c+1)·n_g]; nil for a sparse design.
	xt [][]float64
}

func newEvaluator(k Kernel, x *Data, groups *rowGroups) *evaluator {
	e := &evaluator{kern: k, x: x, groups: groups}
	if k.Type == RBF {
		e.sq = make([]float64, x.n)
		for i := range e.sq {
			ia, va := x.row(i)
			e.sq[i] = dotRows(ia, va, ia, va)
		}
	}
	if !x.Sparse() {
		e.xt = make([][]float64, len(groups.members))
		for g, rows := range groups.members {
			n := len(rows)
			t := make([]float64, x.d*n)
			for p, r := range rows {
				_, v := x.row(r)
				for c, f := range v {
					t[c*n+p] = f
				}
			}
			e.xt[g] = t
		}
	}
	return e
}

// at returns K(x_i, x_j).
func (e *evaluator) at(i, j int) float64 {
	ia, va := e.x.row(i)
	ib, vb := e.x.row(j)
	return e.value(dotRows(ia, va, ib, vb), i, j)
}

// value returns the kernel value of rows i and j from their dot product.
func (e *evaluator) value(dot float64, i, j int) float64 {
	if e.sq != nil { // rbf
		return math.Exp(-e.kern.Gamma * (e.sq[i] + e.sq[j] - 2*dot))
	}
	return e.kern.fromDot(dot, 0, 0)
}

// groupDots sets dst[p] = x_r·x_s for each row s = members[g][p]; the
// design is dense.
func (e *evaluator) groupDots(dst []float64, r, g int) {
	clear(dst)
	_, v := e.x.row(r)
	t, n := e.xt[g], len(dst)
	// In chunks of rows, so that a chunk's sums stay in the first-level
	// cache while the columns are added to them.
	const chunk = 512
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		d := dst[lo:hi]
		for c, f := range v {
			floats.AddScaled(d, f, t[c*n+lo:c*n+hi])
		}
	}
}

// block sets dst[p] = float32(K(x_r, x_s)) for each row s = members[g][p],
// with buf as scratch of the group's size.
func (e *evaluator) block(dst []float32, buf []float64, r, g int) {
	rows := e.groups.members[g]
	if e.xt == nil {
		e.column32(dst, r, rows)
		return
	}
	e.groupDots(buf, r, g)
	e.fromDots(dst, buf, r, rows)
}

// fromDots sets dst[p] = float32(K(x_r, x_rows[p])) from the dot products
// dots[p].
func (e *evaluator) fromDots(dst []float32, dots []float64, r int, rows []int) {
	switch e.kern.Type {
	case RBF:
		sqr, sq, g := e.sq[r], e.sq, -e.kern.Gamma
		for p, s := range rows {
			dst[p] = float32(expNeg(g, sqr+sq[s]-2*dots[p]))
		}
	case Linear:
		for p, d := range dots {
			dst[p] = float32(d)
		}
	default:
		for p, d := range dots {
			dst[p] = float32(e.kern.fromDot(d, 0, 0))
		}
	}
}

// column32 sets dst[k] = float32(K(x_r, x_rows[k])), row by row; on a
// dense design four dot products at a time, so that their chains of
// additions, each in column order, overlap.
func (e *evaluator) column32(dst []float32, r int, rows []int) { column(e, dst, r, rows) }

// column64 is column32 in float64.
func (e *evaluator) column64(dst []float64, r int, rows []int) { column(e, dst, r, rows) }

// column sets dst[k] = K(x_r, x_rows[k]) rounded to T (see column32).
func column[T float32 | float64](e *evaluator, dst []T, r int, rows []int) {
	ia, va := e.x.row(r)
	if ia != nil {
		for k, s := range rows {
			ib, vb := e.x.row(s)
			dst[k] = T(e.value(dotRows(ia, va, ib, vb), r, s))
		}
		return
	}
	d, stride, data := e.x.d, e.x.stride, e.x.dense
	k := 0
	for ; k+4 <= len(rows); k += 4 {
		y0 := data[rows[k]*stride:][:d]
		y1 := data[rows[k+1]*stride:][:d]
		y2 := data[rows[k+2]*stride:][:d]
		y3 := data[rows[k+3]*stride:][:d]
		var s0, s1, s2, s3 float64
		for c, v := range va {
			s0 += v * y0[c]
			s1 += v * y1[c]
			s2 += v * y2[c]
			s3 += v * y3[c]
		}
		dst[k] = T(e.value(s0, r, rows[k]))
		dst[k+1] = T(e.value(s1, r, rows[k+1]))
		dst[k+2] = T(e.value(s2, r, rows[k+2]))
		dst[k+3] = T(e.value(s3, r, rows[k+3]))
	}
	for ; k < len(rows); k++ {
		y := data[rows[k]*stride:][:d]
		var s float64
		for c, v := range va {
			s += v * y[c]
		}
		dst[k] = T(e.value(s, r, rows[k]))
	}
}
