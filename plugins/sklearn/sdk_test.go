// Package sklearn_test runs the Python SDK's unit tests and checks that it
// addresses datasets by the same digest as the Go SDK.
package sklearn_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/framework/sparse"
)

// python is Debian's interpreter, whose packages the SDK imports.
const python = "/usr/bin/python3"

func needPython(t *testing.T) {
	t.Helper()
	if err := exec.Command(python, "-c", "import grpc, google.protobuf, numpy, scipy").Run(); err != nil {
		t.Skipf("the Python SDK needs Debian's packages (%v): apt-get install python3-grpcio python3-protobuf python3-sklearn", err)
	}
}

// TestPythonUnitTests runs test_sdk.py.
func TestPythonUnitTests(t *testing.T) {
	needPython(t)
	cmd := exec.Command(python, "-m", "unittest", "-v", "test_sdk")
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python unit tests: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "OK") {
		t.Fatalf("python unit tests:\n%s", out)
	}
}

// TestDigestMatchesGo: for a dense and a CSR matrix, the Python SDK's
// digest of the Go SDK's wire bytes is the Go SDK's digest (so Has finds
// what Upload stored, whichever side computed it).
func TestDigestMatchesGo(t *testing.T) {
	needPython(t)
	csr := &sparse.CSR{Rows: 3, Cols: 4, Indptr: []int64{0, 2, 2, 3}, Indices: []int32{0, 3, 1}, Values: []float64{1.5, -2, 0.25}}
	for name, m := range map[string]sdk.Matrix{
		"dense": {Dense: mat.NewDense(2, 3, []float64{1, 2, 3, 4.5, -5, 6e-300})},
		"csr":   {CSR: csr},
	} {
		t.Run(name, func(t *testing.T) {
			e := matrix.EncodeMatrix(m)
			path := filepath.Join(t.TempDir(), "data")
			if err := os.WriteFile(path, e.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			layout := "1"
			if e.Sparse {
				layout = "2"
			}
			script := "import sys; from polyclass_plugin import dataset; " +
				"print(dataset.digest_of(" + layout + ", " + strconv.Itoa(e.Rows) + ", " + strconv.Itoa(e.Cols) + ", " + strconv.Itoa(e.NNZ) + ", open(sys.argv[1], 'rb').read()))"
			cmd := exec.Command(python, "-c", script, path)
			cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if got := strings.TrimSpace(string(out)); got != e.Digest {
				t.Errorf("Python digest %s, Go digest %s", got, e.Digest)
			}
		})
	}
}
