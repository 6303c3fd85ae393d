package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/safetext"
	"github.com/polyclass/polyclass/internal/hostile"
)

// TestSubmitControlCharacters: case 1 of issue 55. An output dir with
// newlines (output { dir = "out\ntouch PWNED\n#" }) made bench submit
// slurm write an #SBATCH line, then touch PWNED, which every task ran;
// now validate, run and submit refuse the file at the value's
// file:line:col and write nothing, and -o with newlines is refused by
// name.
func TestSubmitControlCharacters(t *testing.T) {
	exp := writeExperiment(t, smallExperiment+"output { dir = \"out\\ntouch PWNED\\n#\" }\n")
	const detail = `dir "out\ntouch PWNED\n#" holds a newline (U+000A) at character 4; a name or path that reaches a job script, a manifest or a printed command may hold no control character and no invisible or bidi control character.`
	for _, args := range [][]string{
		{"submit", "slurm", "--shards", "1", exp},
		{"validate", exp},
		{"run", exp},
	} {
		t.Run(args[0], func(t *testing.T) {
			_, stderr, err := runBench(t, append(args, "--plugins", pluginsDir)...)
			if !errors.Is(err, errReported) || !strings.HasPrefix(stderr, exp+":8:16: error: Invalid character\n") || !strings.Contains(stderr, detail) {
				t.Errorf("error %v, stderr:\n%s\nwant %s:8:16: error: Invalid character and %s", err, stderr, exp, detail)
			}
			entries, _ := os.ReadDir(filepath.Dir(exp))
			if len(entries) != 1 {
				t.Errorf("%d files beside the experiment file, want none", len(entries)-1)
			}
		})
	}
	clean := writeExperiment(t, smallExperiment)
	out := filepath.Join(t.TempDir(), "d\ntouch x\n#")
	_, _, err := runBench(t, "submit", "slurm", "--plugins", pluginsDir, "--shards", "1", "-o", out, clean)
	var ue usageError
	want := `submit: -o "` + strings.ReplaceAll(filepath.Dir(out), `\`, `\\`) + `/d\ntouch x\n#": holds a newline (U+000A) at character `
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), want) {
		t.Errorf("-o with newlines: %v, want a usage error containing %s", err, want)
	}
	if _, err := os.Stat(filepath.Dir(out)); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) > 0 {
		t.Errorf("-o with newlines: %s written", entries[0].Name())
	}
}

