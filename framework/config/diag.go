package config

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/safetext"
)

// WriteDiagnostics prints diags with hcl's diagnostic text writer (the
// source lines of each diagnostic, the block they are in, and the detail),
// each headed by a compiler-style "file:line:col: error: summary" line that
// editors and grep jump to, with a line of carets under the subject's part
// of each source line. files maps file names to their sources
// (Parser.Files).
func WriteDiagnostics(w io.Writer, files map[string]*hcl.File, diags hcl.Diagnostics) error {
	for _, d := range diags {
		sev, title := "error", "Error"
		if d.Severity == hcl.DiagWarning {
			sev, title = "warning", "Warning"
		}
		head := sev + ": " + d.Summary
		if s := d.Subject; s != nil {
			head = fmt.Sprintf("%s:%d:%d: %s", s.Filename, s.Start.Line, s.Start.Column, head)
		}
		// The library heads a diagnostic "Error: summary" and a blank
		// line; the location line takes their place.
		var b bytes.Buffer
		if err := hcl.NewDiagnosticTextWriter(&b, files, 0, true).WriteDiagnostic(d); err != nil {
			return err
		}
		body := strings.TrimPrefix(carets(visibleSource(b.String())), title+": "+d.Summary+"\n\n")
		if _, err := fmt.Fprintf(w, "%s\n%s", head, body); err != nil {
			return err
		}
	}
	return nil
}

// visibleSource returns text with each bidi control and zero-width character
// (safetext.Hidden) of the quoted source lines replaced by U+FFFD, one
// character for one so that the carets stay under their columns: a
// terminal shows where it is, and it does not reorder the line it is on.
func visibleSource(text string) string {
	return strings.Map(func(r rune) rune {
		if safetext.Hidden(r) {
			return '\uFFFD'
		}
		return r
	}, text)
}

// carets returns the text of hcl's writer in colour mode without its
// escape codes, and with a line of carets under each part it underlines.
func carets(text string) string {
	const underline = "\x1b[1;4m"
	plain := strings.NewReplacer(underline, "", "\x1b[0m", "", "\x1b[31m", "", "\x1b[33m", "")
	var b strings.Builder
	for line := range strings.Lines(text) {
		b.WriteString(plain.Replace(line))
		before, rest, ok := strings.Cut(line, underline)
		if !ok {
			continue
		}
		subject, _, _ := strings.Cut(rest, "\x1b[0m")
		pad := strings.Map(func(r rune) rune {
			if r == '\t' {
				return r // keeps the caret under its column after a tab
			}
			return ' '
		}, plain.Replace(before))
		b.WriteString(pad + strings.Repeat("^", max(utf8.RuneCountInString(subject), 1)) + "\n")
	}
	return b.String()
}

// panicked starts the part of a diagnostic's detail that go-cty writes
// for a function or operator whose implementation panicked, before the
// panic's message and the Go stack.
const panicked = "panic in function implementation: "

// withoutStacks returns diags with each Go stack that go-cty appends to a
// failed function's or operator's detail cut off, leaving one line that
// says what failed (campaign 5 n02, n06, n10–n12: NaN and infinities
// gave a 50-line goroutine dump; (1/0) % 2 still did).
func withoutStacks(diags hcl.Diagnostics) hcl.Diagnostics {
	for _, d := range diags {
		before, rest, ok := strings.Cut(d.Detail, panicked)
		if !ok {
			continue
		}
		msg, _, _ := strings.Cut(rest, "\n")
		d.Detail = fmt.Sprintf("%sno result: the HCL library failed on it (%s); an operand that is infinite (1/0) or not a number is the usual cause.", before, strings.TrimSpace(msg))
	}
	return diags
}
