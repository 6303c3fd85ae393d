package data

import (
	"math"
	"strings"
	"testing"
)

// num returns the values of numeric column name, failing the test if it
// is absent or not numeric.
func num(t *testing.T, tb *Table, name string) []float64 {
	t.Helper()
	c, ok := tb.Lookup(name)
	if !ok {
		t.Fatalf("no column %q in %v", name, tb.Names())
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
		t.Fatalf("no column %q in %v", name, tb.Names())
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
	if verr := tb.Validate(); verr != nil {
		t.Fatalf("invalid table: %v", verr)
	}
}
