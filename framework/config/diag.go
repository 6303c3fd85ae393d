package config

import (
	"bytes"
	"fmt"
	"io"

	"github.com/hashicorp/hcl/v2"
)

// WriteDiagnostics prints diags with hcl's diagnostic text writer (the
// source lines of each diagnostic, the block they are in, and the detail),
// each headed by a compiler-style "file:line:col: error: summary" line that
// editors and grep jump to. files maps file names to their sources
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
		if err := hcl.NewDiagnosticTextWriter(&b, files, 0, false).WriteDiagnostic(d); err != nil {
			return err
		}
		body := bytes.TrimPrefix(b.Bytes(), []byte(title+": "+d.Summary+"\n\n"))
		if _, err := fmt.Fprintf(w, "%s\n%s", head, body); err != nil {
			return err
		}
	}
	return nil
}
