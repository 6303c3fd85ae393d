package data

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/polyclass/polyclass/framework/safetext"
)

// ReadARFF loads a Weka ARFF file; a path ending in .gz is gunzipped. See
// ParseARFF for the format.
func ReadARFF(path string, opt Options) (*Table, error) {
	return readPath(path, opt, parseARFF)
}

// ParseARFF reads Weka ARFF from r; source names the input in errors.
//
// Supported: @relation; @attribute with types numeric, real, integer
// (numeric columns), {v1, v2, …} (nominal: categorical with the declared
// values as levels, in declared order; other values are errors) and string
// (categorical); @data with dense rows (comma-separated) or sparse rows
// ({index value, …}, 0-based indices, increasing; an omitted value is 0
// for numeric attributes, the first declared value for nominal ones and
// missing for string ones). Names and values may be quoted with ' or "
// (backslash escapes). '?' (unquoted) and Options.Missing markers are
// missing. Lines starting with % are comments, as is a % outside quotes
// after a declaration or a data row (Weka's tokenizer takes an unquoted %
// anywhere as a comment to the end of the line). date and relational attributes are rejected unless
// listed in Options.Ignore; instance weights are rejected.
//
// The relation name is kept in Table.Relation; a MEKA/MULAN label option
// "-C n" in it (e.g. 'emotions: -C -6') fills Table.LabelCount and
// Table.Labels. Options.Categorical may turn a numeric attribute into a
// categorical one (levels are the value text), Options.Numeric a nominal
// or string attribute into a numeric one.
func ParseARFF(r io.Reader, source string, opt Options) (*Table, error) {
	return parseARFF(r, source, opt, 0)
}

// arffType is the declared type of an ARFF attribute.
type arffType uint8

const (
	arffNumeric arffType = iota
	arffNominal
	arffString
	arffDate
)

type arffAttr struct {
	name   string
	typ    arffType
	levels []string
	line   int
}

// content returns the next line that is not blank or a % comment, trimmed.
func (lr *lineReader) content() (string, bool) {
	for {
		l, ok := lr.next()
		if !ok || !blank(l) {
			return strings.TrimSpace(l), ok
		}
	}
}

// arffReader holds the state of reading one ARFF text.
type arffReader struct {
	lines    *lineReader
	source   string
	missing  []string
	relation string
	relLine  int // 0 until @relation is read
	attrs    []arffAttr
	index    map[string]int // attribute name → position in attrs
	folded   map[string]int // safetext.Fold of an attribute name → position in attrs
	builders []*colBuilder  // per attribute; nil for ignored ones
	bounds   bounds
	pieces   []string // the fields of the current row
}

// parseARFF is ParseARFF for an input of about size bytes (0: unknown).
func parseARFF(in io.Reader, source string, opt Options, size int64) (*Table, error) {
	lines, ov, err := readLines(in, source, opt, size)
	if err != nil {
		return nil, err
	}
	r := &arffReader{lines: lines, source: source, missing: opt.Missing, index: map[string]int{}, folded: map[string]int{}, bounds: opt.limits()}
	t, err := r.read(ov)
	if ferr := lines.failure(source); ferr != nil {
		return nil, ferr
	}
	return t, err
}

// read reads the declarations and the rows.
func (r *arffReader) read(ov overrides) (*Table, error) {
	if err := r.header(); err != nil {
		return nil, err
	}
	names := make([]string, len(r.attrs))
	for i, a := range r.attrs {
		names[i] = a.name
	}
	if err := ov.unknown(func(n string) bool { _, ok := r.index[n]; return ok }, names); err != nil {
		return nil, r.errorAt(0, err)
	}
	t := &Table{Source: r.source, Relation: r.relation}
	if err := r.labels(t, ov); err != nil {
		return nil, err
	}
	if err := r.newBuilders(ov); err != nil {
		return nil, err
	}
	width := int64(kept(r.builders))
	var text int64 // bytes of the data rows read
	for l, ok := r.lines.content(); ok; l, ok = r.lines.content() {
		text += int64(len(l)) + 1
		if err := errors.Join(r.bounds.check(t.NumRows+1, int64(t.NumRows+1)*width), r.bounds.checkBytes(t.NumRows+1, text)); err != nil {
			return nil, r.errorAt(r.lines.line, err)
		}
		l = stripComment(l)
		var err error
		if l[0] == '{' {
			err = r.sparseRow(l)
		} else {
			err = r.denseRow(l)
		}
		if err != nil {
			return nil, err
		}
		t.NumRows++
	}
	if t.NumRows == 0 {
		return nil, r.errorAt(0, fmt.Errorf("%w: no data rows after @data", ErrEmpty))
	}
	for _, b := range r.builders {
		if b != nil {
			t.Columns = append(t.Columns, b.column())
		}
	}
	return t, nil
}

