package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestWarningsSection: the experiment's warnings (Spec.Warnings) are
// listed in the Markdown, HTML, LaTeX and JSON outputs, escaped as each
// format needs, and the outputs of a spec without warnings are those of
// a spec from before them (no section, no key).
func TestWarningsSection(t *testing.T) {
	warns := []string{
		"exp.hcl:3:1: Dataset in no reduction: Dataset \"wine\" is in no reduction's datasets list.",
		"dataset d, reduction e: column 1 lacks a +1 or a −1 | <not binary>",
	}
	for _, tc := range []struct {
		format, file string
		want         []string
	}{
		{"markdown", "f.md", []string{"## Warnings\n\n- exp.hcl:3:1: Dataset in no reduction: Dataset \"wine\" is in no reduction's datasets list.\n- dataset d, reduction e: column 1 lacks a +1 or a −1 \\| &lt;not binary&gt;\n\n"}},
		{"html", "f.html", []string{"<div class=\"banner\" id=\"warnings\" role=\"status\"><strong>2 warnings</strong> (as bench validate gives them):\n<ul>\n<li>exp.hcl:3:1: Dataset in no reduction: Dataset &quot;wine&quot; is in no reduction&#39;s datasets list.</li>\n<li>dataset d, reduction e: column 1 lacks a +1 or a −1 | &lt;not binary&gt;</li>\n</ul></div>\n"}},
		{"latex", "f.tex", []string{"% Warning: exp.hcl:3:1: Dataset in no reduction", "% Warning: dataset d, reduction e: column 1 lacks"}},
		{"json", "f.json", []string{`"warnings": [`, `"dataset d, reduction e: column 1 lacks a +1 or a −1 | \u003cnot binary\u003e"`}},
	} {
		t.Run(tc.format, func(t *testing.T) {
			with := render(t, Spec{Experiment: "f", Metrics: []string{"accuracy"}, Formats: []string{tc.format}, Warnings: warns}, tc.file)
			without := render(t, Spec{Experiment: "f", Metrics: []string{"accuracy"}, Formats: []string{tc.format}}, tc.file)
			for _, w := range tc.want {
				if !strings.Contains(with, w) {
					t.Errorf("%s with warnings lacks %q:\n%s", tc.file, w, with)
				}
			}
			if strings.Contains(without, "arning") {
				t.Errorf("%s without warnings speaks of warnings:\n%s", tc.file, without)
			}
		})
	}
}

// render returns the text of file name among the outputs of spec s on the
// golden cells.
func render(t *testing.T, s Spec, name string) string {
	t.Helper()
	files, err := Files(s, goldenCells())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Name == name {
			var b bytes.Buffer
			if err := f.Write(&b); err != nil {
				t.Fatal(err)
			}
			return b.String()
		}
	}
	t.Fatalf("no output %s", name)
	return ""
}
