package dataset

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/polyclass/polyclass/framework/config"
)

// TestUnexpandedGlob: a dataset path holding a shell's wildcard that names
// no file says bench does not expand it (campaign 16: path = "data/*.csv"
// said only "no such file or directory"); a file of that very name reads
// as any, and a missing file without a wildcard gets no such words.
func TestUnexpandedGlob(t *testing.T) {
	const glob = " (bench does not expand the wildcards *, ? and [...] as a shell does: a path names one file; declare a dataset per file, or join the files into one)"
	dir := t.TempDir()
	for _, name := range []string{"a.csv", "b.csv", "odd*.csv"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("a,class\n1,x\n2,y\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, path, want string // want: the error's detail, $DIR for dir; "" when the file reads
	}{
		{"star", "*.csv", `Dataset "d": data: open $DIR/*.csv: no such file or directory` + glob},
		{"question mark", "?.csv", `Dataset "d": data: open $DIR/?.csv: no such file or directory` + glob},
		{"bracket", "[ab].csv", `Dataset "d": data: open $DIR/[ab].csv: no such file or directory` + glob},
		{"no wildcard", "c.csv", `Dataset "d": data: open $DIR/c.csv: no such file or directory`},
		{"a file named with a star", "odd*.csv", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ck checker
			c := &config.Dataset{Name: "d", Path: filepath.Join(dir, tt.path), Target: "class"}
			f, _ := ck.readFiles(c)
			if got := diagLines(ck.diags, dir); got != "" && got != "error: Cannot load dataset: "+tt.want || got == "" && tt.want != "" {
				t.Errorf("diagnostics:\n%s\nwant:\nerror: Cannot load dataset: %s", got, tt.want)
			}
			if (f != nil) != (tt.want == "") {
				t.Errorf("read: %v", f != nil)
			}
		})
	}
}
