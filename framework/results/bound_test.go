package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOversizedFilesRefused: a manifest, shard manifest or cell file
// larger than MaxFileBytes (campaign 5 t01, t02: a 6 GiB file, sparse,
// made bench table run past two minutes and 2 GB for a 1 GiB one) is
// refused at once, naming the file and its size, before any of it is
// read (on the code before, the 6 GiB cell file was read whole: minutes,
// gigabytes, or an out-of-memory crash).
func TestOversizedFilesRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		size int64
		read func(path string) error
		want string
	}{
		{"manifest.json", MaxFileBytes + 1, func(p string) error { _, err := ReadManifest(filepath.Dir(p)); return err },
			"manifest.json: 268435457 bytes, more than the 268435456 (256 MiB) bench reads of a results file: not a file bench wrote (grown or replaced by hand?); move it away"},
		{"cells/0000-0123456789abcdef.json", 6 << 30, func(p string) error { _, err := ReadCell(p, 1); return err },
			"cells/0000-0123456789abcdef.json: 6442450944 bytes, more than the 268435456 (256 MiB) bench reads of a results file: not a file bench wrote (grown or replaced by hand?); move it away"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			f, err := os.Create(p)
			if err == nil {
				err = f.Truncate(tc.size) // sparse: no disk used
				f.Close()
			}
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			err = tc.read(p)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one holding %q", err, tc.want)
			}
			if tc.size > MaxFileBytes && time.Since(start) > 2*time.Second {
				t.Errorf("refused after %v, not at once", time.Since(start))
			}
		})
	}
}
