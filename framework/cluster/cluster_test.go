package cluster

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it); got:\n%s", name, got)
	}
}

// run is the run of the golden files: paths with a space and a quote, to
// show the quoting.
var run = Run{Experiment: "quickstart", Bench: "/opt/poly class/bin/bench", Plugins: "/opt/poly class/bin",
	File: "/home/ann/exp's/quickstart.hcl", Dir: "/scratch/ann/results/quickstart", Shards: 4}

func TestSlurmGolden(t *testing.T) {
	tests := []struct {
		name string
		s    Slurm
	}{
		{"slurm-defaults", Slurm{Run: run, Scripts: "/scratch/ann/results/quickstart/slurm"}},
		{"slurm-resources", Slurm{Run: run, Scripts: "/scratch/ann/results/quickstart/slurm",
			Partition: "short,long", Time: "1-12:00:00", CPUs: 8, Mem: "16G"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.s.Check(); err != nil {
				t.Fatal(err)
			}
			array, merge := scripts(t, &tt.s)
			golden(t, tt.name+".array.sbatch", []byte(array))
			golden(t, tt.name+".merge.sbatch", []byte(merge))
			for _, script := range []string{array, merge} {
				bashSyntax(t, script)
			}
		})
	}
}

// scripts returns s's array and merge scripts, failing on an error.
func scripts(t *testing.T, s *Slurm) (array, merge string) {
	t.Helper()
	array, err := s.ArrayScript()
	if err != nil {
		t.Fatal(err)
	}
	if merge, err = s.MergeScript(); err != nil {
		t.Fatal(err)
	}
	return array, merge
}

// bashSyntax fails when bash -n rejects script.
func bashSyntax(t *testing.T, script string) {
	t.Helper()
	cmd := exec.Command("bash", "-n")
	cmd.Stdin = strings.NewReader(script)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("bash -n: %v\n%s\nscript:\n%s", err, out, script)
	}
}

// TestSlurmScriptRuns runs the array script with bash, as a task of a job
// array would, with a bench that prints its arguments: the quoted paths
// and the shard expression arrive as the words they should be.
func TestSlurmScriptRuns(t *testing.T) {
	dir := t.TempDir()
	bench := filepath.Join(dir, "my bench")
	if err := os.WriteFile(bench, []byte("#!/bin/sh\nfor a; do echo \"[$a]\"; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := run
	r.Bench, r.Shards = bench, 7
	s := Slurm{Run: r, Scripts: dir}
	array, merge := scripts(t, &s)
	tests := []struct {
		name   string
		script string
		env    []string
		want   []string
	}{
		{"task 3 with 2 CPUs", array, []string{"SLURM_ARRAY_TASK_ID=3", "SLURM_CPUS_PER_TASK=2"},
			[]string{"run", "--plugins", r.Plugins, "-j", "2", "--shard", "3/7", "-o", r.Dir, r.File}},
		{"task 0 without a CPU count", array, []string{"SLURM_ARRAY_TASK_ID=0"},
			[]string{"run", "--plugins", r.Plugins, "-j", "1", "--shard", "0/7", "-o", r.Dir, r.File}},
		{"merge", merge, nil, []string{"merge", r.Dir, r.Dir}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command("bash")
			cmd.Stdin = strings.NewReader(tt.script)
			cmd.Env = append([]string{"PATH=/usr/bin:/bin"}, tt.env...)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var want strings.Builder
			for _, w := range tt.want {
				want.WriteString("[" + w + "]\n")
			}
			if string(out) != want.String() {
				t.Errorf("bench got:\n%s\nwant:\n%s", out, want.String())
			}
		})
	}
	// Without the array's task id the script stops rather than run a
	// shard nobody asked for.
	cmd := exec.Command("bash")
	cmd.Stdin = strings.NewReader(array)
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "SLURM_ARRAY_TASK_ID") {
		t.Errorf("without SLURM_ARRAY_TASK_ID: error %v, output %s; want a failure naming the variable", err, out)
	}
}

