package report

import (
	"encoding/csv"
	"errors"
	"io"
	"strconv"
)

// csvWriter is the one writer of every CSV file of a report: an
// encoding/csv writer whose fields pass through csvCell, so that no text
// a spreadsheet opens runs as a formula.
type csvWriter struct {
	w   *csv.Writer
	rec []string
}

// newCSV returns a csvWriter that writes to w.
func newCSV(w io.Writer) *csvWriter { return &csvWriter{w: csv.NewWriter(w)} }

// Write writes one record, each field through csvCell; the error, like
// encoding/csv's, is kept for Error.
func (c *csvWriter) Write(record []string) {
	c.rec = c.rec[:0]
	for _, f := range record {
		c.rec = append(c.rec, csvCell(f))
	}
	_ = c.w.Write(c.rec) // kept by the csv.Writer for Error
}

// Flush writes what is buffered.
func (c *csvWriter) Flush() { c.w.Flush() }

// Error returns the first error of a Write or Flush.
func (c *csvWriter) Error() error { return c.w.Error() }

// csvCell returns field as a CSV file of a report holds it: with a
// single quote before it when it starts with a character that makes a
// spreadsheet read the cell as a formula (=, +, -, @, a tab or a carriage
// return; OWASP's rule against CSV injection) and it is not a number
// ("-0.5", "+1", "-Inf" stay as they are); unchanged otherwise.
func csvCell(field string) string {
	if field == "" {
		return field
	}
	switch field[0] {
	case '=', '+', '-', '@', '\t', '\r':
	default:
		return field
	}
	if _, err := strconv.ParseFloat(field, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		return field
	}
	return "'" + field
}
