// Package layering checks the module's import layering against the
// package map of docs/development.md, as Go's own go/build deps_test.go
// checks the standard library's: every package of the module has a row
// there, with its layer and the packages of the module it may import;
// a package may also import whatever those may, and nothing else. A row
// may allow only packages of its own layer or lower ones, and the rows
// form no cycle, so that no import runs back up the layers.
//
// Only the imports of a package's non-test files count: tests may import
// upwards (a host test serves a plugin through package sdk).
package layering

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Begin and End are the comment lines around the table in the document.
const (
	Begin = "<!-- layering: begin -->"
	End   = "<!-- layering: end -->"
)

// Rule is one row of the table: a package, its layer and the packages it
// may import directly.
type Rule struct {
	Layer     int
	Package   string
	MayImport []string
	// Line is the row's line in the document.
	Line int
}

// Table is the document's table, by package.
type Table struct {
	// File names the document in messages.
	File  string
	Rules map[string]Rule
}

// ParseTable reads the table between Begin and End in src: rows of the
// form | layer | `package` | what it is | `a`, `b` (or —) |, the layer a
// number followed by its name. file names src in errors.
func ParseTable(src []byte, file string) (*Table, error) {
	t := &Table{File: file, Rules: map[string]Rule{}}
	sc := bufio.NewScanner(bytes.NewReader(src))
	in, seen := false, false
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == Begin:
			in, seen = true, true
		case line == End:
			in = false
		case in && strings.HasPrefix(line, "|") && !isHeader(line):
			r, err := parseRow(line, n)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", file, n, err)
			}
			if old, dup := t.Rules[r.Package]; dup {
				return nil, fmt.Errorf("%s:%d: package %s has a row already (line %d)", file, n, r.Package, old.Line)
			}
			t.Rules[r.Package] = r
		}
	}
	if !seen {
		return nil, fmt.Errorf("%s: no table: the line %q is missing", file, Begin)
	}
	return t, nil
}

// isHeader reports whether a table line is the header or its rule.
func isHeader(line string) bool {
	return strings.HasPrefix(line, "| layer") || strings.HasPrefix(line, "| ---")
}

// parseRow reads one row of the table, found on line n.
func parseRow(line string, n int) (Rule, error) {
	cells := strings.Split(strings.Trim(line, "|"), "|")
	if len(cells) != 4 {
		return Rule{}, fmt.Errorf("a row has 4 cells (layer, package, what it is, may import), this one %d", len(cells))
	}
	layer, _, _ := strings.Cut(strings.TrimSpace(cells[0]), " ")
	l, err := strconv.Atoi(layer)
	if err != nil {
		return Rule{}, fmt.Errorf("the layer %q does not start with its number", strings.TrimSpace(cells[0]))
	}
	r := Rule{Layer: l, Package: strings.Trim(strings.TrimSpace(cells[1]), "`"), Line: n}
	if r.Package == "" {
		return Rule{}, errors.New("the package cell is empty")
	}
	may := strings.TrimSpace(cells[3])
	if may == "—" || may == "" {
		return r, nil
	}
	for _, p := range strings.Split(may, ",") {
		r.MayImport = append(r.MayImport, strings.Trim(strings.TrimSpace(p), "`"))
	}
	return r, nil
}

// Check returns an error for each import of graph (package → the
// packages of the module it imports) that the table does not allow, for
// each package without a row or row without a package, for each row that
// allows a package of a higher layer, and for each cycle of rows.
func (t *Table) Check(graph map[string][]string) []error {
	errs := t.checkRows(graph)
	for _, p := range sortedKeys(graph) {
		r, ok := t.Rules[p]
		if !ok {
			continue // checkRows said so
		}
		allowed := t.closure(p)
		for _, imp := range graph[p] {
			if !allowed[imp] {
				errs = append(errs, fmt.Errorf("%s imports %s, which %s:%d does not allow (it may import %s)",
					p, imp, t.File, r.Line, describe(r.MayImport)))
			}
		}
	}
	return errs
}

// checkRows checks the table against itself and against the packages.
func (t *Table) checkRows(graph map[string][]string) []error {
	var errs []error
	for _, p := range sortedKeys(graph) {
		if _, ok := t.Rules[p]; !ok {
			errs = append(errs, fmt.Errorf("package %s has no row in %s's package map: add one, with its layer and what it may import", p, t.File))
		}
	}
	for _, p := range sortedKeys(t.Rules) {
		r := t.Rules[p]
		if _, ok := graph[p]; !ok {
			errs = append(errs, fmt.Errorf("%s:%d: package %s is not a package of the module", t.File, r.Line, p))
		}
		for _, m := range r.MayImport {
			dep, ok := t.Rules[m]
			switch {
			case !ok:
				errs = append(errs, fmt.Errorf("%s:%d: %s may import %s, which has no row", t.File, r.Line, p, m))
			case dep.Layer > r.Layer:
				errs = append(errs, fmt.Errorf("%s:%d: %s (layer %d) may import %s of layer %d above it: an arrow back up", t.File, r.Line, p, r.Layer, m, dep.Layer))
			}
		}
	}
	if len(errs) == 0 {
		for _, p := range sortedKeys(t.Rules) {
			if t.closure(p)[p] {
				errs = append(errs, fmt.Errorf("%s:%d: %s may import itself through the rows: a cycle", t.File, t.Rules[p].Line, p))
			}
		}
	}
	return errs
}

// closure returns the packages p may import: those its row names and,
// transitively, those they may.
func (t *Table) closure(p string) map[string]bool {
	seen := map[string]bool{}
	stack := slices.Clone(t.Rules[p].MayImport)
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[q] {
			continue
		}
		seen[q] = true
		stack = append(stack, t.Rules[q].MayImport...)
	}
	return seen
}

// describe lists the packages a row allows, or says it allows none.
func describe(may []string) string {
	if len(may) == 0 {
		return "no package of the module"
	}
	return strings.Join(may, ", ") + " and what they may"
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// ParseGraph reads the output of
//
//	go list -f '{{.ImportPath}} {{join .Imports " "}}' ./...
//
// into the packages of module (their paths without the module's and its
// slash) and, for each, the packages of the module it imports.
func ParseGraph(out []byte, module string) map[string][]string {
	graph := map[string][]string{}
	prefix := module + "/"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || !strings.HasPrefix(fields[0], prefix) {
			continue
		}
		p := strings.TrimPrefix(fields[0], prefix)
		graph[p] = []string{}
		for _, imp := range fields[1:] {
			if strings.HasPrefix(imp, prefix) {
				graph[p] = append(graph[p], strings.TrimPrefix(imp, prefix))
			}
		}
	}
	return graph
}
