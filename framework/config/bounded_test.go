package config

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/polyclass/polyclass/framework/safetext"
)

// TestDiagnosticsQuoteBounded: a string of the experiment file 100,000
// characters long, or one holding a raw control character, gives a short
// diagnostic: each source line and its carets cut to 200 characters,
// each quoted string to 256, and a raw control character of the source
// shown as U+FFFD (before, the 100 KB string was printed two or three
// times in full, and a raw escape reached the terminal).
func TestDiagnosticsQuoteBounded(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	x256 := `"` + strings.Repeat("x", 256) + `"…`
	cases := []struct{ name, dataset, more, want string }{
		{"an unknown output format", `dataset "iris" { path = "iris.csv" }`, `output { formats = ["` + long + `"] }`,
			x256 + " is not an output format; choose from markdown, csv, tables."},
		{"a learner name", `dataset "iris" { path = "iris.csv" }`, `learner "` + long + `" {}`,
			`  on exp.hcl line 3, in learner ` + x256 + `:`},
		{"a path with a raw escape", `dataset "iris" { path = "iris` + "\x1b[2J" + `.csv" }`, ``,
			`   2: dataset "iris" { path = "iris` + "\uFFFD" + `[2J.csv" }`},
		{"a directory with an escape at its end", `dataset "iris" { path = "iris.csv" }`, `output { dir = "` + long + `\u001b" }`,
			`dir "` + strings.Repeat("x", 60) + `"… holds an escape (U+001B) at character 100001; ` + safetext.Rule + `.`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(base, `dataset "iris" { path = "iris.csv" }`, c.dataset+"\n"+c.more, 1)
			_, diags := parse(t, src)
			if !strings.Contains(diags, "\n"+c.want+"\n") {
				t.Errorf("diagnostics (%d bytes):\n%.2000s\nwant a line %q", len(diags), diags, c.want)
			}
			if len(diags) > 2000 {
				t.Errorf("diagnostics of %d bytes, want at most 2000", len(diags))
			}
			for line := range strings.Lines(diags) {
				line = strings.TrimSuffix(line, "\n")
				if n := utf8.RuneCountInString(line); n > 400 {
					t.Errorf("a line of %d characters: %.100q…", n, line)
				}
				if err := safetext.Check(line); err != nil {
					t.Errorf("line %q %v", line, err)
				}
			}
		})
	}
}
