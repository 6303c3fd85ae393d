package conformance

import (
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/framework/sparse"
)

// BlobsMatrix is a separable 3-class problem: 4 rows per class around
// (0,0), (4,0) and (0,4). It returns the design and the classes 0..2.
func BlobsMatrix() (*mat.Dense, []int) {
	x := mat.NewDense(12, 2, []float64{
		0, 0, 0.5, 0.2, -0.3, 0.4, 0.2, -0.5,
		4, 0, 4.4, 0.3, 3.7, -0.2, 4.1, 0.5,
		0, 4, 0.3, 4.4, -0.4, 3.8, 0.1, 4.2,
	})
	return x, []int{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}
}

// wideBlobs is BlobsMatrix spread over 5 columns (1, 2 and 4 all zero)
// plus a 13th row of zeros, dense and as CSR (the last row empty).
func wideBlobs() (*mat.Dense, *sparse.CSR, []int) {
	b, y := BlobsMatrix()
	d := mat.NewDense(13, 5, nil)
	for i := 0; i < 12; i++ {
		d.Set(i, 0, b.At(i, 0))
		d.Set(i, 3, b.At(i, 1))
	}
	c := &sparse.CSR{Rows: 13, Cols: 5, Indptr: make([]int64, 14)}
	for i := 0; i < 13; i++ {
		for j := 0; j < 5; j++ {
			if v := d.At(i, j); v != 0 {
				c.Indices = append(c.Indices, int32(j))
				c.Values = append(c.Values, v)
			}
		}
		c.Indptr[i+1] = int64(len(c.Values))
	}
	return d, c, y
}

// noisy is an n × d Gaussian design with labels 0/1 from a planted
// hyperplane, a fraction of them flipped (seeded: the same data every
// time). With nonce, entry (0,0) carries the clock, so that the matrix's
// digest is new to the plugin.
func noisy(n, d int, flip float64, seed uint64, nonce bool) (*mat.Dense, []int) {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	w := make([]float64, d)
	for j := range w {
		w[j] = r.NormFloat64()
	}
	x := mat.NewDense(n, d, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		row := x.RawRowView(i)
		var s float64
		for j := range row {
			row[j] = r.NormFloat64()
			s += row[j] * w[j]
		}
		if s > 0 {
			y[i] = 1
		}
		if r.Float64() < flip {
			y[i] = 1 - y[i]
		}
	}
	if nonce {
		x.Set(0, 0, float64(time.Now().UnixNano()%1_000_000)/1e6)
	}
	return x, y
}

// binaryProblem is "class pos against the rest" of labels y: ±1 targets.
func binaryProblem(y []int, pos int) sdk.Problem {
	t := make([]float64, len(y))
	for i, k := range y {
		t[i] = -1
		if k == pos {
			t[i] = 1
		}
	}
	return sdk.Problem{Kind: sdk.Binary, Targets: t}
}

// pairProblem is "class a against class b" of labels y: the rows of other
// classes get target 0 (not used).
func pairProblem(y []int, a, b int) sdk.Problem {
	t := make([]float64, len(y))
	for i, k := range y {
		switch k {
		case a:
			t[i] = 1
		case b:
			t[i] = -1
		}
	}
	return sdk.Problem{Kind: sdk.Binary, Targets: t}
}

// multiclassProblem is labels y (0..k−1) as one native problem.
func multiclassProblem(y []int, k int) sdk.Problem {
	t := make([]float64, len(y))
	for i, c := range y {
		t[i] = float64(c)
	}
	return sdk.Problem{Kind: sdk.Multiclass, Targets: t, NumClasses: k}
}

// regressionProblem regresses on ±1 from labels y (0/1 or 0..k−1: class
// 0 is −1).
func regressionProblem(y []int) sdk.Problem {
	p := binaryProblem(y, 0)
	for i := range p.Targets {
		p.Targets[i] = -p.Targets[i]
	}
	p.Kind = sdk.Regression
	return p
}

// problemFor is labels y (0/1) as a problem of a kind the learner trains:
// binary if it can, else a 2-class multiclass problem, else regression.
func problemFor(c sdk.Capabilities, y []int) sdk.Problem {
	switch {
	case c.Binary:
		return binaryProblem(y, 1)
	case c.Multiclass:
		return multiclassProblem(y, 2)
	}
	return regressionProblem(y)
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func argmax(row []float64) int {
	best := 0
	for j := range row {
		if row[j] > row[best] {
			best = j
		}
	}
	return best
}

// decisions are the rows' decisions: the sign of a single column, else the
// largest column.
func decisions(m *mat.Dense) []int {
	r, c := m.Dims()
	out := make([]int, r)
	for i := 0; i < r; i++ {
		if c == 1 {
			if m.At(i, 0) > 0 {
				out[i] = 1
			}
			continue
		}
		out[i] = argmax(m.RawRowView(i))
	}
	return out
}

// finite reports the first entry of m that is NaN or infinite.
func finite(m *mat.Dense) (i, j int, ok bool) {
	if m == nil {
		return 0, 0, true
	}
	r, c := m.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if v := m.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return i, j, false
			}
		}
	}
	return 0, 0, true
}
