package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/results"
)

// shardRun is one bench run --shard I/N process of a test: the shard and
// the results directory it writes into.
type shardProc struct {
	i, n int
	dir  string
}

// runShards runs the shards as separate bench processes, all at once, and
// fails the test unless each ends well.
func runShards(t *testing.T, bin, file string, procs []shardProc) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]string, len(procs))
	for k, p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(bin, "run", "--plugins", pluginsDir, "--quiet", "-j", "1",
				"--shard", fmt.Sprintf("%d/%d", p.i, p.n), "-o", p.dir, file)
			cmd.Env = shardlessEnv()
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[k] = fmt.Sprintf("shard %d/%d: %v\n%s", p.i, p.n, err, out)
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Fatal(e)
		}
	}
}

// shardlessEnv is the environment without the variables that choose a
// shard (a test may run inside a Slurm job).
func shardlessEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SLURM_ARRAY_") && !strings.HasPrefix(kv, "JOB_COMPLETION_INDEX=") {
			env = append(env, kv)
		}
	}
	return env
}

// tableFiles lists the files a run wrote into dir besides its cells, run
// log and manifest: the tables (summary.csv, folds.csv, NAME.md|.tex|.json|
// .html) and the plots.
func tableFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		switch {
		case d.IsDir() && (rel == "cells" || rel == "shards" || rel == "superseded"):
			return filepath.SkipDir
		case d.IsDir(), rel == "manifest.json", rel == "run.log", strings.HasPrefix(d.Name(), "."):
			return nil
		}
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameOutputs fails unless got holds every table file of want, byte for
// byte, and no other.
func sameOutputs(t *testing.T, want, got string) {
	t.Helper()
	files := tableFiles(t, want)
	if g := tableFiles(t, got); !slices.Equal(files, g) {
		t.Errorf("merged outputs %v, single run's %v", g, files)
	}
	for _, f := range files {
		a, b := readFile(t, filepath.Join(want, f)), readFile(t, filepath.Join(got, f))
		if a != b {
			t.Errorf("%s differs from the single run's", f)
		}
	}
}