// TestFlagsRefuseControlCharacters: every flag and argument that can
// reach a job script, a manifest or a printed command is refused, by
// name, when it holds a control character, or an invisible or bidi
// control character, before anything is read or written; the message
// itself escapes the character.
func TestFlagsRefuseControlCharacters(t *testing.T) {
	exp := writeExperiment(t, smallExperiment)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"submit", "slurm", exp, "--shards", "1", "-o", "d\ntouch x\n#"}, `submit: -o "d\ntouch x\n#": holds a newline (U+000A) at character 2`},
		{[]string{"submit", "slurm", exp, "--shards", "1", "--plugins", "p\r"}, `submit: --plugins "p\r": holds a carriage return (U+000D) at character 2`},
		{[]string{"submit", "slurm", exp, "--shards", "1", "--partition", "short\n#SBATCH --x"}, `submit: --partition "short\n#SBATCH --x": holds a newline`},
		{[]string{"submit", "slurm", exp, "--shards", "1", "--time", "10\u2028"}, `submit: --time "10\u2028": holds a line separator (U+2028) at character 3`},
		{[]string{"submit", "slurm", exp, "--shards", "1", "--mem", "4G\x00"}, `submit: --mem "4G\x00": holds a NUL (U+0000) at character 3`},
		{[]string{"submit", "slurm", exp, "--shards", "1\n"}, `invalid value "1\n" for flag -shards`},
		{[]string{"submit", "k8s", exp, "--shards", "1", "--image", "img:1\x1b[2J"}, `submit: --image "img:1\x1b[2J": holds an escape (U+001B) at character 6`},
		{[]string{"submit", "k8s", exp, "--shards", "1", "--image", "i", "--claim", "c\u0085"}, `submit: --claim "c\u0085": holds a next line (U+0085) at character 2`},
		{[]string{"submit", "slurm", exp + "\n", "--shards", "1"}, `submit: argument "` + exp + `\n": holds a newline`},
		{[]string{"run", "--shard", "0/2\n", exp}, `run: --shard "0/2\n": holds a newline (U+000A) at character 4`},
		{[]string{"run", "-o", "res\u2029", exp}, `run: -o "res\u2029": holds a paragraph separator (U+2029) at character 4`},
		{[]string{"run", "--profile", "p\t", exp}, `run: --profile "p\t": holds a tab (U+0009) at character 2`},
		{[]string{"validate", "\xff.hcl"}, `validate: argument "\xff.hcl": holds byte 0xff, which is not UTF-8, at character 1`},
		{[]string{"rerun", "-o", "x\ny", "results"}, `rerun: -o "x\ny": holds a newline`},
		{[]string{"rerun", "res\nults"}, `rerun: argument "res\nults": holds a newline`},
		{[]string{"merge", "a\rb", "c"}, `merge: argument "a\rb": holds a carriage return`},
		// campaign 7 B07, B15: invisible and bidi control characters,
		// which showed a path reversed on the terminal and in the scripts.
		{[]string{"run", "-o", "c\u202Ed", exp}, `run: -o "c\u202ed": holds a right-to-left override (U+202E) at character 2; a name or path that reaches a job script, a manifest or a printed command may hold no control character and no invisible or bidi control character`},
		{[]string{"submit", "slurm", exp, "--shards", "1", "-o", "c\u202Ed"}, `submit: -o "c\u202ed": holds a right-to-left override (U+202E) at character 2`},
		{[]string{"submit", "k8s", exp, "--shards", "1", "--image", "i", "--plugins", "p\u2066"}, `submit: --plugins "p\u2066": holds a left-to-right isolate (U+2066) at character 2`},
		{[]string{"run", "--plugins", "\u200Bbin", exp}, `run: --plugins "\u200bbin": holds a zero-width space (U+200B) at character 1`},
		{[]string{"validate", "f\u202Eg.hcl"}, `validate: argument "f\u202eg.hcl": holds a right-to-left override (U+202E) at character 2`},
		{[]string{"run", "e\uFE0F.hcl"}, `run: argument "e\ufe0f.hcl": holds an invisible (default-ignorable) character (U+FE0F) at character 2`},
		{[]string{"rerun", "res\u200Dults"}, `rerun: argument "res\u200dults": holds a zero-width joiner (U+200D) at character 4`},
		{[]string{"table", "-o", "t\u00AD", "results"}, `table: -o "t\u00ad": holds an invisible (default-ignorable) character (U+00AD) at character 2`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[:2], " ")+" "+tt.want[:min(len(tt.want), 30)], func(t *testing.T) {
			_, _, err := runBench(t, tt.args...)
			var ue usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want a usage error containing %s", err, tt.want)
			}
			first, _, _ := strings.Cut(err.Error(), "\n")
			if err := safetext.CheckVisible(first); err != nil {
				t.Errorf("the message %q %v", first, err)
			}
		})
	}
}

// fakeTools puts on PATH a sbatch and a kubectl that append their
// arguments (NUL-separated, a line each) to the returned log; sbatch
// prints a job id as --parsable does.
func fakeTools(t *testing.T) (path, log string) {
	t.Helper()
	dir := t.TempDir()
	log = filepath.Join(dir, "calls")
	for name, extra := range map[string]string{"sbatch": "echo '123;cluster'\n", "kubectl": ""} {
		script := "#!/bin/bash\n{ printf '%s\\0' " + name + " \"$@\"; echo; } >> " + safetext.Quote(log) + "\n" + extra
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir + ":/usr/bin:/bin", log
}

// pasted runs the indented command lines of a printed hint with bash, as
// a user pasting them would, in an empty directory, and returns the calls
// the fake tools got; the directory must stay empty.
func pasted(t *testing.T, hint string) [][]string {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(hint, "\n") {
		if strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "  /") {
			lines = append(lines, strings.TrimPrefix(l, "  "))
		}
	}
	path, log := fakeTools(t)
	work := t.TempDir()
	cmd := exec.Command("bash", "-euo", "pipefail")
	cmd.Dir, cmd.Stdin, cmd.Env = work, strings.NewReader(strings.Join(lines, "\n")+"\n"), []string{"PATH=" + path, "HOME=" + work}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bash: %v\n%s\nlines:\n%s", err, out, strings.Join(lines, "\n"))
	}
	if entries, _ := os.ReadDir(work); len(entries) > 0 {
		t.Errorf("pasting the commands created %s", entries[0].Name())
	}
	b, _ := os.ReadFile(log)
	var calls [][]string
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		calls = append(calls, strings.Split(strings.TrimSuffix(l, "\x00"), "\x00"))
	}
	return calls
}

// onlyUnder fails on a file below root that is not below dir.
func onlyUnder(t *testing.T, root, dir string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(p, dir+string(filepath.Separator)) {
			t.Errorf("%s written outside the results directory %s", p, dir)
		}
		return nil
	})
}

