package data

import (
	"fmt"
	"slices"

	"github.com/polyclass/polyclass/framework/safetext"
	"github.com/polyclass/polyclass/framework/sparse"
)

// Append returns the rows of a followed by the rows of b, as one table
// (a training file and its test file). Both must have the same columns in
// the same order, each of the same kind; a categorical column's levels
// are a's followed by those only b has, in order of appearance. LIBSVM
// feature blocks are stacked, as wide as the wider one.
func Append(a, b *Table) (*Table, error) {
	if len(a.Columns) != len(b.Columns) {
		return nil, fmt.Errorf("%s has %d columns, %s has %d", b.Source, len(b.Columns), a.Source, len(a.Columns))
	}
	if (a.Sparse == nil) != (b.Sparse == nil) {
		return nil, fmt.Errorf("%s and %s are not both LIBSVM files", a.Source, b.Source)
	}
	out := &Table{Source: a.Source, NumRows: a.NumRows + b.NumRows, Columns: make([]Column, len(a.Columns)),
		Relation: a.Relation, LabelCount: a.LabelCount, Labels: a.Labels, SparseNames: a.SparseNames}
	for j := range a.Columns {
		ca, cb := &a.Columns[j], &b.Columns[j]
		if ca.Name != cb.Name {
			return nil, fmt.Errorf("column %d is %s in %s but %s in %s", j+1, safetext.Show(ca.Name), a.Source, safetext.Show(cb.Name), b.Source)
		}
		if ca.Kind != cb.Kind {
			return nil, fmt.Errorf("column %s is %s in %s but %s in %s; name it in categorical = [...] or numeric = [...]",
				safetext.Show(ca.Name), ca.Kind, a.Source, cb.Kind, b.Source)
		}
		c := Column{Name: ca.Name, Kind: ca.Kind, Num: slices.Concat(ca.Num, cb.Num)}
		if ca.Kind == Categorical {
			c.Levels = append([]string(nil), ca.Levels...)
			index := make(map[string]int32, len(c.Levels))
			for i, l := range c.Levels {
				index[l] = int32(i)
			}
			c.Codes = append(make([]int32, 0, out.NumRows), ca.Codes...)
			for _, code := range cb.Codes {
				if code < 0 {
					c.Codes = append(c.Codes, -1)
					continue
				}
				l := cb.Levels[code]
				k, ok := index[l]
				if !ok {
					k = int32(len(c.Levels))
					index[l] = k
					c.Levels = append(c.Levels, l)
				}
				c.Codes = append(c.Codes, k)
			}
		}
		out.Columns[j] = c
	}
	if a.Sparse != nil {
		out.Sparse = stack(a.Sparse, b.Sparse)
		if len(b.SparseNames) > len(a.SparseNames) {
			out.SparseNames = b.SparseNames
		}
	}
	return out, nil
}

// stack returns the rows of a followed by those of b.
func stack(a, b *sparse.CSR) *sparse.CSR {
	out := &sparse.CSR{Rows: a.Rows + b.Rows, Cols: max(a.Cols, b.Cols), Indptr: slices.Clone(a.Indptr),
		Indices: slices.Concat(a.Indices, b.Indices), Values: slices.Concat(a.Values, b.Values)}
	base := a.Indptr[a.Rows]
	for _, p := range b.Indptr[1:] {
		out.Indptr = append(out.Indptr, base+p)
	}
	return out
}
