package param

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoRPCDependency: the parameter, matrix and problem vocabulary, and the
// experiment file's parser and the encoders built on it, depend on no RPC
// machinery. It asks the go command for their dependencies.
func TestNoRPCDependency(t *testing.T) {
	const mod = "github.com/polyclass/polyclass/framework/"
	pkgs := []string{mod + "param", mod + "matrix", mod + "problem", mod + "config", mod + "encode"}
	forbidden := []string{"google.golang.org/grpc", "github.com/hashicorp/go-plugin", "google.golang.org/protobuf", mod + "sdk", mod + "internal/protov1"}
	for _, p := range pkgs {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", p).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", p, err)
		}
		deps := strings.Fields(string(out))
		if len(deps) == 0 || deps[len(deps)-1] != p {
			t.Fatalf("go list -deps %s listed %v", p, deps)
		}
		for _, d := range deps {
			for _, f := range forbidden {
				if d == f || strings.HasPrefix(d, f+"/") {
					t.Errorf("%s depends on %s", p, d)
				}
			}
		}
	}
}
