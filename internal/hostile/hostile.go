// Package hostile is the corpus of hostile strings that the tests of
// every writer of generated files (job scripts, manifests, printed
// commands) push through the values they write: line breaks and other
// control characters, shell syntax, paths that climb or read as flags, a
// very long string and the empty one.
package hostile

import "strings"

// Strings returns the corpus, a new slice at each call.
func Strings() []string {
	return []string{
		"", "a\nb", "out\ntouch PWNED\n#", "a\rb", "a\x00b", "\t", "\x1b[2J", "\u0085", "a\u2028b", "a\u2029b", "\xff\xfe",
		"'", `"`, `'\''`, `\`, "$(touch PWNED)", "`touch PWNED`", "${HOME}", "$x", "$(JOB_COMPLETION_INDEX)", "$(HOME)", "a$$b", "#", "a #b", ";touch PWNED", "a;b",
		"a&&b", "a|b", "a>b", "*", "~", "!", "a b  c", "..", "../../etc", "/", "a/b", "-rf", "--help", "%x%%", "é実",
		strings.Repeat("x", 5000),
	}
}

// Controls reports whether s holds a byte below 0x20 or a character the
// corpus uses to break lines beyond ASCII (DEL, U+0085, U+2028, U+2029)
// or a byte that is not UTF-8: the strings a generated file must refuse.
func Controls(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool {
		return r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xFFFD
	})
}
