package cluster

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/safetext"
	"github.com/polyclass/polyclass/internal/hostile"
)

// TestShellWords: the test's shell-word reader reads the quoting the
// writers produce as bash does, and refuses shell syntax.
func TestShellWords(t *testing.T) {
	tests := []struct {
		line string
		want []string // nil: an error
	}{
		{`a b`, []string{"a", "b"}},
		{`'a b' c`, []string{"a b", "c"}},
		{`'it'\''s'`, []string{"it's"}},
		{`a\;b`, nil},
		{`$'it\'s\x0a' x`, []string{"it's\n", "x"}},
		{`"${SLURM_ARRAY_TASK_ID}/4"`, []string{"${SLURM_ARRAY_TASK_ID}/4"}},
		{`a;b`, nil},
		{`$(x)`, nil},
		{"`x`", nil},
		{`a #b`, nil},
		{`"$(x)"`, nil},
		{`'open`, nil},
		{`é/x`, []string{"é/x"}},
	}
	for _, tt := range tests {
		got, err := shellWords(tt.line)
		if tt.want == nil && err == nil || tt.want != nil && !slices.Equal(got, tt.want) {
			t.Errorf("shellWords(%s) = %q, %v; want %q", tt.line, got, err, tt.want)
		}
	}
	// What it reads from Quote's words, bash reads.
	var words []string
	for _, s := range hostile.Strings() {
		if !strings.Contains(s, "\x00") {
			words = append(words, s)
		}
	}
	line := safetext.Line(words)
	got, err := shellWords(line)
	if err != nil || !slices.Equal(got, words) {
		t.Errorf("shellWords(Line(hostile)) = %q, %v", got, err)
	}
}

