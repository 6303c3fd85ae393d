package logistic

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// covertypeLike returns an n×54 dense design shaped like covertype after
// standardize → one-hot (10 standard normal columns, then one-hot groups
// of 4 and 40 columns) and k one-vs-rest-like problems on it (labels from
// noisy linear rules).
func covertypeLike(n, k int) (*DenseDesign, []BatchProblem) {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	x := mat.NewDense(n, 54, nil)
	for i := range n {
		row := x.RawRowView(i)
		for j := range 10 {
			row[j] = rng.NormFloat64()
		}
		row[10+rng.IntN(4)] = 1
		row[14+rng.IntN(40)] = 1
	}
	probs := make([]BatchProblem, k)
	for c := range probs {
		w := make([]float64, 54)
		for j := range w {
			w[j] = rng.NormFloat64()
		}
		probs[c].Y = make([]float64, n)
		for i := range n {
			probs[c].Y[i] = -1
			if mat.Dot(x.RowView(i), mat.NewVecDense(54, w))+2*rng.NormFloat64() > 1 {
				probs[c].Y[i] = 1
			}
		}
	}
	return NewDense(x), probs
}

// BenchmarkCovertypeLikeBatch fits 3 problems on covertype-like dense
// designs of growing height as one batch (C = 1); ns/row is the time per
// row and problem, which linear scaling needs flat (the iterations grow
// a little with the height too: see products/problem).
func BenchmarkCovertypeLikeBatch(b *testing.B) {
	for _, n := range []int{20000, 80000, 320000} {
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			x, probs := covertypeLike(n, 3)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := FitBatch(context.Background(), x, probs, Options{C: 1}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n*len(probs)), "ns/row")
		})
	}
}

// BenchmarkHessVec compares the data part of one Hessian-vector product in
// two passes over the rows with the design's own methods (MulVec, weights,
// MulVecTrans: gonum's Gemv) with the batch's dense runner (the blockmul
// kernel, one problem in a panel of 4 lanes), on covertype-like dense
// designs; ns/row is the time per row.
func BenchmarkHessVec(b *testing.B) {
	for _, n := range []int{20000, 80000, 320000} {
		x, _ := covertypeLike(n, 0)
		v, dd := make([]float64, 54), make([]float64, n)
		for j := range v {
			v[j] = float64(j%7) - 3
		}
		for i := range dd {
			dd[i] = 0.25 / float64(1+i%5)
		}
		dst, tmp := make([]float64, 54), make([]float64, n)
		run := productRunner(x, 1)
		for _, kernel := range []bool{false, true} {
			b.Run(fmt.Sprintf("rows=%d/kernel=%v", n, kernel), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if kernel {
						run([]*product{{op: opHessVec, dst: dst, src: v, tmp: tmp, dd: dd, vb: 0.5}})
					} else {
						hessVec(x, dst, tmp, v, dd, 0.5)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/row")
			})
		}
	}
}

// BenchmarkHessVecCSR is BenchmarkHessVec (the batch's runner) on a
// diabetes-like CSR design of 80 000 rows.
func BenchmarkHessVecCSR(b *testing.B) {
	const n = 80000
	x := NewCSR(reftest.DiabetesLike(n))
	_, d := x.Dims()
	v, dd := make([]float64, d), make([]float64, n)
	for j := range v {
		v[j] = float64(j%7) - 3
	}
	for i := range dd {
		dd[i] = 0.25 / float64(1+i%5)
	}
	dst, tmp := make([]float64, d), make([]float64, n)
	run := productRunner(x, 1)
	b.ReportAllocs()
	for b.Loop() {
		run([]*product{{op: opHessVec, dst: dst, src: v, tmp: tmp, dd: dd, vb: 0.5}})
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/row")
}

// BenchmarkSparseForm converts a covertype-like dense design of 320 000
// rows to sparse form (the batch does it once per fit), and a dense one
// (every entry non-zero, where the conversion gives up); ns/row is the
// time per row.
func BenchmarkSparseForm(b *testing.B) {
	for _, bm := range []struct {
		name   string
		design func() *mat.Dense
	}{
		{"covertype-like", func() *mat.Dense { x, _ := covertypeLike(320000, 1); return denseOf(x) }},
		{"dense", func() *mat.Dense {
			full := mat.NewDense(320000, 54, nil)
			for i := range 320000 {
				for j := range 54 {
					full.Set(i, j, float64(i%7+j%5)+0.5)
				}
			}
			return full
		}},
	} {
		b.Run(bm.name, func(b *testing.B) {
			x := bm.design() // built only when this sub-benchmark runs
			b.ReportAllocs()
			for b.Loop() {
				NewDense(x).sparseForm()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/320000, "ns/row")
		})
	}
}