// TestShardsMergeToTheSingleRun is the shard/merge equality: for the
// quickstart, n = 1, 2, 3 and 7 shards run as separate bench processes —
// into one shared directory, one directory each, or both — merged by
// "bench table DIR", "bench merge DIR" (in place) and "bench merge OUT
// DIR..."; for the reductions and multilabel experiments (made small: one
// dataset, 3 folds, every format, per-row predictions), the layout that
// mixes both, 7 shards, 4 of them sharing a directory. Every merge writes
// summary.csv, folds.csv, the Markdown, LaTeX, JSON and HTML tables, the
// plots and the predictions byte-identical to a single bench run's.
func TestShardsMergeToTheSingleRun(t *testing.T) {
	skipUnderRace(t, "the shards run as separate bench processes built without -race; TestMergeRefuses covers the in-process merges")
	t.Parallel() // its waits overlap the other parallel tests' (see main_test.go)
	bin := buildBench(t)
	repo, _ := filepath.Abs("../..")
	smallFile := func(name string) string {
		src := strings.ReplaceAll(readFile(t, filepath.Join("testdata", "shard", name)), "%REPO%", repo)
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	type layout struct {
		name  string
		dirOf []int // the directory of each shard
		merge string
	}
	mixed := layout{"7 shards, 4 sharing a directory, 3 alone", []int{0, 0, 0, 0, 1, 2, 3}, "out"}
	experiments := []struct {
		name, file string
		layouts    []layout
	}{
		{"quickstart", filepath.Join(repo, "experiments", "quickstart.hcl"), []layout{
			{"1 shard", []int{0}, "table"},
			{"2 shards sharing a directory", []int{0, 0}, "in place"},
			{"3 shards in a directory each", []int{0, 1, 2}, "out"},
			mixed,
		}},
		{"reductions", smallFile("reductions.hcl"), []layout{mixed}},
		{"multilabel", smallFile("multilabel.hcl"), []layout{mixed}},
	}
	for _, e := range experiments {
		t.Run(e.name, func(t *testing.T) {
			ref := t.TempDir()
			cmd := exec.Command(bin, "run", "--plugins", pluginsDir, "--quiet", "-j", "2", "-o", ref, e.file)
			cmd.Env = shardlessEnv()
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("single run: %v\n%s", err, out)
			}
			cells := len(cellFiles(t, ref))
			if strings.Contains(readFile(t, e.file), "predictions = true") &&
				!slices.ContainsFunc(tableFiles(t, ref), func(f string) bool { return strings.HasPrefix(f, "predictions"+string(filepath.Separator)) }) {
				t.Fatalf("single run wrote no predictions: %v", tableFiles(t, ref))
			}
			for _, l := range e.layouts {
				t.Run(l.name, func(t *testing.T) {
					n := len(l.dirOf)
					dirs := make([]string, slices.Max(l.dirOf)+1)
					for k := range dirs {
						dirs[k] = t.TempDir()
					}
					var procs []shardProc
					for i, k := range l.dirOf {
						procs = append(procs, shardProc{i, n, dirs[k]})
					}
					runShards(t, bin, e.file, procs)
					out := dirs[0]
					var args []string
					switch l.merge {
					case "table":
						args = []string{"table", out}
					case "in place":
						args = []string{"merge", out}
					default:
						out = t.TempDir()
						args = append([]string{"merge", out}, dirs...)
					}
					stdout, stderr, err := bench(t, args...)
					if err != nil {
						t.Fatalf("bench %s: %v\n%s%s", strings.Join(args, " "), err, stdout, stderr)
					}
					shards := fmt.Sprintf("%d of %d shards", n, n)
					if n == 1 {
						shards = "1 of 1 shard"
					}
					if want := fmt.Sprintf("%s: %d of %d cells from %s", e.name, cells, cells, shards); !strings.Contains(stdout, want) {
						t.Errorf("stdout lacks %q:\n%s", want, stdout)
					}
					sameOutputs(t, ref, out)
					// Every cell in exactly one shard manifest.
					owned := map[int]int{}
					for i := 0; i < n; i++ {
						var m results.Manifest
						b := readFile(t, filepath.Join(out, "shards", results.ShardManifestName(i, n)))
						if err := json.Unmarshal([]byte(b), &m); err != nil {
							t.Fatal(err)
						}
						for _, c := range m.Shard.Cells {
							owned[c.Index]++
						}
					}
					for i := 0; i < cells; i++ {
						if owned[i] != 1 {
							t.Errorf("cell %d owned by %d shards", i, owned[i])
						}
					}
				})
			}
		})
	}
}

// shardCellNames returns the cell file names shard i of n owns, from its
// manifest in dir.
func shardCellNames(t *testing.T, dir string, i, n int) []string {
	t.Helper()
	var m results.Manifest
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, "shards", results.ShardManifestName(i, n)))), &m); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range m.Shard.Cells {
		names = append(names, results.CellFileName(c.Index, c.Digest))
	}
	return names
}

