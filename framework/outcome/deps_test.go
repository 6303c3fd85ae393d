package outcome

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoPluginMachinery: the packages that hold, store and render results
// depend on neither gRPC nor go-plugin (go list -deps), so that reading a
// results directory or rendering its tables needs no plugin host.
func TestNoPluginMachinery(t *testing.T) {
	forbidden := []string{"google.golang.org/grpc", "github.com/hashicorp/go-plugin"}
	for _, pkg := range []string{"outcome", "cellspec", "results", "report"} {
		path := "github.com/polyclass/polyclass/framework/" + pkg
		cmd := exec.Command("go", "list", "-deps",
			"-f", "{{.ImportPath}}\t{{if not .Standard}}{{.Dir}}\t{{join .GoFiles \" \"}}{{end}}", path)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", path, err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) < 10 {
			t.Fatalf("go list -deps %s: %d packages (%q)", path, len(lines), out)
		}
		hits := map[string][]string{}
		for _, line := range lines {
			dep, rest, _ := strings.Cut(line, "\t")
			for _, f := range forbidden {
				if dep == f || strings.HasPrefix(dep, f+"/") {
					hits[f] = append(hits[f], dep)
				}
			}
			// Reading the module's own source files ties the test's
			// cached result to them: an import added later runs it again.
			if dir, files, ok := strings.Cut(rest, "\t"); ok && strings.HasPrefix(dep, "github.com/polyclass/polyclass/") {
				for _, f := range strings.Fields(files) {
					if _, err := os.ReadFile(filepath.Join(dir, f)); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		for _, f := range forbidden {
			if n := len(hits[f]); n > 0 {
				t.Errorf("%s depends on %s: %d of its packages (%s, …)", path, f, n, hits[f][0])
			}
		}
	}
}
