package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/results"
	"github.com/polyclass/polyclass/framework/shard"
)

// TestMergeHint: the merge command bench run --shard prints names every
// shard's directory: those derived from -o when its last element holds
// the shard's index (from 0 or from 1), placeholders to fill when bench
// cannot know them, the directory itself when the shards share it (another
// shard's manifest is there) or there is one shard. The finding: --shard
// 1/3 -o shards/s1 printed "bench merge shards/s1 shards/s1", which merges
// a third of the run.
func TestMergeHint(t *testing.T) {
	shared := t.TempDir()
	if err := os.MkdirAll(filepath.Join(shared, results.ShardsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(shared, results.ShardsDir, results.ShardManifestName(0, 3)), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, out string
		spec      shard.Spec
		want      string
	}{
		{"index from 0", "shards/s1", shard.Spec{Index: 1, Count: 3},
			"when every shard is done, merge them: bench merge shards/merged shards/s0 shards/s1 shards/s2 (if each shard I wrote into shards/sI, as this one did)\n" +
				"  or, if every shard wrote into this directory: bench merge shards/s1\n"},
		{"index from 1", "out/run-3-of-x", shard.Spec{Index: 2, Count: 3},
			"when every shard is done, merge them: bench merge out/merged out/run-1-of-x out/run-2-of-x out/run-3-of-x (if each shard I wrote into out/run-I+1-of-x, as this one did)\n" +
				"  or, if every shard wrote into this directory: bench merge out/run-3-of-x\n"},
		{"no index in the name", "results", shard.Spec{Index: 1, Count: 3},
			"when every shard is done, merge them: bench merge MERGED_DIR SHARD_DIR... (fill in every shard's -o directory: bench cannot know where the others wrote)\n" +
				"  or, if every shard wrote into this directory: bench merge results\n"},
		{"another number", "exp2024/s7", shard.Spec{Index: 1, Count: 3},
			"when every shard is done, merge them: bench merge MERGED_DIR SHARD_DIR... (fill in every shard's -o directory: bench cannot know where the others wrote)\n" +
				"  or, if every shard wrote into this directory: bench merge exp2024/s7\n"},
		{"two numbers", "s1-1", shard.Spec{Index: 1, Count: 2},
			"when every shard is done, merge them: bench merge MERGED_DIR SHARD_DIR... (fill in every shard's -o directory: bench cannot know where the others wrote)\n" +
				"  or, if every shard wrote into this directory: bench merge s1-1\n"},
		{"quoted", "my shard 0", shard.Spec{Index: 0, Count: 2},
			"when every shard is done, merge them: bench merge merged 'my shard 0' 'my shard 1' (if each shard I wrote into my shard I, as this one did)\n" +
				"  or, if every shard wrote into this directory: bench merge 'my shard 0'\n"},
		{"shared directory", shared, shard.Spec{Index: 2, Count: 3}, "when every shard is done: bench merge " + shared + "\n"},
		{"one shard", "s0", shard.Spec{Index: 0, Count: 1}, "when every shard is done: bench merge s0\n"},
	} {
		if got := mergeHint(tc.out, tc.spec); got != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

// TestMergeHintFollowed: the merge command the last shard prints, run as
// printed (through a shell), merges every shard: complete tables, exit 0.
func TestMergeHintFollowed(t *testing.T) {
	file := writeExperiment(t, `experiment "hint" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
dataset "wine" { path = "%REPO%/experiments/data/wine.csv" }
learner "lda" {}
reduction "ova" {}
cv { folds = 3 }
`)
	dir := t.TempDir()
	var stdout string
	for _, s := range []string{"0/2", "1/2"} {
		var stderr string
		var err error
		if stdout, stderr, err = bench(t, "run", "--shard", s, "-o", filepath.Join(dir, "s"+s[:1]), file); err != nil {
			t.Fatalf("shard %s: %v\n%s", s, err, stderr)
		}
	}
	const lead = "merge them: bench merge "
	i := strings.Index(stdout, lead)
	if i < 0 {
		t.Fatalf("no merge hint:\n%s", stdout)
	}
	line := stdout[i+len(lead):]
	line = line[:strings.Index(line, " (if each shard")]
	b, err := exec.Command("/bin/sh", "-c", `for a in `+line+`; do echo "$a"; done`).Output()
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Fields(strings.TrimSpace(string(b)))
	if want := []string{filepath.Join(dir, "merged"), filepath.Join(dir, "s0"), filepath.Join(dir, "s1")}; strings.Join(args, " ") != strings.Join(want, " ") {
		t.Fatalf("hint arguments %q, want %q", args, want)
	}
	out, stderr, err := bench(t, append([]string{"merge"}, args...)...)
	if err != nil || !strings.Contains(out, "hint: 2 of 2 cells from 2 of 2 shards") {
		t.Errorf("following the hint: %v\n%s\n%s", err, out, stderr)
	}
}
