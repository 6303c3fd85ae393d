package encode

import (
	"fmt"
	"testing"
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