// errorAt returns a *ParseError at line (0: none).
func (r *arffReader) errorAt(line int, err error) error {
	return &ParseError{Source: r.source, Line: line, Err: err}
}

// valueError returns a *ParseError at attribute i of the current line.
func (r *arffReader) valueError(i int, err error) error {
	return &ParseError{Source: r.source, Line: r.lines.line, Column: r.attrs[i].name, Col: i + 1, Err: err}
}

// header reads the declarations up to and including @data.
func (r *arffReader) header() error {
	t, ok := r.lines.content()
	if !ok {
		return r.errorAt(0, fmt.Errorf("%w: empty file", ErrEmpty))
	}
	for ; ok; t, ok = r.lines.content() {
		if t[0] != '@' {
			return r.errorAt(r.lines.line, fmt.Errorf("%w: expected @relation, @attribute or @data, found %s", ErrSyntax, safetext.Excerpt(t)))
		}
		kw, rest := t, ""
		if i := strings.IndexAny(t, " \t{'\""); i >= 0 {
			kw, rest = t[:i], t[i:]
		}
		var err error
		switch strings.ToLower(kw) {
		case "@relation":
			err = r.readRelation(rest)
		case "@attribute":
			if err := r.readAttribute(rest); err != nil {
				return err // located at the attribute
			}
		case "@data":
			if !blank(rest) {
				return r.errorAt(r.lines.line, fmt.Errorf("%w: unexpected %s after @data", ErrSyntax, safetext.Excerpt(rest)))
			}
			if len(r.attrs) == 0 {
				return r.errorAt(0, fmt.Errorf("%w: no @attribute declarations", ErrEmpty))
			}
			return nil
		case "@end":
			err = fmt.Errorf("%w: relational attributes are not supported", ErrUnsupported)
		default:
			err = fmt.Errorf("%w: unknown declaration %s", ErrSyntax, safetext.Excerpt(kw))
		}
		if err != nil {
			return r.errorAt(r.lines.line, err)
		}
	}
	return r.errorAt(0, fmt.Errorf("%w: no @data section", ErrSyntax))
}

// readRelation reads the name after @relation.
func (r *arffReader) readRelation(rest string) error {
	switch {
	case r.relLine > 0:
		return fmt.Errorf("%w: second @relation (first on line %d)", ErrSyntax, r.relLine)
	case len(r.attrs) > 0:
		return fmt.Errorf("%w: @relation after @attribute", ErrSyntax)
	}
	name := strings.TrimSpace(rest)
	r.relation, r.relLine = strings.Clone(name), r.lines.line
	if name == "" || (name[0] != '\'' && name[0] != '"') {
		// Unquoted: the rest of the line, as some MULAN files
		// write e.g. "@relation emotions: -C -6".
		return nil
	}
	var tail string
	var err error
	if r.relation, tail, err = arffWord(name); err != nil {
		return err
	}
	return endOfDecl(tail)
}

// readAttribute reads the declaration after @attribute.
func (r *arffReader) readAttribute(rest string) error {
	col := len(r.attrs) + 1
	a, err := parseAttribute(rest)
	if err == nil {
		err = a.validUTF8()
	}
	if err != nil {
		return &ParseError{Source: r.source, Line: r.lines.line, Col: col, Err: err}
	}
	if j, dup := r.index[a.name]; dup {
		err := fmt.Errorf("%w (first at attribute %d, line %d)", ErrDuplicateColumn, j+1, r.attrs[j].line)
		return &ParseError{Source: r.source, Line: r.lines.line, Column: a.name, Col: col, Err: err}
	}
	fold := safetext.Fold(a.name)
	if j, dup := r.folded[fold]; dup {
		err := readsAs(a.name, r.attrs[j].name, fmt.Sprintf("attribute %d, line %d", j+1, r.attrs[j].line))
		return &ParseError{Source: r.source, Line: r.lines.line, Column: a.name, Col: col, Err: err}
	}
	a.line = r.lines.line
	r.folded[fold] = len(r.attrs)
	r.index[a.name] = len(r.attrs)
	r.attrs = append(r.attrs, a)
	return nil
}

