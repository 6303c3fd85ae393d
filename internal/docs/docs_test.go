package docs

import (
	"errors"
	"strings"
	"testing"
)

// fake generates "<kind> of <file> <heading>".
type fake struct{}

func (fake) Generate(s Spec) (string, error) {
	if s.File == "broken.hcl" {
		return "", errors.New("no such experiment")
	}
	return s.Kind + " of " + s.File + " " + s.Heading, nil
}

func TestUpdate(t *testing.T) {
	for _, tc := range []struct{ name, in, want, err string }{
		{
			name: "replaces every part and keeps the rest",
			in:   "a\n<!-- generated: table x.hcl \"accuracy\" -->\nold\nolder\n<!-- end generated -->\nb\n<!-- generated: section y.hcl \"Code\" -->\n<!-- end generated -->\n",
			want: "a\n<!-- generated: table x.hcl \"accuracy\" -->\ntable of x.hcl accuracy\n<!-- end generated -->\nb\n<!-- generated: section y.hcl \"Code\" -->\nsection of y.hcl Code\n<!-- end generated -->\n",
		},
		{name: "no parts", in: "plain\n", want: "plain\n"},
		{name: "unended", in: "a\n<!-- generated: table x.hcl \"a\" -->\n", err: `R.md:2: generated part not ended by "<!-- end generated -->"`},
		{name: "nested", in: "<!-- generated: table x.hcl \"a\" -->\n<!-- generated: table x.hcl \"b\" -->\n", err: "R.md:2: generated part inside the one opened at line 1"},
		{name: "stray end", in: "x\n<!-- end generated -->\n", err: `R.md:2: "<!-- end generated -->" without a generated part to end`},
		{name: "unknown kind", in: "<!-- generated: plot x.hcl \"a\" -->\n<!-- end generated -->\n", err: `R.md:1: generated part "plot x.hcl \"a\"": unknown kind "plot"`},
		{name: "unquoted heading", in: "<!-- generated: table x.hcl accuracy -->\n<!-- end generated -->\n", err: "R.md:1: generated part \"table x.hcl accuracy\": the heading must be a quoted string"},
		{name: "generator error", in: "\n<!-- generated: table broken.hcl \"a\" -->\n<!-- end generated -->\n", err: `R.md:2: table broken.hcl "a": no such experiment`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Update("R.md", []byte(tc.in), fake{})
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("error %v, want prefix %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

const report = `# q

## accuracy (higher is better)

| a | b |
| --- | ---: |
| x | 0.9 |

Across 3 datasets: Friedman.

## macro_f1 (higher is better)

| a | b |
`

func TestExtract(t *testing.T) {
	for _, tc := range []struct {
		heading   string
		tableOnly bool
		want, err string
	}{
		{"accuracy", true, "| a | b |\n| --- | ---: |\n| x | 0.9 |", ""},
		{"accuracy", false, "| a | b |\n| --- | ---: |\n| x | 0.9 |\n\nAcross 3 datasets: Friedman.", ""},
		{"macro_f1", true, "| a | b |", ""},
		{"log_loss", true, "", `no section "log_loss"`},
	} {
		got, err := Extract(report, tc.heading, tc.tableOnly)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v, want %q", tc.heading, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Extract(%s, %v) = %q, %v; want %q", tc.heading, tc.tableOnly, got, err, tc.want)
		}
	}
}

func TestDiff(t *testing.T) {
	if d := Diff("R.md", []byte("a\nb\n"), []byte("a\nb\n")); d != "" {
		t.Errorf("equal documents: %q", d)
	}
	d := Diff("R.md", []byte("a\n| 0.8733 |\nc\n"), []byte("a\n| 0.8721 |\nc\n"))
	if !strings.HasPrefix(d, "R.md:2 differs") || !strings.Contains(d, "committed: | 0.8733 |") || !strings.Contains(d, "generated: | 0.8721 |") {
		t.Errorf("Diff = %q", d)
	}
	if d := Diff("R.md", []byte("a\n"), []byte("a\nb\n")); !strings.HasPrefix(d, "R.md:2 differs") {
		t.Errorf("longer generated document: %q", d)
	}
}
