// Package adversarial reads the adversarial corpus (testdata/adversarial/
// at the module's root): bad inputs, each with the message bench must
// give for it. A case is a txtar archive: its comment says what the case
// shows, its files are the input (an experiment file, a data file, a
// folds file, a results directory's entries...), and its file "want"
// holds the expected message, whole, with its location (file:line:col, a
// line and column, or a row) wherever one applies. Each package that owns
// a kind of input runs the cases of its kind with Run; -update (the
// package's golden-file flag) rewrites the want files from what the code
// says now.
package adversarial

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// WantFile is the name of the expected message in a case's archive.
const WantFile = "want"

// Case is one case of the corpus.
type Case struct {
	// Name is the archive's file name without .txtar; Path its path.
	Name, Path string
	// Comment is what the case shows.
	Comment string
	// Want is the expected message, "" when the input must be accepted
	// silently.
	Want    string
	archive *txtar.Archive
}

// Dir returns the corpus directory of kind (testdata/adversarial/KIND at
// the module's root).
func Dir(kind string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "adversarial", kind)
}

// Load returns the cases of kind, in file-name order; a corpus with no
// case fails the test.
func Load(t testing.TB, kind string) []*Case {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(Dir(kind), "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("adversarial corpus %s: no case (%v)", Dir(kind), err)
	}
	var out []*Case
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		c := &Case{Name: strings.TrimSuffix(filepath.Base(p), ".txtar"), Path: p, Comment: strings.TrimSpace(string(a.Comment)), archive: a}
		if c.Comment == "" {
			t.Errorf("%s: no comment saying what the case shows", p)
		}
		if w, ok := c.File(WantFile); ok {
			c.Want = strings.TrimRight(string(w), "\n")
		} else {
			t.Errorf("%s: no %q file", p, WantFile)
		}
		out = append(out, c)
	}
	return out
}

// Run runs each case of kind as a subtest: fn returns the message the
// input gives ("" for none), which must equal the case's want. Messages
// are compared with the case's temporary directory (dir, given to fn)
// replaced by "$DIR".
func Run(t *testing.T, kind string, fn func(t *testing.T, c *Case, dir string) string) {
	for _, c := range Load(t, kind) {
		t.Run(c.Name, func(t *testing.T) {
			dir := t.TempDir()
			got := strings.TrimRight(fn(t, c, dir), "\n")
			got = strings.ReplaceAll(got, dir, "$DIR")
			c.check(t, got)
		})
	}
}

// File returns the content of the archive's file name.
func (c *Case) File(name string) ([]byte, bool) {
	for _, f := range c.archive.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// Files returns the names of the archive's input files (all but want and
// the names in skip), in archive order.
func (c *Case) Files(skip ...string) []string {
	var out []string
	for _, f := range c.archive.Files {
		if f.Name != WantFile && !contains(skip, f.Name) {
			out = append(out, f.Name)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// WriteFiles writes the case's input files (see Files) under dir,
// creating their directories, and returns dir joined with the first.
// "$DIR" in a file's content is replaced by dir.
func (c *Case) WriteFiles(t testing.TB, dir string, skip ...string) string {
	t.Helper()
	var first string
	for _, name := range c.Files(skip...) {
		data, _ := c.File(name)
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, bytes.ReplaceAll(data, []byte("$DIR"), []byte(dir)), 0o644); err != nil {
			t.Fatal(err)
		}
		if first == "" {
			first = path
		}
	}
	return first
}

// located matches a message's location: file:line:col, file:line, a line
// or column ("line 3", "col 2"), a row ("data row 2"), a fold, or a file
// of the case's directory ($DIR/...), for inputs that are whole files.
var located = regexp.MustCompile(`:[0-9]+(:[0-9]+)?: |line [0-9]+|row [0-9]+|fold [0-9]+|col(umn)? [0-9]+|\$DIR/\S`)

// Accepted starts the message of an input that must be accepted: a
// summary of what was read, which the case pins down.
const Accepted = "ok: "

// NoLocation starts a line of a case's comment saying why its message
// names no place (a command-line value, say): the location check is then
// skipped.
const NoLocation = "no location: "

// check compares got with the case's want, rewriting the want file under
// -update.
func (c *Case) check(t *testing.T, got string) {
	t.Helper()
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		c.rewrite(t, got)
		return
	}
	if got != c.Want {
		t.Errorf("%s\n%s\ngot:\n%s\nwant:\n%s", c.Path, c.Comment, indent(got), indent(c.Want))
	}
	if c.Want != "" && !strings.HasPrefix(c.Want, Accepted) && !located.MatchString(c.Want) && !strings.Contains(c.Comment, NoLocation) {
		t.Errorf("%s: the message names no place (file:line:col, line, row, fold, column or name): %s", c.Path, c.Want)
	}
}

func indent(s string) string {
	if s == "" {
		return "\t(nothing)"
	}
	return "\t" + strings.ReplaceAll(s, "\n", "\n\t")
}

func (c *Case) rewrite(t *testing.T, got string) {
	t.Helper()
	data := []byte(got + "\n")
	if got == "" {
		data = nil
	}
	found := false
	for i := range c.archive.Files {
		if c.archive.Files[i].Name == WantFile {
			c.archive.Files[i].Data = data
			found = true
		}
	}
	if !found {
		c.archive.Files = append(c.archive.Files, txtar.File{Name: WantFile, Data: data})
	}
	if err := os.WriteFile(c.Path, txtar.Format(c.archive), 0o644); err != nil {
		t.Fatal(err)
	}
	c.Want = got
}
