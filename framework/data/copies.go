package data

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"math"
)

// rowCopies compares the rows of t, a training file's n rows followed by
// its test file's (Append's table, in which a level has one code in both
// files), in every column. It reports whether the test rows are the
// training rows, row for row (the test file is a copy of the training
// file, written in any way: gzipped, another format, other spellings of
// the same numbers), and counts the test rows that equal some training
// row: copies, the first of them (0-based among the test rows) first, and
// of, the first training row it equals (both −1 when copies is 0).
func rowCopies(t *Table, n int) (same bool, copies, first, of int) {
	m := t.NumRows - n
	sums := make([][sha256.Size]byte, t.NumRows)
	var buf []byte
	for i := range sums {
		buf = rowKey(t, i, buf[:0])
		sums[i] = sha256.Sum256(buf)
	}
	// The digests stand for the rows; equal digests are compared again as
	// rows, so that the counts are exact.
	equal := func(i, j int) bool {
		return sums[i] == sums[j] && bytes.Equal(rowKey(t, i, nil), rowKey(t, j, nil))
	}
	same = m == n && n > 0
	for i := 0; same && i < n; i++ {
		same = equal(i, n+i)
	}
	train := make(map[[sha256.Size]byte]int, n)
	for i := n - 1; i >= 0; i-- { // the first row of equal ones stays
		train[sums[i]] = i
	}
	first, of = -1, -1
	for i := n; i < t.NumRows; i++ {
		if j, ok := train[sums[i]]; ok && equal(i, j) {
			if copies == 0 {
				first, of = i-n, j
			}
			copies++
		}
	}
	return same, copies, first, of
}

// rowKey appends to buf the values of row i of t, column by column, in a
// form in which two rows are equal when their bytes are: a numeric
// value's bits (one NaN for every missing value), a categorical value's
// code, then the row's nonzero LIBSVM features, counted, each an index
// and a value.
func rowKey(t *Table, i int, buf []byte) []byte {
	for j := range t.Columns {
		c := &t.Columns[j]
		if c.Kind == Categorical {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(c.Codes[i]))
			continue
		}
		v := c.Num[i]
		if v != v {
			v = math.NaN()
		}
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v+0)) // +0: -0 is 0
	}
	if s := t.Sparse; s != nil {
		lo, hi := s.Indptr[i], s.Indptr[i+1]
		nz := 0
		for p := lo; p < hi; p++ {
			if s.Values[p] != 0 {
				nz++
			}
		}
		buf = binary.LittleEndian.AppendUint64(buf, uint64(nz))
		for p := lo; p < hi; p++ {
			if s.Values[p] != 0 {
				buf = binary.LittleEndian.AppendUint32(buf, uint32(s.Indices[p]))
				buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(s.Values[p]+0))
			}
		}
	}
	return buf
}

// Duplicates counts the rows of t that equal another of its rows in every
// column (rowKey: the class and the features, each missing value like
// every other): every row of a group of equal rows counts, so a file
// appended to itself has all its rows counted. first is the first row
// (0-based) that equals an earlier row, of the first row it equals (both
// −1 when copies is 0). Each row's key is hashed into 64 bits and looked
// up in an open-addressing table of the first rows of each key; rows of
// equal hashes are compared again as keys, so the count is exact.
func (t *Table) Duplicates() (copies, first, of int) {
	first, of = -1, -1
	n := t.NumRows
	if n < 2 {
		return 0, first, of
	}
	size := 1
	for size < 2*n {
		size *= 2
	}
	mask := uint64(size - 1)
	slots := make([]int32, size) // a first row + 1, 0 for none
	hashes := make([]uint64, n)
	group := make([]int32, n) // the first row equal to each row
	count := make([]int32, n) // the rows equal to each first row
	var buf, key []byte
	for i := range n {
		buf = rowKey(t, i, buf[:0])
		h := keyHash(buf)
		hashes[i] = h
		g := int32(i)
		for p := h & mask; ; p = (p + 1) & mask {
			s := slots[p]
			if s == 0 {
				slots[p] = g + 1
				break
			}
			if j := s - 1; hashes[j] == h {
				if key = rowKey(t, int(j), key[:0]); bytes.Equal(buf, key) {
					g = j
					break
				}
			}
		}
		group[i] = g
		count[g]++
		if g != int32(i) && first < 0 {
			first, of = i, int(g)
		}
	}
	for i := range n {
		if count[group[i]] > 1 {
			copies++
		}
	}
	return copies, first, of
}

// keyHash is a 64-bit hash of a row's key, eight bytes at a time (a
// multiply and xor-shift mix; the key's length goes in first).
func keyHash(b []byte) uint64 {
	const m = 0x9e3779b97f4a7c15
	h := uint64(len(b)) * m
	for len(b) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(b)) * m
		h ^= h >> 32
		b = b[8:]
	}
	for _, c := range b {
		h = (h ^ uint64(c)) * m
		h ^= h >> 32
	}
	return h ^ h>>29
}
