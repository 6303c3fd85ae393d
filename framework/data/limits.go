package data

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxRows is the most rows a data file may hold, 2^23: an eighth of the
// fold assignments a run holds in memory (cv.MaxFoldAssignments). A
// reader stops at the row after it, before reading further. While a
// column's type is inferred a reader keeps each value's text beside its
// number (with the slices' growth, about 110 bytes a row for a file of
// three short columns): 2^23 rows then take under 1 GiB (validate of
// such a gzip file of billions of rows: 0.96 GB peak, refused in 22 s
// under a 4 GB address-space limit; at 2^24 it ran out of memory there).
const MaxRows = 1 << 23

// MaxValues is the most values (rows × columns; for a LIBSVM file, its
// stored features and labels) a data file may hold, 2^25: 256 MiB of
// numbers, about 1.6 GB at the peak of reading a file of short values
// (campaign 7's 8.4 million rows of 8 columns, refused at row 4194305;
// at 2^26 it ran out of memory under a 4 GB address-space limit). A
// reader stops at the row that crosses it.
const MaxValues = 1 << 25

// MaxBytes is the most bytes of text (after gunzip) a CSV or ARFF data
// file may hold, 2^29 (512 MiB): while a column's type is inferred a
// reader keeps each value's text, and values of many digits would take
// memory that MaxValues does not bound. A reader stops at the row that
// crosses it.
const MaxBytes = 1 << 29

// ErrTooLarge reports a data file of more rows or values than MaxRows
// and MaxValues allow.
var ErrTooLarge = errors.New("more than a dataset may hold")

// bounds are the most rows and values a reader keeps; the zero value
// means MaxRows and MaxValues (tests set smaller ones).
type bounds struct {
	rows   int
	values int64
	bytes  int64
	// trainRows and trainValues are those of the training file, when
	// reading its test file: the two make one dataset.
	trainRows   int
	trainValues int64
}

// limits returns o's bounds, the defaults where unset.
func (o *Options) limits() bounds {
	b := o.bounds
	if b.rows <= 0 {
		b.rows = MaxRows
	}
	if b.values <= 0 {
		b.values = MaxValues
	}
	if b.bytes <= 0 {
		b.bytes = MaxBytes
	}
	return b
}

// checkBytes returns an ErrTooLarge error when the text read up to row
// (1-based), read bytes after gunzip, is more than b allows.
func (b bounds) checkBytes(row int, read int64) error {
	if read > b.bytes {
		return &tooLargeError{fmt.Sprintf("row %d: more than %d bytes of text, the most a dataset may hold", row, b.bytes)}
	}
	return nil
}

// tooLargeError is the ErrTooLarge of one row.
type tooLargeError struct{ msg string }

func (e *tooLargeError) Error() string        { return e.msg }
func (e *tooLargeError) Is(target error) bool { return target == ErrTooLarge }

// check returns an ErrTooLarge error when row (1-based) or the values
// held with it are more than b allows.
func (b bounds) check(row int, values int64) error {
	with := ""
	if b.trainRows > 0 {
		with = fmt.Sprintf(" with the training file's %d", b.trainRows)
	}
	switch {
	case row+b.trainRows > b.rows:
		return &tooLargeError{fmt.Sprintf("row %d: more than %d rows%s, the most a dataset may hold", row, b.rows, with)}
	case values+b.trainValues > b.values:
		return &tooLargeError{fmt.Sprintf("row %d: more than %d values (rows × columns)%s, the most a dataset may hold", row, b.values, with)}
	}
	return nil
}

// valueCount returns about how many values t holds, as the readers count
// them: rows × columns, and a LIBSVM file's stored features.
func valueCount(t *Table) int64 {
	n := int64(t.NumRows) * int64(len(t.Columns))
	if t.Sparse != nil {
		n += int64(len(t.Sparse.Values))
	}
	return n
}

// readError is the error of reading a data file at line (0: unknown)
// that failed with err: a gzip stream that is damaged says so.
func readError(source string, line int, err error) error {
	if _, ok := errors.AsType[*gzipError](err); ok {
		return &ParseError{Source: source, Line: line, Err: err}
	}
	return &ParseError{Source: source, Line: line, Err: fmt.Errorf("data: read: %w", err)}
}

// gzipError is an error of reading a gzip stream: it is damaged or cut
// short.
type gzipError struct{ err error }

func (e *gzipError) Error() string {
	return "the gzip stream is damaged or cut short: " + e.err.Error()
}

func (e *gzipError) Unwrap() error { return e.err }

// gzipFile closes both the gzip reader and its file, and says of a read
// error that the stream is damaged.
type gzipFile struct {
	*gzip.Reader
	f *os.File
}

func (g gzipFile) Read(p []byte) (int, error) {
	n, err := g.Reader.Read(p)
	if err != nil && err != io.EOF {
		err = &gzipError{err}
	}
	return n, err
}

func (g gzipFile) Close() error {
	return errors.Join(g.Reader.Close(), g.f.Close())
}