// labels sets t.LabelCount and t.Labels from a "-C n" option in the
// relation name.
func (r *arffReader) labels(t *Table, ov overrides) error {
	n, ok := labelCount(r.relation)
	if !ok {
		return nil
	}
	if n == 0 || n > len(r.attrs) || -n > len(r.attrs) {
		return r.errorAt(r.relLine, fmt.Errorf("%w: relation declares -C %d but there are %d attributes", ErrSyntax, n, len(r.attrs)))
	}
	t.LabelCount = n
	lo, hi := 0, n
	if n < 0 {
		lo, hi = len(r.attrs)+n, len(r.attrs)
	}
	for _, a := range r.attrs[lo:hi] {
		if ov.kind[a.name] != modeIgnore {
			t.Labels = append(t.Labels, a.name)
		}
	}
	return nil
}

// newBuilders makes the column builders: numeric attributes are numeric,
// nominal ones categorical with their declared levels, string ones
// categorical, unless Options say otherwise.
func (r *arffReader) newBuilders(ov overrides) error {
	rows := r.lines.rowsLeft(len(r.attrs), r.bounds.rows)
	r.builders = make([]*colBuilder, len(r.attrs))
	for i, a := range r.attrs {
		def := modeCat
		if a.typ == arffNumeric {
			def = modeNum
		}
		mode := ov.mode(a.name, def)
		if mode == modeIgnore {
			continue
		}
		if a.typ == arffDate {
			err := fmt.Errorf("%w: date attributes are not supported; add the column to Ignore", ErrUnsupported)
			return &ParseError{Source: r.source, Line: a.line, Column: a.name, Col: i + 1, Err: err}
		}
		r.builders[i] = newBuilder(a.name, mode, rows)
		if mode == modeCat && a.typ == arffNominal {
			r.builders[i].declare(a.levels)
		}
	}
	return nil
}

// denseRow reads a row of comma-separated values, one per attribute.
func (r *arffReader) denseRow(t string) error {
	var err error
	if r.pieces, err = arffSplit(r.pieces[:0], t); err != nil {
		return r.errorAt(r.lines.line, err)
	}
	if n := len(r.pieces); n != len(r.attrs) {
		extra := ""
		if n == len(r.attrs)+1 && strings.HasPrefix(r.pieces[n-1], "{") {
			extra = " (instance weights are not supported)"
		}
		return r.errorAt(r.lines.line, fmt.Errorf("%w: row has %d values, %d attributes are declared%s", ErrRagged, n, len(r.attrs), extra))
	}
	for i, p := range r.pieces {
		if r.builders[i] == nil {
			continue
		}
		if err := r.addText(i, p); err != nil {
			return err
		}
	}
	return nil
}

// sparseRow reads a row {index value, …}, indices increasing; the
// attributes it leaves out get the value fill gives them.
func (r *arffReader) sparseRow(t string) error {
	line := r.lines.line
	if t[len(t)-1] != '}' {
		return r.errorAt(line, fmt.Errorf("%w: sparse row does not end in '}' (instance weights are not supported)", ErrSyntax))
	}
	var err error
	if r.pieces, err = arffSplit(r.pieces[:0], t[1:len(t)-1]); err != nil {
		return r.errorAt(line, err)
	}
	if len(r.pieces) == 1 && r.pieces[0] == "" {
		r.pieces = r.pieces[:0] // {}: every value omitted
	}
	next := 0
	for k, p := range r.pieces {
		sp := strings.IndexAny(p, " \t")
		if sp < 0 {
			return r.errorAt(line, fmt.Errorf("%w: sparse entry %d %s is not \"index value\"", ErrSyntax, k+1, safetext.Excerpt(p)))
		}
		idx, err := strconv.Atoi(p[:sp])
		if err != nil || idx < 0 || idx >= len(r.attrs) {
			return r.errorAt(line, fmt.Errorf("%w: sparse entry %d: index %s is not in [0, %d)", ErrSyntax, k+1, safetext.Excerpt(p[:sp]), len(r.attrs)))
		}
		if idx < next {
			return r.valueError(idx, fmt.Errorf("%w: sparse index %d is not increasing", ErrSyntax, idx))
		}
		if err := r.fill(next, idx); err != nil {
			return err
		}
		if err := r.addText(idx, strings.TrimSpace(p[sp:])); err != nil {
			return err
		}
		next = idx + 1
	}
	return r.fill(next, len(r.attrs))
}

