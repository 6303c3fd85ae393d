package codes

import (
	"fmt"
	"strings"
)

// Matrix is a K × L ternary code matrix with entries in {+1, 0, −1}: row k
// is the codeword of class k, column i a binary problem in which the classes
// with +1 are the positive class, those with −1 the negative class and those
// with 0 are left out. Entries are stored row-major, as in sdk.CodeMatrix.
//
// The zero value is an empty 0 × 0 matrix; use the constructors.
type Matrix struct {
	k, l int
	data []int8
}

// NewMatrix returns a K × L matrix holding a copy of entries (row-major,
// length K·L). A nil entries gives the all-zero matrix. It returns a
// *MatrixError if an entry is outside {−1, 0, +1} or entries has the wrong
// length.
func NewMatrix(K, L int, entries []int8) (*Matrix, error) {
	if K < 1 || L < 1 {
		return nil, &MatrixError{Kind: ErrShape, Row: -1, Col: -1, Other: -1,
			Msg: fmt.Sprintf("dimensions %d×%d must be positive", K, L)}
	}
	m := &Matrix{k: K, l: L, data: make([]int8, K*L)}
	if entries == nil {
		return m, nil
	}
	if len(entries) != K*L {
		return nil, &MatrixError{Kind: ErrShape, Row: -1, Col: -1, Other: -1,
			Msg: fmt.Sprintf("%d entries for a %d×%d matrix", len(entries), K, L)}
	}
	for idx, v := range entries {
		if v < -1 || v > 1 {
			return nil, &MatrixError{Kind: ErrValue, Row: idx / L, Col: idx % L, Other: -1, Value: float64(v)}
		}
	}
	copy(m.data, entries)
	return m, nil
}

// zeros returns the K × L zero matrix without checks.
func zeros(K, L int) *Matrix {
	return &Matrix{k: K, l: L, data: make([]int8, K*L)}
}

// Dims returns the number of classes K (rows) and binary problems L
// (columns).
func (m *Matrix) Dims() (K, L int) { return m.k, m.l }

// At returns entry (k, i): the role of class k in problem i. It panics if
// the indices are out of range.
func (m *Matrix) At(k, i int) int8 {
	m.check(k, i)
	return m.data[k*m.l+i]
}

// Set sets entry (k, i) to v. It panics if the indices are out of range or v
// is not −1, 0 or +1.
func (m *Matrix) Set(k, i int, v int8) {
	m.check(k, i)
	if v < -1 || v > 1 {
		panic(fmt.Sprintf("codes: entry %d is not in {-1,0,1}", v))
	}
	m.data[k*m.l+i] = v
}

func (m *Matrix) check(k, i int) {
	if k < 0 || k >= m.k || i < 0 || i >= m.l {
		panic(fmt.Sprintf("codes: index (%d,%d) out of range for %d×%d matrix", k, i, m.k, m.l))
	}
}

// Row returns a copy of row k (the codeword of class k).
func (m *Matrix) Row(k int) []int8 {
	m.check(k, 0)
	return append([]int8(nil), m.data[k*m.l:(k+1)*m.l]...)
}

// Col returns a copy of column i (the class roles of binary problem i).
func (m *Matrix) Col(i int) []int8 {
	m.check(0, i)
	c := make([]int8, m.k)
	for k := range c {
		c[k] = m.data[k*m.l+i]
	}
	return c
}

// Entries returns a copy of the entries in row-major order (the layout of
// sdk.CodeMatrix.Entries).
func (m *Matrix) Entries() []int8 { return append([]int8(nil), m.data...) }

// Float64s returns the entries as float64 in row-major order, entry (k, i)
// at index k·L+i: a new slice that hot loops can index directly instead of
// calling At for every entry.
func (m *Matrix) Float64s() []float64 {
	out := make([]float64, len(m.data))
	for i, v := range m.data {
		out[i] = float64(v)
	}
	return out
}

// Clone returns a deep copy of m.
func (m *Matrix) Clone() *Matrix {
	return &Matrix{k: m.k, l: m.l, data: m.Entries()}
}

// Equal reports whether m and o have the same shape and entries.
func (m *Matrix) Equal(o *Matrix) bool {
	if m.k != o.k || m.l != o.l {
		return false
	}
	for i, v := range m.data {
		if o.data[i] != v {
			return false
		}
	}
	return true
}

// AppendColumns returns a new matrix made of m's columns followed by cols,
// each of length K with entries in {−1, 0, +1}.
func (m *Matrix) AppendColumns(cols ...[]int8) (*Matrix, error) {
	out := zeros(m.k, m.l+len(cols))
	for k := 0; k < m.k; k++ {
		copy(out.data[k*out.l:], m.data[k*m.l:(k+1)*m.l])
	}
	for j, c := range cols {
		if len(c) != m.k {
			return nil, &MatrixError{Kind: ErrShape, Row: -1, Col: m.l + j, Other: -1,
				Msg: fmt.Sprintf("appended column has %d entries, want %d", len(c), m.k)}
		}
		for k, v := range c {
			if v < -1 || v > 1 {
				return nil, &MatrixError{Kind: ErrValue, Row: k, Col: m.l + j, Other: -1, Value: float64(v)}
			}
			out.data[k*out.l+m.l+j] = v
		}
	}
	return out, nil
}

