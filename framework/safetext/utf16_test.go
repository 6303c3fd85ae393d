package safetext

import (
	"testing"
	"unicode/utf16"
)

// le and be are s encoded as UTF-16, little- and big-endian, without a
// byte order mark.
func le(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

func be(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return b
}

// TestUTF16: a text saved as UTF-16 is told from UTF-8 by its byte order
// mark, or, without one, by a NUL byte beside each ASCII character; UTF-8
// text, with or without its own mark, and short or binary texts are not
// taken for UTF-16.
func TestUTF16(t *testing.T) {
	const text = `experiment "x" { seed = 1 }` + "\n"
	tests := []struct {
		name string
		head []byte
		want string
	}{
		{"little-endian with a mark", append([]byte{0xFF, 0xFE}, le(text)...), "UTF-16 little-endian, with a byte order mark (FF FE)"},
		{"big-endian with a mark", append([]byte{0xFE, 0xFF}, be(text)...), "UTF-16 big-endian, with a byte order mark (FE FF)"},
		{"a mark alone", []byte{0xFF, 0xFE}, "UTF-16 little-endian, with a byte order mark (FF FE)"},
		{"little-endian, no mark", le(text), "UTF-16 little-endian (a NUL byte after each ASCII character)"},
		{"big-endian, no mark", be(text), "UTF-16 big-endian (a NUL byte before each ASCII character)"},
		{"little-endian, no mark, two characters", le("ab"), "UTF-16 little-endian (a NUL byte after each ASCII character)"},
		{"one character, too short to tell", le("a"), ""},
		{"UTF-8", []byte(text), ""},
		{"UTF-8 with its mark", append([]byte{0xEF, 0xBB, 0xBF}, text...), ""},
		{"empty", nil, ""},
		{"a NUL in UTF-8 text", []byte("ab\x00cd"), ""},
		{"little-endian, a Latin-1 letter: told", le("é" + text), "UTF-16 little-endian (a NUL byte after each ASCII character)"},
		{"little-endian, a letter beyond Latin-1 and no mark: not told", le("中" + text), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := UTF16(tt.head); got != tt.want {
				t.Errorf("UTF16(% x) = %q, want %q", tt.head, got, tt.want)
			}
		})
	}
}
