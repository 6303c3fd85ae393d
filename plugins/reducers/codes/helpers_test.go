package codes

import (
	"math"
	"testing"
)

// mustRows builds a matrix from rows or fails the test.
func mustRows(t testing.TB, rows [][]float64) *Matrix {
	t.Helper()
	m, err := FromRows(rows)
	if err != nil {
		t.Fatalf("FromRows: %v", err)
	}
	return m
}

// must returns a function unwrapping (m, err) or failing the test:
// must(t)(OVA(3)).
func must(t testing.TB) func(*Matrix, error) *Matrix {
	return func(m *Matrix, err error) *Matrix {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
}

// decode runs the named decoder on one score row.
func decode(t testing.TB, name string, m *Matrix, s []float64) ([]float64, int, bool) {
	t.Helper()
	dec, err := NewDecoder(name, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	K, _ := m.Dims()
	dst := make([]float64, K)
	c, tie := dec.Decode(dst, s)
	return dst, c, tie
}

// neg returns −v.
func neg(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = -x
	}
	return out
}

// assertClose checks got against want to within tol.
func assertClose(t testing.TB, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d values %v, want %d %v", what, len(got), got, len(want), want)
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol {
			t.Errorf("%s[%d] = %.6g, want %.6g (all: %v)", what, i, got[i], want[i], got)
		}
	}
}

// matrixOf returns the entries of m as rows of int8 for comparisons.
func matrixOf(m *Matrix) [][]int8 {
	K, _ := m.Dims()
	out := make([][]int8, K)
	for k := range out {
		out[k] = m.Row(k)
	}
	return out
}
