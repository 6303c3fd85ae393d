package profile

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestStartWritesBothProfiles: Start creates the directory, and stopping
// leaves a gzipped CPU and heap profile named after the process.
func TestStartWritesBothProfiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	stop, err := Start(dir, "my plugin/1")
	if err != nil {
		t.Fatal(err)
	}
	var sink []float64
	for i := 0; i < 1000; i++ {
		sink = append(sink, float64(i))
	}
	_ = sink
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	cpu, heap := Paths(dir, "my plugin/1", os.Getpid())
	if !strings.HasSuffix(cpu, "my_plugin_1-"+strconv.Itoa(os.Getpid())+".cpu.pprof") {
		t.Errorf("cpu profile %s", cpu)
	}
	for path, want := range map[string]string{cpu: "nanoseconds", heap: "inuse_space"} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		b, err := io.ReadAll(z)
		f.Close()
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s: %v, %d bytes without %q", path, err, len(b), want)
		}
	}
	if _, err := Start(filepath.Join(dir, "x", string([]byte{0})), "p"); err == nil {
		t.Error("a directory that cannot be made must be an error")
	}
}
