package logistic

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Decision sets dst[i] = w·xᵢ + b for every row of x and returns dst. If dst
// is nil a new slice is allocated; otherwise it must have one entry per row.
func (r *Result) Decision(dst []float64, x Design) []float64 {
	n, d := x.Dims()
	if d != len(r.W) {
		panic(fmt.Sprintf("logistic: design has %d columns, model %d", d, len(r.W)))
	}
	if dst == nil {
		dst = make([]float64, n)
	}
	if len(dst) != n {
		panic(fmt.Sprintf("logistic: dst has %d entries for %d rows", len(dst), n))
	}
	x.MulVec(dst, r.W)
	for i := range dst {
		dst[i] += r.B
	}
	return dst
}

// Probability sets dst[i] = P(y=+1|xᵢ) = σ(w·xᵢ + b) for every row of x and
// returns dst, with the same dst conventions as Decision.
func (r *Result) Probability(dst []float64, x Design) []float64 {
	dst = r.Decision(dst, x)
	for i, v := range dst {
		dst[i] = sigmoid(v)
	}
	return dst
}

// Decision sets dst (n×K) to the class scores wₖ·xᵢ + bₖ and returns it. A
// nil or empty dst is allocated; otherwise it must be n×K.
func (r *SoftmaxResult) Decision(dst *mat.Dense, x Design) *mat.Dense {
	n, d := x.Dims()
	k, rd := r.W.Dims()
	if d != rd {
		panic(fmt.Sprintf("logistic: design has %d columns, model %d", d, rd))
	}
	if dst == nil {
		dst = mat.NewDense(n, k, nil)
	} else if dst.IsEmpty() {
		dst.ReuseAs(n, k)
	} else if dn, dk := dst.Dims(); dn != n || dk != k {
		panic(fmt.Sprintf("logistic: dst is %d×%d, want %d×%d", dn, dk, n, k))
	}
	raw := dst.RawMatrix()
	var tmp []float64
	if raw.Stride != k {
		// scores needs contiguous rows; go through a packed copy.
		packed := mat.NewDense(n, k, nil)
		r.Decision(packed, x)
		dst.Copy(packed)
		return dst
	}
	if _, ok := x.(matMuler); !ok {
		tmp = make([]float64, n)
	}
	w := r.W
	if wr := w.RawMatrix(); wr.Stride != d {
		w = mat.DenseCopyOf(w)
	}
	scores(raw.Data[:n*k], x, w.RawMatrix().Data[:k*d], r.B, tmp)
	return dst
}

// Probability sets dst (n×K) to the class probabilities P(k|xᵢ) (softmax of
// the scores, computed stably) and returns it, with the same dst
// conventions as Decision.
func (r *SoftmaxResult) Probability(dst *mat.Dense, x Design) *mat.Dense {
	dst = r.Decision(dst, x)
	n, _ := dst.Dims()
	for i := 0; i < n; i++ {
		softmaxRow(dst.RawRowView(i))
	}
	return dst
}