func TestSbatchArgs(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{`--job-name=a`, []string{"--job-name=a"}},
		{`--output=/a\ b/c # note`, []string{"--output=/a b/c"}},
		{`--job-name='a b'`, []string{"--job-name=a b"}},
		{`--job-name=it\'s\#1`, []string{"--job-name=it's#1"}},
		{`--job-name='a\'b'`, []string{"--job-name=a'b"}},
		{`--x=a#b`, []string{"--x=a"}},
		{`--x=\\`, []string{`--x=\`}},
	}
	for _, tt := range tests {
		if got, err := sbatchArgs(tt.line); err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("sbatchArgs(%s) = %q, %v; want %q", tt.line, got, err, tt.want)
		}
	}
}

// intendedRun is the bench command line task ${SLURM_ARRAY_TASK_ID} of
// s's job array must run, words as the script writes them.
func intendedRun(s *Slurm) []string {
	args := []string{s.Bench, "run"}
	if s.Plugins != "" {
		args = append(args, "--plugins", s.Plugins)
	}
	if s.DenseBudget > 0 {
		args = append(args, "--dense-budget", strconv.FormatInt(s.DenseBudget, 10))
	}
	return append(args, "-j", "${SLURM_CPUS_PER_TASK:-1}", "--shard", fmt.Sprintf("${SLURM_ARRAY_TASK_ID}/%d", s.Shards),
		"-o", s.Dir, safetext.Path(s.File))
}

// intendedMerge is the merge job's command line (merge takes no
// --plugins).
func intendedMerge(s *Slurm) []string {
	return []string{s.Bench, "merge", safetext.Path(s.Dir), safetext.Path(s.Dir)}
}

// comment is a comment line of a script (not an #SBATCH one).
var comment = regexp.MustCompile(`^# [^\n]*$`)

// checkScript checks the structure of a batch script of s: every line is
// the shebang, a comment, an #SBATCH line of one option that sbatch reads
// as the intended value, set -euo pipefail, or the one exec line (with
// its continuations) whose words are the intended command line; nothing
// in it is a control character but the newlines and the continuations'
// tabs.
func checkScript(s *Slurm, script string, merge bool) error {
	if err := safetext.Check(strings.NewReplacer("\n", "", "\t", "").Replace(script)); err != nil {
		return fmt.Errorf("script %w", err)
	}
	lines := strings.Split(strings.TrimSuffix(script, "\n"), "\n")
	if lines[0] != "#!/bin/bash" {
		return fmt.Errorf("line 1: %q, want the shebang", lines[0])
	}
	name, output, array := s.Experiment, filepath.Join(s.Scripts, LogsDir), fmt.Sprintf("--array=0-%d", s.Shards-1)
	want := map[string]string{"--job-name": name, "--array": array[len("--array="):],
		"--output":    strings.ReplaceAll(output, "%", "%%") + "/%x-%A_%a.out",
		"--partition": s.Partition, "--time": s.Time, "--mem": s.Mem, "--cpus-per-task": strconv.Itoa(s.CPUs)}
	words := intendedRun(s)
	if merge {
		want["--job-name"], want["--output"] = name+"-merge", strings.ReplaceAll(output, "%", "%%")+"/%x-%j.out"
		want["--kill-on-invalid-dep"], want["--cpus-per-task"] = "yes", "0"
		delete(want, "--array")
		words = intendedMerge(s)
	}
	i := 1
	for ; i < len(lines) && strings.HasPrefix(lines[i], "#"); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "#SBATCH ") {
			if !comment.MatchString(l) || strings.HasPrefix(l, "#SBATCH") {
				return fmt.Errorf("line %d: %q is neither a comment nor an #SBATCH line", i+1, l)
			}
			continue
		}
		args, err := sbatchArgs(strings.TrimPrefix(l, "#SBATCH "))
		if err != nil {
			return fmt.Errorf("line %d: %w", i+1, err)
		}
		key, value, _ := strings.Cut(strings.Join(args, " "), "=")
		if w, ok := want[key]; len(args) != 1 || !ok || value != w {
			return fmt.Errorf("line %d: %q: sbatch reads %q, want one option %s=%q", i+1, l, args, key, w)
		}
	}
	if i >= len(lines) || lines[i] != "set -euo pipefail" {
		return fmt.Errorf("line %d: want set -euo pipefail", i+1)
	}
	rest := strings.Join(lines[i+1:], "\n")
	if !strings.HasPrefix(rest, "exec ") {
		return fmt.Errorf("line %d: %q, want the exec line", i+2, rest)
	}
	got, err := shellWords(strings.ReplaceAll(strings.TrimPrefix(rest, "exec "), "\\\n\t", ""))
	if err != nil {
		return err
	}
	if !slices.Equal(got, words) {
		return fmt.Errorf("exec runs %q, want %q", got, words)
	}
	return nil
}

// slurmFields are the values of a Slurm submission a hostile string
// replaces, with the word its error names.
var slurmFields = []struct {
	name, what string
	set        func(*Slurm, string)
}{
	{"experiment", "experiment name", func(s *Slurm, v string) { s.Experiment = v }},
	{"results directory", "results directory", func(s *Slurm, v string) { s.Dir = v }},
	{"experiment file", "experiment file", func(s *Slurm, v string) { s.File = v }},
	{"plugins", "plugins directory", func(s *Slurm, v string) { s.Plugins = v }},
	{"scripts", "scripts directory", func(s *Slurm, v string) { s.Scripts = v }},
	{"bench", "bench binary", func(s *Slurm, v string) { s.Bench = v }},
	{"partition", "partition", func(s *Slurm, v string) { s.Partition = v }},
	{"time", "time", func(s *Slurm, v string) { s.Time = v }},
	{"memory", "memory", func(s *Slurm, v string) { s.Mem = v }},
}

// TestSlurmHostile pushes each hostile string through each value of a
// Slurm submission: one with a control character is refused with an
// error naming the value (case 1 of issue 55: a results directory
// "out\ntouch PWNED\n#" put a line touch PWNED into the array script);
// any other is refused by name or written so that the scripts keep their
// structure (checkScript), bash -n accepts them, and bash, running them
// as task 1 of the array and as the merge job would, calls bench with
// exactly the intended arguments and creates no file.
func TestSlurmHostile(t *testing.T) {
	base := Slurm{Run: Run{Experiment: "exp", Bench: "/opt/bin/bench", Plugins: "/opt/plugins", File: "/home/ann/exp.hcl", Dir: "/scratch/res", Shards: 3},
		Scripts: "/scratch/res/slurm", Partition: "short", Time: "1:00:00", CPUs: 2, Mem: "4G"}
	var written []bashCase
	refused := 0
	for _, f := range slurmFields {
		for i, h := range hostile.Strings() {
			t.Run(fmt.Sprintf("%s/%d", f.name, i), func(t *testing.T) {
				s := base
				f.set(&s, h)
				array, err := s.ArrayScript()
				merge, mergeErr := s.MergeScript()
				if (err == nil) != (mergeErr == nil) {
					t.Fatalf("array script error %v, merge script error %v", err, mergeErr)
				}
				if err != nil {
					refused++
					if !strings.Contains(err.Error(), f.what) {
						t.Errorf("error %q names no %s", err, f.what)
					}
					return
				}
				if hostile.Controls(h) {
					t.Fatalf("%s %q with a control character written:\n%s", f.what, h, array)
				}
				for _, c := range []bashCase{{t.Name(), array, intendedRun(&s)}, {t.Name() + " merge", merge, intendedMerge(&s)}} {
					if err := checkScript(&s, c.script, c.name != t.Name()); err != nil {
						t.Errorf("%v\n%s", err, c.script)
					}
					written = append(written, c)
				}
			})
		}
	}
	if refused == 0 || len(written) == 0 {
		t.Fatalf("%d refused, %d written: the corpus should give both", refused, len(written))
	}
	runScripts(t, written)
}

// bashCase is a script to run, and the command line it must exec (words
// as written: ${…} expansions unexpanded).
type bashCase struct {
	name, script string
	want         []string
}

// runScripts checks every script with bash -n (as the bodies of functions
// of one file, so that one bash reads them all), then runs each with bash
// as task 1 of its array with 2 CPUs, in an empty working directory, with
// exec recording its arguments instead of running them: each must exec
// the intended command line and create no file. One bash sources them
// all, one after the other (a subshell each would fork hundreds of
// times).
func runScripts(t *testing.T, cases []bashCase) {
	t.Helper()
	tmp := t.TempDir()
	var syntax, driver strings.Builder
	driver.WriteString("exec() { printf '%s\\0' \"$@\" > \"$ARGV\"; }\nexport SLURM_ARRAY_TASK_ID=1 SLURM_CPUS_PER_TASK=2\n")
	for i, c := range cases {
		dir := filepath.Join(tmp, strconv.Itoa(i))
		script := filepath.Join(dir, "script")
		if err := os.MkdirAll(filepath.Join(dir, "work"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(script, []byte(c.script), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&syntax, "f%d() {\n%s\n}\n", i, c.script)
		fmt.Fprintf(&driver, "cd %s/work\nHOME=$PWD ARGV=%s/argv\nsource %s\n", dir, dir, script)
	}
	bashSyntax(t, syntax.String())
	cmd := exec.Command("bash")
	cmd.Dir, cmd.Stdin, cmd.Env = tmp, strings.NewReader(driver.String()), []string{"PATH=/usr/bin:/bin"}
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	for i, c := range cases {
		dir := filepath.Join(tmp, strconv.Itoa(i))
		b, err := os.ReadFile(filepath.Join(dir, "argv"))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
		want := slices.Clone(c.want)
		for j, w := range want {
			w = strings.ReplaceAll(w, "${SLURM_CPUS_PER_TASK:-1}", "2")
			want[j] = strings.ReplaceAll(w, "${SLURM_ARRAY_TASK_ID}", "1")
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: exec got %q, want %q", c.name, got, want)
		}
		if entries, _ := os.ReadDir(filepath.Join(dir, "work")); len(entries) > 0 {
			t.Errorf("%s: the script created %s in its working directory", c.name, entries[0].Name())
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 3 {
			t.Errorf("%s: the script's directory holds %d files, want work, script and argv", c.name, len(entries))
		}
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != len(cases) {
		t.Errorf("%d files beside the %d cases' directories", len(entries)-len(cases), len(cases))
	}
}

// intendedShard is the argv the container of k's shards' Job runs at
// completion index index.
func intendedShard(k *Kubernetes, index string) []string {
	args := []string{k.Bench, "run"}
	if k.DenseBudget > 0 {
		args = append(args, "--dense-budget", strconv.FormatInt(k.DenseBudget, 10))
	}
	if k.CPUs > 0 {
		args = append(args, "-j", strconv.Itoa(k.CPUs))
	}
	return append(args, "--shard", fmt.Sprintf("%s/%d", index, k.Shards), "-o", k.Dir, safetext.Path(k.File))
}

// expandCommand is the argv the container of completion index index
// runs: each element expanded as Kubernetes expands a container's command
// (expandK8s), with JOB_COMPLETION_INDEX, which the Job controller sets,
// and HOME, which an image may set, in the environment.
func expandCommand(cmd []string, index string) []string {
	env := map[string]string{"JOB_COMPLETION_INDEX": index, "HOME": "/root"}
	out := make([]string, len(cmd))
	for i, c := range cmd {
		out[i] = expandK8s(c, env)
	}
	return out
}

// expandK8s expands s as Kubernetes expands a container's command and
// args (k8s.io/kubernetes third_party/forked/golang/expansion.Expand with
// MappingFuncFor): "$$" is "$", "$(NAME)" is NAME's value when env has
// it and stays as written when not, an unclosed "$(" and any other "$"
// stay as written.
func expandK8s(s string, env map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch next := s[i+1]; {
		case next == '$':
			b.WriteByte('$')
			i++
		case next == '(' && strings.IndexByte(s[i+2:], ')') >= 0:
			end := i + 2 + strings.IndexByte(s[i+2:], ')')
			name := s[i+2 : end]
			if v, ok := env[name]; ok {
				b.WriteString(v)
			} else {
				b.WriteString("$(" + name + ")")
			}
			i = end
		default:
			b.WriteByte('$')
		}
	}
	return b.String()
}

// labelValue is what a Kubernetes label's value must be.
var labelValue = regexp.MustCompile(`^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$`)

// checkManifests reads k's manifests back as JSON and checks what
// Kubernetes acts on: DNS-label names of at most 63 characters, valid
// label values, the intended commands, image, claim and mount, a results
// directory inside the mount, and no decoded string with a control
// character.
func checkManifests(k *Kubernetes, shardsJSON, mergeJSON []byte) error {
	for _, m := range []struct {
		doc     []byte
		name    string
		command []string
	}{
		{shardsJSON, k.JobName(), intendedShard(k, "0")},
		{mergeJSON, k.MergeJobName(), []string{k.Bench, "merge", safetext.Path(k.Dir), safetext.Path(k.Dir)}},
	} {
		var j job
		if err := json.Unmarshal(m.doc, &j); err != nil {
			return err
		}
		var generic any
		if err := json.Unmarshal(m.doc, &generic); err != nil {
			return err
		}
		if err := controlFree(generic); err != nil {
			return err
		}
		c := j.Spec.Template.Spec.Containers[0]
		switch name := j.Metadata.Name; {
		case name != m.name || !dnsLabel.MatchString(name) || len(name) > 63:
			return fmt.Errorf("job name %q, want %q, a DNS label of at most 63 characters", name, m.name)
		case !slices.Equal(expandCommand(c.Command, "0"), m.command):
			return fmt.Errorf("command %q runs as %q in pod 0, want %q", c.Command, expandCommand(c.Command, "0"), m.command)
		case c.Image != k.Image || j.Spec.Template.Spec.Volumes[0].PersistentVolumeClaim.ClaimName != k.Claim ||
			c.VolumeMounts[0].MountPath != k.Mount:
			return fmt.Errorf("image %q, claim %q, mount %q", c.Image, j.Spec.Template.Spec.Volumes[0].PersistentVolumeClaim.ClaimName, c.VolumeMounts[0].MountPath)
		case !strings.HasPrefix(path.Clean(k.Dir), strings.TrimSuffix(k.Mount, "/")+"/"):
			return fmt.Errorf("results directory %q outside the mount %q", k.Dir, k.Mount)
		}
		for _, labels := range []map[string]string{j.Metadata.Labels, j.Spec.Template.Metadata.Labels} {
			for key, v := range labels {
				if !labelValue.MatchString(v) || len(v) > 63 {
					return fmt.Errorf("label %s=%q is not a label value", key, v)
				}
			}
		}
	}
	return nil
}

// controlFree fails on a string of v, a decoded JSON document, that holds
// a control character.
func controlFree(v any) error {
	switch x := v.(type) {
	case string:
		if hostile.Controls(x) {
			return fmt.Errorf("manifest string %q holds a control character", x)
		}
	case map[string]any:
		for key, e := range x {
			if err := controlFree(key); err != nil {
				return err
			}
			if err := controlFree(e); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range x {
			if err := controlFree(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// k8sFields are the values of a Kubernetes submission a hostile string
// replaces, with the word its error names.
var k8sFields = []struct {
	name, what string
	set        func(*Kubernetes, string)
}{
	{"experiment", "experiment name", func(k *Kubernetes, v string) { k.Experiment = v }},
	{"results directory", "results directory", func(k *Kubernetes, v string) { k.Dir = v }},
	{"results directory below the mount", "results directory", func(k *Kubernetes, v string) { k.Dir = "/results/" + v }},
	{"experiment file", "experiment file", func(k *Kubernetes, v string) { k.File = v }},
	{"bench", "bench binary", func(k *Kubernetes, v string) { k.Bench = v }},
	{"image", "image", func(k *Kubernetes, v string) { k.Image = v }},
	{"claim", "claim", func(k *Kubernetes, v string) { k.Claim = v }},
	{"mount", "mount", func(k *Kubernetes, v string) { k.Mount = v }},
}

// TestKubernetesHostile pushes each hostile string through each value of
// a Kubernetes submission: one with a control character is refused with
// an error naming the value; any other is refused by name or written into
// manifests that read back as intended (checkManifests).
func TestKubernetesHostile(t *testing.T) {
	refused, written := 0, 0
	for _, f := range k8sFields {
		for i, h := range hostile.Strings() {
			t.Run(fmt.Sprintf("%s/%d", f.name, i), func(t *testing.T) {
				k := k8s
				k.CPUs = 2
				f.set(&k, h)
				shards, merge, err := k.Manifests()
				if err != nil {
					refused++
					if !strings.Contains(err.Error(), f.what) {
						t.Errorf("error %q names no %s", err, f.what)
					}
					return
				}
				if hostile.Controls(h) {
					t.Fatalf("%s %q with a control character written:\n%s", f.what, h, shards)
				}
				written++
				if err := checkManifests(&k, shards, merge); err != nil {
					t.Errorf("%v\n%s", err, shards)
				}
			})
		}
	}
	if refused == 0 || written == 0 {
		t.Errorf("%d refused, %d written: the corpus should give both", refused, written)
	}
}

// TestJobNamesDistinct: every two names of the corpus, and the names that
// read the same as DNS labels, name different Jobs (case 14 of issue 55:
// My_Exp.V2 and my-exp-v2 named the same Job).
func TestJobNamesDistinct(t *testing.T) {
	names := append(hostile.Strings(), "My_Exp.V2", "my-exp-v2", "my.exp.v2", "MY_EXP_V2", "my-exp-v2-", "-my-exp-v2",
		strings.Repeat("a", 40)+"1", strings.Repeat("a", 40)+"2")
	seen := map[string]string{}
	for _, n := range names {
		k := Kubernetes{Run: Run{Experiment: n}}
		if prev, ok := seen[k.JobName()]; ok {
			t.Errorf("%q and %q both name Job %s", prev, n, k.JobName())
		}
		seen[k.JobName()] = n
		if !dnsLabel.MatchString(k.MergeJobName()) || len(k.MergeJobName()) > 63 {
			t.Errorf("%q: merge Job %q is not a DNS label of at most 63 characters", n, k.MergeJobName())
		}
	}
}

// FuzzSlurmScripts: whatever the values, the writer refuses them or
// writes scripts that keep their structure (checkScript); a value with a
// control character is always refused.
func FuzzSlurmScripts(f *testing.F) {
	for _, h := range hostile.Strings() {
		f.Add("exp", "/scratch/"+h, h, "/opt/plugins", "/scratch/slurm", uint8(3))
		f.Add(h, "/scratch/res", "/home/a.hcl", h, h, uint8(1))
	}
	f.Fuzz(func(t *testing.T, experiment, dir, file, plugins, scripts string, shards uint8) {
		s := Slurm{Run: Run{Experiment: experiment, Bench: "/opt/bin/bench", Plugins: plugins, File: file, Dir: dir, Shards: int(shards)},
			Scripts: scripts, Time: "10", Mem: "1G", CPUs: 1, Partition: "p"}
		array, err := s.ArrayScript()
		if err != nil {
			return
		}
		for _, v := range []string{experiment, dir, file, plugins, scripts} {
			if hostile.Controls(v) {
				t.Fatalf("%q with a control character written", v)
			}
		}
		merge, err := s.MergeScript()
		if err != nil {
			t.Fatalf("array script written, merge script refused: %v", err)
		}
		if err := checkScript(&s, array, false); err != nil {
			t.Fatalf("%v\n%s", err, array)
		}
		if err := checkScript(&s, merge, true); err != nil {
			t.Fatalf("%v\n%s", err, merge)
		}
	})
}

// FuzzKubernetesManifests: whatever the values, the writer refuses them
// or writes manifests that read back as intended (checkManifests); a
// value with a control character is always refused, and two experiment
// names never name one Job.
func FuzzKubernetesManifests(f *testing.F) {
	for _, h := range hostile.Strings() {
		f.Add(h, "/results/"+h, "exp.hcl", "img:1", "my-exp-v2", uint8(2))
		f.Add("My_Exp.V2", "/results/x", h, h, h, uint8(4))
	}
	f.Fuzz(func(t *testing.T, experiment, dir, file, image, other string, shards uint8) {
		k := Kubernetes{Run: Run{Experiment: experiment, Bench: "bench", File: file, Dir: dir, Shards: int(shards)},
			Image: image, Claim: "results", Mount: "/results", CPUs: 2}
		if o := (Kubernetes{Run: Run{Experiment: other}}); other != experiment && o.JobName() == k.JobName() {
			t.Fatalf("%q and %q both name Job %s", experiment, other, k.JobName())
		}
		shardsJSON, mergeJSON, err := k.Manifests()
		if err != nil {
			return
		}
		for _, v := range []string{experiment, dir, file, image} {
			if hostile.Controls(v) {
				t.Fatalf("%q with a control character written", v)
			}
		}
		if err := checkManifests(&k, shardsJSON, mergeJSON); err != nil {
			t.Fatalf("%v\n%s", err, shardsJSON)
		}
	})
}

// TestKubernetesDollars: a $ in a value reaches bench as written, though
// Kubernetes expands $(NAME) and reads $$ as $ in a container's command
// (campaign 11's B06b: an experiment file named e$(HOME).hcl ran as
// e/root.hcl, a$$b.hcl as a$b.hcl); the shard's own $(JOB_COMPLETION_INDEX)
// is still expanded.
func TestKubernetesDollars(t *testing.T) {
	tests := []struct{ file, dir, written string }{
		{"e$(HOME).hcl", "/results/x", "e$$(HOME).hcl"},
		{"a$$b.hcl", "/results/x", "a$$$$b.hcl"},
		{"i$(JOB_COMPLETION_INDEX).hcl", "/results/$(JOB_COMPLETION_INDEX)", "i$$(JOB_COMPLETION_INDEX).hcl"},
		{"plain.hcl", "/results/x", "plain.hcl"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			k := k8s
			k.File, k.Dir = tt.file, tt.dir
			shards, merge, err := k.Manifests()
			if err != nil {
				t.Fatal(err)
			}
			var j job
			if err := json.Unmarshal(shards, &j); err != nil {
				t.Fatal(err)
			}
			cmd := j.Spec.Template.Spec.Containers[0].Command
			if got := cmd[len(cmd)-1]; got != tt.written {
				t.Errorf("file written as %q, want %q", got, tt.written)
			}
			for _, index := range []string{"0", "3"} {
				if got, want := expandCommand(cmd, index), intendedShard(&k, index); !slices.Equal(got, want) {
					t.Errorf("pod %s runs %q, want %q", index, got, want)
				}
			}
			if err := checkManifests(&k, shards, merge); err != nil {
				t.Error(err)
			}
		})
	}
}