// String formats m one row per line with entries "+1", " 0" and "-1"
// separated by a space.
func (m *Matrix) String() string {
	var b strings.Builder
	for k := 0; k < m.k; k++ {
		for i := 0; i < m.l; i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			switch m.data[k*m.l+i] {
			case 1:
				b.WriteString("+1")
			case -1:
				b.WriteString("-1")
			default:
				b.WriteString(" 0")
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// FromRows builds a matrix from user-supplied rows (row k = class k). Every
// entry must be exactly −1, 0 or +1, all rows must have the same non-zero
// length, there must be at least two rows and no two rows may be identical.
// Errors are *MatrixError values locating the offending element (0-based).
// Use CheckClasses to check the row count against the task's K.
func FromRows(rows [][]float64) (*Matrix, error) {
	if len(rows) < 2 {
		return nil, &MatrixError{Kind: ErrShape, Row: -1, Col: -1, Other: -1,
			Msg: fmt.Sprintf("%d rows: a code matrix needs at least 2 classes", len(rows))}
	}
	L := len(rows[0])
	if L == 0 {
		return nil, &MatrixError{Kind: ErrShape, Row: 0, Col: -1, Other: -1, Msg: "row 0 is empty"}
	}
	m := zeros(len(rows), L)
	for k, r := range rows {
		if len(r) != L {
			return nil, &MatrixError{Kind: ErrRagged, Row: k, Col: -1, Other: -1,
				Msg: fmt.Sprintf("row %d has %d entries, row 0 has %d", k, len(r), L)}
		}
		for i, v := range r {
			switch v {
			case -1, 0, 1:
				m.data[k*L+i] = int8(v)
			default:
				return nil, &MatrixError{Kind: ErrValue, Row: k, Col: i, Other: -1, Value: v}
			}
		}
	}
	if a, b, ok := m.identicalRows(); ok {
		return nil, &MatrixError{Kind: ErrIdenticalRows, Row: b, Col: -1, Other: a}
	}
	return m, nil
}

// identicalRows returns the first pair a < b of identical rows (in order of
// b, then a).
func (m *Matrix) identicalRows() (a, b int, ok bool) {
	seen := make(map[string]int, m.k)
	for k := 0; k < m.k; k++ {
		key := string(int8Bytes(m.data[k*m.l : (k+1)*m.l]))
		if j, dup := seen[key]; dup {
			return j, k, true
		}
		seen[key] = k
	}
	return 0, 0, false
}

// CheckClasses returns a *MatrixError of kind ErrRowCount unless m has
// exactly K rows.
func (m *Matrix) CheckClasses(K int) error {
	if m.k != K {
		return &MatrixError{Kind: ErrRowCount, Row: -1, Col: -1, Other: -1,
			Msg: fmt.Sprintf("%d rows but the task has %d classes", m.k, K)}
	}
	return nil
}

// int8Bytes converts a slice of int8 into bytes (for map keys).
func int8Bytes(v []int8) []byte {
	b := make([]byte, len(v))
	for i, x := range v {
		b[i] = byte(x)
	}
	return b
}

// UnknownClasses is CheckRows's K when the number of classes is not known
// (a check without data): the row count is not checked.
const UnknownClasses = -1

// CheckRows returns every problem of the user-supplied rows of a code
// matrix for a task of K classes at once, as MatrixErrors (nil when none):
// each entry outside {−1, 0, +1}, each row whose length differs from row
// 0's, each pair of identical rows, and a row count other than K (unless
// K is UnknownClasses). FromRows stops at the first; CheckRows lets a user
// fix them all in one pass.
func CheckRows(rows [][]float64, K int) error {
	var es MatrixErrors
	if len(rows) > 0 && len(rows[0]) == 0 {
		es = append(es, &MatrixError{Kind: ErrShape, Row: 0, Col: -1, Other: -1, Msg: "row 0 is empty"})
	}
	seen := map[string]int{}
	for k, r := range rows {
		if len(r) != len(rows[0]) {
			es = append(es, &MatrixError{Kind: ErrRagged, Row: k, Col: -1, Other: -1,
				Msg: fmt.Sprintf("row %d has %d entries, row 0 has %d", k, len(r), len(rows[0]))})
			continue
		}
		for i, v := range r {
			if v != -1 && v != 0 && v != 1 {
				es = append(es, &MatrixError{Kind: ErrValue, Row: k, Col: i, Other: -1, Value: v})
			}
		}
		key := fmt.Sprint(r)
		if j, dup := seen[key]; dup && len(r) > 0 {
			es = append(es, &MatrixError{Kind: ErrIdenticalRows, Row: k, Col: -1, Other: j})
			continue
		}
		seen[key] = k
	}
	if K != UnknownClasses && len(rows) != K {
		es = append(es, &MatrixError{Kind: ErrRowCount, Row: -1, Col: -1, Other: -1,
			Msg: fmt.Sprintf("%d rows but the task has %d classes", len(rows), K)})
	}
	if len(es) == 0 {
		return nil
	}
	return es
}
