package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/host"
)

// TestPluginsBenchInDirectoryHoldingSeparator: bench installed in a
// directory whose path holds the list separator (…/x:y/bin/bench) runs
// the plugins of that directory, never those of y/bin in the working
// directory (its path split at ':' named x and y/bin), in validate, run
// and the job script of submit slurm run as Slurm would; and its hint
// for a plugin not found names no --plugins list that would split it.
func TestPluginsBenchInDirectoryHoldingSeparator(t *testing.T) {
	skipUnderRace(t, "it runs bench binaries built without -race")
	root := t.TempDir()
	own := filepath.Join(root, "x"+string(os.PathListSeparator)+"y", "bin")
	for _, d := range []string{own, filepath.Join(root, "x"), filepath.Join(root, "y", "bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	linkInto(t, buildBench(t), filepath.Join(own, "bench"))
	entries, err := os.ReadDir(pluginsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), host.BinaryPrefix) && e.Type().IsRegular() {
			linkInto(t, filepath.Join(pluginsDir, e.Name()), filepath.Join(own, e.Name()))
		}
	}
	planted := filepath.Join(root, "PLANTED")
	for _, name := range []string{"logreg", "lda", "reducers"} {
		script := "#!/bin/sh\necho \"$0\" > " + planted + "\nexit 3\n"
		if err := os.WriteFile(filepath.Join(root, "y", "bin", host.BinaryPrefix+name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exp := writeExperiment(t, smallExperiment)
	bench := func(args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(filepath.Join(own, "bench"), args...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if b, rerr := os.ReadFile(planted); rerr == nil {
			t.Fatalf("bench %s ran %s", strings.Join(args, " "), strings.TrimSpace(string(b)))
		}
		return string(out), err
	}
	if out, err := bench("validate", exp); err != nil {
		t.Fatalf("validate: %v\n%s", err, out)
	}
	if out, err := bench("run", "--quiet", "-o", filepath.Join(root, "single"), exp); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	for _, name := range []string{"logreg", "lda"} {
		if !strings.Contains(readFile(t, filepath.Join(root, "single", "manifest.json")), filepath.Join(own, host.BinaryPrefix+name)) {
			t.Errorf("the manifest does not record %s of %s", name, own)
		}
	}

	// The job script names no --plugins list that would split own: the
	// bench it runs takes its own directory whole.
	dir := filepath.Join(root, "cluster")
	if out, err := bench("submit", "slurm", "--shards", "1", "-o", dir, exp); err != nil {
		t.Fatalf("submit slurm: %v\n%s", err, out)
	}
	array := filepath.Join(dir, "slurm", "array.sbatch")
	if text := readFile(t, array); strings.Contains(text, "--plugins") || !strings.Contains(text, "exec "+filepath.Join(own, "bench")+" run ") {
		t.Fatalf("array.sbatch:\n%s\nwant %s run without --plugins", text, filepath.Join(own, "bench"))
	}
	task := exec.Command("bash", array)
	task.Dir, task.Env = root, append(os.Environ(), "SLURM_ARRAY_TASK_ID=0", "SLURM_CPUS_PER_TASK=1")
	if out, err := task.CombinedOutput(); err != nil {
		t.Fatalf("array task: %v\n%s", err, out)
	}
	if b, err := os.ReadFile(planted); err == nil {
		t.Fatalf("the array task ran %s", b)
	}
	merge := exec.Command("bash", filepath.Join(dir, "slurm", "merge.sbatch"))
	merge.Dir = root
	if out, err := merge.CombinedOutput(); err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	if got, want := readFile(t, filepath.Join(dir, "folds.csv")), readFile(t, filepath.Join(root, "single", "folds.csv")); got != want {
		t.Errorf("the merged folds.csv differs from the single run's:\n%s\nwant:\n%s", got, want)
	}

	unknown := writeExperiment(t, strings.Replace(smallExperiment, `learner "lda" {}`, `learner "nosuch" {}`, 1))
	out, err := bench("validate", unknown)
	if err == nil {
		t.Fatalf("validate of an unknown plugin passed:\n%s", out)
	}
	if want := `in "` + own + `" only; --plugins, which takes directories separated by ":", cannot name a directory whose path holds it`; !strings.Contains(out, want) {
		t.Errorf("validate:\n%s\nwant the hint %q", out, want)
	}
	if strings.Contains(out, "--plugins "+own) || strings.Contains(out, ":"+own) {
		t.Errorf("validate suggests a --plugins list that splits %s:\n%s", own, out)
	}
}

// linkInto makes dst the file src, hard-linked (copied where it cannot
// be), executable.
func linkInto(t *testing.T, src, dst string) {
	t.Helper()
	if os.Link(src, dst) == nil {
		return
	}
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestPluginsFlagDirs: the directories of --plugins are those of its
// list, each relative one made absolute against the working directory
// when bench starts (as the docs' --plugins DIR:bin names the bin there),
// empty entries left out; a list that names none is refused; without
// --plugins, bench's own directory, whole.
func TestPluginsFlagDirs(t *testing.T) {
	sep := string(os.PathListSeparator)
	wd := filepath.Join(t.TempDir(), "a"+sep+"b")
	if err := os.Mkdir(wd, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(wd)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		args    []string
		want    []string
		wantErr string
	}{
		{"default", nil, []string{filepath.Dir(exe)}, ""},
		{"absolute", []string{"--plugins", "/opt/p"}, []string{"/opt/p"}, ""},
		{"relative, in a working directory holding the separator", []string{"--plugins", "bin"}, []string{filepath.Join(wd, "bin")}, ""},
		{"a list", []string{"--plugins", "mine" + sep + "/opt/p/" + sep}, []string{filepath.Join(wd, "mine"), "/opt/p"}, ""},
		{"dot", []string{"--plugins", "." + sep + "../c"}, []string{wd, filepath.Join(filepath.Dir(wd), "c")}, ""},
		{"empty", []string{"--plugins", ""}, nil, `validate: --plugins "": want a directory`},
		{"separators only", []string{"--plugins", sep + sep}, nil, `validate: --plugins "` + sep + sep + `": want a directory`},
		{"unexpanded", []string{"--plugins", "/opt/p" + sep + "~/mine"}, nil, `validate: --plugins "~/mine"`},
	} {
		o, err := parseFlags("validate", append(tc.args, "exp.hcl"), io.Discard)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !reflect.DeepEqual(o.plugins, tc.want) {
			t.Errorf("%s: plugins %q, want %q", tc.name, o.plugins, tc.want)
		}
	}
}

// TestSubmitSlurmPluginsList: the --plugins of a job script reads back as
// the directories the submission searched, absolute (a relative one made
// so against the working directory of bench submit, not the task's); a
// directory whose path holds the separator, which no list can name, is
// refused with the directory named.
func TestSubmitSlurmPluginsList(t *testing.T) {
	sep := string(os.PathListSeparator)
	exp := writeExperiment(t, smallExperiment)
	plain, colon := t.TempDir(), filepath.Join(t.TempDir(), "a"+sep+"b")
	for _, d := range []string{filepath.Join(plain, "mine"), filepath.Join(colon, "mine")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	shipped, err := filepath.Abs(pluginsDir)
	if err != nil {
		t.Fatal(err)
	}
	pluginsArg := regexp.MustCompile(`--plugins (\S+) `)

	t.Chdir(plain)
	dir := filepath.Join(t.TempDir(), "res")
	if _, stderr, err := runBench(t, "submit", "slurm", exp, "--plugins", "mine"+sep+pluginsDir, "-o", dir, "--shards", "2"); err != nil {
		t.Fatalf("submit slurm: %v\n%s", err, stderr)
	}
	m := pluginsArg.FindStringSubmatch(readFile(t, filepath.Join(dir, "slurm", "array.sbatch")))
	if m == nil {
		t.Fatal("array.sbatch has no --plugins")
	}
	if got, want := host.SplitDirs(m[1]), []string{filepath.Join(plain, "mine"), shipped}; !reflect.DeepEqual(got, want) {
		t.Errorf("the script's --plugins %s reads back as %q, want %q", m[1], got, want)
	}

	t.Chdir(colon)
	dir = filepath.Join(t.TempDir(), "res")
	_, _, err = runBench(t, "submit", "slurm", exp, "--plugins", "mine"+sep+pluginsDir, "-o", dir, "--shards", "2")
	want := `submit slurm: the job script cannot name the plugins directories: plugins directory "` + filepath.Join(colon, "mine") + `" holds ":"`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("submit slurm with %s: %v, want an error with %q", filepath.Join(colon, "mine"), err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "slurm")); err == nil {
		t.Error("the refused submission wrote its scripts")
	}
}