// TestKilledShardResumes: two shards of the digits run (5 cells, 3 folds
// each) share a directory; shard 0 is killed with SIGKILL after its first
// cell file. bench merge then names the missing cells and their shard, and
// exits with an error. Run again, shard 0 computes only its missing cells
// (its log says so, and every cell file present before — its own and
// shard 1's — keeps its content, modification time and inode), and the
// merge equals the single run.
func TestKilledShardResumes(t *testing.T) {
	skipUnderRace(t, "the shards run as separate bench processes built without -race")
	t.Parallel() // its waits overlap the other parallel tests' (see main_test.go)
	bin := buildBench(t)
	file, ref := digitsReference(t)
	dir := t.TempDir()
	runShards(t, bin, file, []shardProc{{1, 2, dir}})

	kill := exec.Command(bin, "run", "--plugins", pluginsDir, "--quiet", "-j", "1", "--shard", "0/2", "-o", dir, file)
	kill.Env = shardlessEnv()
	var stderr bytes.Buffer
	kill.Stderr = &stderr
	if err := kill.Start(); err != nil {
		t.Fatal(err)
	}
	mine := func() int {
		names := shardCellNames(t, dir, 0, 2)
		files := cellFiles(t, dir)
		n := 0
		for _, name := range names {
			if _, ok := files[name]; ok {
				n++
			}
		}
		return n
	}
	manifestWritten := func() bool {
		_, err := os.Stat(filepath.Join(dir, "shards", "0-of-2.json"))
		return err == nil
	}
	if !waitFor(60*time.Second, func() bool { return manifestWritten() && mine() >= 1 }) {
		kill.Process.Kill()
		kill.Wait()
		t.Fatalf("shard 0 wrote no cell file\n%s", stderr.String())
	}
	if err := kill.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	kill.Wait()
	owned := shardCellNames(t, dir, 0, 2)
	had := mine()
	if had >= len(owned) {
		t.Fatalf("shard 0 finished its %d cells before the kill", len(owned))
	}
	t.Logf("shard 0 killed with %d of its %d cells", had, len(owned))

	// The merge names what is missing, and whose it is.
	out := t.TempDir()
	_, errOut, err := bench(t, "merge", out, dir)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d of 5 cells missing", len(owned)-had)) {
		t.Errorf("merge with shard 0 killed: %v", err)
	}
	missing := regexp.MustCompile(`(?m)^  cell (\d+) digits\|\S+ \(shard 0/2\)$`).FindAllString(errOut, -1)
	if len(missing) != len(owned)-had {
		t.Errorf("%d missing cells listed, want %d:\n%s", len(missing), len(owned)-had, errOut)
	}
	if md := readFile(t, filepath.Join(out, "digits.md")); !strings.Contains(md, fmt.Sprintf("%d of 5 cells finished (run status: incomplete)", 5-len(owned)+had)) {
		t.Errorf("digits.md of the partial merge:\n%s", md)
	}

	before := cellFiles(t, dir)
	runShards(t, bin, file, []shardProc{{0, 2, dir}})
	after := cellFiles(t, dir)
	for name, st := range before {
		if after[name] != st {
			t.Errorf("cell file %s was written again", name)
		}
	}
	if len(after) != 5 {
		t.Errorf("%d cell files, want 5", len(after))
	}
	log := readFile(t, filepath.Join(dir, "shards", "0-of-2.log"))
	sections := strings.Split(log, "=== ")
	last := sections[len(sections)-2]
	want := fmt.Sprintf("shard 0/2, %d of 5 cells (%d kept), %d folds to run", len(owned), had, 3*(len(owned)-had))
	if !strings.Contains(last, want) {
		t.Errorf("the resumed shard's log lacks %q:\n%s", want, last)
	}
	if _, errOut, err := bench(t, "merge", out, dir); err != nil {
		t.Fatalf("merge: %v\n%s", err, errOut)
	}
	sameOutputs(t, ref, out)
}

