package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/polyclass/polyclass/framework/results"
)

// TestRerunRefusesAnotherExperimentFile: bench rerun DIR parses the
// experiment file DIR/manifest.json records only when it still has the
// recorded SHA-256, checked before any parse; a manifest is anyone's to
// edit, and "file" edited to /etc/shadow printed its lines in the HCL
// diagnostics (campaign 7 B17). Each case edits the manifest's file (or
// the file) and wants the refusal, named, with none of the file's text
// in what the rerun prints, and no rerun directory made.
func TestRerunRefusesAnotherExperimentFile(t *testing.T) {
	file, out := ranIrisLDA(t, "recorded", 3)
	manifest := filepath.Join(out, results.ManifestFile)
	original := readFile(t, manifest)
	var m map[string]any
	if err := json.Unmarshal([]byte(original), &m); err != nil {
		t.Fatal(err)
	}
	recorded := m["file_sha256"].(string)
	other := t.TempDir()
	secret := filepath.Join(other, "shadow")
	const secretText = "root:*:20228:0:99999:7:::\ndaemon:*:20228:0:99999:7:::\n"
	writeTestFile(t, secret, secretText)
	fifo := filepath.Join(other, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	edited := filepath.Join(other, "edited.hcl")
	writeTestFile(t, edited, readFile(t, file)+"# edited since the run\n")
	tests := []struct {
		name, file, sha string // the manifest's file and file_sha256 ("" leaves them)
		want            string
	}{
		{"another file (/etc/shadow)", secret, "",
			"rerun: " + manifest + " records the experiment file " + secret + " with sha256 " + recorded[:12] + "…; " + secret + " now has sha256 " + hexOf(secretText)[:12] +
				"…: not the recorded experiment file (edited since the run, or the manifest edited); to run it as it is now: bench run -o NEWDIR " + secret},
		{"the experiment file edited since the run", edited, "",
			"rerun: " + manifest + " records the experiment file " + edited + " with sha256 " + recorded[:12] + "…; " + edited + " now has sha256 " + hexOf(readFile(t, edited))[:12] +
				"…: not the recorded experiment file (edited since the run, or the manifest edited); to run it as it is now: bench run -o NEWDIR " + edited},
		{"a named pipe", fifo, "",
			"rerun: " + manifest + " records the experiment file " + fifo + ": open " + fifo + ": is a named pipe (FIFO), not a regular file"},
		{"a directory", other, "",
			"rerun: " + manifest + " records the experiment file " + other + ": open " + other + ": is a directory"},
		{"no digest recorded", secret, "-",
			"rerun: " + manifest + " records the experiment file " + secret + " without its sha256: not a manifest bench wrote"},
		{"a path with a right-to-left override", "a\u202eb.hcl", "",
			"rerun: " + manifest + ` records an experiment file "a\u202eb.hcl" that holds a right-to-left override (U+202E) at character 2: not a path bench records`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m["file"] = tt.file
			m["file_sha256"] = recorded
			if tt.sha == "-" {
				m["file_sha256"] = ""
			}
			b, err := json.MarshalIndent(m, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			writeTestFile(t, manifest, string(b))
			defer writeTestFile(t, manifest, original)
			again := filepath.Join(t.TempDir(), "again")
			stdout, stderr, err := bench(t, "rerun", "-o", again, out)
			if got := errText(err); got != tt.want {
				t.Errorf("rerun:\n got %s\nwant %s", got, tt.want)
			}
			if strings.Contains(stdout+stderr+errText(err), "root:*") {
				t.Errorf("the file's text reached what rerun prints:\n%s%s", stdout, stderr)
			}
			if _, err := os.Stat(again); !os.IsNotExist(err) {
				t.Errorf("the refused rerun made %s (%v)", again, err)
			}
		})
	}
	// The manifest as the run wrote it reruns.
	if stdout, stderr, err := bench(t, "rerun", "-o", filepath.Join(t.TempDir(), "again"), out); err != nil || !strings.Contains(stdout, "identical results (1 cell;") {
		t.Fatalf("rerun of the manifest as written: %v\n%s%s", err, stdout, stderr)
	}
}

// writeTestFile writes text to path.
func writeTestFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
