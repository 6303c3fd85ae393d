package config

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// nested returns open repeated n times, then inner, then close repeated n
// times.
func nested(open, inner, close string, n int) string {
	return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
}

// TestBounds: a file nested deeper than MaxNesting, or larger than
// MaxFileBytes, is refused before it is parsed, with an error at the first
// byte beyond the bound; brackets in strings, heredocs and comments do not
// count, and a file at the bound is parsed. Before the bound, C nested
// 100,000 deep crashed bench with a stack overflow.
func TestBounds(t *testing.T) {
	const head = "experiment \"x\" { seed = 3 }\ndataset \"iris\" { path = \"iris.csv\" }\nlearner \"a\" {}\n"
	// The learner block's braces and params' braces are two levels: its
	// C opens level 65 at its 63rd bracket, column 17+63.
	learner := func(c string) string { return head + "learner \"b\" {\n  params = { C = " + c + " }\n}\n" }
	for _, tc := range []struct {
		name, src string
		want      string // the first line of the diagnostics, "" for none
	}{
		{"C nested 100,000 deep", learner(nested("[", "1", "]", 100000)),
			"exp.hcl:5:80: error: Experiment file nested too deeply"},
		{"seed in 100,000 parentheses", "experiment \"x\" { seed = " + nested("(", "1", ")", 100000) + " }\n",
			"exp.hcl:1:88: error: Experiment file nested too deeply"},
		{"100,000 unary minus", "experiment \"x\" { seed = " + strings.Repeat("-", 100000) + "1 }\n",
			"exp.hcl:1:88: error: Experiment file nested too deeply"},
		{"10,000 chained conditionals", "experiment \"x\" { seed = " + strings.Repeat("true ? 1 : ", 10000) + "1 }\n",
			"exp.hcl:1:723: error: Experiment file nested too deeply"},
		{"100,000 nested interpolations", "experiment \"x\" { seed = 1 }\nlocals { s = " + nested(`"${`, "1", `}"`, 100000) + " }\n",
			"exp.hcl:2:204: error: Experiment file nested too deeply"},
		{"62 levels in params is the bound", learner(nested("[", "1", "]", 62)), ""},
		{"63 levels in params is one too many", learner(nested("[", "1", "]", 63)),
			"exp.hcl:5:80: error: Experiment file nested too deeply"},
		{"brackets in a string do not count", learner(`"` + strings.Repeat("[", 1000) + `"`), ""},
		{"brackets in comments do not count", head + "# " + strings.Repeat("[", 1000) + "\n// " + strings.Repeat("(", 1000) + "\n/* " + strings.Repeat("{", 1000) + " */\n", ""},
		{"/*/ does not close its comment", head + "/*/ " + strings.Repeat("[", 100) + " */\n", ""},
		{"brackets in a heredoc do not count", head + "locals {\n  s = <<-EOT\n    " + strings.Repeat("[", 1000) + "\n    EOT\n}\n", ""},
		{"interpolations in a heredoc count", head + "locals {\n  s = <<EOT\n" + nested("${", "1", "}", 100) + "\nEOT\n}\n",
			"exp.hcl:6:128: error: Experiment file nested too deeply"},
		{"escaped interpolations do not count", head + "locals { s = \"" + strings.Repeat("$${", 1000) + "\" }\n", ""},
		{"an unclosed string ends at its line", head + "locals { s = \"[[[\n  t = " + nested("[", "1", "]", 70) + " }\n",
			"exp.hcl:5:70: error: Experiment file nested too deeply"},
		{"larger than 1 MiB", head + "# " + strings.Repeat("x", MaxFileBytes) + "\n",
			fmt.Sprintf("exp.hcl:4:%d: error: Experiment file too large", MaxFileBytes-len(head)+1)},
		{"1 MiB of comment is parsed", head + "# " + strings.Repeat("x", MaxFileBytes-len(head)-3) + "\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, diags := parse(t, tc.src)
			if d := time.Since(start); d > time.Second && tc.want != "" && strings.Contains(tc.want, "nested") {
				t.Errorf("refused in %v, want within a second", d)
			}
			first, _, _ := strings.Cut(diags, "\n")
			if first != tc.want {
				t.Errorf("first diagnostic line %q, want %q", first, tc.want)
			}
		})
	}
}

