package host

import (
	"io"
	"unicode/utf8"

	"github.com/polyclass/polyclass/framework/safetext"
)

// escapeWriter passes what a plugin writes to stderr on to w escaped by
// safetext.Text: the lines bench relays to its terminal and run.log, and
// the tail its errors quote, set no terminal title, clear no screen and
// show no text reversed. A character cut between two writes (go-plugin
// hands on a long line in parts) waits for its rest.
type escapeWriter struct {
	w       io.Writer
	pending []byte
}

// Write escapes the complete characters of what it has been given and
// writes them to w; it reports len(b) when w took them.
func (e *escapeWriter) Write(b []byte) (int, error) {
	e.pending = append(e.pending, b...)
	n := completeRunes(e.pending)
	text := safetext.Text(string(e.pending[:n]))
	e.pending = append(e.pending[:0], e.pending[n:]...)
	if text == "" {
		return len(b), nil
	}
	if _, err := io.WriteString(e.w, text); err != nil {
		return 0, err
	}
	return len(b), nil
}

// completeRunes returns the length of p without a UTF-8 sequence that p
// ends in the middle of (at most utf8.UTFMax-1 bytes).
func completeRunes(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(p[i]) {
			if utf8.FullRune(p[i:]) {
				return len(p)
			}
			return i
		}
	}
	return len(p)
}
