package data

import (
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/internal/adversarial"
)

var _ = flag.Bool("update", false, "rewrite the want files of the adversarial corpus")

// TestAdversarialDataFiles runs the corpus of data files
// (testdata/adversarial/data): each case's first file, a CSV, TSV, ARFF or
// LIBSVM file (the extension decides, as for Read), is read with the
// options of its "options" file (JSON: categorical, numeric, ignore,
// missing, delimiter, and classes: columns read as class labels, as a
// target is: categorical, then Column.CanonicalClasses) and must give the
// case's error, located at its line and column (or row), or its warnings
// (and what CanonicalClasses did), or, when accepted, a summary of what
// was read ("ok: ...").
func TestAdversarialDataFiles(t *testing.T) {
	adversarial.Run(t, "data", func(t *testing.T, c *adversarial.Case, dir string) string {
		var o struct {
			Categorical, Numeric, Ignore, Missing, Classes []string
			Delimiter                                      string
		}
		if b, ok := c.File("options"); ok {
			if err := json.Unmarshal(b, &o); err != nil {
				t.Fatalf("options: %v", err)
			}
		}
		opt := Options{Categorical: append(o.Categorical, o.Classes...), Numeric: o.Numeric, Ignore: o.Ignore, Missing: o.Missing}
		if o.Delimiter != "" {
			opt.Delimiter = []rune(o.Delimiter)[0]
		}
		path := c.WriteFiles(t, dir, "options")
		tab, err := Read(path, opt)
		if err != nil {
			return err.Error()
		}
		var out []string
		for _, w := range tab.Warnings {
			out = append(out, "warning: "+w.Error())
		}
		for _, name := range o.Classes {
			line, err := classLine(tab, name)
			if err != nil {
				return err.Error()
			}
			if line != "" {
				out = append(out, line)
			}
		}
		return strings.Join(append(out, summary(tab)), "\n")
	})
}

// classLine applies CanonicalClasses to column name of t and says what it
// did and which classes look alike ("" when nothing), or returns its error, prefixed with the source
// and column.
func classLine(t *Table, name string) (string, error) {
	col, ok := t.Lookup(name)
	if !ok {
		return "", fmt.Errorf("no column %q", name)
	}
	names, err := col.CanonicalClasses()
	if err != nil {
		return "", fmt.Errorf("%s: column %q: %w", t.Source, name, err)
	}
	list := func(ms []ClassMerge) string {
		var parts []string
		for _, m := range ms {
			var sp []string
			for _, s := range m.Spellings {
				sp = append(sp, fmt.Sprintf("%q (%s)", s.Text, rowOf(s)))
			}
			parts = append(parts, fmt.Sprintf("%q from %s", m.Class, strings.Join(sp, ", ")))
		}
		return strings.Join(parts, "; ")
	}
	var line string
	switch {
	case names.Merged != nil && names.Booleans:
		line = fmt.Sprintf("classes %q compared as booleans: %s", name, list(names.Merged))
	case names.Merged != nil:
		line = fmt.Sprintf("classes %q compared as numbers: %s", name, list(names.Merged))
	case names.Apart != nil:
		line = fmt.Sprintf("classes %q kept apart by the text %q (%s): %s", name, names.Text.Text, rowOf(names.Text), list(names.Apart))
	}
	if names.Confusable != nil {
		if line != "" {
			line += "\n"
		}
		line += fmt.Sprintf("classes %q look alike: %s", name, list(names.Confusable))
	}
	return line, nil
}

// rowOf says where spelling s first occurs.
func rowOf(s Spelling) string {
	if s.Row < 0 {
		return "declared"
	}
	return fmt.Sprintf("data row %d", s.Row+1)
}

// summary describes what a table holds: rows, and each column's kind
// (categorical ones with their levels, numeric ones with their missing
// count), then the sparse block's width.
func summary(t *Table) string {
	var cols []string
	for _, c := range t.Columns {
		switch c.Kind {
		case Categorical:
			cols = append(cols, fmt.Sprintf("%s categorical %q", c.Name, c.Levels))
		default:
			missing := 0
			for _, v := range c.Num {
				if v != v {
					missing++
				}
			}
			cols = append(cols, fmt.Sprintf("%s numeric (%d missing)", c.Name, missing))
		}
	}
	if t.Sparse != nil {
		r, c := t.Sparse.Dims()
		cols = append(cols, fmt.Sprintf("sparse %d×%d", r, c))
	}
	return fmt.Sprintf("%s%d rows; %s", adversarial.Accepted, t.NumRows, strings.Join(cols, "; "))
}
