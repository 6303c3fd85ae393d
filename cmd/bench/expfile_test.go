package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/host"
)

// TestExperimentFileReadOnce: a run records the bytes it parsed, and a
// rerun checks the digest of the bytes it then parses, read once: the
// path holding other text after the parse (a link swapped to a secret
// as the file is read) changes neither the manifest's source and digest
// nor what a rerun parses; bytes of another digest are refused before
// the parse, none of their text printed.
func TestExperimentFileReadOnce(t *testing.T) {
	const secret = "root:*:20228:0:99999:7:::\n"
	file := writeExperiment(t, `experiment "once" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {}
reduction "ova" { scheme = "ova" }
cv { folds = 3 }
`)
	parsed, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	h := host.New(pluginsDir, io.Discard)
	defer h.Close()
	var diags strings.Builder
	g, _, err := prepare(commandContext(t), h, file, "", nil, engine.ResolveOptions{}, &diags)
	if err != nil {
		t.Fatalf("%v\n%s", err, diags.String())
	}
	if err := os.WriteFile(file, []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	m := newManifest(file, g, &options{jobs: 1})
	sum := sha256.Sum256(parsed)
	if m.Source != string(parsed) || m.FileSHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("the manifest records source %q (sha256 %s), not the %d bytes parsed", m.Source, m.FileSHA256, len(parsed))
	}
	for _, tc := range []struct {
		name, want, err string
	}{
		{"the run's digest", hex.EncodeToString(sum[:]), "changed as it was read: its sha256 is now"},
		{"no digest asked", "", ""},
	} {
		var stderr strings.Builder
		_, _, err := prepare(commandContext(t), h, file, tc.want, nil, engine.ResolveOptions{}, &stderr)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: err %v, want one saying %q", tc.name, err, tc.err)
		case tc.err != "" && stderr.Len() > 0:
			t.Errorf("%s: the refused file was parsed:\n%s", tc.name, stderr.String())
		case tc.err == "" && !strings.Contains(stderr.String(), "root:*"):
			t.Errorf("%s: the file as it is now was not the one parsed (err %v):\n%s", tc.name, err, stderr.String())
		}
	}
}
