package codes

import (
	"bytes"
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
	d := Diagnostics{K: m.k, L: m.l}
	d.columns(m)
	d.ZeroRows = zeroRows(m)
	d.rows(m)
	return d
}

// columns finds the constant, duplicate and complementary columns of m.
func (d *Diagnostics) columns(m *Matrix) {
	K, L := m.k, m.l
	// cols[i*K:(i+1)*K] is column i and negs[i*K:(i+1)*K] its negation,
	// as bytes: identical and complementary columns are found by looking
	// columns up by content instead of comparing every pair entry by entry.
	cols, negs := make([]byte, L*K), make([]byte, L*K)
	for k := 0; k < K; k++ {
		for i, v := range m.data[k*L : (k+1)*L] {
			cols[i*K+k], negs[i*K+k] = byte(v), byte(-v)
		}
	}
	col := func(b []byte, i int) []byte { return b[i*K : (i+1)*K] }
	first, next := columnsByContent(string(cols), K, L)
	for i := 0; i < L; i++ {
		c := col(cols, i)
		if bytes.IndexByte(c, 1) < 0 || bytes.IndexByte(c, byte(0xff)) < 0 { // no +1 or no −1
			d.ConstantColumns = append(d.ConstantColumns, i)
		}
	}
	// Pairs (a, b), a < b, in the order of a, then b.
	for a := 0; a < L; a++ {
		for b := next[a]; b >= 0; b = next[b] {
			d.DuplicateColumns = append(d.DuplicateColumns, Pair{a, b})
		}
	}
	for a := 0; a < L; a++ {
		b, ok := first[string(col(negs, a))]
		for ; ok && b >= 0; b = next[b] {
			if b > a {
				d.ComplementaryColumns = append(d.ComplementaryColumns, Pair{a, b})
			}
		}
	}
}

// columnsByContent indexes the L columns of K bytes each that keys holds
// one after the other: first[c] is the first column of content c and
// next[i] the column after i with column i's content (−1 at the end), the
// columns of each content in increasing order. The map's keys are
// substrings of keys (no allocation per key).
func columnsByContent(keys string, K, L int) (first map[string]int, next []int) {
	first, next = make(map[string]int, L), make([]int, L)
	for i := L - 1; i >= 0; i-- {
		key := keys[i*K : (i+1)*K]
		next[i] = -1
		if j, ok := first[key]; ok {
			next[i] = j
		}
		first[key] = i
	}
	return first, next
}

// zeroRows are the classes of m whose row is all 0.
func zeroRows(m *Matrix) []int {
	var zeros []int
	for k := 0; k < m.k; k++ {
		zero := true
		for _, v := range m.data[k*m.l : (k+1)*m.l] {
			zero = zero && v == 0
		}
		if zero {
			zeros = append(zeros, k)
		}
	}
	return zeros
}

// rows computes the distances between the rows of m, its identical rows
// and its unseparated pairs, and the error-correcting capability.
func (d *Diagnostics) rows(m *Matrix) {
	K, L := m.k, m.l
	// nz[start[k]:start[k+1]] are the columns of row k's non-zero entries:
	// only they add to a dot product of two rows.
	start, nz := make([]int, K+1), []int(nil)
	for k := 0; k < K; k++ {
		for i, v := range m.data[k*L : (k+1)*L] {
			if v != 0 {
				nz = append(nz, i)
			}
		}
		start[k+1] = len(nz)
	}
	d.MinDistance = math.Inf(1)
	var sum float64
	for a := 0; a < K; a++ {
		ra, nza := m.data[a*L:(a+1)*L], nz[start[a]:start[a+1]]
		for b := a + 1; b < K; b++ {
			rb := m.data[b*L : (b+1)*L][:len(ra)]
			// Entries are −1, 0 or +1: the OR of the products is negative
			// iff one is −1 (a separating column); the rows are identical
			// iff they have as many non-zero entries and every product over
			// row a's is +1.
			dot, prods := 0, 0
			for _, i := range nza {
				p := int(ra[i]) * int(rb[i])
				dot += p
				prods |= p
			}
			dist := float64(L-dot) / 2
			sum += dist
			d.MinDistance = min(d.MinDistance, dist)
			if dot == len(nza) && start[b+1]-start[b] == len(nza) {
				d.IdenticalRows = append(d.IdenticalRows, Pair{a, b})
			}
			if prods >= 0 {
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

// The Diagnostics of the fixed codes in closed form: Diagnose compares
// every pair of rows, K(K−1)/2 pairs over the non-zero entries of a row,
// which is O(K³) for one-vs-all (5,000 classes: 6·10¹⁰ products) and
// O(K⁴) for one-vs-one. These return what Diagnose returns for the same
// matrix (the tests compare them), in O(1), or O(L) for the
// complementary columns of an asymmetric one-vs-one code.

// DiagnoseOVA returns Diagnose(OVA(K)) for K ≥ 2: any two rows differ in
// their two own columns and agree elsewhere, so every distance is 2 and
// no error is corrected; for K = 2 the two columns are complementary.
func DiagnoseOVA(K int) Diagnostics {
	d := uniformDistance(K, K, 2)
	if K == 2 {
		d.ComplementaryColumns = []Pair{{0, 1}}
	}
	return d
}

// DiagnoseOVO returns Diagnose(OVO(K, asymmetric)) for K ≥ 2: two rows
// are opposite in the column of their pair (both columns of it when
// asymmetric) and meet a 0 in every other column, so every distance is
// (L+1)/2, or (L+2)/2 when asymmetric; the asymmetric code's column c and
// column P+c (P = K(K−1)/2) are complementary.
func DiagnoseOVO(K int, asymmetric bool) Diagnostics {
	P := K * (K - 1) / 2
	if !asymmetric {
		return uniformDistance(K, P, float64(P+1)/2)
	}
	d := uniformDistance(K, 2*P, float64(2*P+2)/2)
	d.ComplementaryColumns = make([]Pair, P)
	for c := range d.ComplementaryColumns {
		d.ComplementaryColumns[c] = Pair{c, P + c}
	}
	return d
}

// DiagnoseOrdered returns Diagnose of an Ordered code of K ≥ 2 classes
// (any order: it only names the rows). For the classes at positions
// p < q of the order, column p separates them, the columns between p and
// q and column q see one of them as 0, the columns after q see both as 0
// and those before p both as −1: d = 1 + (K−2−p)/2 = (K−p)/2 over the
// K−1−p pairs whose first position is p. The minimum, 1, is at
// p = K−2.
func DiagnoseOrdered(K int) Diagnostics {
	d := Diagnostics{K: K, L: K - 1, MinDistance: 1}
	// twice the sum of the distances, exact in integers as Diagnose's sum
	// of halves is exact in floating point.
	sum2 := 0
	for p := 0; p <= K-2; p++ {
		sum2 += (K - 1 - p) * (K - p)
	}
	d.MeanDistance = float64(sum2) / 2 / float64(K*(K-1)/2)
	return d
}

// uniformDistance is the Diagnostics of a K × L code without defects
// whose rows are all at distance dist.
func uniformDistance(K, L int, dist float64) Diagnostics {
	return Diagnostics{K: K, L: L, MinDistance: dist, MeanDistance: dist,
		Correcting: max(0, int(math.Floor((dist-1)/2)))}
}
