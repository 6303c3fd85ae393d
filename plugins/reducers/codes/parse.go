package codes

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxLineBytes bounds one line of a matrix file.
const maxLineBytes = 1 << 20

// ParseError locates an error in a matrix file. Line and Column are 1-based;
// Column counts entries on the line (0 when the whole line is at fault).
type ParseError struct {
	Line, Column int
	// Err is the cause (a *MatrixError for shape and value problems).
	Err error
}

// Error prefixes the cause with its position.
func (e *ParseError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("line %d, column %d: %v", e.Line, e.Column, e.Err)
	}
	return fmt.Sprintf("line %d: %v", e.Line, e.Err)
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

// Parse reads a code matrix file: one class per line, entries "+1", "1",
// "0" or "-1" separated by whitespace and/or single commas; "#" starts a
// comment running to the end of the line; blank lines are ignored. The
// matrix must satisfy FromRows. Errors are *ParseError values naming the
// line and entry column.
func Parse(r io.Reader) (*Matrix, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLineBytes)
	var rows [][]float64
	var lines []int
	lineNo := 0
	for sc.Scan() {
		lineNo++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		fields, err := splitFields(text)
		if err != nil {
			return nil, &ParseError{Line: lineNo, Column: len(fields) + 1, Err: err}
		}
		if len(fields) == 0 {
			continue
		}
		row := make([]float64, len(fields))
		for i, f := range fields {
			switch f {
			case "+1", "1":
				row[i] = 1
			case "0":
				row[i] = 0
			case "-1":
				row[i] = -1
			default:
				return nil, &ParseError{Line: lineNo, Column: i + 1,
					Err: fmt.Errorf("entry %q: entries must be +1, 1, 0 or -1", f)}
			}
		}
		rows = append(rows, row)
		lines = append(lines, lineNo)
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{Line: lineNo + 1, Err: fmt.Errorf("reading: %w", err)}
	}
	m, err := FromRows(rows)
	if err != nil {
		var me *MatrixError
		if errors.As(err, &me) && me.Row >= 0 && me.Row < len(lines) {
			return nil, &ParseError{Line: lines[me.Row], Column: me.Col + 1, Err: err}
		}
		return nil, &ParseError{Line: max(lineNo, 1), Err: err}
	}
	return m, nil
}

// splitFields splits a line on whitespace and single commas. A comma with
// no entry before it (leading, or two in a row) is an error; a trailing
// comma is allowed. It returns the fields read so far with the error.
func splitFields(s string) ([]string, error) {
	var fields []string
	i := 0
	prevComma := true // at line start a comma is an error
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			i++
		case c == ',':
			if prevComma {
				return fields, errors.New("empty entry before ','")
			}
			prevComma = true
			i++
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\r\v\f,", rune(s[j])) {
				j++
			}
			fields = append(fields, s[i:j])
			prevComma = false
			i = j
		}
	}
	return fields, nil
}
