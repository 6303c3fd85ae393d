package data

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/polyclass/polyclass/framework/safetext"
	"github.com/polyclass/polyclass/framework/sparse"
)

// Append returns the rows of a followed by the rows of b, as one table
// (a training file and its test file), in a's column order. Both must
// have the columns of the same names (a CSV header, ARFF attributes), in
// any order: b's columns are taken by name, as a reader of the header
// would. Each column must be of the same kind in both; a categorical
// column's levels are a's followed by those only b has, in order of
// appearance. LIBSVM feature blocks are stacked, as wide as the wider
// one. A name that only one of them has is an error naming the columns
// b lacks and those it has that a lacks.
func Append(a, b *Table) (*Table, error) {
	order, err := columnOrder(a, b)
	if err != nil {
		return nil, err
	}
	if (a.Sparse == nil) != (b.Sparse == nil) {
		return nil, fmt.Errorf("%s and %s are not both LIBSVM files", a.Source, b.Source)
	}
	out := &Table{Source: a.Source, NumRows: a.NumRows + b.NumRows, Columns: make([]Column, len(a.Columns)),
		Relation: a.Relation, LabelCount: a.LabelCount, Labels: a.Labels, SparseNames: a.SparseNames}
	for j := range a.Columns {
		ca, cb := &a.Columns[j], &b.Columns[order[j]]
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

// columnOrder returns, for each column of a, the index of the column of
// b of the same name, or an error naming the columns that b lacks and
// those that only b has. Tables whose names repeat (which no reader
// gives) are matched by position.
func columnOrder(a, b *Table) ([]int, error) {
	index := make(map[string]int, len(b.Columns))
	for j, c := range b.Columns {
		index[c.Name] = j
	}
	order := make([]int, len(a.Columns))
	if len(index) < len(b.Columns) && len(a.Columns) == len(b.Columns) {
		for j := range a.Columns {
			if ca, cb := a.Columns[j].Name, b.Columns[j].Name; ca != cb {
				return nil, fmt.Errorf("column %d is %s in %s but %s in %s", j+1, safetext.Show(ca), a.Source, safetext.Show(cb), b.Source)
			}
			order[j] = j
		}
		return order, nil
	}
	var lacks, extra []string
	inA := make(map[string]bool, len(a.Columns))
	for j, c := range a.Columns {
		inA[c.Name] = true
		k, ok := index[c.Name]
		if !ok {
			lacks = append(lacks, c.Name)
		}
		order[j] = k
	}
	for _, c := range b.Columns {
		if !inA[c.Name] {
			extra = append(extra, c.Name)
		}
	}
	if len(lacks) == 0 && len(extra) == 0 && len(a.Columns) == len(b.Columns) {
		return order, nil
	}
	var parts []string
	if len(lacks) > 0 {
		parts = append(parts, fmt.Sprintf("lacks %s %s of %s", columnWord(len(lacks)), safetext.Few(lacks, safetext.Listed, safetext.Show), a.Source))
	}
	if len(extra) > 0 {
		parts = append(parts, fmt.Sprintf("has %s %s, which %s lacks", columnWord(len(extra)), safetext.Few(extra, safetext.Listed, safetext.Show), a.Source))
	}
	msg := b.Source + " " + strings.Join(parts, " and ")
	if len(a.Columns) != len(b.Columns) {
		msg = fmt.Sprintf("%s has %d columns, %s has %d", b.Source, len(b.Columns), a.Source, len(a.Columns))
		if len(parts) > 0 {
			msg += ": it " + strings.Join(parts, " and ")
		}
	}
	return nil, errors.New(msg)
}

// columnWord is "column" for one column, "columns" for more.
func columnWord(n int) string {
	if n == 1 {
		return "column"
	}
	return "columns"
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
