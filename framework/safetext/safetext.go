// Package safetext is the one gate of every string that reaches a file or
// a command line bench generates: a Slurm batch script, a Kubernetes
// manifest, a shell command printed for the user to paste. Check refuses
// the characters that can break such a file's lines or a terminal's
// display of them (control characters, the Unicode line and paragraph
// separators, bytes that are not UTF-8); CheckVisible refuses besides
// them the characters that change how a text shows without showing (bidi
// overrides, zero-width characters), and is the gate of every name and
// path (Rule); Quote makes a shell word of a string, and Line a command
// line of words.
package safetext

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Rule is the rule of the gate of names and paths (CheckVisible), in
// words, for the messages of those who call it: a path with a
// right-to-left override (U+202E) shows reversed on a terminal and in a
// job script, as another path than the one bench uses.
const Rule = "a name or path that reaches a job script, a manifest or a printed command may hold no control character and no invisible or bidi control character"

// Error is a string's first character that Check refuses.
type Error struct {
	// Char is the character; utf8.RuneError for a byte that is not
	// UTF-8 (Byte).
	Char rune
	// Byte is the byte that is not UTF-8, when Char is utf8.RuneError.
	Byte byte
	// Pos is the character's position in the string, counting characters
	// from 1.
	Pos int
}

// Error says which character the string holds, and where.
func (e *Error) Error() string {
	if e.Char == utf8.RuneError {
		return fmt.Sprintf("holds byte 0x%02x, which is not UTF-8, at character %d", e.Byte, e.Pos)
	}
	return fmt.Sprintf("holds %s (U+%04X) at character %d", charName(e.Char), e.Char, e.Pos)
}

// names are the refused characters with a name of their own.
var names = map[rune]string{
	0: "a NUL", '\t': "a tab", '\n': "a newline", '\v': "a vertical tab", '\f': "a form feed",
	'\r': "a carriage return", 0x1b: "an escape", 0x7f: "a delete", 0x85: "a next line",
	0x2028: "a line separator", 0x2029: "a paragraph separator",
}

func charName(r rune) string {
	if n, ok := names[r]; ok {
		return n
	}
	if n, ok := hidden[r]; ok {
		return n
	}
	if Hidden(r) {
		return "an invisible (default-ignorable) character"
	}
	return "a control character"
}

// Refused reports whether Check refuses r: a C0 or C1 control character,
// DEL, U+2028 or U+2029.
func Refused(r rune) bool {
	return unicode.IsControl(r) || r == 0x2028 || r == 0x2029
}

// Check returns an *Error for the first character of s that Refused
// refuses or byte that is not UTF-8, nil when there is none.
func Check(s string) error {
	pos := 0
	for i, r := range s {
		pos++
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return &Error{Char: r, Byte: s[i], Pos: pos}
			}
		}
		if Refused(r) {
			return &Error{Char: r, Pos: pos}
		}
	}
	return nil
}