// fill stores, for attributes from to to-1 omitted from a sparse row, the
// value they stand for: 0, the first declared nominal value, or missing.
func (r *arffReader) fill(from, to int) error {
	for i := from; i < to; i++ {
		v, missing := "", true
		switch a := &r.attrs[i]; {
		case a.typ == arffNumeric:
			v, missing = "0", false
		case a.typ == arffNominal && len(a.levels) > 0:
			v, missing = a.levels[0], false
		}
		if err := r.add(i, v, missing); err != nil {
			return err
		}
	}
	return nil
}

// addText stores the value written p (quoted or not) of attribute i; '?'
// and Options.Missing markers are missing unless quoted.
func (r *arffReader) addText(i int, p string) error {
	v, quoted, err := arffUnquote(p)
	if err != nil {
		return r.valueError(i, err)
	}
	return r.add(i, v, !quoted && (v == "?" || isMissing(v, r.missing)))
}

// add stores value v of attribute i, unless the attribute is ignored.
func (r *arffReader) add(i int, v string, missing bool) error {
	if b := r.builders[i]; b != nil {
		if err := b.add(v, missing); err != nil {
			return r.valueError(i, err)
		}
	}
	return nil
}

// validUTF8 returns an ErrEncoding error when the attribute's name or a
// declared value is not valid UTF-8 (protobuf strings must be), an
// ErrControl error when one holds a control character, and an
// ErrHiddenName error when the name holds a character that does not show.
func (a *arffAttr) validUTF8() error {
	if !utf8.ValidString(a.name) {
		return fmt.Errorf("%w: attribute name %s", ErrEncoding, safetext.Show(a.name))
	}
	if err := controlChar(a.name); err != nil {
		return fmt.Errorf("attribute name: %w", err)
	}
	if err := hiddenName(a.name); err != nil {
		return fmt.Errorf("attribute name: %w", err)
	}
	for _, l := range a.levels {
		if !utf8.ValidString(l) {
			return fmt.Errorf("%w: attribute %s declares value %s", ErrEncoding, safetext.Show(a.name), safetext.Show(l))
		}
		if err := controlChar(l); err != nil {
			return fmt.Errorf("attribute %s declares a value with a %w", safetext.Show(a.name), err)
		}
	}
	return nil
}

// parseAttribute parses the text after @attribute.
func parseAttribute(rest string) (arffAttr, error) {
	name, tail, err := arffWord(rest)
	if err != nil {
		return arffAttr{}, err
	}
	if name == "" {
		return arffAttr{}, fmt.Errorf("%w: @attribute without a name", ErrSyntax)
	}
	a := arffAttr{name: name}
	tail = strings.TrimSpace(tail)
	if strings.HasPrefix(tail, "{") {
		a.typ = arffNominal
		a.levels, err = nominalValues(name, tail)
		return a, err
	}
	word, after := cutWord(tail)
	switch strings.ToLower(word) {
	case "numeric", "real", "integer":
		a.typ = arffNumeric
	case "string":
		a.typ = arffString
	case "date":
		a.typ = arffDate
		return a, nil // the format may follow
	case "relational":
		return a, fmt.Errorf("%w: attribute %s: relational attributes are not supported", ErrUnsupported, safetext.Excerpt(name))
	case "":
		return a, fmt.Errorf("%w: attribute %s has no type", ErrSyntax, safetext.Excerpt(name))
	default:
		return a, fmt.Errorf("%w: attribute %s has unknown type %s", ErrSyntax, safetext.Excerpt(name), safetext.Excerpt(word))
	}
	return a, endOfDecl(after)
}

// nominalValues parses the value list {v1, v2, …} that starts decl, the
// type of attribute name.
func nominalValues(name, decl string) ([]string, error) {
	end, err := indexUnquoted(decl, '}')
	if end < 0 || err != nil {
		return nil, fmt.Errorf("%w: attribute %s: nominal value list is not closed with '}'", ErrSyntax, safetext.Excerpt(name))
	}
	if err := endOfDecl(decl[end+1:]); err != nil {
		return nil, err
	}
	body := strings.TrimSpace(decl[1:end])
	if body == "" {
		return []string{}, nil
	}
	pieces, err := arffSplit(nil, body)
	if err != nil {
		return nil, err
	}
	levels := make([]string, 0, len(pieces))
	declared := make(map[string]bool, len(pieces))
	for _, p := range pieces {
		v, _, err := arffUnquote(p)
		if err != nil {
			return nil, err
		}
		if declared[v] {
			return nil, fmt.Errorf("%w: attribute %s declares nominal value %s twice", ErrSyntax, safetext.Excerpt(name), safetext.Excerpt(v))
		}
		declared[v] = true
		levels = append(levels, strings.Clone(v))
	}
	return levels, nil
}