// TestPrintedCommandsHostile: with each hostile results directory of the
// corpus that has no control character (those are refused, see
// TestFlagsRefuseControlCharacters), the commands bench submit prints for
// the user to paste, run by bash, call sbatch and kubectl with exactly
// the files written, create nothing, and every file written is in the
// results directory.
func TestPrintedCommandsHostile(t *testing.T) {
	exp := writeExperiment(t, smallExperiment)
	for i, h := range hostile.Strings() {
		if hostile.Controls(h) || len(h) > 200 {
			continue
		}
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			t.Parallel() // its own directories; exp is only read
			root := t.TempDir()
			// Below two directories, so that ../../etc stays in root.
			out := root + "/a/b/" + h
			dir, _ := filepath.Abs(out)
			stdout, stderr, err := runBench(t, "submit", "slurm", "--plugins", pluginsDir, "--shards", "2", "-o", out, exp)
			if kind, _ := config.Unexpanded(out); kind != "" {
				// A path element that a shell would have expanded ($x,
				// ${HOME}) is refused by name, before anything is written.
				if err == nil || !strings.Contains(err.Error(), "which bench does not expand") {
					t.Errorf("slurm with a %s: %v", kind, err)
				}
				if entries, _ := os.ReadDir(root); len(entries) != 0 {
					t.Errorf("refused, and yet %s holds %v", root, entries)
				}
				return
			}
			if strings.Contains(h, `\`) {
				// A backslash in sbatch --output stops Slurm from expanding
				// %x, %A and %a (see cluster.Slurm.Check).
				if err == nil || !strings.Contains(err.Error(), "holds a backslash, which stops Slurm from naming each task's log file") {
					t.Errorf("slurm with a backslash: %v", err)
				}
			} else if err != nil {
				t.Fatalf("slurm: %v\n%s", err, stderr)
			} else {
				checkSlurmHint(t, stdout, dir)
			}
			stdout, stderr, err = runBench(t, "submit", "k8s", "--shards", "2", "--image", "img:1", "-o", out, exp)
			if err != nil {
				t.Fatalf("k8s: %v\n%s", err, stderr)
			}
			k8s := filepath.Join(out, "k8s")
			want := [][]string{{"kubectl", "apply", "-f", filepath.Join(k8s, "shards.json")},
				{"kubectl", "wait", "--for=condition=complete", "--timeout=-1s", "job/polyclass-small-81db8ebb"},
				{"kubectl", "apply", "-f", filepath.Join(k8s, "merge.json")}}
			if got := pasted(t, stdout[strings.Index(stdout, "run them"):]); !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("pasted kubectl commands called %q, want %q\n%s", got, want, stdout)
			}
			onlyUnder(t, root, dir)
		})
	}
}

// checkSlurmHint pastes the sbatch commands bench submit slurm printed
// for the results directory dir: they submit its two scripts.
func checkSlurmHint(t *testing.T, stdout, dir string) {
	t.Helper()
	scripts := filepath.Join(dir, "slurm")
	want := [][]string{{"sbatch", "--parsable", filepath.Join(scripts, "array.sbatch")},
		{"sbatch", "--dependency=afterok:123", filepath.Join(scripts, "merge.sbatch")}}
	if got := pasted(t, stdout[strings.Index(stdout, "submit them"):]); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("pasted slurm commands called %q, want %q\n%s", got, want, stdout)
	}
}

// TestJobID: only the digits of a job id sbatch --parsable printed go
// into the merge job's dependency and the printed command.
func TestJobID(t *testing.T) {
	tests := []struct{ printed, want, wantErr string }{
		{"4711\n", "4711", ""},
		{"4711;cluster\n", "4711", ""},
		{"", "", `printed "", not a job id`},
		{"4711 x\n", "", `printed "4711 x\n", not a job id`},
		{"4711\r\n", "4711", ""},
		{"47\x1b[2J11", "", `printed "47\x1b[2J11", not a job id`},
		{"$(touch PWNED)", "", `printed "$(touch PWNED)", not a job id`},
		{"4711\n4712\n", "", `printed "4711\n4712\n", not a job id`},
	}
	for _, tt := range tests {
		got, err := jobID(tt.printed)
		if got != tt.want || (err == nil) != (tt.wantErr == "") || err != nil && err.Error() != tt.wantErr {
			t.Errorf("jobID(%q) = %q, %v; want %q, %s", tt.printed, got, err, tt.want, tt.wantErr)
		}
	}
}
