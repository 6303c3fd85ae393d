package neighbors

import (
	"encoding/csv"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/sparse"
	"github.com/polyclass/polyclass/internal/refdata"
	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// covertype returns covertype_50k as bench's standardize → one-hot
// pipeline makes it: the 10 numeric columns standardised over all rows,
// then one column per wilderness area and soil type (54 columns, 12
// non-zero a row), in CSR form, with the classes.
func covertype(b *testing.B) (*sparse.CSR, []int, int) {
	f, err := refdata.Open(refdata.Data(b, "covertype_50k.csv"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		b.Fatal(err)
	}
	recs = recs[1:]
	n := len(recs)
	num := mat.NewDense(n, 10, nil)
	var levels [2][]string
	var classes []string
	for i, r := range recs {
		for j := range 10 {
			v, err := strconv.ParseFloat(r[j], 64)
			if err != nil {
				b.Fatal(err)
			}
			num.Set(i, j, v)
		}
		levels[0] = append(levels[0], r[10])
		levels[1] = append(levels[1], r[11])
		classes = append(classes, r[12])
	}
	for k := range levels {
		levels[k] = slices.Compact(slices.Sorted(slices.Values(levels[k])))
	}
	classes = slices.Compact(slices.Sorted(slices.Values(classes)))
	all := reftest.Seq(n)
	z := reftest.Standardize(num, all, all)
	m := &sparse.CSR{Rows: n, Cols: 10 + len(levels[0]) + len(levels[1]), Indptr: make([]int64, n+1)}
	y := make([]int, n)
	for i, r := range recs {
		for j, v := range z.RawRowView(i) {
			m.Indices = append(m.Indices, int32(j))
			m.Values = append(m.Values, v)
		}
		off := 10
		for k := range levels {
			p, _ := slices.BinarySearch(levels[k], r[10+k])
			m.Indices = append(m.Indices, int32(off+p))
			m.Values = append(m.Values, 1)
			off += len(levels[k])
		}
		m.Indptr[i+1] = int64(len(m.Values))
		y[i], _ = slices.BinarySearch(classes, r[12])
	}
	return m, y, len(classes)
}

// rowsCSR returns rows lo..hi−1 of m.
func rowsCSR(m *sparse.CSR, lo, hi int) *sparse.CSR {
	base := m.Indptr[lo]
	out := &sparse.CSR{Rows: hi - lo, Cols: m.Cols, Indptr: make([]int64, hi-lo+1),
		Indices: m.Indices[base:m.Indptr[hi]], Values: m.Values[base:m.Indptr[hi]]}
	for i := range out.Indptr {
		out.Indptr[i] = m.Indptr[lo+i] - base
	}
	return out
}

// BenchmarkCovertypeFold fits the default classifier (k = 5, uniform,
// Euclidean: brute force on 54 columns) on the first 45,000 rows of
// covertype_50k and predicts the last 5,000: one fold of a 10-fold run.
func BenchmarkCovertypeFold(b *testing.B) {
	m, y, k := covertype(b)
	train, test := rowsCSR(m, 0, 45000), rowsCSR(m, 45000, 50000)
	votes := mat.NewDense(5000, k, nil)
	b.ResetTimer()
	for b.Loop() {
		c, err := Fit(matrix.Matrix{CSR: train}, y[:45000], k, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Predict(matrix.Matrix{CSR: test}, votes, nil); err != nil {
			b.Fatal(err)
		}
	}
}
