package kernelsvm

import "gonum.org/v1/gonum/floats"

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
	if e.sq != nil {
		return e.kern.fromDot(dot, e.sq[i], e.sq[j])
	}
	return e.kern.fromDot(dot, 0, 0)
}

// groupDots sets dst[p] = x_r·x_s for each row s = members[g][p]; the
// design is dense.
func (e *evaluator) groupDots(dst []float64, r, g int) {
	clear(dst)
	_, v := e.x.row(r)
	t, n := e.xt[g], len(dst)
	for c, f := range v {
		floats.AddScaled(dst, f, t[c*n:(c+1)*n])
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

// column32 sets dst[k] = float32(K(x_r, x_rows[k])), one row at a time.
func (e *evaluator) column32(dst []float32, r int, rows []int) {
	ia, va := e.x.row(r)
	for k, s := range rows {
		ib, vb := e.x.row(s)
		dst[k] = float32(e.value(dotRows(ia, va, ib, vb), r, s))
	}
}