func TestSlurmCheck(t *testing.T) {
	ok := Slurm{Run: run, Scripts: "/tmp/s"}
	tests := []struct {
		name string
		edit func(*Slurm)
		want string // "" for no error
	}{
		{"defaults", func(*Slurm) {}, ""},
		{"one shard", func(s *Slurm) { s.Shards = 1 }, ""},
		{"no shards", func(s *Slurm) { s.Shards = 0 }, "shards: 0, want 1 or more"},
		{"minutes", func(s *Slurm) { s.Time = "30" }, ""},
		{"hours", func(s *Slurm) { s.Time = "12:00:00" }, ""},
		{"days", func(s *Slurm) { s.Time = "2-00" }, ""},
		{"bad time", func(s *Slurm) { s.Time = "2h" }, `time "2h": want minutes`},
		{"partition list", func(s *Slurm) { s.Partition = "gpu,cpu" }, ""},
		{"partition with a newline", func(s *Slurm) { s.Partition = "cpu\n#SBATCH --x" }, `partition "cpu\n#SBATCH --x"`},
		{"memory", func(s *Slurm) { s.Mem = "4000" }, ""},
		{"memory in G", func(s *Slurm) { s.Mem = "16G" }, ""},
		{"memory in GB", func(s *Slurm) { s.Mem = "16GB" }, `memory "16GB": want a whole number`},
		{"zero memory", func(s *Slurm) { s.Mem = "0" }, `memory "0"`},
		{"negative cpus", func(s *Slurm) { s.CPUs = -2 }, "cpus -2"},
		{"no results directory", func(s *Slurm) { s.Dir = "" }, "results directory"},
		{"dense budget", func(s *Slurm) { s.DenseBudget = 1 << 30 }, ""},
		{"negative dense budget", func(s *Slurm) { s.DenseBudget = -1 }, "dense budget: -1 bytes"},
		{"results directory with newlines", func(s *Slurm) { s.Dir = "out\ntouch PWNED\n#" },
			`results directory "out\ntouch PWNED\n#": holds a newline (U+000A) at character 4; a name or path that reaches a job script, a manifest or a printed command may hold no control character and no invisible or bidi control character`},
		{"experiment file with a line separator", func(s *Slurm) { s.File = "/a\u2028b.hcl" }, `experiment file "/a\u2028b.hcl": holds a line separator (U+2028) at character 3`},
		{"plugins directory not UTF-8", func(s *Slurm) { s.Plugins = "/p\xff" }, `plugins directory "/p\xff": holds byte 0xff, which is not UTF-8, at character 3`},
		{"scripts directory with a carriage return", func(s *Slurm) { s.Scripts = "/s\r" }, `scripts directory "/s\r": holds a carriage return`},
		{"results directory with a right-to-left override (campaign 7 B07)", func(s *Slurm) { s.Dir = "/r/a\u202Eb" },
			`results directory "/r/a\u202eb": holds a right-to-left override (U+202E) at character 5; a name or path that reaches a job script, a manifest or a printed command may hold no control character and no invisible or bidi control character`},
		{"experiment file with a zero-width joiner", func(s *Slurm) { s.File = "e\u200D.hcl" }, `experiment file "e\u200d.hcl": holds a zero-width joiner (U+200D) at character 2`},
		{"plugins directory with a first strong isolate", func(s *Slurm) { s.Plugins = "/p\u2068" }, `plugins directory "/p\u2068": holds a first strong isolate (U+2068) at character 3`},
		{"scripts directory with a BOM", func(s *Slurm) { s.Scripts = "/s\uFEFF" }, `scripts directory "/s\ufeff": holds a zero-width no-break space (BOM) (U+FEFF) at character 3`},
		{"results directory in visible non-ASCII", func(s *Slurm) { s.Dir = "/r/rés/😀 日本" }, ""},
		{"scripts directory with a backslash", func(s *Slurm) { s.Scripts = `/s\x` }, `scripts directory "/s\\x" holds a backslash, which stops Slurm from naming each task's log file`},
		{"scripts directory with a percent sign", func(s *Slurm) { s.Scripts = "/s/100%" }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ok
			tt.edit(&s)
			err := s.Check()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// k8s is the submission of the Kubernetes golden files.
var k8s = Kubernetes{Run: Run{Experiment: "Quick_Start", Bench: "bench", File: "experiments/quickstart.hcl",
	Dir: "/results/quickstart", Shards: 4}, Image: "registry.example.org/polyclass:1.0", Claim: "polyclass-results", Mount: "/results"}

func TestKubernetesGolden(t *testing.T) {
	tests := []struct {
		name string
		k    Kubernetes
	}{
		{"k8s-defaults", k8s},
		{"k8s-resources", func() Kubernetes {
			k := k8s
			k.Parallelism, k.CPUs, k.Mem = 2, 4, "8G"
			return k
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shards, merge, err := tt.k.Manifests()
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tt.name+".shards.json", shards)
			golden(t, tt.name+".merge.json", merge)
		})
	}
}

// TestKubernetesParse reads the manifests back as plain JSON (what kubectl
// reads) and checks the fields Kubernetes acts on, by their API paths.
func TestKubernetesParse(t *testing.T) {
	tests := []struct {
		name                          string
		parallelism, cpus             int
		mem                           string
		wantParallelism               float64
		wantCommand                   []string
		wantResources                 map[string]any
		wantMergeCommand              []string
		wantShardsName, wantMergeName string
	}{
		{name: "defaults", wantParallelism: 4,
			wantCommand:      []string{"bench", "run", "--shard", "$(JOB_COMPLETION_INDEX)/4", "-o", "/results/quickstart", "experiments/quickstart.hcl"},
			wantMergeCommand: []string{"bench", "merge", "/results/quickstart", "/results/quickstart"},
			wantShardsName:   "polyclass-quick-start-2dec91e5", wantMergeName: "polyclass-quick-start-2dec91e5-merge"},
		{name: "two at a time, 3 CPUs, 1500 MiB", parallelism: 2, cpus: 3, mem: "1500", wantParallelism: 2,
			wantCommand: []string{"bench", "run", "-j", "3", "--shard", "$(JOB_COMPLETION_INDEX)/4", "-o", "/results/quickstart", "experiments/quickstart.hcl"},
			wantResources: map[string]any{"requests": map[string]any{"cpu": "3", "memory": "1500Mi"},
				"limits": map[string]any{"cpu": "3", "memory": "1500Mi"}},
			wantMergeCommand: []string{"bench", "merge", "/results/quickstart", "/results/quickstart"},
			wantShardsName:   "polyclass-quick-start-2dec91e5", wantMergeName: "polyclass-quick-start-2dec91e5-merge"},
		{name: "parallelism above the shards", parallelism: 9, wantParallelism: 4,
			wantCommand:      []string{"bench", "run", "--shard", "$(JOB_COMPLETION_INDEX)/4", "-o", "/results/quickstart", "experiments/quickstart.hcl"},
			wantMergeCommand: []string{"bench", "merge", "/results/quickstart", "/results/quickstart"},
			wantShardsName:   "polyclass-quick-start-2dec91e5", wantMergeName: "polyclass-quick-start-2dec91e5-merge"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := k8s
			k.Parallelism, k.CPUs, k.Mem = tt.parallelism, tt.cpus, tt.mem
			shardsJSON, mergeJSON, err := k.Manifests()
			if err != nil {
				t.Fatal(err)
			}
			var shards, merge map[string]any
			if err := json.Unmarshal(shardsJSON, &shards); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(mergeJSON, &merge); err != nil {
				t.Fatal(err)
			}
			checks := []struct {
				doc  map[string]any
				path string
				want any
			}{
				{shards, "apiVersion", "batch/v1"},
				{shards, "kind", "Job"},
				{shards, "metadata.name", tt.wantShardsName},
				{shards, "spec.completionMode", "Indexed"},
				{shards, "spec.completions", 4.0},
				{shards, "spec.parallelism", tt.wantParallelism},
				{shards, "spec.backoffLimit", 4.0},
				{shards, "spec.template.spec.restartPolicy", "Never"},
				{shards, "spec.template.spec.containers.0.image", "registry.example.org/polyclass:1.0"},
				{shards, "spec.template.spec.containers.0.command", anys(tt.wantCommand)},
				{shards, "spec.template.spec.containers.0.resources", tt.wantResources},
				{shards, "spec.template.spec.containers.0.volumeMounts.0.mountPath", "/results"},
				{shards, "spec.template.spec.containers.0.volumeMounts.0.name", "results"},
				{shards, "spec.template.spec.volumes.0.name", "results"},
				{shards, "spec.template.spec.volumes.0.persistentVolumeClaim.claimName", "polyclass-results"},
				{merge, "apiVersion", "batch/v1"},
				{merge, "kind", "Job"},
				{merge, "metadata.name", tt.wantMergeName},
				{merge, "spec.completionMode", nil},
				{merge, "spec.completions", 1.0},
				{merge, "spec.template.spec.restartPolicy", "Never"},
				{merge, "spec.template.spec.containers.0.command", anys(tt.wantMergeCommand)},
				{merge, "spec.template.spec.volumes.0.persistentVolumeClaim.claimName", "polyclass-results"},
				{merge, "spec.template.spec.containers.0.volumeMounts.0.mountPath", "/results"},
			}
			for _, c := range checks {
				got := lookup(c.doc, c.path)
				if g, w := mustJSON(t, got), mustJSON(t, c.want); g != w {
					t.Errorf("%s of %s: %s, want %s", c.path, lookup(c.doc, "metadata.name"), g, w)
				}
			}
		})
	}
}

// lookup follows a dotted path of keys and list indexes; nil when absent.
func lookup(v any, path string) any {
	for _, key := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[key]
		case []any:
			i := int(key[0] - '0')
			if len(key) != 1 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

func anys(s []string) []any {
	a := make([]any, len(s))
	for i, x := range s {
		a[i] = x
	}
	return a
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	if m, ok := v.(map[string]any); ok && m == nil {
		v = nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestKubernetesCheck(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Kubernetes)
		want string
	}{
		{"defaults", func(*Kubernetes) {}, ""},
		{"no image", func(k *Kubernetes) { k.Image = "" }, `image "": want an image reference`},
		// Campaign 12: the image was checked only for spaces, and these
		// reached the manifest, to fail when the pods started.
		{"image path in capitals", func(k *Kubernetes) { k.Image = "Reg.io/UPPER/x:1" }, `image "Reg.io/UPPER/x:1": want an image reference`},
		{"image tag starting with -", func(k *Kubernetes) { k.Image = "reg.io/x:-bad:tag" }, `image "reg.io/x:-bad:tag": want an image reference`},
		{"image digest not hexadecimal", func(k *Kubernetes) { k.Image = "reg.io/x@sha256:zz" }, `image "reg.io/x@sha256:zz": want an image reference`},
		{"image with JSON in it", func(k *Kubernetes) { k.Image = `x"},"evil":{"a":"b` }, `want an image reference`},
		{"image with a port, a tag and a digest", func(k *Kubernetes) {
			k.Image = "registry.example.org:5000/team/polyclass:1.0@sha256:" + strings.Repeat("ab", 32)
		}, ""},
		{"image of one name", func(k *Kubernetes) { k.Image = "polyclass" }, ""},
		{"claim with capitals", func(k *Kubernetes) { k.Claim = "Results" }, `claim "Results"`},
		{"relative mount", func(k *Kubernetes) { k.Mount = "results" }, `mount "results": want an absolute path`},
		{"results outside the claim", func(k *Kubernetes) { k.Dir = "/data/quickstart" }, "results directory /data/quickstart is not below the claim's mount /results"},
		{"results on the mount itself", func(k *Kubernetes) { k.Dir = "/results" }, "not below the claim's mount"},
		{"memory in Gi", func(k *Kubernetes) { k.Mem = "8Gi" }, `memory "8Gi"`},
		// Campaign 13 N56a: a number past any machine went into the
		// manifest and the script.
		{"memory past 4 EiB", func(k *Kubernetes) { k.Mem = "99999999999999999999T" }, `memory "99999999999999999999T": more than a scheduler can grant`},
		{"memory just past 4 EiB", func(k *Kubernetes) { k.Mem = "4194305T" }, `more than a scheduler can grant`},
		{"memory of 4 EiB", func(k *Kubernetes) { k.Mem = "4194304T" }, ""},
		{"memory in megabytes past 4 EiB", func(k *Kubernetes) { k.Mem = "4398046511105" }, `more than a scheduler can grant`},
		{"no shards", func(k *Kubernetes) { k.Shards = 0 }, "shards: 0"},
		{"image with a newline", func(k *Kubernetes) { k.Image = "img:1\nkind: Pod" }, `image "img:1\nkind: Pod": holds a newline (U+000A) at character 6`},
		{"results directory with a right-to-left override (campaign 7 B07)", func(k *Kubernetes) { k.Dir = "/results/c\u202Ed" }, `results directory "/results/c\u202ed": holds a right-to-left override (U+202E) at character 11`},
		{"image with a variation selector", func(k *Kubernetes) { k.Image = "img:1\uFE0F" }, `image "img:1\ufe0f": holds an invisible (default-ignorable) character (U+FE0F) at character 6`},
		{"experiment file with a NUL", func(k *Kubernetes) { k.File = "e\x00.hcl" }, `experiment file "e\x00.hcl": holds a NUL`},
		{"results directory climbing out of the claim", func(k *Kubernetes) { k.Dir = "/results/../etc" }, "results directory /results/../etc is not below the claim's mount /results"},
		{"results directory not clean", func(k *Kubernetes) { k.Dir = "/results/./x" }, "not written plainly"},
		{"results directory with a trailing slash", func(k *Kubernetes) { k.Dir = "/results/x/" }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := k8s
			tt.edit(&k)
			_, _, err := k.Manifests()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestJobName: a Job's name is the experiment's name as a DNS label, cut
// to 30 characters, and the first 8 hexadecimal digits of the SHA-256 of
// the name as given; names that read the same as DNS labels (case 14 of
// issue 55: My_Exp.V2 and my-exp-v2) name different Jobs.
func TestJobName(t *testing.T) {
	tests := []struct{ experiment, want string }{
		{"quickstart", "polyclass-quickstart-ed4f0b24"},
		{"Quick_Start", "polyclass-quick-start-2dec91e5"},
		{"__x__", "polyclass-x-a917b03b"},
		{"___", "polyclass-bda25155"},
		{"My_Exp.V2", "polyclass-my-exp-v2-55760eb6"},
		{"my-exp-v2", "polyclass-my-exp-v2-4896554c"},
		{strings.Repeat("a", 29) + "_bcdef", "polyclass-" + strings.Repeat("a", 29) + "-de7f091a"},
		{strings.Repeat("a", 30) + "_bcdef", "polyclass-" + strings.Repeat("a", 30) + "-3c2cf97e"},
		{strings.Repeat("é", 100), "polyclass-f42ec48e"},
	}
	for _, tt := range tests {
		k := Kubernetes{Run: Run{Experiment: tt.experiment}}
		got, merge := k.JobName(), k.MergeJobName()
		if got != tt.want {
			t.Errorf("JobName(%q) = %q, want %q", tt.experiment, got, tt.want)
		}
		if !dnsLabel.MatchString(got) || !dnsLabel.MatchString(merge) || len(merge) > 63 {
			t.Errorf("JobName(%q) = %q, MergeJobName %q: want DNS labels of at most 63 characters", tt.experiment, got, merge)
		}
	}
}

func TestQuantity(t *testing.T) {
	tests := []struct{ mem, want string }{
		{"4000", "4000Mi"}, {"512K", "512Ki"}, {"16G", "16Gi"}, {"2T", "2Ti"}, {"3M", "3Mi"},
	}
	for _, tt := range tests {
		if got := quantity(tt.mem); got != tt.want {
			t.Errorf("quantity(%q) = %q, want %q", tt.mem, got, tt.want)
		}
	}
}

// TestDocsSlurmScript: the job array script the Slurm recipe of
// docs/long-runs.md shows is the one ArrayScript writes for that command.
func TestDocsSlurmScript(t *testing.T) {
	b, err := os.ReadFile("../../docs/long-runs.md")
	if err != nil {
		t.Fatal(err)
	}
	const marker = "<!-- checked by TestDocsSlurmScript in framework/cluster -->\n```\n"
	doc := string(b)
	i := strings.Index(doc, marker)
	if i < 0 {
		t.Fatalf("docs/long-runs.md has no %q", marker)
	}
	block := doc[i+len(marker):]
	block = block[:strings.Index(block, "```\n")]
	s := Slurm{Run: Run{Experiment: "big", Bench: "/home/ann/polyclass/bin/bench", Plugins: "/home/ann/polyclass/bin",
		File: "/home/ann/polyclass/experiments/big.hcl", Dir: "/home/ann/polyclass/results/big", Shards: 40},
		Partition: "short", Time: "2:00:00", CPUs: 4, Mem: "8G", Scripts: "/home/ann/polyclass/results/big/slurm"}
	if want, _ := scripts(t, &s); block != want {
		t.Errorf("docs/long-runs.md's array script:\n%s\nArrayScript writes:\n%s", block, want)
	}
}
