package config

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
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
		body = boundedText(body)
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

// Bounds on what a printed diagnostic quotes of the experiment file.
const (
	// maxSourceLine is the most characters of a source line (and of the
	// carets under it) a diagnostic shows.
	maxSourceLine = 200
	// maxQuoted is the most characters (or escapes) of a Go-quoted
	// string a diagnostic shows: room for a long path.
	maxQuoted = 256
)

// sourceLine matches a source line of hcl's writer ("  12: text") and a
// line of carets under one.
var sourceLine = regexp.MustCompile(`^ *(\d+: |\^)| *\^+$`)

// goQuoted matches a Go-quoted string: its escapes and characters.
var goQuoted = regexp.MustCompile(`"(?:\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|.)|[^"\\\n])*"`)

// quotedChar matches one character or escape of a Go-quoted string.
var quotedChar = regexp.MustCompile(`\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|.)|.`)

// boundedText returns the text of a printed diagnostic with what it quotes
// of the experiment file bounded, so that a megabyte string in the file
// gives a short message: each source line (and its carets) cut to
// maxSourceLine characters, each Go-quoted string of the other lines cut
// to maxQuoted characters, then "…", and each control
// character left (a raw one in the file's source) shown as U+FFFD, one
// character for one so that the carets stay under their columns.
func boundedText(text string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		nl := strings.HasSuffix(line, "\n")
		line = strings.TrimSuffix(line, "\n")
		if sourceLine.MatchString(line) {
			if r := []rune(line); len(r) > maxSourceLine {
				line = string(r[:maxSourceLine]) + "…"
			}
		} else {
			line = goQuoted.ReplaceAllStringFunc(line, cutQuoted)
		}
		b.WriteString(strings.Map(func(r rune) rune {
			if r != '\t' && safetext.Refused(r) {
				return '\uFFFD'
			}
			return r
		}, line))
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// cutQuoted cuts the Go-quoted string q to its first maxQuoted
// characters or escapes, then "…", as safetext.Show cuts text.
func cutQuoted(q string) string {
	inner := q[1 : len(q)-1]
	chars := quotedChar.FindAllStringIndex(inner, maxQuoted+1)
	if len(chars) <= maxQuoted {
		return q
	}
	return `"` + inner[:chars[maxQuoted][0]] + `"…`
}
