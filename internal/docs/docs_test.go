package docs

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

// TestREADMEIsFresh runs every experiment the README quotes with the
// current code and fails when a generated part of the README differs. It
// also checks that the test notices a single number edited by hand.
func TestREADMEIsFresh(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin := buildBench(t, root)
	// The runs' plugin digest cache (os.UserCacheDir) goes into the test's
	// temporary directory: its binaries' paths are temporary, and their
	// entries would stay in the user's cache. The builds are done, so the
	// go command's own cache no longer matters.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Ctx: context.Background(), Bench: filepath.Join(bin, "bench"), Root: root, Out: t.TempDir()}
	gen, err := Update("README.md", readme, r)
	if err != nil {
		t.Fatal(err)
	}
	if d := Diff("README.md", readme, gen); d != "" {
		t.Fatal(d)
	}
	parts, err := parse("README.md", strings.SplitAfter(string(readme), "\n"))
	if err != nil || len(parts) < 5 {
		t.Fatalf("README has %d generated parts (%v), want the shipped experiments' tables", len(parts), err)
	}

	// Edit one digit of the first number inside the first generated part.
	lines := strings.SplitAfter(string(readme), "\n")
	p := parts[0]
	num := regexp.MustCompile(`\d\.\d{4}`)
	for i := p.begin + 1; i < p.end; i++ {
		if loc := num.FindStringIndex(lines[i]); loc != nil {
			b := []byte(lines[i])
			b[loc[1]-1] = '0' + (b[loc[1]-1]-'0'+1)%10
			lines[i] = string(b)
			edited := []byte(strings.Join(lines, ""))
			if d := Diff("README.md", edited, gen); !strings.HasPrefix(d, "README.md:") {
				t.Errorf("a hand-edited number at line %d went unnoticed", i+1)
			}
			return
		}
	}
	t.Fatal("no number in the first generated part")
}

// buildBench builds bench and the shipped Go plugins (bench-plugin-NAME)
// of the repository at root into a temporary directory, in one go build
// whose packages compile and link in parallel, and returns the directory.
func buildBench(t *testing.T, root string) string {
	t.Helper()
	bin, built := t.TempDir(), t.TempDir()
	mains, _ := filepath.Glob(filepath.Join(root, "plugins", "*", "main.go"))
	args := []string{"build", "-o", built + string(filepath.Separator), "./cmd/bench"}
	for _, m := range mains {
		args = append(args, "./plugins/"+filepath.Base(filepath.Dir(m)))
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	if err := os.Rename(filepath.Join(built, "bench"), filepath.Join(bin, "bench")); err != nil {
		t.Fatal(err)
	}
	for _, m := range mains {
		name := filepath.Base(filepath.Dir(m))
		if err := os.Rename(filepath.Join(built, name), filepath.Join(bin, "bench-plugin-"+name)); err != nil {
			t.Fatal(err)
		}
	}
	return bin
}