// bare are the strings a shell word may hold unquoted.
var bare = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// Quote quotes s as one bash word, leaving it bare when that is safe. A
// string that Check accepts is single-quoted; one it refuses is written
// with bash's $'…' escapes, so that the word never holds a control
// character: the line it is printed on stays one line (bash cannot pass
// a NUL in a word, so a NUL does not survive).
func Quote(s string) string {
	if bare.MatchString(s) {
		return s
	}
	if Check(s) == nil {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return ansiC(s)
}

// ansiC writes s as a $'…' word: backslash, quote and every byte of a
// refused character or of no character escaped.
func ansiC(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case Refused(r) || r == utf8.RuneError && size == 1:
			for _, c := range []byte(s[i : i+size]) {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('\'')
	return b.String()
}

// Line joins args, each quoted by Quote, into one bash command line.
func Line(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = Quote(a)
	}
	return strings.Join(q, " ")
}

// Path returns the path p as a command-line argument that no flag parser
// takes for a flag: ./ before a relative path that starts with -.
func Path(p string) string {
	if strings.HasPrefix(p, "-") {
		return "./" + p
	}
	return p
}

// Show quotes s for a message, with Go's escapes (a newline shows as
// \n) and every character that Hidden reports escaped too (a variation
// selector shows as \ufe0f, not as nothing), cut to its first 60
// characters when longer.
func Show(s string) string {
	if r := []rune(s); len(r) > 60 {
		return quote(string(r[:60])) + "…"
	}
	return quote(s)
}

// quote is strconv.Quote with the characters that Hidden reports and
// strconv.Quote leaves as they are (those it takes for printable) escaped.
func quote(s string) string {
	q := strconv.Quote(s)
	if !strings.ContainsFunc(q, Hidden) {
		return q
	}
	var b strings.Builder
	for _, r := range q {
		switch {
		case !Hidden(r):
			b.WriteRune(r)
		case r > 0xFFFF:
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// Excerpt quotes s, text read from a file (a data file, a folds file),
// for a message, bounded: up to its first character that Check refuses
// (a file of NUL-separated strings, such as /proc/self/environ, has no
// line ends), then cut by Show, then that character named, so that an
// error never echoes a whole foreign file, nor a control character a
// terminal would act on: "ab", then a newline (U+000A) at character 3.
func Excerpt(s string) string {
	var e *Error
	if !errors.As(Check(s), &e) {
		return Show(s)
	}
	head := string([]rune(s)[:e.Pos-1])
	return Show(head) + ", then " + strings.TrimPrefix(e.Error(), "holds ")
}

// ShowASCII is Show in ASCII (strconv.QuoteToASCII): every character
// beyond ASCII escaped, so that an invisible one shows.
func ShowASCII(s string) string {
	if r := []rune(s); len(r) > 60 {
		return strconv.QuoteToASCII(string(r[:60])) + "…"
	}
	return strconv.QuoteToASCII(s)
}

// Listed is how many items of a list a message shows (Few).
const Listed = 10

// Few lists items for a message, each as show gives it (as it is when
// show is nil), separated by ", ": the first n, then " and M more" when
// there are more. Every message that lists classes, values or columns
// lists them through Few, so that a dataset of a million classes gives a
// line, not megabytes.
func Few(items []string, n int, show func(string) string) string {
	if show == nil {
		show = func(s string) string { return s }
	}
	shown := make([]string, 0, min(n, len(items)))
	for _, it := range items[:min(n, len(items))] {
		shown = append(shown, show(it))
	}
	list := strings.Join(shown, ", ")
	if len(items) > n {
		list += fmt.Sprintf(" and %d more", len(items)-n)
	}
	return list
}

// OneLine returns s as Text writes it, with its newlines and tabs
// escaped too (\n, \t): for text shown within one line of a message,
// where a newline would start a line that reads as the program's own.
func OneLine(s string) string {
	return lineEscapes.Replace(Text(s))
}

// lineEscapes escapes the characters Text keeps.
var lineEscapes = strings.NewReplacer("\n", `\n`, "\t", `\t`)

// Text returns s, text a program wrote for a person to read (a plugin's
// error, the lines it writes to stderr), as a terminal or a log may show
// it: newlines and tabs kept, so that a traceback keeps its lines, and
// every other character that Check refuses (escape, carriage return,
// bell, the other C0 and C1 controls, U+2028, U+2029) or Hidden reports
// (bidi controls, zero-width and other invisible characters) written as
// its Go escape (\x1b, \r, \u202e), each byte that is not UTF-8 as \xNN.
// A terminal then sets no title, clears no screen and overwrites no
// line, and no text shows reversed. Backslashes are left as they are.
func Text(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, textEscaped) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case textEscaped(r):
			b.WriteString(escapeRune(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// textEscaped reports whether Text escapes r.
func textEscaped(r rune) bool {
	return r != '\n' && r != '\t' && (Refused(r) || Hidden(r))
}

// escapeRune returns r's Go escape: strconv's (\r, \x1b, \u0085), or
// \uXXXX for a character strconv takes for printable (U+FE0F).
func escapeRune(r rune) string {
	q := strconv.QuoteRune(r)
	if q = q[1 : len(q)-1]; q != string(r) {
		return q
	}
	if r > 0xFFFF {
		return fmt.Sprintf(`\U%08x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}