// TestParseFileBound: ParseFile reads no more than one byte beyond
// MaxFileBytes of a larger file and refuses it at that byte, with the
// file's path.
func TestParseFileBound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "exp.hcl")
	src := bytes.Repeat([]byte("# comment\n"), MaxFileBytes) // 10 MiB
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	p := NewParser(formats)
	exp, diags := p.ParseFile(path)
	if exp != nil || len(diags) != 1 {
		t.Fatalf("experiment %v, diagnostics %v; want none and one error", exp, diags)
	}
	d := diags[0]
	if d.Summary != "Experiment file too large" || d.Subject == nil || d.Subject.Filename != path ||
		d.Subject.Start.Line != MaxFileBytes/10+1 || d.Subject.Start.Column != MaxFileBytes%10+1 {
		t.Errorf("got %s at %v", d.Summary, d.Subject)
	}
}

// FuzzBounds: the bound scanner never panics, refuses exactly the files
// that nest deeper than it allows once a bracket run is added, and
// locates its error inside the file.
func FuzzBounds(f *testing.F) {
	f.Add("experiment \"x\" { seed = 1 }\n")
	f.Add(nested("[", "1", "]", 70))
	f.Add(nested(`"${`, "x", `}"`, 40))
	f.Add("s = <<-EOT\n  ${[[[\n  EOT\n")
	f.Add("a = -!-!-1 ? b ? c : d : e\n/* [[[ */ # (((\n")
	f.Add("\"\\\"${\"%{ if x }[%{ endif }\"}\"")
	f.Fuzz(func(t *testing.T, src string) {
		d := checkBounds([]byte(src), "f.hcl")
		if d != nil {
			if d.Subject == nil || d.Subject.Start.Byte >= len(src) || d.Subject.Start.Line < 1 || d.Subject.Start.Column < 1 {
				t.Fatalf("error %s at %v, outside the file of %d bytes", d.Summary, d.Subject, len(src))
			}
			return
		}
		// Within the bound at the top level: MaxNesting more brackets
		// after a newline are one level too many.
		deeper := src + "\n" + strings.Repeat("(", MaxNesting+1)
		if checkBounds([]byte(deeper), "f.hcl") == nil && !strings.ContainsAny(src, "\"<#/") {
			t.Fatalf("%q plus %d parentheses accepted", src, MaxNesting+1)
		}
	})
}

// TestBoundSnippet: a bound error shows its line up to the byte beyond
// the bound (not the rest of a line nested 100,000 deep), and no source
// when that part of the line is long.
func TestBoundSnippet(t *testing.T) {
	_, got := parse(t, "experiment \"x\" {\n  seed = "+nested("(", "1", ")", 100000)+"\n}\n")
	want := "exp.hcl:2:73: error: Experiment file nested too deeply\n" +
		"  on exp.hcl line 2:\n" +
		"   2:   seed = " + strings.Repeat("(", 64) + "\n" +
		"               " + strings.Repeat(" ", 63) + "^\n\n" +
		"This opens level 65 of nesting; brackets, braces, parentheses, template interpolations, unary operators in a row and chained conditionals nest at most 64 levels deep in an experiment file.\n\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	_, got = parse(t, "experiment \"x\" {\n  seed = "+strings.Repeat(" ", 300)+nested("(", "1", ")", 100)+"\n}\n")
	if !strings.Contains(got, "(source code not available)") || len(got) > 1000 {
		t.Errorf("got:\n%s\nwant no source", got)
	}
}
