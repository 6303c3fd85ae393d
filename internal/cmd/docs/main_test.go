package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeBench writes a shell script that acts as `bench run --quiet -o DIR
// FILE`: it writes DIR/x.md with an accuracy table holding value.
func fakeBench(t *testing.T, value string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bench")
	script := "#!/bin/sh\nmkdir -p \"$4\" && printf '# x\\n\\n## accuracy\\n\\n| a |\\n| " + value + " |\\n' > \"$4/x.md\"\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

const readme = "# r\n<!-- generated: table e.hcl \"accuracy\" -->\n| a |\n| 0.5 |\n<!-- end generated -->\n"

func TestRun(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("README.md", []byte(readme), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"-bench", fakeBench(t, "0.5")}, &out, &errOut); err != nil {
		t.Fatalf("fresh README: %v", err)
	}
	if out.String() != "README.md: up to date\n" {
		t.Errorf("stdout %q", out.String())
	}

	// -check reports a stale README and leaves it alone.
	out.Reset()
	err := run(context.Background(), []string{"-check", "-bench", fakeBench(t, "0.7")}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "README.md:4 differs") || !strings.Contains(err.Error(), "generated: | 0.7 |") {
		t.Errorf("-check on a stale README: %v", err)
	}
	if b, _ := os.ReadFile("README.md"); string(b) != readme {
		t.Errorf("-check rewrote the README:\n%s", b)
	}

	// Without -check the README is rewritten.
	out.Reset()
	if err := run(context.Background(), []string{"-bench", fakeBench(t, "0.7")}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile("README.md"); string(b) != strings.Replace(readme, "0.5", "0.7", 1) {
		t.Errorf("regenerated README:\n%s", b)
	}
	if out.String() != "README.md: regenerated\n" {
		t.Errorf("stdout %q", out.String())
	}

	if err := run(context.Background(), []string{"missing.md"}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "missing.md: no such file") {
		t.Errorf("missing file: %v", err)
	}
}