// cutWord returns the first blank-separated word of s and the text after
// it.
func cutWord(s string) (word, rest string) {
	s = strings.TrimLeft(s, " \t")
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i], s[i:]
	}
	return s, ""
}

// blank reports whether s holds nothing but blanks and a % comment.
func blank(s string) bool {
	s = strings.TrimSpace(s)
	return s == "" || s[0] == '%'
}

// stripComment returns the data row l (trimmed, not blank, not starting
// with %) without the comment an unquoted % starts, trimmed; a % inside
// quotes is text. A row with a quote that is not closed before any % is
// returned whole, for the row's reader to report.
func stripComment(l string) string {
	i, err := indexUnquoted(l, '%')
	if err != nil || i < 0 {
		return l
	}
	return strings.TrimSpace(l[:i])
}

// endOfDecl checks that only blanks or a % comment follow a declaration.
func endOfDecl(s string) error {
	if blank(s) {
		return nil
	}
	return fmt.Errorf("%w: unexpected %s at end of declaration", ErrSyntax, safetext.Excerpt(strings.TrimSpace(s)))
}

// arffWord reads one possibly quoted word from the start of s (after
// blanks) and returns it unquoted with the remaining text. An unquoted
// word ends at a blank or '{'.
func arffWord(s string) (word, rest string, err error) {
	s = strings.TrimLeft(s, " \t")
	if s != "" && (s[0] == '\'' || s[0] == '"') {
		end := closingQuote(s)
		if end < 0 {
			return "", "", fmt.Errorf("%w: unterminated quote in %s", ErrSyntax, safetext.Excerpt(s))
		}
		w, _, err := arffUnquote(s[:end+1])
		return strings.Clone(w), s[end+1:], err
	}
	end := strings.IndexAny(s, " \t{")
	if end < 0 {
		end = len(s)
	}
	return strings.Clone(s[:end]), s[end:], nil
}

// closingQuote returns the index of the quote that closes the one s
// starts with, skipping backslash escapes, or -1.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case s[0]:
			return i
		}
	}
	return -1
}

// indexUnquoted returns the index of the first c in s outside quotes, or
// -1; a quote that is not closed is an error.
func indexUnquoted(s string, c byte) (int, error) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case c:
			return i, nil
		case '\'', '"':
			end := closingQuote(s[i:])
			if end < 0 {
				return -1, fmt.Errorf("%w: unterminated quote", ErrSyntax)
			}
			i += end
		}
	}
	return -1, nil
}

// arffSplit appends to dst the comma-separated pieces of s, trimmed, with
// commas inside quotes kept.
func arffSplit(dst []string, s string) ([]string, error) {
	for {
		i, err := indexUnquoted(s, ',')
		if err != nil {
			return dst, err
		}
		if i < 0 {
			return append(dst, strings.TrimSpace(s)), nil
		}
		dst = append(dst, strings.TrimSpace(s[:i]))
		s = s[i+1:]
	}
}

// arffUnquote returns the value of a trimmed token and whether it was
// quoted: a quoted token loses its quotes and escapes (\n, \t, \r, and a
// backslash before any other character); a bare token is returned as is.
func arffUnquote(t string) (string, bool, error) {
	if t == "" || (t[0] != '\'' && t[0] != '"') {
		return t, false, nil
	}
	end := closingQuote(t)
	switch {
	case end < 0:
		return "", true, fmt.Errorf("%w: unterminated quote in %s", ErrSyntax, safetext.Excerpt(t))
	case end < len(t)-1:
		return "", true, fmt.Errorf("%w: text after closing quote in %s", ErrSyntax, safetext.Excerpt(t))
	}
	body := t[1:end]
	if strings.IndexByte(body, '\\') < 0 {
		return body, true, nil
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == '\\' {
			// Never the last byte: closingQuote skipped the byte after it.
			i++
			c = body[i]
			switch c {
			case 'n':
				c = '\n'
			case 't':
				c = '\t'
			case 'r':
				c = '\r'
			}
		}
		b.WriteByte(c)
	}
	return b.String(), true, nil
}

// labelCount finds a MEKA/MULAN "-C n" option in a relation name.
func labelCount(relation string) (int, bool) {
	f := strings.Fields(relation)
	i := slices.Index(f, "-C")
	if i < 0 || i+1 == len(f) {
		return 0, false
	}
	n, err := strconv.Atoi(f[i+1])
	return n, err == nil
}
