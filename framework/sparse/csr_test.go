package sparse

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestCSR(t *testing.T) {
	// [[1 0 2]
	//  [0 0 0]
	//  [0 3 0]]
	m := &CSR{Rows: 3, Cols: 3, Indptr: []int64{0, 2, 2, 3}, Indices: []int32{0, 2, 1}, Values: []float64{1, 2, 3}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if m.At(0, 2) != 2 || m.At(1, 1) != 0 || m.At(2, 1) != 3 || m.NNZ() != 3 {
		t.Fatal("At or NNZ wrong")
	}
	if got, want := m.ToDense(), mat.NewDense(3, 3, []float64{1, 0, 2, 0, 0, 0, 0, 3, 0}); !mat.Equal(got, want) {
		t.Fatalf("ToDense = %v, want %v", mat.Formatted(got), mat.Formatted(want))
	}
	if r, c := (&CSR{Rows: 0, Cols: 4, Indptr: []int64{0}}).ToDense().Dims(); r != 0 || c != 0 {
		t.Fatalf("ToDense of a 0×4 matrix has dims %d×%d", r, c)
	}
	dst := make([]float64, 3)
	m.MulVec(dst, []float64{1, 10, 100})
	if dst[0] != 201 || dst[1] != 0 || dst[2] != 30 {
		t.Fatalf("MulVec = %v, want [201 0 30]", dst)
	}
	for _, tt := range []struct {
		m    CSR
		want string
	}{
		{CSR{Rows: 1, Cols: 2, Indptr: []int64{0}}, "indptr has 1 entries"},
		{CSR{Rows: 1, Cols: 2, Indptr: []int64{0, 2}, Indices: []int32{1, 0}, Values: []float64{1, 1}}, "out of order"},
		{CSR{Rows: 1, Cols: 2, Indptr: []int64{0, 1}, Indices: []int32{2}, Values: []float64{1}}, "out of order or range"},
		{CSR{Rows: 1, Cols: 2, Indptr: []int64{0, 2}, Indices: []int32{0}, Values: []float64{1}}, "do not match"},
	} {
		if err := tt.m.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Validate(%+v) = %v, want %q", tt.m, err, tt.want)
		}
	}
}
