package data

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/polyclass/polyclass/framework/safetext"
)

// ReadCSV loads a CSV file with a header row; a path ending in .gz is
// gunzipped. See ParseCSV for the format.
func ReadCSV(path string, opt Options) (*Table, error) {
	return readPath(path, opt, parseCSV)
}

// ParseCSV reads CSV from r; source names the input in errors.
//
// The records are read by encoding/csv: the first record is the header;
// names must be non-empty and distinct. Fields are separated by
// Options.Delimiter (default ','), may be quoted as in RFC 4180 (a quoted
// field may hold delimiters, newlines and doubled quotes), and lines may
// end in CRLF or, as old Mac editors wrote them, a lone CR. Empty lines are skipped; a leading UTF-8 byte order mark is
// dropped. A line longer than Options.MaxLineBytes is an error, so that a
// file with the wrong delimiter or no line breaks is rejected in bounded
// memory.
//
// An empty field, "NaN" (in any case) or a field equal to an
// Options.Missing marker is missing. A column is numeric when every
// non-missing value is a decimal number (blanks around it are allowed),
// otherwise categorical with the field text as levels; the Options lists
// override this. A column so read as categorical although more of its
// values are numbers than not (often a typo) gets a warning in
// Table.Warnings (ErrMixedColumn), at its first value that is not a
// number; numbers written with a decimal comma, thousands separators or
// a unit sign ("1 212,75", "1,212.75", "14%", "$0.2") are read as text
// and count as numbers there, the warning then at the first of them. An
// infinite or out-of-range number ("inf", "-Infinity",
// 1e400) in a numeric column is an error. Every field must be valid UTF-8.
// Errors name the line and byte column of the field (csv.Reader.FieldPos).
func ParseCSV(r io.Reader, source string, opt Options) (*Table, error) {
	return parseCSV(r, source, opt, 0)
}

// parseCSV is ParseCSV for an input of about size bytes (0: unknown),
// from which it guesses the row count after the first row.
func parseCSV(r io.Reader, source string, opt Options, size int64) (*Table, error) {
	cr, lines, err := newCSVReader(r, opt)
	if err != nil {
		return nil, &ParseError{Source: source, Err: err}
	}
	ov, err := opt.resolve()
	if err != nil {
		return nil, &ParseError{Source: source, Err: err}
	}
	rec, err := cr.Read()
	if err == io.EOF {
		return nil, &ParseError{Source: source, Err: fmt.Errorf("%w: empty file (no header row)", ErrEmpty)}
	}
	if err != nil {
		return nil, csvError(source, lines, err)
	}
	header, err := csvHeader(cr, rec, source)
	if err != nil {
		return nil, err
	}
	headerLine, _ := cr.FieldPos(0)
	headerEnd := cr.InputOffset()
	if err := ov.unknown(func(n string) bool { return slices.Contains(header, n) }, header); err != nil {
		return nil, &ParseError{Source: source, Line: headerLine, Err: err}
	}
	builders := make([]*colBuilder, len(header))
	for i, name := range header {
		if mode := ov.mode(name, modeInfer); mode != modeIgnore {
			builders[i] = newBuilder(name, mode, 0)
		}
	}
	rows, width, lim := 0, int64(kept(builders)), opt.limits()
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(source, lines, err)
		}
		if err := errors.Join(lim.check(rows+1, int64(rows+1)*width), lim.checkBytes(rows+1, cr.InputOffset())); err != nil {
			line, _ := cr.FieldPos(0)
			return nil, &ParseError{Source: source, Line: line, Err: err}
		}
		if len(rec) != len(header) {
			line, _ := cr.FieldPos(0)
			return nil, &ParseError{Source: source, Line: line, Err: fmt.Errorf("%w: row has %d, header has %d", ErrRagged, len(rec), len(header))}
		}
		if rows == 0 && size > 0 {
			presize(builders, size, cr.InputOffset()-headerEnd, lim.rows)
		}
		if err := addRecord(builders, rec, rows, cr, source, opt.Missing); err != nil {
			return nil, err
		}
		rows++
	}
	if rows == 0 {
		return nil, &ParseError{Source: source, Line: headerLine, Err: fmt.Errorf("%w: header but no data rows", ErrEmpty)}
	}
	t, err := finishTable(builders, source, rows)
	if t != nil {
		t.HeaderLine = headerLine
	}
	return t, err
}

// addRecord adds the fields of record rec, row row, to the builders of its
// columns (nil: an ignored column), noting the position of a column's
// first bad value and first text value for later messages.
func addRecord(builders []*colBuilder, rec []string, row int, cr *csv.Reader, source string, missing []string) error {
	for i, b := range builders {
		if b == nil {
			continue
		}
		f := rec[i]
		if err := b.addAt(f, csvMissing(f, missing), row); err != nil {
			line, col := cr.FieldPos(i)
			return &ParseError{Source: source, Line: line, Byte: col, Column: b.name, Col: i + 1, Err: err}
		}
		b.placePending(cr.FieldPos(i))
	}
	return nil
}

