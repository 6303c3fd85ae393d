package blockmul

import "fmt"

// Lanes is the granularity of a panel of more than one vector: its width w
// is a multiple of Lanes. A single vector has a panel of width 1.
const Lanes = 4

// Width returns the panel width for k vectors: 1 for one vector, else k
// rounded up to a multiple of Lanes.
func Width(k int) int {
	if k == 1 {
		return 1
	}
	return (k + Lanes - 1) / Lanes * Lanes
}

// Mul sets t[r·w+c] = Σⱼ x[r·stride+j]·v[j·w+c] for r < rows and c < w, in
// the order the package documentation gives.
func Mul(t, x []float64, stride, rows, d int, v []float64, w int) {
	check("Mul", x, stride, rows, d, w)
	need("Mul", "v", v, d*w)
	need("Mul", "t", t, rows*w)
	if rows == 0 || w == 0 {
		return
	}
	switch {
	case !useAsm || d == 0:
		mulGo(t, x, stride, rows, d, v, w)
	case w == 1:
		mul1Asm(&t[0], &x[0], stride, rows, d, &v[0])
	default:
		mulAsm(&t[0], &x[0], stride, rows, d, &v[0], w)
	}
}

// AddTrans adds Σᵣ x[r·stride+j]·t[r·w+c] to h[j·w+c] for j < d and c < w,
// one fma per row in row order.
func AddTrans(h, x []float64, stride, rows, d int, t []float64, w int) {
	addTrans("AddTrans", h, x, stride, rows, d, t, w, false)
}

// AddTransSq adds Σᵣ x[r·stride+j]²·t[r·w+c] to h[j·w+c] for j < d and
// c < w, one fma per row in row order, the square rounded first.
func AddTransSq(h, x []float64, stride, rows, d int, t []float64, w int) {
	addTrans("AddTransSq", h, x, stride, rows, d, t, w, true)
}

func addTrans(name string, h, x []float64, stride, rows, d int, t []float64, w int, sq bool) {
	check(name, x, stride, rows, d, w)
	need(name, "t", t, rows*w)
	need(name, "h", h, d*w)
	if rows == 0 || w == 0 || d == 0 {
		return
	}
	r4 := 0
	if useAsm {
		r4 = rows &^ 3
	}
	if r4 > 0 {
		switch {
		case w == 1 && sq:
			addTransSq1Asm(&h[0], &x[0], stride, r4, d, &t[0])
		case w == 1:
			addTrans1Asm(&h[0], &x[0], stride, r4, d, &t[0])
		case sq:
			addTransSqAsm(&h[0], &x[0], stride, r4, d, &t[0], w)
		default:
			addTransAsm(&h[0], &x[0], stride, r4, d, &t[0], w)
		}
	}
	if rows > r4 {
		addTransGo(h, x[r4*stride:], stride, rows-r4, d, t[r4*w:], w, sq)
	}
}

// Hess adds the data part of the Hessian-vector products of logistic
// problems: with u[r,c] = (Σⱼ x[r,j]·v[j,c] + vb[c])·dd[r,c] (the sum as
// in Mul, then one addition and one multiplication, each rounded), it
// adds u[r,c] to hb[c] row after row and Σᵣ x[r,j]·u[r,c] to h[j·w+c] (as
// AddTrans). dd is a rows×w panel of row weights, vb holds w offsets and
// t, a rows×w panel, is scratch that ends holding u.
func Hess(h, hb, t, x []float64, stride, rows, d int, v []float64, w int, dd, vb []float64) {
	check("Hess", x, stride, rows, d, w)
	need("Hess", "v", v, d*w)
	need("Hess", "h", h, d*w)
	need("Hess", "hb", hb, w)
	need("Hess", "vb", vb, w)
	need("Hess", "dd", dd, rows*w)
	need("Hess", "t", t, rows*w)
	if rows == 0 || w == 0 {
		return
	}
	switch {
	case !useAsm || d == 0:
		mulGo(t, x, stride, rows, d, v, w)
		scaleGo(t, rows, w, dd, vb, hb)
	case w == 1:
		mulScale1Asm(&t[0], &x[0], stride, rows, d, &v[0], &dd[0], vb[0], &hb[0])
	default:
		mulScaleAsm(&t[0], &x[0], stride, rows, d, &v[0], w, &dd[0], &vb[0], &hb[0])
	}
	addTrans("Hess", h, x, stride, rows, d, t, w, false)
}

// Scale sets t[r·w+c] = (t[r·w+c] + vb[c])·dd[r·w+c] for r < rows and
// c < w, the sum and the product each rounded, and adds each new t[r·w+c]
// to hb[c], row after row: the weighting step of Hess, in Go, for the
// products computed elsewhere (package sparsemul's, without assembly).
func Scale(t []float64, rows, w int, dd, vb, hb []float64) {
	need("Scale", "t", t, rows*w)
	need("Scale", "dd", dd, rows*w)
	need("Scale", "vb", vb, w)
	need("Scale", "hb", hb, w)
	scaleGo(t, rows, w, dd, vb, hb)
}

// check panics unless the block and the width are consistent.
func check(name string, x []float64, stride, rows, d, w int) {
	if rows < 0 || d < 0 || stride < d || w < 0 || w != 1 && w%Lanes != 0 {
		panic(fmt.Sprintf("blockmul.%s: bad shape: rows %d, d %d, stride %d, w %d", name, rows, d, stride, w))
	}
	if rows > 0 && len(x) < (rows-1)*stride+d {
		panic(fmt.Sprintf("blockmul.%s: x has %d entries, want %d", name, len(x), (rows-1)*stride+d))
	}
}

// need panics when a slice is shorter than n.
func need(name, arg string, s []float64, n int) {
	if len(s) < n {
		panic(fmt.Sprintf("blockmul.%s: %s has %d entries, want %d", name, arg, len(s), n))
	}
}
