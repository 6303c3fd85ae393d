package safetext

import (
	"bytes"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/polyclass/polyclass/internal/hostile"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name, in, want string // want "" for no error
	}{
		{"plain path", "/scratch/ann/results/big", ""},
		{"empty", "", ""},
		{"blanks and quotes", `a b 'c' "d" $(e) ` + "`f`" + ` #g; ..`, ""},
		{"letters beyond ASCII", "résultats/実験", ""},
		{"replacement character itself", "a\uFFFDb", ""},
		{"newline", "out\ntouch PWNED\n#", "holds a newline (U+000A) at character 4"},
		{"carriage return", "a\rb", "holds a carriage return (U+000D) at character 2"},
		{"NUL", "\x00", "holds a NUL (U+0000) at character 1"},
		{"tab", "a\tb", "holds a tab (U+0009) at character 2"},
		{"escape", "a\x1b[31m", "holds an escape (U+001B) at character 2"},
		{"other C0", "a\x01", "holds a control character (U+0001) at character 2"},
		{"DEL", "a\x7f", "holds a delete (U+007F) at character 2"},
		{"C1 next line", "é\u0085", "holds a next line (U+0085) at character 2"},
		{"other C1", "\u009b", "holds a control character (U+009B) at character 1"},
		{"line separator", "a\u2028b", "holds a line separator (U+2028) at character 2"},
		{"paragraph separator", "ab\u2029", "holds a paragraph separator (U+2029) at character 3"},
		{"not UTF-8", "ab\xff", "holds byte 0xff, which is not UTF-8, at character 3"},
		{"first of several", "a\u2028\n", "holds a line separator (U+2028) at character 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(tt.in)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Check(%q) = %v, want nil", tt.in, err)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Errorf("Check(%q) = %v, want %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/usr/bin/bench", "/usr/bin/bench"},
		{"a b", "'a b'"},
		{"it's", `'it'\''s'`},
		{"$HOME", "'$HOME'"},
		{"", "''"},
		{"-o", "-o"},
		{"a\nb", `$'a\x0ab'`},
		{"it's\r\\", `$'it\'s\x0d\\'`},
		{"a\u2028b", `$'a\xe2\x80\xa8b'`},
		{"\xff", `$'\xff'`},
	}
	for _, tt := range tests {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"-rf", "./-rf"}, {"/-x", "/-x"}, {"res/-x", "res/-x"}, {"", ""},
	}
	for _, tt := range tests {
		if got := Path(tt.in); got != tt.want {
			t.Errorf("Path(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestShow: Go's escapes for control characters, and for the invisible
// ones strconv.Quote takes for printable (a variation selector, a tag
// character, a soft hyphen), which a message would otherwise show as
// nothing; visible non-ASCII stays as it is.
func TestShow(t *testing.T) {
	long := strings.Repeat("é", 70)
	tests := []struct{ in, want string }{
		{"a\nb", `"a\nb"`},
		{long, `"` + strings.Repeat("é", 60) + `"…`},
		{"a\u202Eb", `"a\u202eb"`},
		{"img:1\uFE0F", `"img:1\ufe0f"`},
		{"t\U000E0041g", `"t\U000e0041g"`},
		{"s\u00ADx", `"s\u00adx"`},
		{"rés/😀 日本", `"rés/😀 日本"`},
	}
	for _, tt := range tests {
		if got := Show(tt.in); got != tt.want {
			t.Errorf("Show(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestShowASCII: escaped in ASCII, cut as Show cuts.
func TestShowASCII(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a\u200bb", `"a\u200bb"`},
		{strings.Repeat("é", 70), `"` + strings.Repeat(`\u00e9`, 60) + `"…`},
	}
	for _, tt := range tests {
		if got := ShowASCII(tt.in); got != tt.want {
			t.Errorf("ShowASCII(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestExcerpt: text from a file is quoted up to its first refused
// character, which is named, and never more than Show's 60 characters.
func TestExcerpt(t *testing.T) {
	mib := strings.Repeat("x", 1<<20)
	tests := []struct{ in, want string }{
		{"abc", `"abc"`},
		{"SECRET=hunter2\x00HOME=/root\x00", `"SECRET=hunter2", then a NUL (U+0000) at character 15`},
		{"ab\ncd", `"ab", then a newline (U+000A) at character 3`},
		{"\x1b[31mred", `"", then an escape (U+001B) at character 1`},
		{"a\xffb", `"a", then byte 0xff, which is not UTF-8, at character 2`},
		{mib + "\n\x1b", `"` + strings.Repeat("x", 60) + `"…, then a newline (U+000A) at character 1048577`},
		{mib, `"` + strings.Repeat("x", 60) + `"…`},
	}
	for _, tt := range tests {
		if got := Excerpt(tt.in); got != tt.want {
			t.Errorf("Excerpt(%.70q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestQuoteRoundTrip: bash reads each word Quote writes as the string
// quoted (a NUL aside: bash cannot hold one), and a word never holds a
// control character, so a printed command stays on its line.
func TestQuoteRoundTrip(t *testing.T) {
	var words []string
	for _, s := range hostile.Strings() {
		if !strings.Contains(s, "\x00") {
			words = append(words, s)
		}
	}
	line := Line(words)
	if err := Check(line); err != nil {
		t.Fatalf("Line(hostile.Strings()) %v", err)
	}
	cmd := exec.Command("bash", "-c", `printf '%s\0' `+line)
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(got) != len(words) {
		t.Fatalf("bash read %d words, want %d:\n%q", len(got), len(words), got)
	}
	for i := range words {
		if got[i] != words[i] {
			t.Errorf("word %d: bash read %q, want %q (quoted %s)", i, got[i], words[i], Quote(words[i]))
		}
	}
}

// FuzzQuote: any string without a NUL comes back from bash as it went in,
// and its quoted word passes Check.
func FuzzQuote(f *testing.F) {
	for _, s := range hostile.Strings() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := Quote(s)
		if err := Check(q); err != nil {
			t.Fatalf("Quote(%q) = %s: %v", s, q, err)
		}
		if strings.Contains(s, "\x00") || len(s) > 1000 {
			return
		}
		out, err := exec.Command("bash", "-c", `printf '%s' `+q).Output()
		if err != nil {
			t.Fatalf("bash -c printf %s: %v", q, err)
		}
		if !bytes.Equal(out, []byte(s)) {
			t.Errorf("Quote(%q) = %s: bash read %q", s, q, out)
		}
	})
}

// FuzzCheck: Check refuses exactly the strings holding a refused
// character or a byte that is not UTF-8, and says where the first is.
func FuzzCheck(f *testing.F) {
	for _, s := range hostile.Strings() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := Check(s)
		bad := !utf8.ValidString(s) || strings.IndexFunc(s, Refused) >= 0
		if (err != nil) != bad {
			t.Fatalf("Check(%q) = %v, want an error: %v", s, err, bad)
		}
		if e, ok := err.(*Error); ok && (e.Pos < 1 || e.Pos > utf8.RuneCountInString(s)) {
			t.Errorf("Check(%q): position %d out of the string", s, e.Pos)
		}
	})
}

// TestFew: a list in a message shows its first n items, then how many
// more there are.
func TestFew(t *testing.T) {
	many := make([]string, 1_000_000)
	for i := range many {
		many[i] = "c" + strconv.Itoa(i)
	}
	for _, tt := range []struct {
		name  string
		items []string
		n     int
		show  func(string) string
		want  string
	}{
		{"none", nil, 3, nil, ""},
		{"fewer", []string{"a", "b"}, 3, nil, "a, b"},
		{"exactly n", []string{"a", "b", "c"}, 3, strconv.Quote, `"a", "b", "c"`},
		{"one more", []string{"a", "b", "c", "d"}, 3, nil, "a, b, c and 1 more"},
		{"a million", many, Listed, nil, "c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 and 999990 more"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Few(tt.items, tt.n, tt.show); got != tt.want {
				t.Errorf("Few = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestText: text a plugin wrote keeps its newlines and tabs and shows
// every other control, bidi and invisible character escaped (campaign 8
// N12: a learner's error set the terminal's title, cleared the screen and
// overwrote its line); the hostile corpus comes out with no character a
// terminal acts on besides newline and tab.
func TestText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "ValueError: bad C (at fit.py:3, in fit)", "ValueError: bad C (at fit.py:3, in fit)"},
		{"newlines and tabs kept", "Traceback:\n\tline 1\n", "Traceback:\n\tline 1\n"},
		{"campaign 8 N12", "bad \x1b[31mRED\x1b]0;pwned-title\x07 rev\u202eesrever \rOVERWRITE\x1b[2J",
			`bad \x1b[31mRED\x1b]0;pwned-title\a rev\u202eesrever \rOVERWRITE\x1b[2J`},
		{"C1 controls and separators", "a\u009b2Jb\u0085c\u2028d\u2029", `a\u009b2Jb\u0085c\u2028d\u2029`},
		{"NUL and DEL", "a\x00b\x7f", `a\x00b\x7f`},
		{"invisible characters strconv prints", "x\uFE0Fy\u00ADz\U000E0041", `x\ufe0fy\u00adz\U000e0041`},
		{"zero-width space and isolates", "a\u200Bb\u2067c\u2069", `a\u200bb\u2067c\u2069`},
		{"bytes that are not UTF-8", "a\xffb\xe2\x80", `a\xffb\xe2\x80`},
		{"backslashes and visible non-ASCII left", `C:\tmp\x1b é実😀`, `C:\tmp\x1b é実😀`},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(tt.in); got != tt.want {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	for _, s := range hostile.Strings() {
		got := Text(s)
		if i := strings.IndexFunc(got, func(r rune) bool { return r != '\n' && r != '\t' && (Refused(r) || Hidden(r)) }); i >= 0 || !utf8.ValidString(got) {
			t.Errorf("Text(%q) = %q holds a character a terminal acts on", s, got)
		}
	}
}
