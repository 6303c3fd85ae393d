package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/host"
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

// TestProfiledReportsStopError: profiled returns the error of stopping
// the profiles (here the heap profile, whose directory became a file
// while the command ran) joined with the command's. withHost dropped it
// before: the deferred join wrote to a shadowed err, and the run ended
// well without its heap profile.
func TestProfiledReportsStopError(t *testing.T) {
	h := host.New(t.TempDir(), io.Discard)
	for _, tc := range []struct {
		name    string
		replace bool  // the profile directory becomes a file
		err     error // the command's
		want    []string
	}{
		{name: "stopped well"},
		{name: "heap profile not written", replace: true,
			want: []string{"heap profile: open $DIR/bench-", ".heap.pprof: not a directory"}},
		{name: "command and profile fail", replace: true, err: errors.New("the command failed"),
			want: []string{"the command failed\nheap profile: open $DIR/bench-", ".heap.pprof: not a directory"}},
		{name: "command fails", err: errors.New("the command failed"), want: []string{"the command failed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "prof")
			err := profiled(h, dir, func() error {
				if tc.replace {
					if err := os.RemoveAll(dir); err != nil {
						return err
					}
					if err := os.WriteFile(dir, nil, 0o644); err != nil {
						return err
					}
				}
				return tc.err
			})
			if tc.want == nil {
				if err != nil {
					t.Fatalf("profiled: %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("profiled: nil, want an error with %q", tc.want)
			}
			got := strings.ReplaceAll(err.Error(), dir, "$DIR")
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("profiled: %s\nwant it to hold %q", got, w)
				}
			}
		})
	}
}
