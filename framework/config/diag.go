package config

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// WriteDiagnostics prints diags as compilers do: a "file:line:col: error:
// summary" line, the source line with the range underlined, and the detail.
// files maps file names to their sources (Parser.Files).
func WriteDiagnostics(w io.Writer, files map[string]*hcl.File, diags hcl.Diagnostics) error {
	var b bytes.Buffer
	for _, d := range diags {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		if d.Subject == nil {
			fmt.Fprintf(&b, "%s: %s\n", sev, d.Summary)
		} else {
			s := d.Subject
			fmt.Fprintf(&b, "%s:%d:%d: %s: %s\n", s.Filename, s.Start.Line, s.Start.Column, sev, d.Summary)
			if f, ok := files[s.Filename]; ok && f != nil {
				writeSnippet(&b, f.Bytes, *s)
			}
		}
		if d.Detail != "" {
			for _, line := range strings.Split(d.Detail, "\n") {
				fmt.Fprintf(&b, "  %s\n", line)
			}
		}
		b.WriteByte('\n')
	}
	_, err := w.Write(b.Bytes())
	return err
}

// writeSnippet prints the first line of rng with a caret line under it.
func writeSnippet(w io.Writer, src []byte, rng hcl.Range) {
	lines := strings.Split(string(src), "\n")
	if rng.Start.Line < 1 || rng.Start.Line > len(lines) {
		return
	}
	line := strings.TrimRight(lines[rng.Start.Line-1], "\r")
	num := fmt.Sprintf("%4d | ", rng.Start.Line)
	fmt.Fprintf(w, "%s%s\n", num, line)
	start := rng.Start.Column - 1
	end := rng.End.Column - 1
	if rng.End.Line != rng.Start.Line {
		end = len(line)
	}
	start = min(max(start, 0), len(line))
	end = min(max(end, start+1), max(len(line), start+1))
	pad := strings.Map(func(r rune) rune {
		if r == '\t' {
			return '\t'
		}
		return ' '
	}, line[:start])
	fmt.Fprintf(w, "%s%s%s\n", strings.Repeat(" ", len(num)-2)+"| ", pad, strings.Repeat("^", end-start))
}
