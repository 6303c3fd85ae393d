package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestValidateDeepNesting: bench validate of a learner parameter nested
// 100,000 levels deep ends within a second with one located error (it
// died of a stack overflow at 1.1 GB before the bound).
func TestValidateDeepNesting(t *testing.T) {
	file := filepath.Join(t.TempDir(), "exp.hcl")
	src := "experiment \"deep\" { seed = 1 }\ndataset \"d\" { path = \"d.csv\" }\nlearner \"logreg\" {\n  params = { C = " +
		strings.Repeat("[", 100000) + "1" + strings.Repeat("]", 100000) + " }\n}\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, stderr, err := bench(t, "validate", file)
	if d := time.Since(start); d > time.Second {
		t.Errorf("validate took %v, want within a second", d)
	}
	first, _, _ := strings.Cut(stderr, "\n")
	if !errors.Is(err, errReported) || first != file+":4:80: error: Experiment file nested too deeply" || !strings.HasSuffix(stderr, file+": 1 error(s)\n") {
		t.Errorf("error %v, stderr:\n%.2000s", err, stderr)
	}
}
