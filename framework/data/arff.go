package data

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ReadARFF loads a Weka ARFF file; a path ending in .gz is gunzipped. See
// ParseARFF for the format.
func ReadARFF(path string, opt Options) (*Table, error) {
	s, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return parseARFF(s, path, opt)
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
// after a declaration. date and relational attributes are rejected unless
// listed in Options.Ignore; instance weights are rejected.
//
// The relation name is kept in Table.Relation; a MEKA/MULAN label option
// "-C n" in it (e.g. 'emotions: -C -6') fills Table.LabelCount and
// Table.Labels. Options.Categorical may turn a numeric attribute into a
// categorical one (levels are the value text), Options.Numeric a nominal
// or string attribute into a numeric one.
func ParseARFF(r io.Reader, source string, opt Options) (*Table, error) {
	s, err := readAll(r, source)
	if err != nil {
		return nil, err
	}
	return parseARFF(s, source, opt)
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

// lineReader yields the lines of a text with their 1-based numbers,
// without the line terminator.
type lineReader struct {
	s    string
	pos  int
	line int
}

func (lr *lineReader) next() (string, bool) {
	if lr.pos >= len(lr.s) {
		return "", false
	}
	lr.line++
	rest := lr.s[lr.pos:]
	j := strings.IndexByte(rest, '\n')
	var l string
	if j < 0 {
		l = rest
		lr.pos = len(lr.s)
	} else {
		l = rest[:j]
		lr.pos += j + 1
	}
	if len(l) > 0 && l[len(l)-1] == '\r' {
		l = l[:len(l)-1]
	}
	return l, true
}

func parseARFF(s, source string, opt Options) (*Table, error) {
	ov, err := opt.resolve()
	if err != nil {
		return nil, &ParseError{Source: source, Err: err}
	}
	s = strings.TrimPrefix(s, "\uFEFF")
	lr := lineReader{s: s}
	perr := func(line int, attr int, name string, err error) error {
		return &ParseError{Source: source, Line: line, Column: name, Col: attr, Err: err}
	}
	var (
		relation    string
		relLine     int
		hasRelation bool
		attrs       []arffAttr
		seen        = map[string]int{}
		inData      bool
		nonBlank    bool
	)
header:
	for {
		l, ok := lr.next()
		if !ok {
			break
		}
		t := strings.TrimSpace(l)
		if t == "" || t[0] == '%' {
			continue
		}
		nonBlank = true
		if t[0] != '@' {
			return nil, perr(lr.line, 0, "", fmt.Errorf("%w: expected @relation, @attribute or @data, found %q", ErrSyntax, clip(t)))
		}
		kw, rest := t, ""
		if i := strings.IndexAny(t, " \t{'\""); i >= 0 {
			kw, rest = t[:i], t[i:]
		}
		switch strings.ToLower(kw) {
		case "@relation":
			if hasRelation {
				return nil, perr(lr.line, 0, "", fmt.Errorf("%w: second @relation (first on line %d)", ErrSyntax, relLine))
			}
			if len(attrs) > 0 {
				return nil, perr(lr.line, 0, "", fmt.Errorf("%w: @relation after @attribute", ErrSyntax))
			}
			name := strings.TrimSpace(rest)
			if name != "" && (name[0] == '\'' || name[0] == '"') {
				var tail string
				if name, tail, err = arffWord(name, false); err == nil {
					err = endOfDecl(tail)
				}
				if err != nil {
					return nil, perr(lr.line, 0, "", err)
				}
			} else {
				// Unquoted: the rest of the line, as some MULAN files
				// write e.g. "@relation emotions: -C -6".
				name = strings.Clone(name)
			}
			relation, relLine, hasRelation = name, lr.line, true
		case "@attribute":
			a, err := parseAttribute(rest)
			if err != nil {
				return nil, perr(lr.line, len(attrs)+1, "", err)
			}
			a.line = lr.line
			if err := a.validUTF8(); err != nil {
				return nil, perr(lr.line, len(attrs)+1, "", err)
			}
			if j, dup := seen[a.name]; dup {
				return nil, perr(lr.line, len(attrs)+1, a.name, fmt.Errorf("%w (first at attribute %d, line %d)", ErrDuplicateColumn, j+1, attrs[j].line))
			}
			seen[a.name] = len(attrs)
			attrs = append(attrs, a)
		case "@data":
			if strings.TrimSpace(rest) != "" && strings.TrimSpace(rest)[0] != '%' {
				return nil, perr(lr.line, 0, "", fmt.Errorf("%w: unexpected %q after @data", ErrSyntax, clip(rest)))
			}
			inData = true
			break header
		case "@end":
			return nil, perr(lr.line, 0, "", fmt.Errorf("%w: relational attributes are not supported", ErrUnsupported))
		default:
			return nil, perr(lr.line, 0, "", fmt.Errorf("%w: unknown declaration %q", ErrSyntax, kw))
		}
	}
	switch {
	case !nonBlank:
		return nil, perr(0, 0, "", fmt.Errorf("%w: empty file", ErrEmpty))
	case !inData:
		return nil, perr(0, 0, "", fmt.Errorf("%w: no @data section", ErrSyntax))
	case len(attrs) == 0:
		return nil, perr(0, 0, "", fmt.Errorf("%w: no @attribute declarations", ErrEmpty))
	}
	if err := ov.unknown(func(n string) bool { _, ok := seen[n]; return ok }); err != nil {
		return nil, perr(0, 0, "", err)
	}

	t := &Table{Source: source, Relation: relation}
	if n, ok := labelCount(relation); ok {
		if n == 0 || n > len(attrs) || -n > len(attrs) {
			return nil, perr(relLine, 0, "", fmt.Errorf("%w: relation declares -C %d but there are %d attributes", ErrSyntax, n, len(attrs)))
		}
		t.LabelCount = n
		lo, hi := 0, n
		if n < 0 {
			lo, hi = len(attrs)+n, len(attrs)
		}
		for _, a := range attrs[lo:hi] {
			if ov.kind[a.name] != ovIgnore {
				t.Labels = append(t.Labels, a.name)
			}
		}
	}

	capHint := strings.Count(s[lr.pos:], "\n") + 1
	builders := make([]*colBuilder, len(attrs))
	for i, a := range attrs {
		k := ov.kind[a.name]
		if k == ovIgnore {
			continue
		}
		var b *colBuilder
		switch a.typ {
		case arffDate:
			return nil, perr(a.line, i+1, a.name, fmt.Errorf("%w: date attributes are not supported; add the column to Ignore", ErrUnsupported))
		case arffNumeric:
			if k == ovCategorical {
				b = newBuilder(a.name, modeCat, capHint)
			} else {
				b = newBuilder(a.name, modeNum, capHint)
			}
		case arffNominal:
			if k == ovNumeric {
				b = newBuilder(a.name, modeNum, capHint)
			} else {
				b = newBuilder(a.name, modeCat, capHint)
				b.declare(a.levels)
			}
		case arffString:
			if k == ovNumeric {
				b = newBuilder(a.name, modeNum, capHint)
			} else {
				b = newBuilder(a.name, modeCat, capHint)
			}
		}
		builders[i] = b
	}

	// add stores the value of attribute i; quoted values are never '?'.
	add := func(i int, v string, quoted bool) error {
		b := builders[i]
		if b == nil {
			return nil
		}
		missing := !quoted && (v == "?" || isMissing(v, opt.Missing))
		if err := b.add(v, missing); err != nil {
			return perr(lr.line, i+1, attrs[i].name, err)
		}
		return nil
	}
	// fill stores the value an omitted sparse entry stands for.
	fill := func(i int) error {
		if builders[i] == nil {
			return nil
		}
		switch a := &attrs[i]; a.typ {
		case arffNumeric:
			return add(i, "0", true)
		case arffNominal:
			if len(a.levels) > 0 {
				return add(i, a.levels[0], true)
			}
		}
		return builders[i].add("", true)
	}
	var pieces []string
	rows := 0
	for {
		l, ok := lr.next()
		if !ok {
			break
		}
		t := strings.TrimSpace(l)
		if t == "" || t[0] == '%' {
			continue
		}
		if t[0] == '{' {
			if t[len(t)-1] != '}' {
				return nil, perr(lr.line, 0, "", fmt.Errorf("%w: sparse row does not end in '}' (instance weights are not supported)", ErrSyntax))
			}
			pieces, err = arffSplit(pieces[:0], t[1:len(t)-1])
			if err != nil {
				return nil, perr(lr.line, 0, "", err)
			}
			next := 0
			for k, p := range pieces {
				if p == "" && len(pieces) == 1 {
					break // {} : every value omitted
				}
				sp := strings.IndexAny(p, " \t")
				if sp < 0 {
					return nil, perr(lr.line, 0, "", fmt.Errorf("%w: sparse entry %d %q is not \"index value\"", ErrSyntax, k+1, clip(p)))
				}
				idx, err := strconv.Atoi(p[:sp])
				if err != nil || idx < 0 || idx >= len(attrs) {
					return nil, perr(lr.line, 0, "", fmt.Errorf("%w: sparse entry %d: index %q is not in [0, %d)", ErrSyntax, k+1, p[:sp], len(attrs)))
				}
				if idx < next {
					return nil, perr(lr.line, idx+1, attrs[idx].name, fmt.Errorf("%w: sparse index %d is not increasing", ErrSyntax, idx))
				}
				for ; next < idx; next++ {
					if err := fill(next); err != nil {
						return nil, err
					}
				}
				v, quoted, err := arffUnquote(strings.TrimSpace(p[sp:]))
				if err != nil {
					return nil, perr(lr.line, idx+1, attrs[idx].name, err)
				}
				if err := add(idx, v, quoted); err != nil {
					return nil, err
				}
				next = idx + 1
			}
			for ; next < len(attrs); next++ {
				if err := fill(next); err != nil {
					return nil, err
				}
			}
			rows++
			continue
		}
		pieces, err = arffSplit(pieces[:0], t)
		if err != nil {
			return nil, perr(lr.line, 0, "", err)
		}
		if len(pieces) != len(attrs) {
			extra := ""
			if len(pieces) == len(attrs)+1 && strings.HasPrefix(pieces[len(pieces)-1], "{") {
				extra = " (instance weights are not supported)"
			}
			return nil, perr(lr.line, 0, "", fmt.Errorf("%w: row has %d values, %d attributes are declared%s", ErrRagged, len(pieces), len(attrs), extra))
		}
		for i, p := range pieces {
			if builders[i] == nil {
				continue
			}
			v, quoted, err := arffUnquote(p)
			if err != nil {
				return nil, perr(lr.line, i+1, attrs[i].name, err)
			}
			if err := add(i, v, quoted); err != nil {
				return nil, err
			}
		}
		rows++
	}
	if rows == 0 {
		return nil, perr(0, 0, "", fmt.Errorf("%w: no data rows after @data", ErrEmpty))
	}
	t.NumRows = rows
	for _, b := range builders {
		if b != nil {
			t.Columns = append(t.Columns, b.column())
		}
	}
	return t, nil
}

// parseAttribute parses the text after @attribute.
// validUTF8 returns an ErrEncoding error when the attribute's name or a
// declared value is not valid UTF-8 (protobuf strings must be).
func (a *arffAttr) validUTF8() error {
	if !utf8.ValidString(a.name) {
		return fmt.Errorf("%w: attribute name %q", ErrEncoding, a.name)
	}
	for _, l := range a.levels {
		if !utf8.ValidString(l) {
			return fmt.Errorf("%w: attribute %q declares value %q", ErrEncoding, a.name, l)
		}
	}
	return nil
}

func parseAttribute(rest string) (arffAttr, error) {
	name, tail, err := arffWord(rest, true)
	if err != nil {
		return arffAttr{}, err
	}
	if name == "" {
		return arffAttr{}, fmt.Errorf("%w: @attribute without a name", ErrSyntax)
	}
	a := arffAttr{name: name}
	tail = strings.TrimSpace(tail)
	if strings.HasPrefix(tail, "{") {
		end := -1
		var q byte
		for i := 1; i < len(tail); i++ {
			c := tail[i]
			if q != 0 {
				if c == '\\' {
					i++
				} else if c == q {
					q = 0
				}
				continue
			}
			if c == '\'' || c == '"' {
				q = c
			} else if c == '}' {
				end = i
				break
			}
		}
		if end < 0 {
			return a, fmt.Errorf("%w: attribute %q: nominal value list is not closed with '}'", ErrSyntax, name)
		}
		if err := endOfDecl(tail[end+1:]); err != nil {
			return a, err
		}
		a.typ = arffNominal
		body := strings.TrimSpace(tail[1:end])
		if body == "" {
			a.levels = []string{}
			return a, nil
		}
		pieces, err := arffSplit(nil, body)
		if err != nil {
			return a, err
		}
		dup := make(map[string]bool, len(pieces))
		for _, p := range pieces {
			v, _, err := arffUnquote(p)
			if err != nil {
				return a, err
			}
			if dup[v] {
				return a, fmt.Errorf("%w: attribute %q declares nominal value %q twice", ErrSyntax, name, v)
			}
			dup[v] = true
			a.levels = append(a.levels, strings.Clone(v))
		}
		return a, nil
	}
	word, after := tail, ""
	if i := strings.IndexAny(tail, " \t"); i >= 0 {
		word, after = tail[:i], tail[i:]
	}
	switch strings.ToLower(word) {
	case "numeric", "real", "integer":
		a.typ = arffNumeric
	case "string":
		a.typ = arffString
	case "date":
		a.typ = arffDate
		return a, nil // the format may follow
	case "relational":
		return a, fmt.Errorf("%w: attribute %q: relational attributes are not supported", ErrUnsupported, name)
	case "":
		return a, fmt.Errorf("%w: attribute %q has no type", ErrSyntax, name)
	default:
		return a, fmt.Errorf("%w: attribute %q has unknown type %q", ErrSyntax, name, clip(word))
	}
	return a, endOfDecl(after)
}

// endOfDecl checks that only blanks or a % comment follow a declaration.
func endOfDecl(s string) error {
	s = strings.TrimSpace(s)
	if s == "" || s[0] == '%' {
		return nil
	}
	return fmt.Errorf("%w: unexpected %q at end of declaration", ErrSyntax, clip(s))
}

// arffWord reads one possibly quoted word from the start of s (after
// blanks) and returns it unquoted with the remaining text. When brace is
// set, an unquoted word also ends at '{'.
func arffWord(s string, brace bool) (word, rest string, err error) {
	s = strings.TrimLeft(s, " \t")
	if s == "" {
		return "", "", nil
	}
	if q := s[0]; q == '\'' || q == '"' {
		for i := 1; i < len(s); i++ {
			if s[i] == '\\' {
				i++
				continue
			}
			if s[i] == q {
				w, _, err := arffUnquote(s[:i+1])
				return strings.Clone(w), s[i+1:], err
			}
		}
		return "", "", fmt.Errorf("%w: unterminated quote in %q", ErrSyntax, clip(s))
	}
	end := len(s)
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ' ' || c == '\t' || (brace && c == '{') {
			end = i
			break
		}
	}
	return strings.Clone(s[:end]), s[end:], nil
}

// arffSplit appends to dst the comma-separated pieces of s, trimmed, with
// commas inside quotes kept.
func arffSplit(dst []string, s string) ([]string, error) {
	start := 0
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if q != 0 {
			if c == '\\' {
				i++
			} else if c == q {
				q = 0
			}
			continue
		}
		switch c {
		case '\'', '"':
			q = c
		case ',':
			dst = append(dst, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	if q != 0 {
		return dst, fmt.Errorf("%w: unterminated quote", ErrSyntax)
	}
	return append(dst, strings.TrimSpace(s[start:])), nil
}

// arffUnquote returns the value of a trimmed token: a quoted token loses
// its quotes and escapes; a bare token is returned as is.
func arffUnquote(t string) (string, bool, error) {
	if t == "" || (t[0] != '\'' && t[0] != '"') {
		return t, false, nil
	}
	q := t[0]
	if len(t) >= 2 && t[len(t)-1] == q && strings.IndexByte(t[1:len(t)-1], '\\') < 0 && strings.IndexByte(t[1:len(t)-1], q) < 0 {
		return t[1 : len(t)-1], true, nil
	}
	var b strings.Builder
	for i := 1; i < len(t); i++ {
		c := t[i]
		switch {
		case c == '\\' && i+1 < len(t):
			i++
			switch t[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			default:
				b.WriteByte(t[i])
			}
		case c == q:
			if i != len(t)-1 {
				return "", true, fmt.Errorf("%w: text after closing quote in %q", ErrSyntax, clip(t))
			}
			return b.String(), true, nil
		default:
			b.WriteByte(c)
		}
	}
	return "", true, fmt.Errorf("%w: unterminated quote in %q", ErrSyntax, clip(t))
}

// labelCount finds a MEKA/MULAN "-C n" option in a relation name.
func labelCount(relation string) (int, bool) {
	f := strings.Fields(relation)
	for i := 0; i+1 < len(f); i++ {
		if f[i] == "-C" {
			n, err := strconv.Atoi(f[i+1])
			if err != nil {
				return 0, false
			}
			return n, true
		}
	}
	return 0, false
}

// clip shortens s for an error message.
func clip(s string) string {
	const n = 40
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