// TestMergeRefuses: shards of different runs are refused with the
// difference named, each case a real shard run beside shard 0 of the
// base run: another experiment file, other data, another plugin binary,
// another number of shards; and a shard that never ran is reported.
func TestMergeRefuses(t *testing.T) {
	const base = `experiment "tiny" { seed = 3 }
dataset "iris" { path = "iris.csv" }
learner "logreg" { params = { C = [0.1, 1] } }
learner "lda" {}
reduction "ova" {}
cv { folds = 3 }
metrics = ["accuracy"]
output { formats = ["csv"] }
`
	iris := readFile(t, filepath.Join("..", "..", "experiments", "data", "iris.csv"))
	setup := func(src, data string) string {
		dir := t.TempDir()
		for name, content := range map[string]string{"exp.hcl": src, "iris.csv": data} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return filepath.Join(dir, "exp.hcl")
	}
	// Another logreg binary: the same program with bytes appended.
	otherPlugins := t.TempDir()
	entries, _ := os.ReadDir(pluginsDir)
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(pluginsDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "bench-plugin-logreg" {
			b = append(b, "another build"...)
		}
		if err := os.WriteFile(filepath.Join(otherPlugins, e.Name()), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	shard := func(file, spec, plugins string) string {
		t.Helper()
		dir := t.TempDir()
		var stdout, stderr bytes.Buffer
		args := []string{"run", "--plugins", plugins, "--quiet", "-j", "2", "--shard", spec, "-o", dir, file}
		if err := run(commandContext(t), args, &stdout, &stderr); err != nil {
			t.Fatalf("bench %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return dir
	}
	file := setup(base, iris)
	shard0 := shard(file, "0/2", pluginsDir)
	// A changed row of iris: same experiment file, other data.
	changed := strings.Replace(iris, "5.1,3.5,1.4,0.2", "5.1,3.5,1.4,0.3", 1)
	if changed == iris {
		t.Fatal("iris.csv has no row 5.1,3.5,1.4,0.2")
	}
	tests := []struct {
		name string
		dir  string
		want string
	}{
		{"another experiment", shard(setup(strings.Replace(base, `"tiny"`, `"small"`, 1), iris), "1/2", pluginsDir),
			`experiment: "tiny" in shard 0/2`},
		{"another experiment file", shard(setup(strings.Replace(base, "seed = 3", "seed = 4", 1), iris), "1/2", pluginsDir),
			"experiment file: "},
		{"other data", shard(setup(base, changed), "1/2", pluginsDir),
			"dataset iris: sha256 "},
		{"another plugin binary", shard(file, "1/2", otherPlugins),
			"plugin logreg: "},
		{"another number of shards", shard(file, "1/3", pluginsDir),
			"number of shards: 2 in shard 0/2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			_, _, err := bench(t, "merge", out, shard0, tt.dir)
			if err == nil || !strings.Contains(err.Error(), "the shards are not of one run: "+tt.want) {
				t.Fatalf("merge: %v, want %q", err, tt.want)
			}
			if _, err := os.Stat(filepath.Join(out, "summary.csv")); err == nil {
				t.Error("a refused merge wrote tables")
			}
		})
	}
	t.Run("a shard that never ran", func(t *testing.T) {
		_, stderr, err := bench(t, "merge", t.TempDir(), shard0)
		if err == nil || !strings.Contains(stderr, "shard 1/2: no manifest (shards/1-of-2.json)") {
			t.Errorf("merge without shard 1: %v\n%s", err, stderr)
		}
	})
}

// TestShardFromTheEnvironment: without --shard, bench run takes its shard
// from a Slurm job array task's or a Kubernetes Indexed Job pod's
// environment.
func TestShardFromTheEnvironment(t *testing.T) {
	withManifests := t.TempDir()
	if err := os.MkdirAll(filepath.Join(withManifests, "shards"), 0o755); err != nil {
		t.Fatal(err)
	}
	m := results.Manifest{Experiment: "x", Shard: &results.Shard{Index: 0, Count: 5}}
	b, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(withManifests, "shards", "0-of-5.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		env    map[string]string
		shard  string
		shards int
		dir    string
		want   string // "I/N", "" for none, or an error's text
	}{
		{"no shard", nil, "", 0, "", ""},
		{"flag", nil, "2/3", 0, "", "2/3"},
		{"flag over the environment", map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4"}, "0/2", 0, "", "0/2"},
		{"slurm count", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"}, "", 0, "", "3/4"},
		{"slurm min and max", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "4"}, "", 0, "", "2/4"},
		{"slurm with --shards", map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, "", 3, "", "2/3"},
		{"slurm without a count", map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, "", 0, "", "not the number of shards"},
		{"slurm out of range", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"}, "", 0, "", "in [0, 4)"},
		{"slurm disagrees with --shards", map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4"}, "", 3, "", "--shards 3 and the job array's 4 tasks disagree"},
		{"kubernetes with --shards", map[string]string{"JOB_COMPLETION_INDEX": "6"}, "", 7, "", "6/7"},
		{"kubernetes, count from the manifests", map[string]string{"JOB_COMPLETION_INDEX": "4"}, "", 0, withManifests, "4/5"},
		{"kubernetes without a count", map[string]string{"JOB_COMPLETION_INDEX": "4"}, "", 0, "", "give --shards N"},
		{"kubernetes out of range", map[string]string{"JOB_COMPLETION_INDEX": "7"}, "", 7, "", "in [0, 7)"},
		{"not a number", map[string]string{"JOB_COMPLETION_INDEX": "x"}, "", 7, "", "not a whole number"},
		{"--shards alone", nil, "", 3, "", "needs the shard's index"},
		{"--shard and --shards disagree", nil, "1/2", 3, "", "disagree"},
		{"bad --shard", nil, "2/2", 0, "", "in [0, 2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range []string{"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "JOB_COMPLETION_INDEX"} {
				t.Setenv(v, "")
				os.Unsetenv(v)
			}
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			dir := tt.dir
			if dir == "" {
				dir = t.TempDir()
			}
			s, err := shardOf(&options{shard: tt.shard, shards: tt.shards}, dir)
			got := ""
			if s != nil {
				got = s.String()
			}
			if err != nil {
				got = err.Error()
			}
			if !strings.Contains(got, tt.want) || (tt.want == "" && got != "") {
				t.Errorf("shard %q, want %q", got, tt.want)
			}
		})
	}
	// Through bench run: a Slurm task writes its shard's manifest.
	t.Setenv("SLURM_ARRAY_TASK_ID", "1")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "2")
	file := writeExperiment(t, `experiment "env" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "lda" {}
reduction "ova" {}
cv { folds = 3 }
`)
	dir := t.TempDir()
	stdout, stderr, err := bench(t, "run", "-o", dir, file)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "env shard 1/2: 0 cells") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "shards", "1-of-2.json")); err != nil {
		t.Error(err)
	}
}

