package results

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/polyclass/polyclass/internal/adversarial"
)

var _ = flag.Bool("update", false, "rewrite the want files of the adversarial corpus")

// TestAdversarialResultsDirs runs the corpus of tampered results
// directories (testdata/adversarial/results): each case builds a directory
// (its "setup" file: complete runs or shards written by this package),
// tampers with it (its files under out/, the symbolic links of "links",
// the named pipes of "fifos"), runs one command on it ("op": run, fresh,
// table, merge, shard I/N, adopt, subdir, gone) and must get the case's
// message, or none. A file victim/t outside the directory, which links
// point at, must be untouched whatever happens, as must every input of
// the case's "inputs" file (PATH | WHAT | AT, PATH in the case's
// directory), which the run ops pass to Begin.
func TestAdversarialResultsDirs(t *testing.T) {
	adversarial.Run(t, "results", func(t *testing.T, c *adversarial.Case, dir string) string {
		out := filepath.Join(dir, "out")
		victim := filepath.Join(dir, "victim")
		if err := os.MkdirAll(victim, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(victim, "t"), []byte("victim\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		setup, _ := c.File("setup")
		for _, line := range lines(setup) {
			runSetup(t, out, strings.Fields(line))
		}
		c.WriteFiles(t, dir, "setup", "links", "fifos", "op", "inputs")
		links, _ := c.File("links")
		for _, line := range lines(links) {
			from, to, ok := strings.Cut(line, " -> ")
			if !ok {
				t.Fatalf("links: %q is not FROM -> TO", line)
			}
			path := filepath.Join(dir, from)
			os.RemoveAll(path)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(to, path); err != nil {
				t.Fatal(err)
			}
		}
		fifos, _ := c.File("fifos")
		for _, name := range lines(fifos) {
			path := filepath.Join(dir, name)
			os.RemoveAll(path)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		inputs := caseInputs(t, c, dir)
		before := contents(inputs)
		op, _ := c.File("op")
		var accepted string
		err := runOp(t, out, strings.Fields(string(op)), inputs, &accepted)
		for path, b := range contents(inputs) {
			if b != before[path] {
				t.Errorf("input %s changed: %q, was %q", path, b, before[path])
			}
		}
		if b, rerr := os.ReadFile(filepath.Join(victim, "t")); rerr != nil || string(b) != "victim\n" {
			t.Errorf("victim/t is now %q (%v)", b, rerr)
		}
		if entries, _ := os.ReadDir(victim); len(entries) != 1 {
			t.Errorf("bench wrote into victim/: %d entries", len(entries))
		}
		if err != nil {
			return err.Error()
		}
		return accepted
	})
}

// supersededTime matches the time-stamped folder of superseded/ a note
// names.
var supersededTime = regexp.MustCompile(`superseded/[0-9]{8}T[0-9.]+Z/`)

// lines returns the non-empty lines of b.
func lines(b []byte) []string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// runSetup builds part of a results directory: "run N" a complete run of
// N cells, "partial N K" a run of N cells interrupted after K, "shards N
// CELLS" the N shards of a grid of CELLS cells, each complete; "linkroot"
// makes the directory a symbolic link to where it is; "stale NAME..." adds
// NAME... to the outputs the manifest lists, as an edited (or an older
// run's) manifest would.
func runSetup(t *testing.T, out string, f []string) {
	t.Helper()
	num := func(s string) int {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("setup %v: %v", f, err)
		}
		return n
	}
	switch f[0] {
	case "run", "partial":
		n := num(f[1])
		k := n
		if f[0] == "partial" {
			k = num(f[2])
		}
		r := begin(t, out, "exp", n, Options{})
		for i := range k {
			finishCells(t, r, i)
		}
		if _, err := r.Finish(StatusComplete, 0); err != nil {
			t.Fatal(err)
		}
	case "shards":
		n, cells := num(f[1]), num(f[2])
		for i := range n {
			r := begin(t, out, "exp", cells, Options{Shard: shardOf(i, n, cells)})
			for c := i; c < cells; c += n {
				finishCells(t, r, c)
			}
			if _, err := r.Finish(StatusComplete, 0); err != nil {
				t.Fatal(err)
			}
		}
	case "stale":
		path := filepath.Join(out, ManifestFile)
		var m map[string]any
		b, err := os.ReadFile(path)
		if err == nil {
			err = json.Unmarshal(b, &m)
		}
		if err != nil {
			t.Fatalf("setup %v: %v", f, err)
		}
		outputs, _ := m["outputs"].(map[string]any)
		if outputs == nil {
			outputs = map[string]any{}
		}
		for _, name := range f[1:] {
			outputs[name] = filepath.Join(out, name)
		}
		m["outputs"] = outputs
		if b, err = json.Marshal(m); err == nil {
			err = os.WriteFile(path, b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	case "linkroot":
		// The results directory becomes a link to where it now is.
		if err := os.Rename(out, out+".real"); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Base(out)+".real", out); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("setup: unknown step %q", f[0])
	}
}

// caseInputs returns the inputs the case's "inputs" file lists.
func caseInputs(t *testing.T, c *adversarial.Case, dir string) []Input {
	b, _ := c.File("inputs")
	var in []Input
	for _, l := range lines(b) {
		f := strings.Split(l, "|")
		if len(f) != 3 {
			t.Fatalf("inputs: %q is not PATH | WHAT | AT", l)
		}
		in = append(in, Input{Path: filepath.Join(dir, strings.TrimSpace(f[0])), What: strings.TrimSpace(f[1]), At: strings.TrimSpace(f[2])})
	}
	return in
}

// contents returns the content of each input, by path ("" when unread).
func contents(inputs []Input) map[string]string {
	out := map[string]string{}
	for _, in := range inputs {
		b, _ := os.ReadFile(in.Path)
		out[in.Path] = string(b)
	}
	return out
}

// runOp runs the case's command on out: "run N" (resume a run of N
// cells, finishing every cell), "fresh N", "adopt N" (a run adopting
// the directory: its notes go to accepted), "table", "merge" (in place),
// "mergeto" (into DIR/merged), "shard I/N CELLS", "subdir NAME" (Subdir),
// "gone remove|replace|move N" (a run of N cells whose directory goes
// after its first cell), "swap cells|plots N" (a run of N cells, writing
// a figure, whose cells/ is swapped for, or plots/ made, a link to
// ../victim after its first cell), "folder NAME FILE" (OpenFolder NAME,
// which is then swapped for a link to ../victim, and FILE written there),
// "swaplog N" (a run resuming N cells whose directory is swapped for a
// link to victim/ once checked, before its run log is opened). A merge's
// summary and notes go to accepted.
func runOp(t *testing.T, out string, f []string, inputs []Input, accepted *string) error {
	t.Helper()
	if len(f) == 0 {
		t.Fatal("op: empty")
	}
	switch f[0] {
	case "subdir":
		_, err := Subdir(out, f[1])
		return err
	case "folder":
		return folderOp(t, out, f[1], f[2])
	case "swaplog":
		n, _ := strconv.Atoi(f[1])
		notes := swapOnWrite{swap: func() { swapFor(t, out, "victim") }}
		r, err := Begin(out, manifest("exp"), digests(n), Options{Now: clock(), Notes: &notes})
		if err == nil {
			r.close()
		}
		return err
	case "gone":
		return goneOp(t, out, f[1], f[2])
	case "swap":
		return swapOp(t, out, f[1], f[2])
	case "run", "fresh", "adopt":
		n, _ := strconv.Atoi(f[1])
		var notes strings.Builder
		r, err := Begin(out, manifest("exp"), digests(n), Options{Fresh: f[0] == "fresh", Adopt: f[0] == "adopt", Now: clock(), Render: fakeRender, Inputs: inputs, Notes: &notes})
		if err != nil {
			return err
		}
		defer func() {
			if f[0] == "adopt" {
				*accepted = adversarial.Accepted + "adopted\n" + supersededTime.ReplaceAllString(notes.String(), "superseded/TIME/")
			}
		}()
		for i := range n {
			if r.Kept()[i] == nil {
				finishCells(t, r, i)
			}
		}
		_, err = r.Finish(StatusComplete, 0)
		return err
	case "table":
		_, _, err := Render(out, fakeRender, nil)
		return err
	case "merge", "mergeto":
		to := out
		if f[0] == "mergeto" {
			// Into a directory of its own: out is only read.
			to = filepath.Join(filepath.Dir(out), "merged")
		}
		res, err := Merge(to, []string{out}, fakeRender)
		if err == nil {
			*accepted = fmt.Sprintf("%smerged %d cells", adversarial.Accepted, res.Cells)
			for _, n := range res.Notes {
				*accepted += "\n" + supersededTime.ReplaceAllString(n, "superseded/TIME/")
			}
		}
		return err
	case "shard":
		var i, n, cells int
		if _, err := fmt.Sscanf(f[1]+" "+f[2], "%d/%d %d", &i, &n, &cells); err != nil {
			t.Fatalf("op %v: %v", f, err)
		}
		r, err := Begin(out, manifest("exp"), digests(cells), Options{Shard: shardOf(i, n, cells), Now: clock(), Inputs: inputs})
		if err != nil {
			return err
		}
		_, err = r.Finish(StatusComplete, 0)
		return err
	}
	t.Fatalf("op: unknown command %q", f[0])
	return nil
}

// goneOp runs n cells into out, whose directory is removed, replaced by
// an empty one or moved away (how) after the first cell; it returns
// Finish's error, and fails the test when anything was written to the
// path after.
func goneOp(t *testing.T, out, how, cells string) error {
	t.Helper()
	n, _ := strconv.Atoi(cells)
	r, err := Begin(out, manifest("exp"), digests(n), Options{Now: clock(), Render: fakeRender, Stop: func(error) {}})
	if err != nil {
		return err
	}
	finishCells(t, r, 0)
	switch how {
	case "remove":
		os.RemoveAll(out)
	case "replace":
		os.RemoveAll(out)
		os.Mkdir(out, 0o755)
	case "move":
		os.Rename(out, out+".moved")
	default:
		t.Fatalf("gone: unknown %q", how)
	}
	for i := 1; i < n; i++ {
		finishCells(t, r, i)
	}
	_, err = r.Finish(StatusComplete, 0)
	if entries, rerr := os.ReadDir(out); how == "replace" && len(entries) != 0 || how != "replace" && rerr == nil {
		t.Errorf("the run wrote to %s after it went: %d entries", out, len(entries))
	}
	return err
}

// swapOp is the op "swap cells|plots N": a run of n cells that writes a
// figure (plots/box.svg) besides fakeRender's tables, whose cells/ folder
// is moved away and replaced by a link to ../victim, or whose plots/ is
// made such a link, once its first cell is written.
func swapOp(t *testing.T, out, what, cells string) error {
	t.Helper()
	n, _ := strconv.Atoi(cells)
	render := func(m *Manifest, cs []*Cell) ([]Output, error) {
		outs, err := fakeRender(m, cs)
		return append(outs, Output{"plots/box.svg", func(w io.Writer) error { _, err := io.WriteString(w, "<svg/>"); return err }}), err
	}
	r, err := Begin(out, manifest("exp"), digests(n), Options{Now: clock(), Render: render, Stop: func(error) {}})
	if err != nil {
		return err
	}
	finishCells(t, r, 0)
	switch what {
	case "cells":
		if err := os.Rename(filepath.Join(out, CellsDir), filepath.Join(out, "cells.old")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../victim", filepath.Join(out, CellsDir)); err != nil {
			t.Fatal(err)
		}
	case "plots":
		if err := os.Symlink("../victim", filepath.Join(out, "plots")); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("swap: unknown %q", what)
	}
	for i := 1; i < n; i++ {
		finishCells(t, r, i)
	}
	_, err = r.Finish(StatusComplete, 0)
	return err
}

// folderOp opens bench's folder name of out (slurm, k8s), swaps it for a
// link to ../victim, and writes file there.
func folderOp(t *testing.T, out, name, file string) error {
	t.Helper()
	f, err := OpenFolder(out, name, nil)
	if err != nil {
		return err
	}
	defer f.Close()
	swapFor(t, filepath.Join(out, name), "../victim")
	return f.WriteFile(file, []byte("x\n"), 0o644)
}

// swapFor moves path aside (to PATH.moved) and puts a symbolic link to
// target in its place.
func swapFor(t *testing.T, path, target string) {
	t.Helper()
	if err := os.Rename(path, path+".moved"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}
