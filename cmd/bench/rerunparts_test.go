package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/report"
)

// TestComparedMetrics: a rerun compares every known metric but the
// timings; an unknown name is not compared.
func TestComparedMetrics(t *testing.T) {
	tests := []struct {
		names, want []string
	}{
		{[]string{"accuracy", "fit_seconds", "macro_f1", "predict_seconds"}, []string{"accuracy", "macro_f1"}},
		{[]string{"fit_seconds"}, nil},
		{[]string{"no_such_metric", "accuracy"}, []string{"accuracy"}},
		{nil, nil},
	}
	for _, tt := range tests {
		if got := comparedMetrics(tt.names); !slices.Equal(got, tt.want) {
			t.Errorf("comparedMetrics(%q) = %q, want %q", tt.names, got, tt.want)
		}
	}
}

// TestRerunDir: -o wins; without it the rerun goes to DIR/rerun. An -o
// that names the recorded directory itself, however spelt, is refused.
func TestRerunDir(t *testing.T) {
	dir := t.TempDir()
	if got, err := rerunDir(dir, "elsewhere"); err != nil || got != "elsewhere" {
		t.Errorf("rerunDir(dir, elsewhere) = %q, %v; want elsewhere", got, err)
	}
	got, err := rerunDir(dir, "")
	if want := filepath.Join(dir, "rerun"); err != nil || got != want {
		t.Errorf("rerunDir(dir, \"\") = %q, %v; want %q", got, err, want)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{dir, dir + "/", dir + "/.", dir + "/cells/..", link} {
		want := "rerun: -o " + out + " is the recorded results directory " + dir +
			": a rerun writes a new run beside the recorded one; give another directory, or no -o for " + filepath.Join(dir, "rerun")
		if got, err := rerunDir(dir, out); errString(err) != want {
			t.Errorf("rerunDir(dir, %q) = %q, %v; want the error %q", out, got, err, want)
		}
	}
}

// TestRerunVerdict: differences and changed inputs fail the rerun, naming
// their counts; without them the run's own error is returned after the
// line saying the results are identical.
func TestRerunVerdict(t *testing.T) {
	runErr := errors.New("2 of 9 cells failed")
	diff := report.Difference{Kind: report.Value, Cell: "iris|std|svm|ova", Repeat: 0, Fold: 3, Metric: "accuracy", A: 0.9, B: 0.8}
	tests := []struct {
		name    string
		diffs   []report.Difference
		changed int
		runErr  error
		wantOut string
		wantErr string
	}{
		{"identical", nil, 0, nil, "rerun of d: identical results (9 cells; timings not compared)\n", ""},
		{"identical, a cell failed", nil, 0, runErr, "rerun of d: identical results (9 cells; timings not compared)\n", "2 of 9 cells failed"},
		{"an input changed", nil, 2, runErr, "", "rerun of d: 0 result difference(s), 2 changed input(s)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := rerunVerdict(&out, "d", tt.diffs, tt.changed, 9, tt.runErr)
			if got := errString(err); got != tt.wantErr {
				t.Errorf("error %q, want %q", got, tt.wantErr)
			}
			if out.String() != tt.wantOut {
				t.Errorf("output %q, want %q", out.String(), tt.wantOut)
			}
		})
	}
	var out bytes.Buffer
	err := rerunVerdict(&out, "d", []report.Difference{diff}, 0, 9, nil)
	if want := "rerun of d: 1 result difference(s), 0 changed input(s)"; errString(err) != want {
		t.Errorf("with a difference: error %q, want %q", errString(err), want)
	}
	if out.Len() == 0 || bytes.Contains(out.Bytes(), []byte("identical")) {
		t.Errorf("with a difference: output %q, want the difference written", out.String())
	}
}

// errString is err's message, "" for nil.
func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestSecondRerunSaysWhy: a second bench rerun DIR moves the first
// rerun's files (DIR/rerun) aside, and its notes say why in the words of
// rerun; campaign 15 found them ending "--fresh", a flag the user never
// gave.
func TestSecondRerunSaysWhy(t *testing.T) {
	_, out := ranIrisLDA(t, "twice", 4)
	if _, stderr, err := bench(t, "rerun", out); err != nil {
		t.Fatalf("first rerun: %v\n%s", err, stderr)
	}
	_, stderr, err := bench(t, "rerun", out)
	if err != nil {
		t.Fatalf("second rerun: %v\n%s", err, stderr)
	}
	var moved []string
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "moved ") {
			moved = append(moved, line)
		}
	}
	// The manifest and the one cell of the first rerun.
	if len(moved) != 2 {
		t.Fatalf("moved lines: %q, want 2; stderr:\n%s", moved, stderr)
	}
	for _, line := range moved {
		if strings.Contains(line, "--fresh") || !strings.HasSuffix(line, ": "+rerunFreshReason) {
			t.Errorf("note %q, want one ending %q", line, ": "+rerunFreshReason)
		}
	}
}
