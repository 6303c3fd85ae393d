package data

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ReadCSV loads a CSV file with a header row; a path ending in .gz is
// gunzipped. See ParseCSV for the format.
func ReadCSV(path string, opt Options) (*Table, error) {
	s, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return parseCSV(s, path, opt)
}

// ParseCSV reads CSV from r; source names the input in errors.
//
// The first record is the header; names must be non-empty and distinct.
// Fields are separated by Options.Delimiter (default ','), may be quoted
// as in RFC 4180 (a quoted field may hold delimiters, newlines and doubled
// quotes), and lines may end in CRLF. Empty lines are skipped; a leading
// UTF-8 byte order mark is dropped. An empty field or one equal to an
// Options.Missing marker is missing. A column is numeric when every
// non-missing value is a finite decimal number (blanks around it are
// allowed), otherwise categorical with the field text as levels; the
// Options lists override this.
func ParseCSV(r io.Reader, source string, opt Options) (*Table, error) {
	s, err := readAll(r, source)
	if err != nil {
		return nil, err
	}
	return parseCSV(s, source, opt)
}

func parseCSV(s, source string, opt Options) (*Table, error) {
	delim, err := opt.delimiter()
	if err != nil {
		return nil, &ParseError{Source: source, Err: err}
	}
	ov, err := opt.resolve()
	if err != nil {
		return nil, &ParseError{Source: source, Err: err}
	}
	s = strings.TrimPrefix(s, "\uFEFF")
	sc := csvScanner{s: s, line: 1, delim: delim, d0: delim[0]}
	ok, err := sc.next()
	if err != nil {
		return nil, &ParseError{Source: source, Line: sc.errLine, Err: err}
	}
	if !ok {
		return nil, &ParseError{Source: source, Err: fmt.Errorf("%w: empty file (no header row)", ErrEmpty)}
	}
	headerLine := sc.recLine
	header := make([]string, len(sc.fields))
	seen := make(map[string]int, len(header))
	for i, f := range sc.fields {
		if f == "" {
			return nil, &ParseError{Source: source, Line: sc.lines[i], Col: i + 1, Err: fmt.Errorf("%w: empty column name", ErrSyntax)}
		}
		if j, dup := seen[f]; dup {
			return nil, &ParseError{Source: source, Line: sc.lines[i], Column: f, Col: i + 1, Err: fmt.Errorf("%w (first at col %d)", ErrDuplicateColumn, j+1)}
		}
		seen[f] = i
		header[i] = strings.Clone(f)
	}
	if err := ov.unknown(func(n string) bool { _, ok := seen[n]; return ok }); err != nil {
		return nil, &ParseError{Source: source, Line: headerLine, Err: err}
	}
	capHint := strings.Count(s[sc.pos:], "\n") + 1
	builders := make([]*colBuilder, len(header))
	for i, name := range header {
		switch ov.kind[name] {
		case ovIgnore:
		case ovNumeric:
			builders[i] = newBuilder(name, modeNum, capHint)
		case ovCategorical:
			builders[i] = newBuilder(name, modeCat, capHint)
		default:
			builders[i] = newBuilder(name, modeInfer, capHint)
			builders[i].src = s
		}
	}
	rows := 0
	for {
		ok, err := sc.next()
		if err != nil {
			return nil, &ParseError{Source: source, Line: sc.errLine, Err: err}
		}
		if !ok {
			break
		}
		if len(sc.fields) != len(header) {
			return nil, &ParseError{Source: source, Line: sc.recLine, Err: fmt.Errorf("%w: row has %d, header has %d", ErrRagged, len(sc.fields), len(header))}
		}
		for i, b := range builders {
			if b == nil {
				continue
			}
			f := sc.fields[i]
			if err := b.addAt(f, sc.offs[i], isMissing(f, opt.Missing)); err != nil {
				return nil, &ParseError{Source: source, Line: sc.lines[i], Column: b.name, Col: i + 1, Err: err}
			}
		}
		rows++
	}
	if rows == 0 {
		return nil, &ParseError{Source: source, Line: headerLine, Err: fmt.Errorf("%w: header but no data rows", ErrEmpty)}
	}
	t := &Table{Source: source, NumRows: rows}
	for _, b := range builders {
		if b != nil {
			t.Columns = append(t.Columns, b.column())
		}
	}
	return t, nil
}

// csvScanner splits a CSV text into records. Fields are substrings of the
// text except quoted fields holding doubled quotes or CRLF line breaks.
type csvScanner struct {
	s       string
	pos     int
	line    int // line number at pos, 1-based
	delim   string
	d0      byte
	fields  []string // fields of the current record
	lines   []int    // line on which each field starts
	offs    []int    // offset of each field in s, −1 if not a substring
	recLine int      // line on which the current record starts
	errLine int      // line of the last syntax error
}

