package safetext

// UTF16 returns how the text that begins with head is encoded when it is
// UTF-16 rather than UTF-8, in words ("UTF-16 little-endian, with a byte
// order mark"), or "" when it does not look like UTF-16. A text starting
// with the byte order mark FF FE or FE FF is UTF-16 (FF FE is never UTF-8);
// one without a mark is taken for UTF-16 when, in its first utf16Probe
// bytes (at least 4), every second byte is NUL and the others are not, as
// a text of ASCII (or Latin-1) characters saved as UTF-16 reads. Valid
// UTF-8 text holds no NUL but the character U+0000, which a text file
// bench reads refuses.
func UTF16(head []byte) string {
	switch {
	case len(head) >= 2 && head[0] == 0xFF && head[1] == 0xFE:
		return "UTF-16 little-endian, with a byte order mark (FF FE)"
	case len(head) >= 2 && head[0] == 0xFE && head[1] == 0xFF:
		return "UTF-16 big-endian, with a byte order mark (FE FF)"
	}
	n := min(len(head), utf16Probe) &^ 1
	if n < 4 {
		return ""
	}
	if alternating(head[:n], 1) {
		return "UTF-16 little-endian (a NUL byte after each ASCII character)"
	}
	if alternating(head[:n], 0) {
		return "UTF-16 big-endian (a NUL byte before each ASCII character)"
	}
	return ""
}

// utf16Probe is how many bytes of a text UTF16 looks at without a byte
// order mark.
const utf16Probe = 64

// alternating reports whether b's bytes at the positions of parity nul
// (0: even, 1: odd) are all NUL and the others none.
func alternating(b []byte, nul int) bool {
	for i, c := range b {
		if (i%2 == nul) != (c == 0) {
			return false
		}
	}
	return true
}