// TestPlanShardsBalanceLetterAndIris: validate --plan --shards 4 on a grid
// of very uneven cells (letter: 20000 rows, 26 classes; iris: 150 rows, 3)
// deals them so that the largest shard's estimated work is within 1.5× of
// the mean, as bench run --shard I/4 would.
func TestPlanShardsBalanceLetterAndIris(t *testing.T) {
	file := writeExperiment(t, `experiment "uneven" { seed = 1 }
dataset "letter" { path = "%DATA%/letter.csv" }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
encoder "std" { type = "standardize" }
learner "logreg" { params = { C = [0.1, 1, 10] } }
learner "svm" {}
learner "lda" {}
reduction "ova" {}
reduction "ovo" { scheme = "ovo" }
reduction "ordered" { scheme = "ordered" }
cv { folds = 10 }
`)
	stdout, stderr, err := bench(t, "validate", "--plan", "--shards", "4", file)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	lines := regexp.MustCompile(`(?m)^  shard (\d)/4: (\d+) cells, work (\d+) \(([0-9.]+) × mean\)$`).FindAllStringSubmatch(stdout, -1)
	if len(lines) != 4 {
		t.Fatalf("%d shard lines, want 4:\n%s", len(lines), stdout)
	}
	cells := 0
	var loads []float64
	for _, l := range lines {
		n, _ := strconv.Atoi(l[2])
		w, _ := strconv.ParseFloat(l[3], 64)
		cells += n
		loads = append(loads, w)
	}
	mean := (loads[0] + loads[1] + loads[2] + loads[3]) / 4
	t.Logf("loads %v, max/mean %.3f", loads, slices.Max(loads)/mean)
	if cells != 30 {
		t.Errorf("%d cells in the shards, want 30", cells)
	}
	if slices.Max(loads) > 1.5*mean {
		t.Errorf("largest shard %.0f > 1.5 × mean %.0f:\n%s", slices.Max(loads), mean, stdout)
	}
	// Each cell's shard is listed.
	if n := len(regexp.MustCompile(`(?m)^\d+\s+(letter|iris)\s.*\s[0-3]$`).FindAllString(stdout, -1)); n != 30 {
		t.Errorf("%d plan lines with a shard, want 30:\n%s", n, stdout)
	}
}

// TestRerunOfUnmergedShards: bench rerun on a directory that holds only
// shards says to merge them first, not that a manifest is missing.
func TestRerunOfUnmergedShards(t *testing.T) {
	exp := writeExperiment(t, smallExperiment)
	dir := t.TempDir()
	if _, stderr, err := bench(t, "run", "--shard", "0/2", "-o", dir, exp); err != nil {
		t.Fatalf("shard 0: %v\n%s", err, stderr)
	}
	_, _, err := bench(t, "rerun", dir)
	if want := "rerun: " + dir + " holds shards of a run not merged yet: bench merge " + dir + " first"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("rerun of shards: %v, want %q", err, want)
	}
}
