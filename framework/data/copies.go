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