// finishTable makes the table of rows rows from its column builders, with
// a warning for each column mixing numbers and text.
func finishTable(builders []*colBuilder, source string, rows int) (*Table, error) {
	t := &Table{Source: source, NumRows: rows}
	for i, b := range builders {
		if b == nil {
			continue
		}
		if err := b.finish(); err != nil {
			return nil, &ParseError{Source: source, Line: b.badAt.line, Byte: b.badAt.col, Column: b.name, Col: i + 1, Err: err}
		}
		if line, col, w := b.mixedWarning(); w != nil {
			t.Warnings = append(t.Warnings, &ParseError{Source: source, Line: line, Byte: col, Column: b.name, Col: i + 1, Err: w})
		}
		t.Columns = append(t.Columns, b.column())
	}
	return t, nil
}

// newCSVReader returns a csv.Reader of r's records (fields of any count,
// the record slice reused) as opt's Delimiter and MaxLineBytes say, and
// the line limiter it reads through.
func newCSVReader(r io.Reader, opt Options) (*csv.Reader, *lineLimiter, error) {
	d := cmp.Or(opt.Delimiter, ',')
	if d == '"' || d == '\r' || d == '\n' || !utf8.ValidRune(d) || d == utf8.RuneError {
		return nil, nil, fmt.Errorf("%w: delimiter %q", ErrOptions, d)
	}
	maxLine := opt.MaxLineBytes
	if maxLine <= 0 {
		maxLine = DefaultMaxLineBytes
	}
	lines := newLineLimiter(newCRReader(r), maxLine)
	cr := csv.NewReader(lines)
	cr.Comma = d
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	return cr, lines, nil
}

// crReader passes on what it reads with every lone CR (not followed by
// LF) turned into LF, so that a file whose lines end in CR alone reads as
// lines; the byte positions stay those of the file.
type crReader struct{ r *bufio.Reader }

func newCRReader(r io.Reader) *crReader { return &crReader{r: bufio.NewReader(r)} }

