package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/cluster"
	"github.com/polyclass/polyclass/framework/results"
)

// smallExperiment has 4 cells (2 datasets × 2 learners).
const smallExperiment = `experiment "small" { seed = 3 }
dataset "iris" { path = "%DATA%/iris.csv" }
dataset "wine" { path = "%DATA%/wine.csv" }
learner "logreg" {}
learner "lda" {}
cv { folds = 3 }
metrics = ["accuracy"]
`

// fakeSbatch puts an sbatch on PATH that appends its arguments to the
// returned log and prints the job ids sbatch --parsable would: the array's
// with a cluster name, the merge's without. fail makes the call whose
// arguments contain it print an error and exit 1.
func fakeSbatch(t *testing.T, fail string) string {
	t.Helper()
	dir := t.TempDir()
	log := filepath.Join(dir, "calls")
	script := fmt.Sprintf(`#!/bin/sh
echo "$@" >> %s
case "$*" in
%s) echo "sbatch: error: Batch job submission failed: Invalid partition name specified" >&2; exit 1;;
*--dependency*) echo 4712;;
*) echo "4711;cluster";;
esac
`, log, fail)
	if fail == "" {
		script = strings.Replace(script, "\n) echo \"sbatch: error", "\n__never__) echo \"sbatch: error", 1)
	}
	if err := os.WriteFile(filepath.Join(dir, "sbatch"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return log
}

// TestSubmitSlurm: bench submit slurm writes the array and merge scripts
// into DIR/slurm with absolute paths and, with --now, submits the array
// and then the merge depending on it.
func TestSubmitSlurm(t *testing.T) {
	exp := writeExperiment(t, smallExperiment)
	exe, _ := os.Executable()
	plugins, _ := filepath.Abs(pluginsDir)
	tests := []struct {
		name      string
		flags     []string
		fail      string // the sbatch call that fails
		wantOut   []string
		wantErr   string
		wantCalls []string // sbatch's arguments, %S for the scripts directory
		wantArray []string // in array.sbatch
		wantMerge []string // in merge.sbatch
		wantNote  string   // stderr
	}{
		{name: "scripts only", flags: []string{"--shards", "3"},
			wantOut: []string{"small: 4 cells in 3 shards, results in %D\n  %S/array.sbatch\n  %S/merge.sbatch\n",
				"submit them with --now, or:\n  jobid=$(sbatch --parsable %S/array.sbatch)\n  sbatch --dependency=afterok:${jobid%%;*} %S/merge.sbatch\n"},
			wantArray: []string{"#SBATCH --job-name=small\n#SBATCH --array=0-2\n#SBATCH --output=%S/logs/%x-%A_%a.out\nset -euo pipefail\n",
				"exec " + exe + " run --plugins " + plugins + " \\\n\t" + `-j "${SLURM_CPUS_PER_TASK:-1}" --shard "${SLURM_ARRAY_TASK_ID}/3" \` + "\n\t-o %D " + exp + "\n"},
			wantMerge: []string{"#SBATCH --job-name=small-merge\n#SBATCH --kill-on-invalid-dep=yes\n#SBATCH --output=%S/logs/%x-%j.out\nset -euo pipefail\n",
				"exec " + exe + " merge %D %D\n"}},
		{name: "resources, submitted", flags: []string{"--shards", "2", "--partition", "short", "--time", "0:30:00", "--cpus", "2", "--mem", "3G", "--now"},
			wantOut:   []string{"submitted job array 4711 (2 tasks) and merge job 4712 (runs when every task has succeeded)\n  logs: %S/logs\n"},
			wantCalls: []string{"--parsable %S/array.sbatch", "--parsable --dependency=afterok:4711 %S/merge.sbatch"},
			wantArray: []string{"#SBATCH --array=0-1\n#SBATCH --output=%S/logs/%x-%A_%a.out\n#SBATCH --partition=short\n#SBATCH --time=0:30:00\n#SBATCH --cpus-per-task=2\n#SBATCH --mem=3G\n"},
			wantMerge: []string{"#SBATCH --partition=short\n#SBATCH --time=0:30:00\n#SBATCH --mem=3G\nset"}},
		{name: "more shards than cells", flags: []string{"--shards", "6"},
			wantOut: []string{"small: 4 cells in 6 shards"}, wantArray: []string{"--array=0-5\n"},
			wantNote: "note: 6 shards for 4 cells: 2 shards have no cell to run\n"},
		{name: "array refused", flags: []string{"--shards", "2", "--now"}, fail: "*array.sbatch",
			wantErr:   "submitting the job array: sbatch --parsable %S/array.sbatch: exit status 1\nsbatch: error: Batch job submission failed: Invalid partition name specified",
			wantCalls: []string{"--parsable %S/array.sbatch"}},
		{name: "merge refused", flags: []string{"--shards", "2", "--now"}, fail: "*merge.sbatch",
			wantErr:   "job array 4711 submitted, but not the merge job (submit it with sbatch --dependency=afterok:4711 %S/merge.sbatch): sbatch --parsable --dependency=afterok:4711 %S/merge.sbatch: exit status 1\nsbatch: error",
			wantCalls: []string{"--parsable %S/array.sbatch", "--parsable --dependency=afterok:4711 %S/merge.sbatch"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := fakeSbatch(t, tt.fail)
			dir := filepath.Join(t.TempDir(), "res")
			scripts := filepath.Join(dir, "slurm")
			expand := func(s string) string {
				return strings.ReplaceAll(strings.ReplaceAll(s, "%S", scripts), "%D", dir)
			}
			args := append([]string{"submit", "slurm", exp, "--plugins", pluginsDir, "-o", dir}, tt.flags...)
			stdout, stderr, err := runBench(t, args...)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("error %v\nstderr:\n%s", err, stderr)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), expand(tt.wantErr))):
				t.Fatalf("error %v, want one containing %q", err, expand(tt.wantErr))
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(stdout, expand(w)) {
					t.Errorf("stdout:\n%s\nwant it to contain:\n%s", stdout, expand(w))
				}
			}
			if stderr != tt.wantNote {
				t.Errorf("stderr %q, want %q", stderr, tt.wantNote)
			}
			calls := ""
			if b, err := os.ReadFile(log); err == nil {
				calls = string(b)
			}
			var want string
			for _, c := range tt.wantCalls {
				want += expand(c) + "\n"
			}
			if calls != want {
				t.Errorf("sbatch calls:\n%s\nwant:\n%s", calls, want)
			}
			for file, wants := range map[string][]string{"array.sbatch": tt.wantArray, "merge.sbatch": tt.wantMerge} {
				text := readFile(t, filepath.Join(scripts, file))
				for _, w := range wants {
					if !strings.Contains(text, expand(w)) {
						t.Errorf("%s:\n%s\nwant it to contain:\n%s", file, text, expand(w))
					}
				}
				if fi, err := os.Stat(filepath.Join(scripts, file)); err != nil || fi.Mode().Perm() != 0o755 {
					t.Errorf("%s: %v, mode %v; want an executable file", file, err, fi.Mode())
				}
			}
			if fi, err := os.Stat(filepath.Join(scripts, "logs")); err != nil || !fi.IsDir() {
				t.Errorf("no logs directory: %v (Slurm does not create it)", err)
			}
		})
	}
}

// TestSubmitSlurmWithoutSbatch: --now without sbatch on PATH says so, after
// writing the scripts.
func TestSubmitSlurmWithoutSbatch(t *testing.T) {
	exp := writeExperiment(t, smallExperiment)
	t.Setenv("PATH", t.TempDir())
	dir := t.TempDir()
	_, _, err := runBench(t, "submit", "slurm", "--plugins", pluginsDir, "--shards", "2", "--now", "-o", dir, exp)
	if err == nil || !strings.Contains(err.Error(), "sbatch is not on PATH (without --now, bench submit only writes the scripts)") {
		t.Errorf("error %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "slurm", "array.sbatch")); err != nil {
		t.Error(err)
	}
}

// TestSubmitSlurmInvalidExperiment: the file is validated against its data
// and plugins before anything is written or submitted.
func TestSubmitSlurmInvalidExperiment(t *testing.T) {
	exp := writeExperiment(t, strings.Replace(smallExperiment, `learner "lda" {}`, `learner "lda" { params = { shrinkage = "sometimes" } }`, 1))
	log := fakeSbatch(t, "")
	dir := filepath.Join(t.TempDir(), "res")
	_, stderr, err := runBench(t, "submit", "slurm", "--plugins", pluginsDir, "--shards", "2", "--now", "-o", dir, exp)
	if !errors.Is(err, errReported) || !strings.Contains(stderr, "exp.hcl:5:") || !strings.Contains(stderr, "1 error(s)") {
		t.Errorf("error %v, stderr:\n%s", err, stderr)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("results directory written: %v", err)
	}
	if _, err := os.Stat(log); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("sbatch called: %v", err)
	}
}

// TestSubmitK8s: bench submit k8s writes the Indexed Job and the merge Job
// into DIR/k8s, naming the file as given (a path in the image) and the
// results directory on the claim.
func TestSubmitK8s(t *testing.T) {
	exp := writeExperiment(t, smallExperiment)
	tests := []struct {
		name        string
		flags       []string
		wantCommand []string
		wantPar     float64
		wantClaim   string
		wantRes     string // resources of the shards' container as JSON
	}{
		{name: "defaults", flags: nil, wantPar: 3, wantClaim: "polyclass-results", wantRes: "null",
			wantCommand: []string{"bench", "run", "--shard", "$(JOB_COMPLETION_INDEX)/3", "-o", "/results/small", "%F"}},
		{name: "claim, parallelism, resources", flags: []string{"--claim", "lab-share", "--parallelism", "2", "--cpus", "4", "--mem", "2G"},
			wantPar: 2, wantClaim: "lab-share", wantRes: `{"limits":{"cpu":"4","memory":"2Gi"},"requests":{"cpu":"4","memory":"2Gi"}}`,
			wantCommand: []string{"bench", "run", "-j", "4", "--shard", "$(JOB_COMPLETION_INDEX)/3", "-o", "/results/small", "%F"}},
		{name: "dense budget", flags: []string{"--dense-budget", "512M"}, wantPar: 3, wantClaim: "polyclass-results", wantRes: "null",
			wantCommand: []string{"bench", "run", "--dense-budget", "536870912", "--shard", "$(JOB_COMPLETION_INDEX)/3", "-o", "/results/small", "%F"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "res")
			args := append([]string{"submit", "k8s", exp, "--shards", "3", "--image", "reg.example.org/polyclass:2", "-o", dir}, tt.flags...)
			stdout, stderr, err := runBench(t, args...)
			// Campaign 12 W1k: the data's warnings are not printed here
			// (the data is the image's), and stderr says so.
			hint := "submit k8s checked the experiment file alone (the data and plugins are in the image): run bench validate " + exp + " where they are at hand for the warnings of the data and the grid, as submit slurm and run print\n"
			if err != nil || stderr != hint {
				t.Fatalf("error %v, stderr:\n%s\nwant:\n%s", err, stderr, hint)
			}
			shards, merge := filepath.Join(dir, "k8s", "shards.json"), filepath.Join(dir, "k8s", "merge.json")
			want := fmt.Sprintf("small: 3 shards of %s in image reg.example.org/polyclass:2, results in /results/small on claim %s\n  %s\n  %s\n"+
				"run them with:\n  kubectl apply -f %s\n  kubectl wait --for=condition=complete --timeout=-1s job/polyclass-small-81db8ebb\n  kubectl apply -f %s\n"+
				"(kubectl wait never returns for a Job that failed: see kubectl describe job/polyclass-small-81db8ebb, fix the cause, delete the Job and apply it again)\n",
				exp, tt.wantClaim, shards, merge, shards, merge)
			if stdout != want {
				t.Errorf("stdout:\n%s\nwant:\n%s", stdout, want)
			}
			var s, m map[string]any
			for path, v := range map[string]*map[string]any{shards: &s, merge: &m} {
				if err := json.Unmarshal([]byte(readFile(t, path)), v); err != nil {
					t.Fatalf("%s: %v", path, err)
				}
			}
			spec := s["spec"].(map[string]any)
			c := spec["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
			cmd, _ := json.Marshal(c["command"])
			wantCmd, _ := json.Marshal(tt.wantCommand)
			res, _ := json.Marshal(c["resources"])
			vol := spec["template"].(map[string]any)["spec"].(map[string]any)["volumes"].([]any)[0].(map[string]any)
			claim := vol["persistentVolumeClaim"].(map[string]any)["claimName"]
			if got := strings.ReplaceAll(string(cmd), exp, "%F"); got != string(wantCmd) || spec["completionMode"] != "Indexed" ||
				spec["completions"] != 3.0 || spec["parallelism"] != tt.wantPar || string(res) != tt.wantRes || claim != tt.wantClaim || c["image"] != "reg.example.org/polyclass:2" {
				t.Errorf("shards.json: command %s (want %s), spec %v, resources %s, claim %v", got, wantCmd, spec, res, claim)
			}
			if m["metadata"].(map[string]any)["name"] != "polyclass-small-81db8ebb-merge" {
				t.Errorf("merge.json: %v", m["metadata"])
			}
		})
	}
}

// TestSubmitK8sDashFile: an experiment file named --fresh.hcl, given
// after --, is named ./--fresh.hcl in the Job's command and in the hint to
// validate it, which printed "bench validate --fresh.hcl", a flag.
func TestSubmitK8sDashFile(t *testing.T) {
	src := experimentSource(t, smallExperiment)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "--fresh.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	_, stderr, err := runBench(t, "submit", "k8s", "--shards", "2", "--image", "reg.example.org/polyclass:2", "-o", filepath.Join(dir, "res"), "--", "--fresh.hcl")
	hint := "submit k8s checked the experiment file alone (the data and plugins are in the image): run bench validate ./--fresh.hcl where they are at hand"
	if err != nil || !strings.HasPrefix(stderr, hint) {
		t.Fatalf("error %v, stderr:\n%s\nwant it to start with:\n%s", err, stderr, hint)
	}
	if shards := readFile(t, filepath.Join(dir, "res", "k8s", "shards.json")); !strings.Contains(shards, `"./--fresh.hcl"`) {
		t.Errorf("shards.json does not name ./--fresh.hcl:\n%s", shards)
	}
}

// TestSubmitK8sParseError: a file that does not parse is reported with its
// position, and nothing is written.
func TestSubmitK8sParseError(t *testing.T) {
	exp := writeExperiment(t, "experiment \"x\" {\n  seed = \n}\n")
	dir := filepath.Join(t.TempDir(), "res")
	_, stderr, err := runBench(t, "submit", "k8s", "--shards", "2", "--image", "img", "-o", dir, exp)
	if !errors.Is(err, errReported) || !strings.Contains(stderr, "exp.hcl:2:10: error: Invalid expression") || !strings.Contains(stderr, "1 error(s)") {
		t.Errorf("error %v, stderr:\n%s", err, stderr)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("results directory written: %v", err)
	}
}

// TestSubmitUsageErrors: mistakes on submit's command line are usage
// errors that name the flag or value.
func TestSubmitUsageErrors(t *testing.T) {
	exp := writeExperiment(t, smallExperiment)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"submit", "--shards", "2", exp}, "submit needs a scheduler, slurm or k8s, and one experiment file"},
		{[]string{"submit", "pbs", exp, "--shards", "2"}, "submit needs a scheduler, slurm or k8s"},
		{[]string{"submit", "slurm", exp}, "submit: --shards N is needed: the number of shards to cut the run into (a job array of N tasks)"},
		{[]string{"submit", "slurm", "--shards", "0", exp}, "submit: --shards 0: want 1 or more shards"},
		{[]string{"submit", "slurm", exp, "--shards", "-1"}, "submit: --shards -1"},
		{[]string{"submit", "slurm", exp, "--shards", "2", "--cpus", "-3"}, "submit: --cpus -3"},
		// Campaign 12: --cpus 0 was taken as no --cpus at all.
		{[]string{"submit", "slurm", exp, "--shards", "2", "--cpus", "0"}, "submit: --cpus 0: want 1 or more"},
		{[]string{"submit", "k8s", exp, "--shards", "2", "--image", "x", "--cpus", "0"}, "submit: --cpus 0: want 1 or more"},
		{[]string{"submit", "k8s", exp, "--shards", "2", "--image", "x", "--parallelism", "0"}, "submit: --parallelism 0: want 1 or more"},
		{[]string{"submit", "k8s", exp, "--shards", "2"}, "submit k8s: --image IMG is required"},
		{[]string{"submit", "slurm", exp, "--shards", "2", "--image", "x"}, "submit slurm: --image IMG is not a flag of slurm (it takes -o DIR, --plugins DIR, --shards N, --dense-budget SIZE, --partition P, --time T, --cpus C, --mem M, --now)"},
		{[]string{"submit", "k8s", exp, "--shards", "2", "--image", "x", "--now"}, "submit k8s: --now is not a flag of k8s"},
		{[]string{"submit", "k8s", exp, "--shards", "2", "--image", "x", "--partition", "p"}, "submit k8s: --partition P is not a flag of k8s"},
		{[]string{"submit", "slurm", exp, "--shards", "2", "-j", "2"}, "submit slurm: -j N is not a flag of slurm"},
		{[]string{"submit", "slurm", exp, "--shards", "2", "--time", "2h"}, `submit slurm: time "2h": want minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS`},
		{[]string{"submit", "slurm", exp, "--shards", "2", "--mem", "4GB"}, `submit slurm: memory "4GB": want a whole number with an optional unit K, M, G or T`},
		// Campaign 13 N56a: a size past 64-bit bytes reached the script
		// and the manifest.
		{[]string{"submit", "slurm", exp, "--shards", "2", "--mem", "99999999999999999999T"}, `submit slurm: memory "99999999999999999999T": more than a scheduler can grant (at most 4 EiB: 4194304T)`},
		{[]string{"submit", "k8s", exp, "--shards", "2", "--image", "x", "--mem", "4194305T"}, `submit k8s: memory "4194305T": more than a scheduler can grant`},
		{[]string{"submit", "k8s", exp, "--shards", "2", "--image", "x", "--claim", "My_Claim"}, `submit k8s: claim "My_Claim"`},
		{[]string{"submit", "k8s", exp, "--shards", "2", "--image", "x", "--parallelism", "-1"}, "submit: --parallelism -1"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[1:], " "), func(t *testing.T) {
			args := tt.args
			if args[1] != "k8s" {
				args = append(args, "--plugins", pluginsDir)
			}
			_, _, err := runBench(t, args...)
			var ue usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "usage: bench submit") {
				t.Errorf("error %v, want a usage error containing %q", err, tt.want)
			}
		})
	}
}

// TestSubmitSlurmScriptsRun runs the scripts bench submit slurm writes as
// Slurm would, without Slurm: the array's tasks at once, each with its
// SLURM_ARRAY_TASK_ID, then the merge. The merged tables equal a single
// run's byte for byte. (make test-slurm does the same on a real Slurm.)
func TestSubmitSlurmScriptsRun(t *testing.T) {
	skipUnderRace(t, "the scripts run bench binaries built without -race")
	bin := buildBench(t)
	exp := writeExperiment(t, smallExperiment+"output { formats = [\"markdown\", \"csv\", \"latex\", \"json\"] }\n")
	single, dir := filepath.Join(t.TempDir(), "single"), filepath.Join(t.TempDir(), "cluster")
	if out, err := exec.Command(bin, "run", "--plugins", pluginsDir, "--quiet", "-o", single, exp).CombinedOutput(); err != nil {
		t.Fatalf("bench run: %v\n%s", err, out)
	}
	if out, err := exec.Command(bin, "submit", "slurm", "--plugins", pluginsDir, "--shards", "3", "-o", dir, exp).CombinedOutput(); err != nil {
		t.Fatalf("bench submit: %v\n%s", err, out)
	}
	script := func(name string, env ...string) *exec.Cmd {
		cmd := exec.Command("bash", filepath.Join(dir, "slurm", name))
		cmd.Env = append(os.Environ(), env...)
		return cmd
	}
	var tasks []*exec.Cmd
	var outs []*strings.Builder
	for i := range 3 {
		cmd := script("array.sbatch", fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", i), "SLURM_CPUS_PER_TASK=1")
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		tasks, outs = append(tasks, cmd), append(outs, out)
	}
	for i, cmd := range tasks {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("task %d: %v\n%s", i, err, outs[i])
		}
	}
	if out, err := script("merge.sbatch").CombinedOutput(); err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	for _, name := range []string{"summary.csv", "folds.csv", "small.md", "small.tex", "small.json"} {
		if want, got := readFile(t, filepath.Join(single, name)), readFile(t, filepath.Join(dir, name)); got != want {
			t.Errorf("merged %s differs from the single run's:\n%s\nwant:\n%s", name, got, want)
		}
	}
}

// TestSubmitPrintsQuotedPaths: the commands bench submit prints for the
// user to paste quote a path with a space, as the scripts themselves do.
func TestSubmitPrintsQuotedPaths(t *testing.T) {
	exp := writeExperiment(t, smallExperiment)
	dir := filepath.Join(t.TempDir(), "my results")
	stdout, stderr, err := runBench(t, "submit", "slurm", exp, "--plugins", pluginsDir, "-o", dir, "--shards", "2")
	if err != nil {
		t.Fatalf("slurm: %v\n%s", err, stderr)
	}
	scripts := filepath.Join(dir, "slurm")
	for _, want := range []string{"jobid=$(sbatch --parsable '" + scripts + "/array.sbatch')", "sbatch --dependency=afterok:${jobid%%;*} '" + scripts + "/merge.sbatch'"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	stdout, stderr, err = runBench(t, "submit", "k8s", exp, "--image", "reg.example.org/polyclass:2", "-o", dir, "--shards", "2")
	if err != nil {
		t.Fatalf("k8s: %v\n%s", err, stderr)
	}
	if want := "kubectl apply -f '" + filepath.Join(dir, "k8s", "shards.json") + "'"; !strings.Contains(stdout, want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout)
	}
}

// TestSubmitChecksTheResultsDirectory: a submission whose tasks or merge
// would all fail is refused before anything is written: a directory that
// holds another experiment, or shards of a run cut into another number.
func TestSubmitChecksTheResultsDirectory(t *testing.T) {
	exp := writeExperiment(t, smallExperiment)
	dir := t.TempDir()
	for i := range 3 {
		if _, stderr, err := bench(t, "run", "--shard", fmt.Sprintf("%d/3", i), "-o", dir, exp); err != nil {
			t.Fatalf("shard %d: %v\n%s", i, err, stderr)
		}
	}
	_, _, err := runBench(t, "submit", "slurm", exp, "--plugins", pluginsDir, "-o", dir, "--shards", "4")
	if err == nil || !strings.Contains(err.Error(), "holds shards of a run in 3 shards, not 4: submit with --shards 3 to resume it") {
		t.Errorf("another shard count: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "slurm")); !os.IsNotExist(err) {
		t.Errorf("scripts written for a refused submission: %v", err)
	}
	if _, stderr, err := runBench(t, "submit", "slurm", exp, "--plugins", pluginsDir, "-o", dir, "--shards", "3"); err != nil {
		t.Errorf("the same shard count: %v\n%s", err, stderr)
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "manifest.json"), []byte(`{"experiment": "another"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runBench(t, "submit", "slurm", exp, "--plugins", pluginsDir, "-o", other, "--shards", "2")
	if err == nil || !strings.Contains(err.Error(), `holds experiment "another", not "small"`) {
		t.Errorf("another experiment: %v", err)
	}
}

// TestWarnEmptyShards: the note of a submission of more shards than cells
// agrees in number ("2 shards for 1 cell: 1 shard has no cell"; campaign
// 16 wrote "1 shards have"), and there is none when every shard has a
// cell.
func TestWarnEmptyShards(t *testing.T) {
	tests := []struct {
		shards, cells int
		want          string
	}{
		{2, 1, "note: 2 shards for 1 cell: 1 shard has no cell to run\n"},
		{6, 4, "note: 6 shards for 4 cells: 2 shards have no cell to run\n"},
		{5, 3, "note: 5 shards for 3 cells: 2 shards have no cell to run\n"},
		{4, 3, "note: 4 shards for 3 cells: 1 shard has no cell to run\n"},
		{3, 3, ""},
		{1, 4, ""},
	}
	for _, tt := range tests {
		var b strings.Builder
		warnEmptyShards(&b, tt.shards, tt.cells)
		if b.String() != tt.want {
			t.Errorf("warnEmptyShards(%d, %d) = %q, want %q", tt.shards, tt.cells, b.String(), tt.want)
		}
	}
}

// TestSubmitKeepsEditedScripts: submitting again into a results directory
// whose job scripts (slurm/) or Kubernetes manifests (k8s/) the user
// edited by hand (an account and a module added, a deadline set) moves
// each edited file to superseded/TIME/, with the user's bytes, says so in
// one line on stderr and writes the file again; files as bench wrote them
// are written again in silence, with the same bytes or new ones (another
// shard count), and nothing is moved.
func TestSubmitKeepsEditedScripts(t *testing.T) {
	exp := writeExperiment(t, smallExperiment)
	const k8sHint = "submit k8s checked the experiment file alone"
	tests := []struct {
		name   string
		target []string // submit's target and its flags
		again  string   // --shards of the second submit
		edit   map[string][2]string
	}{
		{name: "slurm, unedited", target: []string{"slurm", "--plugins", pluginsDir}, again: "2"},
		{name: "slurm, unedited, other shards", target: []string{"slurm", "--plugins", pluginsDir}, again: "3"},
		{name: "slurm, array edited", target: []string{"slurm", "--plugins", pluginsDir}, again: "2",
			edit: map[string][2]string{"slurm/array.sbatch": {"set -euo pipefail\n", "#SBATCH --account=proj42\nmodule load python\nset -euo pipefail\n"}}},
		{name: "slurm, both edited, other shards", target: []string{"slurm", "--plugins", pluginsDir}, again: "3",
			edit: map[string][2]string{"slurm/array.sbatch": {"set -euo pipefail\n", "#SBATCH --account=proj42\nset -euo pipefail\n"},
				"slurm/merge.sbatch": {"set -euo pipefail\n", "#SBATCH --qos=long\nset -euo pipefail\n"}}},
		{name: "k8s, unedited", target: []string{"k8s", "--image", "reg/b:1"}, again: "2"},
		{name: "k8s, unedited, other shards", target: []string{"k8s", "--image", "reg/b:1"}, again: "3"},
		{name: "k8s, shards edited", target: []string{"k8s", "--image", "reg/b:1"}, again: "2",
			edit: map[string][2]string{"k8s/shards.json": {`"backoffLimit": 2`, `"backoffLimit": 9, "activeDeadlineSeconds": 86400`}}},
		{name: "k8s, merge edited", target: []string{"k8s", "--image", "reg/b:1"}, again: "3",
			edit: map[string][2]string{"k8s/merge.json": {`"backoffLimit": 0`, `"backoffLimit": 5`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "res")
			submit := func(shards string) string {
				args := append(append([]string{"submit"}, tt.target[0], exp, "-o", dir, "--shards", shards), tt.target[1:]...)
				_, stderr, err := runBench(t, args...)
				if err != nil {
					t.Fatalf("%v\nstderr:\n%s", err, stderr)
				}
				var lines []string
				for _, l := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
					if l != "" && !strings.HasPrefix(l, k8sHint) {
						lines = append(lines, l)
					}
				}
				return strings.Join(lines, "\n")
			}
			if said := submit("2"); said != "" {
				t.Fatalf("first submit said %q", said)
			}
			edited := map[string]string{}
			for name, e := range tt.edit {
				path := filepath.Join(dir, filepath.FromSlash(name))
				text := readFile(t, path)
				if !strings.Contains(text, e[0]) {
					t.Fatalf("%s holds no %q:\n%s", name, e[0], text)
				}
				edited[name] = strings.Replace(text, e[0], e[1], 1)
				if err := os.WriteFile(path, []byte(edited[name]), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			said := submit(tt.again)
			var moved []string
			filepath.WalkDir(filepath.Join(dir, "superseded"), func(path string, e os.DirEntry, err error) error {
				if err == nil && e.Type().IsRegular() {
					moved = append(moved, path)
				}
				return nil
			})
			if len(moved) != len(edited) {
				t.Fatalf("moved aside %v, want the %d edited files; stderr %q", moved, len(edited), said)
			}
			for _, path := range moved {
				rel := filepath.ToSlash(path[len(filepath.Join(dir, "superseded"))+1:])
				stamp, name, _ := strings.Cut(rel, "/")
				if got := readFile(t, path); got != edited[name] {
					t.Errorf("%s moved aside holds:\n%s\nwant the user's bytes:\n%s", name, got, edited[name])
				}
				line := fmt.Sprintf("moved %s aside to superseded/%s/%s: it changed after bench wrote it (edited by hand?): its SHA-256 is not the one %s/.bench-written records, and bench writes it again",
					name, stamp, name, filepath.Dir(name))
				if !strings.Contains(said+"\n", line+"\n") {
					t.Errorf("stderr:\n%s\nwant the line:\n%s", said, line)
				}
				if got := readFile(t, filepath.Join(dir, filepath.FromSlash(name))); got == edited[name] || strings.Contains(got, tt.edit[name][1]) {
					t.Errorf("%s not written again:\n%s", name, got)
				}
			}
			if len(edited) == 0 && said != "" {
				t.Errorf("stderr %q, want nothing said", said)
			}
			if strings.Count(said, "\n")+1 != len(edited) && len(edited) > 0 {
				t.Errorf("stderr:\n%s\nwant %d lines", said, len(edited))
			}
		})
	}
}

// TestSubmitRefusesTheUsersFolder: a user's own slurm/ or k8s/ (their own
// merge.sbatch beside a README; their own merge.json, with no record of
// bench submit's) makes no directory bench's: submit refuses it naming the
// folder and leaves the user's files as they were (campaign 22 N02). A
// directory bench submit wrote into is a results directory: a run into its
// slurm/logs/ is refused (campaign 22 R03).
func TestSubmitRefusesTheUsersFolder(t *testing.T) {
	exp := writeExperiment(t, smallExperiment)
	tests := []struct {
		name   string
		target []string
		files  map[string]string
		want   string
	}{
		{"slurm", []string{"slurm", "--plugins", pluginsDir},
			map[string]string{"slurm/merge.sbatch": "#!/bin/bash\n#SBATCH --account=lab42\nsrun python merge_all.py\n", "slurm/README": "notes\n"},
			`it holds "slurm" (holds "README", which bench submit does not write) and no manifest.json`},
		{"k8s", []string{"k8s", "--image", "reg/b:1"},
			map[string]string{"k8s/merge.json": `{"my":"own manifest"}` + "\n"},
			`it holds "k8s" (holds "merge.json" but no record .bench-written of bench submit's) and no manifest.json`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "proj")
			for name, body := range tt.files {
				path := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args := append(append([]string{"submit"}, tt.target[0], exp, "-o", dir, "--shards", "2"), tt.target[1:]...)
			_, _, err := runBench(t, args...)
			if err == nil || !strings.Contains(err.Error(), "is not bench's: "+tt.want) {
				t.Fatalf("submit %s: %v\nwant %s", tt.target[0], err, tt.want)
			}
			for name, body := range tt.files {
				if got := readFile(t, filepath.Join(dir, filepath.FromSlash(name))); got != body {
					t.Errorf("%s now holds:\n%s\nwant the user's:\n%s", name, got, body)
				}
			}
			entries, _ := os.ReadDir(filepath.Join(dir, tt.target[0]))
			if len(entries) != len(tt.files) {
				t.Errorf("%d entries in %s/, want the user's %d", len(entries), tt.target[0], len(tt.files))
			}
		})
	}
	t.Run("run into a submitted directory's slurm/logs", func(t *testing.T) {
		z := filepath.Join(t.TempDir(), "Z")
		if _, stderr, err := runBench(t, "submit", "slurm", exp, "--plugins", pluginsDir, "-o", z, "--shards", "2"); err != nil {
			t.Fatalf("submit: %v\n%s", err, stderr)
		}
		logs := filepath.Join(z, "slurm", "logs")
		_, _, err := bench(t, "run", "-o", logs, exp)
		want := fmt.Sprintf("results directory %s lies inside results directory %s (in its slurm/)", logs, z)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("run -o Z/slurm/logs: %v\nwant %s", err, want)
		}
		if entries, _ := os.ReadDir(logs); len(entries) != 0 {
			t.Errorf("the run wrote into slurm/logs: %d entries", len(entries))
		}
	})
}

// TestSubmitFileNames: the names package results takes for bench submit's
// own files in slurm/ and k8s/ are those the scripts and manifests are
// written under: a name out of step would make submit refuse its own
// folder, or take a user's file for its own.
func TestSubmitFileNames(t *testing.T) {
	for folder, want := range map[string][]string{
		results.SlurmDir: {cluster.ArrayScript, cluster.MergeScript},
		results.K8sDir:   {cluster.ShardsManifest, cluster.MergeManifest},
	} {
		if got := results.SubmitFiles(folder); !slices.Equal(got, want) {
			t.Errorf("results.SubmitFiles(%q) = %v, want %v", folder, got, want)
		}
	}
	if results.SubmitLogs != cluster.LogsDir {
		t.Errorf("results.SubmitLogs = %q, want %q", results.SubmitLogs, cluster.LogsDir)
	}
}