// next reads the next record into sc.fields; it returns false at the end
// of the input. Its semantics follow encoding/csv (with FieldsPerRecord
// −1 and no LazyQuotes).
func (sc *csvScanner) next() (bool, error) {
	s := sc.s
	// Skip empty lines.
	for sc.pos < len(s) {
		switch {
		case s[sc.pos] == '\n':
			sc.pos++
			sc.line++
			continue
		case s[sc.pos] == '\r' && sc.pos+1 == len(s):
			sc.pos++
			continue
		case s[sc.pos] == '\r' && s[sc.pos+1] == '\n':
			sc.pos += 2
			sc.line++
			continue
		}
		break
	}
	if sc.pos >= len(s) {
		return false, nil
	}
	sc.recLine = sc.line
	sc.fields = sc.fields[:0]
	sc.lines = sc.lines[:0]
	sc.offs = sc.offs[:0]
fields:
	for {
		sc.lines = append(sc.lines, sc.line)
		if sc.pos < len(s) && s[sc.pos] == '"' {
			f, off, err := sc.quoted()
			if err != nil {
				return false, err
			}
			sc.fields = append(sc.fields, f)
			sc.offs = append(sc.offs, off)
			// What follows the closing quote ends the field or record.
			switch {
			case sc.pos == len(s):
				return true, nil
			case s[sc.pos] == sc.d0 && strings.HasPrefix(s[sc.pos:], sc.delim):
				sc.pos += len(sc.delim)
				continue
			case s[sc.pos] == '\n':
				sc.pos++
				sc.line++
				return true, nil
			case s[sc.pos] == '\r' && sc.pos+1 == len(s):
				sc.pos++
				return true, nil
			case s[sc.pos] == '\r' && s[sc.pos+1] == '\n':
				sc.pos += 2
				sc.line++
				return true, nil
			}
			sc.errLine = sc.line
			return false, fmt.Errorf("%w: unexpected %q after closing quote of field %d", ErrSyntax, s[sc.pos], len(sc.fields))
		}
		start := sc.pos
		for i := start; i < len(s); i++ {
			c := s[i]
			if c == sc.d0 && (len(sc.delim) == 1 || strings.HasPrefix(s[i:], sc.delim)) {
				sc.fields = append(sc.fields, s[start:i])
				sc.offs = append(sc.offs, start)
				sc.pos = i + len(sc.delim)
				continue fields
			}
			if c == '\n' {
				f := s[start:i]
				if len(f) > 0 && f[len(f)-1] == '\r' {
					f = f[:len(f)-1]
				}
				sc.fields = append(sc.fields, f)
				sc.offs = append(sc.offs, start)
				sc.pos = i + 1
				sc.line++
				return true, nil
			}
			if c == '"' {
				sc.errLine = sc.line
				return false, fmt.Errorf("%w: bare quote in unquoted field %d", ErrSyntax, len(sc.fields)+1)
			}
		}
		// End of input.
		f := s[start:]
		if len(f) > 0 && f[len(f)-1] == '\r' {
			f = f[:len(f)-1]
		}
		sc.fields = append(sc.fields, f)
		sc.offs = append(sc.offs, start)
		sc.pos = len(s)
		return true, nil
	}
}

// quoted reads a quoted field starting at the opening quote at sc.pos and
// leaves sc.pos after the closing quote. It returns the field and its
// offset in sc.s, or −1 when the field had to be unescaped.
func (sc *csvScanner) quoted() (string, int, error) {
	s := sc.s
	startLine := sc.line
	sc.pos++
	start := sc.pos
	var buf []byte
	useBuf := false
	for {
		j := strings.IndexByte(s[sc.pos:], '"')
		if j < 0 {
			sc.errLine = startLine
			return "", -1, fmt.Errorf("%w: quoted field %d is not closed", ErrSyntax, len(sc.fields)+1)
		}
		seg := s[sc.pos : sc.pos+j]
		if nl := strings.Count(seg, "\n"); nl > 0 {
			sc.line += nl
			if strings.Contains(seg, "\r\n") {
				if !useBuf {
					buf = append(buf[:0], s[start:sc.pos]...)
					useBuf = true
				}
				seg = strings.ReplaceAll(seg, "\r\n", "\n")
				buf = append(buf, seg...)
			} else if useBuf {
				buf = append(buf, seg...)
			}
		} else if useBuf {
			buf = append(buf, seg...)
		}
		sc.pos += j + 1
		if sc.pos < len(s) && s[sc.pos] == '"' {
			// Doubled quote: a literal quote character.
			if !useBuf {
				buf = append(buf[:0], s[start:sc.pos]...)
				useBuf = true
			} else {
				buf = append(buf, '"')
			}
			sc.pos++
			continue
		}
		if useBuf {
			return string(buf), -1, nil
		}
		return s[start : sc.pos-1], start, nil
	}
}

// WriteCSV writes t as comma-separated values with a header row: numbers
// in the shortest form that reads back exactly, levels as their text,
// missing values as empty fields, and the sparse block (if any) expanded
// into dense columns after the others. Reading the output with
// Options.Categorical naming the categorical columns gives back t (minus
// ARFF levels that never occur).
func WriteCSV(w io.Writer, t *Table) error {
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
