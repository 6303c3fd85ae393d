package data

import (
	"io"
	"strings"
)

// lineReader yields the lines of a text with their 1-based numbers,
// without the line terminator, reading them one at a time: a lone CR
// ends a line as LF does, and a line longer than the limit of its
// lineLimiter ends the input with an error (err).
type lineReader struct {
	in   *lineLimiter
	read *countingReader // the input under in, for its byte count
	size int64           // about how many bytes the input holds; 0: unknown
	line int
	done bool
	err  error // the read error or over-long line that ended the input
}

// next returns the next line; false at the end of the input or at an
// error, which err then holds.
func (lr *lineReader) next() (string, bool) {
	if lr.done {
		return "", false
	}
	l := lr.in
	l.next()
	if l.err != nil {
		lr.done = true
		if l.err != io.EOF {
			lr.err = l.err
			lr.line = l.line
			return "", false
		}
		if len(l.pending) == 0 {
			return "", false
		}
	}
	lr.line = l.line
	s := strings.TrimSuffix(strings.TrimSuffix(string(l.pending), "\n"), "\r")
	l.pending = nil
	return s, true
}

// failure returns the error that ended the input, located at its line,
// or nil.
func (lr *lineReader) failure(source string) error {
	if lr.err == nil {
		return nil
	}
	if lr.in.tooLong != nil {
		return &ParseError{Source: source, Line: lr.line, Err: lr.in.tooLong}
	}
	return readError(source, lr.line, lr.err)
}

// rowsLeft guesses how many rows of width values the rest of the input
// holds, for a first allocation: at least 4 bytes a value, at most
// firstGuessRows and limit rows (firstGuess).
func (lr *lineReader) rowsLeft(width, limit int) int {
	left := lr.size - lr.read.n
	if left <= 0 {
		return 0
	}
	return firstGuess(left/int64(4*max(width, 1)), limit)
}

// firstGuessRows is the most rows a reader reserves room for before it
// has read them (8 MiB a column of numbers at most, with the text kept
// while its type is inferred): past it, columns grow as rows arrive.
const firstGuessRows = 1 << 18

// firstGuess bounds a guessed row count, made from the input's size, for
// a first allocation: never below 0, never above firstGuessRows nor the
// row limit limit (limit <= 0: MaxRows).
func firstGuess(rows int64, limit int) int {
	if limit <= 0 {
		limit = MaxRows
	}
	return int(max(0, min(rows, firstGuessRows, int64(limit))))
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
