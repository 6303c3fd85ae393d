package codes

import (
	"fmt"
	"strings"
)

// ErrorKind classifies a MatrixError.
type ErrorKind int

const (
	// ErrValue is an entry that is not exactly −1, 0 or +1.
	ErrValue ErrorKind = iota + 1
	// ErrRagged is a row whose length differs from the first row's.
	ErrRagged
	// ErrIdenticalRows is two classes with the same codeword.
	ErrIdenticalRows
	// ErrRowCount is a matrix whose row count differs from the number of
	// classes.
	ErrRowCount
	// ErrShape is any other shape problem (empty matrix, fewer than two
	// rows, wrong number of entries).
	ErrShape
)

// String names the kind.
func (k ErrorKind) String() string {
	switch k {
	case ErrValue:
		return "invalid entry"
	case ErrRagged:
		return "ragged rows"
	case ErrIdenticalRows:
		return "identical rows"
	case ErrRowCount:
		return "wrong row count"
	case ErrShape:
		return "bad shape"
	}
	return fmt.Sprintf("ErrorKind(%d)", int(k))
}

// MatrixError reports an invalid code matrix and locates the offending
// element so that a caller (e.g. the HCL layer) can point at it. Indices are
// 0-based; −1 means "not applicable".
type MatrixError struct {
	// Kind classifies the problem.
	Kind ErrorKind
	// Row and Col locate the element (ErrValue), the row (ErrRagged, and
	// for ErrIdenticalRows the later of the two rows) or nothing.
	Row, Col int
	// Other is the earlier identical row for ErrIdenticalRows.
	Other int
	// Value is the rejected entry for ErrValue.
	Value float64
	// Msg is an optional detail.
	Msg string
}

// Error describes the problem.
func (e *MatrixError) Error() string {
	switch e.Kind {
	case ErrValue:
		return fmt.Sprintf("code matrix entry [%d][%d] = %v: entries must be -1, 0 or +1", e.Row, e.Col, e.Value)
	case ErrIdenticalRows:
		return fmt.Sprintf("code matrix rows %d and %d are identical: the two classes cannot be told apart", e.Other, e.Row)
	}
	if e.Msg != "" {
		return "code matrix: " + e.Msg
	}
	return "code matrix: " + e.Kind.String()
}

// MatrixErrors is every problem of one code matrix, reported together (see
// CheckRows). errors.As finds the first *MatrixError among them.
type MatrixErrors []*MatrixError

// Error lists the problems, separated by "; ".
func (es MatrixErrors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "; ")
}

// Unwrap returns the problems, for errors.Is and errors.As.
func (es MatrixErrors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}
