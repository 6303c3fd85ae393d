package encode

import (
	"fmt"
	"testing"

	"github.com/polyclass/polyclass/framework/sparse"
)

// BenchmarkDenseDesign builds the dense design of a frame of 54 numeric
// columns and 400 000 rows (covertype after standardize and a one-hot of
// few levels, at the largest size of make bench's scaling runs).
func BenchmarkDenseDesign(b *testing.B) {
	const rows, cols = 400000, 54
	f := &Frame{Rows: rows}
	for j := range cols {
		vals := make([]float64, rows)
		for i := range vals {
			vals[i] = float64((i*31+j)%7) - 3
		}
		f.Num = append(f.Num, NumCol{Name: fmt.Sprintf("c%d", j), Vals: vals})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := f.Design(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCovertypeOneHot one-hot encodes a covertype-like frame (400 000
// rows, 10 numeric columns, categorical columns of 4 and 40 levels) and
// builds its design, a CSR matrix (its density, 12/54, is under
// SparseDensity): as a pipeline's last step (a sparse block of
// indicators) and as a step that others follow (dense indicator columns,
// which Design turns into the same CSR matrix).
func BenchmarkCovertypeOneHot(b *testing.B) {
	const rows = 400000
	f := &Frame{Rows: rows}
	for j := range 10 {
		vals := make([]float64, rows)
		for i := range vals {
			vals[i] = float64((i*31+j)%7) - 3
		}
		f.Num = append(f.Num, NumCol{Name: fmt.Sprintf("x%d", j), Vals: vals})
	}
	for _, k := range []int{4, 40} {
		c := CatCol{Name: fmt.Sprintf("c%d", k), Codes: make([]int32, rows)}
		for l := range k {
			c.Levels = append(c.Levels, fmt.Sprintf("l%02d", l))
		}
		for i := range c.Codes {
			c.Codes[i] = int32((i * 7) % k)
		}
		f.Cat = append(f.Cat, c)
	}
	train := make([]int, rows*4/5)
	for i := range train {
		train[i] = i
	}
	for _, last := range []bool{true, false} {
		b.Run(map[bool]string{true: "last", false: "not-last"}[last], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				out, err := (&OneHot{}).FitTransform(f, &Context{Train: train, Last: last})
				if err != nil {
					b.Fatal(err)
				}
				if m, _, err := out.Design(); err != nil || m.CSR == nil {
					b.Fatalf("design CSR %v, %v", m.CSR != nil, err)
				}
			}
		})
	}
}

// TestDesignShape: DesignShape gives the width and the form of the matrix
// Design assembles: dense, CSR with a sparse block, CSR below SparseDensity
// non-zeros (3 non-zeros of 10 entries stay dense, 2 go CSR).
func TestDesignShape(t *testing.T) {
	csr := &sparse.CSR{Rows: 2, Cols: 3, Indptr: []int64{0, 1, 1}, Indices: []int32{2}, Values: []float64{1}}
	for _, tt := range []struct {
		name string
		f    *Frame
		cols int
		csr  bool
	}{
		{"dense", &Frame{Rows: 2, Num: []NumCol{{"a", []float64{1, 2}}, {"b", []float64{0, 3}}}}, 2, false},
		{"at the density", &Frame{Rows: 10, Num: []NumCol{{"a", []float64{1, 1, 1, 0, 0, 0, 0, 0, 0, 0}}}}, 1, false},
		{"below the density", &Frame{Rows: 10, Num: []NumCol{{"a", []float64{1, 1, 0, 0, 0, 0, 0, 0, 0, 0}}}}, 1, true},
		{"sparse block", &Frame{Rows: 2, Num: []NumCol{{"a", []float64{1, 2}}}, Sparse: []SparseBlock{{Names: []string{"x", "y", "z"}, M: csr}}}, 4, true},
	} {
		cols, isCSR := tt.f.DesignShape()
		m, fn, err := tt.f.Design()
		names := fn.List()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if cols != tt.cols || isCSR != tt.csr || len(names) != cols || (m.CSR != nil) != isCSR {
			t.Errorf("%s: DesignShape %d, %v; want %d, %v; Design made %d columns, CSR %v", tt.name, cols, isCSR, tt.cols, tt.csr, len(names), m.CSR != nil)
		}
	}
}
