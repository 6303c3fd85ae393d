package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestRunProfile: bench run --profile DIR writes a CPU and a heap profile
// of bench and of each plugin process (logreg and the reducers), named
// NAME-PID, each a gzipped pprof protobuf whose string table names its
// sample types.
func TestRunProfile(t *testing.T) {
	file := writeExperiment(t, `experiment "prof" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" { params = { C = 1 } }
reduction "ova" { scheme = "ova" }
`)
	dir := filepath.Join(t.TempDir(), "prof")
	if _, stderr, err := bench(t, "run", "--profile", dir, "-o", t.TempDir(), file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]int{}
	name := regexp.MustCompile(`^(bench|logreg|reducers)-[0-9]+\.(cpu|heap)\.pprof$`)
	for _, e := range entries {
		m := name.FindStringSubmatch(e.Name())
		if m == nil {
			t.Errorf("unexpected file %s", e.Name())
			continue
		}
		found[m[1]+" "+m[2]]++
		b := gunzip(t, filepath.Join(dir, e.Name()))
		want := "samples"
		if m[2] == "heap" {
			want = "inuse_space"
		}
		if len(b) < 64 || !bytes.Contains(b, []byte(want)) {
			t.Errorf("%s: %d bytes without %q: not a %s profile", e.Name(), len(b), want, m[2])
		}
	}
	for _, p := range []string{"bench", "logreg", "reducers"} {
		for _, kind := range []string{"cpu", "heap"} {
			if found[p+" "+kind] != 1 {
				t.Errorf("%d %s profiles of %s, want 1 (files %v)", found[p+" "+kind], kind, p, entries)
			}
		}
	}
}

// gunzip returns the decompressed content of a gzipped file.
func gunzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return b
}
