package codes

import (
	"fmt"
	"math"
)

// Pair is an ordered pair of indices A < B (of rows or of columns).
type Pair struct{ A, B int }

// Diagnostics summarises the quality of a code matrix. Distances are the
// Hamming distances between rows with a 0 in either row counting ½:
// d(r, s) = Σᵢ (1 − rᵢsᵢ)/2.
type Diagnostics struct {
	// K and L are the numbers of classes (rows) and problems (columns).
	K, L int
	// MinDistance and MeanDistance are the minimum and mean of d over the
	// K(K−1)/2 pairs of rows.
	MinDistance, MeanDistance float64
	// Correcting is the error-correcting capability ⌊(MinDistance − 1)/2⌋,
	// floored at 0: the number of wrong binary outputs Hamming decoding
	// always survives.
	Correcting int
	// ConstantColumns are the columns lacking a +1 or a −1 (not a binary
	// problem).
	ConstantColumns []int
	// DuplicateColumns are pairs of identical columns.
	DuplicateColumns []Pair
	// ComplementaryColumns are pairs of columns with c_B = −c_A (the same
	// problem with the labels swapped).
	ComplementaryColumns []Pair
	// IdenticalRows are pairs of classes with the same codeword.
	IdenticalRows []Pair
	// ZeroRows are classes whose row is all 0 (in no problem at all).
	ZeroRows []int
	// Unseparated are pairs of classes that no column puts on opposite
	// sides (includes IdenticalRows and pairs involving a ZeroRows class).
	Unseparated []Pair
}

// Diagnose computes the Diagnostics of m.
func Diagnose(m *Matrix) Diagnostics {
	K, L := m.k, m.l
	d := Diagnostics{K: K, L: L}
	for i := 0; i < L; i++ {
		if !hasBothSigns(m.Col(i)) {
			d.ConstantColumns = append(d.ConstantColumns, i)
		}
	}
	for a := 0; a < L; a++ {
		for b := a + 1; b < L; b++ {
			same, comp := true, true
			for k := 0; k < K; k++ {
				x, y := m.data[k*L+a], m.data[k*L+b]
				same = same && x == y
				comp = comp && x == -y
			}
			if same {
				d.DuplicateColumns = append(d.DuplicateColumns, Pair{a, b})
			}
			if comp {
				d.ComplementaryColumns = append(d.ComplementaryColumns, Pair{a, b})
			}
		}
	}
	for k := 0; k < K; k++ {
		zero := true
		for _, v := range m.data[k*L : (k+1)*L] {
			zero = zero && v == 0
		}
		if zero {
			d.ZeroRows = append(d.ZeroRows, k)
		}
	}
	d.MinDistance = math.Inf(1)
	var sum float64
	for a := 0; a < K; a++ {
		for b := a + 1; b < K; b++ {
			dot, sep, same := 0, false, true
			for i := 0; i < L; i++ {
				x, y := m.data[a*L+i], m.data[b*L+i]
				dot += int(x) * int(y)
				sep = sep || int(x)*int(y) < 0
				same = same && x == y
			}
			dist := float64(L-dot) / 2
			sum += dist
			d.MinDistance = min(d.MinDistance, dist)
			if same {
				d.IdenticalRows = append(d.IdenticalRows, Pair{a, b})
			}
			if !sep {
				d.Unseparated = append(d.Unseparated, Pair{a, b})
			}
		}
	}
	if K < 2 {
		d.MinDistance = 0
	} else {
		d.MeanDistance = sum / float64(K*(K-1)/2)
	}
	d.Correcting = max(0, int(math.Floor((d.MinDistance-1)/2)))
	return d
}

// Degenerate reports whether the matrix has a defect that makes a
// reduction ill-posed or wasteful: a constant column, a duplicated or
// complementary column, or an unseparated pair of classes.
func (d Diagnostics) Degenerate() bool {
	return len(d.ConstantColumns) > 0 || len(d.DuplicateColumns) > 0 ||
		len(d.ComplementaryColumns) > 0 || len(d.Unseparated) > 0
}

// Warnings returns one human-readable line per defect, empty for a clean
// matrix. Columns are 0-based; classes are named by names[k] where given,
// else by their 0-based index. Complementary columns are reported although
// a deliberate asymmetric one-vs-one matrix has them (clear
// ComplementaryColumns first to leave them out).
func (d Diagnostics) Warnings(names []string) []string {
	class := func(k int) string {
		if k < len(names) {
			return names[k]
		}
		return fmt.Sprint(k)
	}
	var w []string
	for _, i := range d.ConstantColumns {
		w = append(w, fmt.Sprintf("column %d lacks a +1 or a −1: it is not a binary problem", i))
	}
	for _, p := range d.DuplicateColumns {
		w = append(w, fmt.Sprintf("columns %d and %d are identical", p.A, p.B))
	}
	for _, p := range d.ComplementaryColumns {
		w = append(w, fmt.Sprintf("columns %d and %d are complementary (the same problem with labels swapped)", p.A, p.B))
	}
	for _, k := range d.ZeroRows {
		w = append(w, fmt.Sprintf("class %s is 0 in every column: no problem trains on it", class(k)))
	}
	for _, p := range d.Unseparated {
		w = append(w, fmt.Sprintf("no column separates classes %s and %s", class(p.A), class(p.B)))
	}
	return w
}

// RowDistance returns d(row a, row b) = Σᵢ (1 − m[a][i]·m[b][i])/2.
func (m *Matrix) RowDistance(a, b int) float64 {
	m.check(a, 0)
	m.check(b, 0)
	dot := 0
	for i := 0; i < m.l; i++ {
		dot += int(m.data[a*m.l+i]) * int(m.data[b*m.l+i])
	}
	return float64(m.l-dot) / 2
}