func (c *crReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i := bytes.IndexByte(p[:n], '\r'); i >= 0; {
		switch {
		case i+1 < n:
			if p[i+1] != '\n' {
				p[i] = '\n'
			}
		default: // the last byte read: look at the next
			if b, perr := c.r.Peek(1); perr != nil || b[0] != '\n' {
				p[i] = '\n'
			}
		}
		j := bytes.IndexByte(p[i+1:n], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return n, err
}

// presize sets the builders' row count hint from the input size and the
// length of the first row: a first guess, at most firstGuessRows and the
// row limit, which the columns outgrow by appending. The size alone says
// little: a sparse file of a few rows and gigabytes of zeros (campaign
// 10's N16b) once reserved room for 2^26 rows a column before reading on.
func presize(builders []*colBuilder, size, rowBytes int64, limit int) {
	rows := firstGuess(size/max(rowBytes, 1)+1, limit)
	for _, b := range builders {
		if b != nil {
			b.hint = rows
		}
	}
}

// csvHeader checks and copies the header record: non-empty, distinct and
// valid UTF-8 names, with no control character, none that does not show
// (hiddenName) and no two that read as one (readsAs).
func csvHeader(cr *csv.Reader, rec []string, source string) ([]string, error) {
	header := make([]string, len(rec))
	first := make(map[string]int, len(rec))
	folded := make(map[string]int, len(rec)) // safetext.Fold of each name
	for i, f := range rec {
		line, col := cr.FieldPos(i)
		switch {
		case f == "":
			return nil, &ParseError{Source: source, Line: line, Byte: col, Col: i + 1, Err: fmt.Errorf("%w: empty column name", ErrSyntax)}
		case !utf8.ValidString(f):
			return nil, &ParseError{Source: source, Line: line, Byte: col, Col: i + 1, Err: fmt.Errorf("%w: column name %s", ErrEncoding, safetext.Show(f))}
		case controlChar(f) != nil:
			return nil, &ParseError{Source: source, Line: line, Byte: col, Col: i + 1, Err: fmt.Errorf("column name: %w", controlChar(f))}
		case hiddenName(f) != nil:
			return nil, &ParseError{Source: source, Line: line, Byte: col, Col: i + 1, Err: hiddenName(f)}
		}
		if j, dup := first[f]; dup {
			return nil, &ParseError{Source: source, Line: line, Byte: col, Column: f, Col: i + 1, Err: fmt.Errorf("%w (first at col %d)", ErrDuplicateColumn, j+1)}
		}
		fold := safetext.Fold(f)
		if j, dup := folded[fold]; dup {
			return nil, &ParseError{Source: source, Line: line, Byte: col, Column: f, Col: i + 1, Err: readsAs(f, header[j], fmt.Sprintf("col %d", j+1))}
		}
		first[f], folded[fold] = i, i
		header[i] = f
	}
	return header, nil
}

// readsAs is the error of column name name, which reads as the earlier
// name earlier (at) without being it: they have one safetext.Fold (the
// same text in NFC and NFD, or with other blanks), so every table, plot
// and message would show two columns of one name.
func readsAs(name, earlier, at string) error {
	return fmt.Errorf("%w: %s reads as %s (%s), from which it differs only by Unicode normalisation or blanks: rename one of them", ErrDuplicateColumn, safetext.ShowASCII(name), safetext.ShowASCII(earlier), at)
}

// csvMissing reports whether CSV field s is a missing value: empty, "NaN"
// in any case (as pandas and NumPy write it, blanks around it allowed), or
// a marker.
func csvMissing(s string, markers []string) bool {
	if isMissing(s, markers) {
		return true
	}
	if len(s) < 3 || len(s) > 7 || (s[0]|0x20 != 'n' && s[0] != ' ' && s[0] != '\t') {
		return false
	}
	return strings.EqualFold(strings.Trim(s, " \t"), "nan")
}

// csvError turns an error of csv.Reader into a *ParseError with the line
// and byte column; an over-long line takes precedence, since the reader
// saw only part of it.
func csvError(source string, lines *lineLimiter, err error) error {
	if lines.tooLong != nil {
		return &ParseError{Source: source, Line: lines.line, Err: lines.tooLong}
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		what := "bare quote in an unquoted field"
		if errors.Is(pe.Err, csv.ErrQuote) {
			what = "quote not closed, or text after a closing quote"
			if pe.StartLine != pe.Line {
				what += fmt.Sprintf(" (the quoted field starts on line %d)", pe.StartLine)
			}
		} else if !errors.Is(pe.Err, csv.ErrBareQuote) {
			what = pe.Err.Error()
		}
		return &ParseError{Source: source, Line: pe.Line, Byte: pe.Column, Err: fmt.Errorf("%w: %s", ErrSyntax, what)}
	}
	return readError(source, lines.line, err)
}

// kept counts the columns read (builders not nil).
func kept(builders []*colBuilder) int {
	n := 0
	for _, b := range builders {
		if b != nil {
			n++
		}
	}
	return n
}

// lineLimiter passes the input on one whole line at a time, dropping a
// leading byte order mark, and fails at a line longer than max bytes
// before passing on any of it, so that the CSV reader never holds more
// than max bytes of a line. It counts lines so that the error can name
// the line.
type lineLimiter struct {
	r       *bufio.Reader
	max     int
	long    []byte // a line longer than r's buffer, gathered
	pending []byte // the rest of the current line
	line    int    // 1-based number of the current line
	started bool
	err     error // the error that ends the input, once seen
	tooLong error // the over-long line error, when that was it
}

func newLineLimiter(r io.Reader, max int) *lineLimiter {
	return &lineLimiter{r: bufio.NewReaderSize(r, min(64<<10, max+1)), max: max}
}

func (l *lineLimiter) Read(p []byte) (int, error) {
	if len(l.pending) == 0 {
		if l.err != nil {
			return 0, l.err
		}
		l.next()
		if len(l.pending) == 0 {
			return 0, l.err
		}
	}
	n := copy(p, l.pending)
	l.pending = l.pending[n:]
	return n, nil
}

// next reads the next line into pending, or sets err.
func (l *lineLimiter) next() {
	if !l.started {
		l.started = true
		if b, err := l.r.Peek(3); err == nil && string(b) == "\uFEFF" {
			l.r.Discard(3)
		}
	}
	l.line++
	line, err := l.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		if l.long == nil {
			// Room for the longest line allowed, at once: growing by
			// doubling would allocate twice that.
			l.long = make([]byte, 0, l.max+l.r.Size()+1)
		}
		l.long = append(l.long[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) && len(l.long) <= l.max {
			line, err = l.r.ReadSlice('\n')
			l.long = append(l.long, line...)
		}
		line = l.long
	}
	if n := len(line); n > l.max && (n > l.max+1 || line[n-1] != '\n') {
		l.long = nil
		l.tooLong = fmt.Errorf("%w: line longer than %d bytes (a wrong delimiter, or no line breaks?)", ErrSyntax, l.max)
		l.err = l.tooLong
		return
	}
	if err != nil {
		l.err = err
	}
	l.pending = line
}
