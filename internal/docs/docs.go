// Package docs keeps the generated parts of the README and of the pages
// in docs/ in step with the code.
//
// A generated part of a Markdown file sits between two comment lines:
//
//	<!-- generated: section experiments/quickstart.hcl "accuracy" -->
//	...
//	<!-- end generated -->
//
// The spec after "generated:" says what goes between them:
//
//	section FILE "HEADING"        the body of the "## HEADING…" section of
//	                              the NAME.md that `bench run FILE` writes
//	table FILE "HEADING"          only that section's table
//
// Update replaces every part with what a Generator produces now, so
// `make docs` regenerates the documents and `make docs-check` fails when a
// committed document differs from it (it runs every shipped experiment,
// so it is a target of its own, not part of `make test`).
package docs

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

const (
	beginMark = "<!-- generated:"
	endMark   = "<!-- end generated -->"
)

// Spec is one parsed generated-part header.
type Spec struct {
	// Kind is "section" or "table".
	Kind string
	// File is the experiment file, relative to the repository root.
	File string
	// Heading is the prefix of the Markdown heading of the section.
	Heading string
}

// String returns the spec as written in the header line.
func (s Spec) String() string {
	return fmt.Sprintf("%s %s %s", s.Kind, s.File, strconv.Quote(s.Heading))
}

// Generator produces the text of one generated part, without a trailing
// newline.
type Generator interface {
	Generate(Spec) (string, error)
}

// part is a generated part of a document: its spec and the line numbers
// (0-based) of its begin and end markers.
type part struct {
	spec       Spec
	begin, end int
}

// Update returns doc with every generated part replaced by what gen
// produces. name is the document's name for error messages.
func Update(name string, doc []byte, gen Generator) ([]byte, error) {
	lines := strings.SplitAfter(string(doc), "\n")
	parts, err := parse(name, lines)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	next := 0
	for _, p := range parts {
		text, err := gen.Generate(p.spec)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %s: %w", name, p.begin+1, p.spec, err)
		}
		out.WriteString(strings.Join(lines[next:p.begin+1], ""))
		out.WriteString(text)
		out.WriteString("\n")
		next = p.end
	}
	out.WriteString(strings.Join(lines[next:], ""))
	return out.Bytes(), nil
}

// parse finds the generated parts of a document split into lines.
func parse(name string, lines []string) ([]part, error) {
	var parts []part
	open := -1
	var spec Spec
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, beginMark):
			if open >= 0 {
				return nil, fmt.Errorf("%s:%d: generated part inside the one opened at line %d", name, i+1, open+1)
			}
			s, err := parseSpec(strings.TrimSuffix(strings.TrimPrefix(t, beginMark), "-->"))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, i+1, err)
			}
			open, spec = i, s
		case t == endMark:
			if open < 0 {
				return nil, fmt.Errorf("%s:%d: %q without a generated part to end", name, i+1, endMark)
			}
			parts = append(parts, part{spec, open, i})
			open = -1
		}
	}
	if open >= 0 {
		return nil, fmt.Errorf("%s:%d: generated part not ended by %q", name, open+1, endMark)
	}
	return parts, nil
}

// parseSpec parses `KIND FILE "HEADING"`.
func parseSpec(s string) (Spec, error) {
	s = strings.TrimSpace(s)
	kind, rest, _ := strings.Cut(s, " ")
	file, heading, _ := strings.Cut(strings.TrimSpace(rest), " ")
	h, err := strconv.Unquote(strings.TrimSpace(heading))
	if err != nil {
		return Spec{}, fmt.Errorf("generated part %q: the heading must be a quoted string: %w", s, err)
	}
	if kind != "section" && kind != "table" {
		return Spec{}, fmt.Errorf("generated part %q: unknown kind %q (want section or table)", s, kind)
	}
	if file == "" || h == "" {
		return Spec{}, fmt.Errorf("generated part %q: want KIND FILE \"HEADING\"", s)
	}
	return Spec{Kind: kind, File: file, Heading: h}, nil
}

// Extract returns the body of the first level-2 section of a Markdown
// report whose heading starts with heading (the whole body when
// tableOnly is false, else only its first table), trimmed of blank lines.
func Extract(md, heading string, tableOnly bool) (string, error) {
	var body []string
	in := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "## ") {
			if in {
				break
			}
			in = strings.HasPrefix(strings.TrimPrefix(l, "## "), heading)
			continue
		}
		if in {
			body = append(body, l)
		}
	}
	if !in && body == nil {
		return "", fmt.Errorf("no section %q", heading)
	}
	if tableOnly {
		var table []string
		for _, l := range body {
			if strings.HasPrefix(l, "|") {
				table = append(table, l)
			} else if len(table) > 0 {
				break
			}
		}
		if table == nil {
			return "", fmt.Errorf("section %q has no table", heading)
		}
		return strings.Join(table, "\n"), nil
	}
	return strings.Trim(strings.Join(body, "\n"), "\n"), nil
}

// Diff describes the first difference between the committed and the
// generated document, or returns "" when they are equal.
func Diff(name string, committed, generated []byte) string {
	if bytes.Equal(committed, generated) {
		return ""
	}
	a := strings.Split(string(committed), "\n")
	b := strings.Split(string(generated), "\n")
	for i := 0; ; i++ {
		var la, lb string
		if i < len(a) {
			la = a[i]
		}
		if i < len(b) {
			lb = b[i]
		}
		if la != lb || i >= len(a) || i >= len(b) {
			return fmt.Sprintf("%s:%d differs from what the code produces now (run `make docs`):\n  committed: %s\n  generated: %s", name, i+1, la, lb)
		}
	}
}
