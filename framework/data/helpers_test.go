package data

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
)

// names returns the column names of tb in order.
func names(tb *Table) []string {
	names := make([]string, len(tb.Columns))
	for i, c := range tb.Columns {
		names[i] = c.Name
	}
	return names
}

// num returns the values of numeric column name, failing the test if it
// is absent or not numeric.
func num(t *testing.T, tb *Table, name string) []float64 {
	t.Helper()
	c, ok := tb.Lookup(name)
	if !ok {
		t.Fatalf("no column %q in %v", name, names(tb))
	}
	if c.Kind != Numeric {
		t.Fatalf("column %q is %v, want numeric", name, c.Kind)
	}
	return c.Num
}

// cat returns the per-row text of categorical column name ("" = missing)
// and its levels.
func cat(t *testing.T, tb *Table, name string) (vals, levels []string) {
	t.Helper()
	c, ok := tb.Lookup(name)
	if !ok {
		t.Fatalf("no column %q in %v", name, names(tb))
	}
	if c.Kind != Categorical {
		t.Fatalf("column %q is %v, want categorical", name, c.Kind)
	}
	for _, code := range c.Codes {
		if code < 0 {
			vals = append(vals, "")
		} else {
			vals = append(vals, c.Levels[code])
		}
	}
	return vals, c.Levels
}

// sameFloats compares with NaN equal to NaN.
func sameFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}

func sameStrings(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00") && len(a) == len(b)
}

// sameTable reports whether two tables hold the same columns and values.
func sameTable(a, b *Table) bool {
	if a.NumRows != b.NumRows || len(a.Columns) != len(b.Columns) {
		return false
	}
	for i := range a.Columns {
		x, y := &a.Columns[i], &b.Columns[i]
		if x.Name != y.Name || x.Kind != y.Kind {
			return false
		}
		if x.Kind == Numeric {
			if !sameFloats(x.Num, y.Num) {
				return false
			}
			continue
		}
		if !sameStrings(x.Levels, y.Levels) || len(x.Codes) != len(y.Codes) {
			return false
		}
		for r := range x.Codes {
			if x.Codes[r] != y.Codes[r] {
				return false
			}
		}
	}
	return true
}

// checkResult is the fuzz oracle: either an error of type *ParseError or
// a table that passes Validate and has at least one row.
func checkResult(t *testing.T, tb *Table, err error) {
	t.Helper()
	if err != nil {
		if tb != nil {
			t.Fatalf("table returned together with error %v", err)
		}
		if _, ok := err.(*ParseError); !ok {
			t.Fatalf("error %v is %T, want *ParseError", err, err)
		}
		if err.Error() == "" {
			t.Fatal("empty error message")
		}
		return
	}
	if tb == nil {
		t.Fatal("nil table without error")
	}
	if tb.NumRows < 1 {
		t.Fatalf("NumRows = %d without error", tb.NumRows)
	}
	if verr := checkTable(tb); verr != nil {
		t.Fatalf("invalid table: %v", verr)
	}
}

// checkTable checks the structural invariants of t: unique column names,
// every column NumRows long, codes in range, distinct levels, finite
// numeric values, and a well-formed sparse block of NumRows rows.
func checkTable(t *Table) error {
	if t.NumRows < 0 {
		return fmt.Errorf("data: negative row count %d", t.NumRows)
	}
	seen := make(map[string]bool, len(t.Columns))
	for i := range t.Columns {
		c := &t.Columns[i]
		if seen[c.Name] {
			return fmt.Errorf("data: duplicate column name %q", c.Name)
		}
		seen[c.Name] = true
		switch c.Kind {
		case Numeric:
			if len(c.Num) != t.NumRows {
				return fmt.Errorf("data: column %q has %d values, want %d", c.Name, len(c.Num), t.NumRows)
			}
			for r, v := range c.Num {
				if v-v != 0 && v == v { // ±Inf
					return fmt.Errorf("data: column %q row %d: infinite value", c.Name, r)
				}
			}
		case Categorical:
			if len(c.Codes) != t.NumRows {
				return fmt.Errorf("data: column %q has %d codes, want %d", c.Name, len(c.Codes), t.NumRows)
			}
			lv := make(map[string]bool, len(c.Levels))
			for _, l := range c.Levels {
				if lv[l] {
					return fmt.Errorf("data: column %q: duplicate level %q", c.Name, l)
				}
				lv[l] = true
			}
			for r, code := range c.Codes {
				if code < -1 || int(code) >= len(c.Levels) {
					return fmt.Errorf("data: column %q row %d: code %d out of range [-1, %d)", c.Name, r, code, len(c.Levels))
				}
			}
		default:
			return fmt.Errorf("data: column %q has unknown kind %d", c.Name, c.Kind)
		}
	}
	if t.Sparse != nil {
		if t.Sparse.Rows != t.NumRows {
			return fmt.Errorf("data: sparse block has %d rows, want %d", t.Sparse.Rows, t.NumRows)
		}
		if err := t.Sparse.Validate(); err != nil {
			return fmt.Errorf("data: %w", err)
		}
		if len(t.SparseNames) != t.Sparse.Cols {
			return fmt.Errorf("data: %d sparse names for %d sparse columns", len(t.SparseNames), t.Sparse.Cols)
		}
	}
	return nil
}

// writeCSV writes t as comma-separated values with a header row: numbers
// in the shortest form that reads back exactly, levels as their text,
// missing values as empty fields, and the sparse block (if any) expanded
// into dense columns after the others. Reading the output with
// Options.Categorical naming the categorical columns gives back t (minus
// ARFF levels that never occur).
func writeCSV(w io.Writer, t *Table) error {
	cw := csv.NewWriter(w)
	var sparseCols int
	if t.Sparse != nil {
		sparseCols = t.Sparse.Cols
	}
	rec := make([]string, 0, len(t.Columns)+sparseCols)
	for _, c := range t.Columns {
		rec = append(rec, c.Name)
	}
	if sparseCols > 0 {
		rec = append(rec, t.SparseNames...)
	}
	if err := cw.Write(rec); err != nil {
		return fmt.Errorf("data: write csv: %w", err)
	}
	buf := make([]byte, 0, 32)
	nums := make([]string, sparseCols)
	for i := 0; i < t.NumRows; i++ {
		rec = rec[:0]
		for j := range t.Columns {
			c := &t.Columns[j]
			switch {
			case c.Kind == Categorical && c.Codes[i] >= 0:
				rec = append(rec, c.Levels[c.Codes[i]])
			case c.Kind == Numeric && c.Num[i] == c.Num[i]:
				buf = strconv.AppendFloat(buf[:0], c.Num[i], 'g', -1, 64)
				rec = append(rec, string(buf))
			default:
				rec = append(rec, "")
			}
		}
		if sparseCols > 0 {
			for j := range nums {
				nums[j] = "0"
			}
			idx, val := t.Sparse.Row(i)
			for k, j := range idx {
				nums[j] = strconv.FormatFloat(val[k], 'g', -1, 64)
			}
			rec = append(rec, nums...)
		}
		if len(rec) == 1 && rec[0] == "" {
			// A lone empty field would be an empty line, which readers skip.
			cw.Flush()
			if _, err := io.WriteString(w, "\"\"\n"); err != nil {
				return fmt.Errorf("data: write csv: %w", err)
			}
			continue
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("data: write csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("data: write csv: %w", err)
	}
	return nil
}
