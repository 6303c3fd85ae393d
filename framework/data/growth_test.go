package data

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFirstGuessIsBounded: the room a reader reserves before reading
// rows is a bounded first guess, whatever the file's size says (campaign
// 10's N16b: 30 rows then 3 GB of zeros reserved 2^26 rows a column and
// ran out of memory under a 4 GB address-space limit).
func TestFirstGuessIsBounded(t *testing.T) {
	for _, tc := range []struct {
		name           string
		size, rowBytes int64
		limit          int
		want           int
	}{
		{"small file", 1000, 10, 0, 101},
		{"sparse 3 GB", 3 << 30, 10, 0, firstGuessRows},
		{"row limit below the guess", 1 << 20, 10, 500, 500},
		{"empty first row", 1 << 40, 0, 0, firstGuessRows},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBuilder("x", modeInfer, 0)
			c := newBuilder("c", modeCat, 0)
			presize([]*colBuilder{b, nil, c}, tc.size, tc.rowBytes, tc.limit)
			if b.hint != tc.want || c.hint != tc.want {
				t.Fatalf("hints %d, %d; want %d", b.hint, c.hint, tc.want)
			}
			if err := b.addAt("1.5", false, 0); err != nil {
				t.Fatal(err)
			}
			if cap(b.num) > tc.want || cap(b.spans) > tc.want {
				t.Errorf("reserved %d numbers, %d spans; want at most %d", cap(b.num), cap(b.spans), tc.want)
			}
		})
	}
	lr := &lineReader{size: 3 << 30, read: &countingReader{}}
	if got := lr.rowsLeft(1, MaxRows); got != firstGuessRows {
		t.Errorf("rowsLeft of a 3 GB file: %d; want %d", got, firstGuessRows)
	}
}

// TestSparseFileRefusedAtItsLine: a CSV file of 30 rows made 3 GB long by
// a hole (zeros) is refused at its first line of zeros, having reserved
// room for at most firstGuessRows rows a column.
func TestSparseFileRefusedAtItsLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "d.csv")
	var b strings.Builder
	b.WriteString("x,y,class\n")
	for i := range 30 {
		fmt.Fprintf(&b, "%d,%d.5,%c\n", i, i, 'a'+i%3)
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, 3<<30); err != nil {
		t.Skip("no sparse file here:", err)
	}
	_, err := Read(p, Options{MaxLineBytes: 1 << 16})
	want := p + ":32: syntax error: line longer than 65536 bytes (a wrong delimiter, or no line breaks?)"
	if err == nil || err.Error() != want || !errors.Is(err, ErrSyntax) {
		t.Fatalf("err %v; want %s", err, want)
	}
}

// TestReadHashedRefusesBytesAfterTheEnd: bytes written to a data file
// after its parser met its end (the hook afterParse appends them) make
// ReadHashed fail with ErrChanged, naming the file, rather than record a
// digest of bytes never parsed (campaign 10's B02g), for a plain and a
// gzip file.
func TestReadHashedRefusesBytesAfterTheEnd(t *testing.T) {
	text := "x,class\n1,a\n2,b\n3,a\n"
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(text))
	w.Close()
	for _, tc := range []struct {
		name, file, bytes, more string
		want                    string // the error, %s the path; "": none
	}{
		{"plain", "d.csv", text, "4,b\n", "data: %s: changed while it was read; run again"},
		{"gzip", "d.csv.gz", gz.String(), "junk", "data: %s: changed while it was read; run again"},
		{"plain, unchanged", "d.csv", text, "", ""},
		{"gzip, unchanged", "d.csv.gz", gz.String(), "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), tc.file)
			if err := os.WriteFile(p, []byte(tc.bytes), 0o644); err != nil {
				t.Fatal(err)
			}
			opt := Options{Categorical: []string{"class"}, afterParse: func(path string) {
				f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				if _, err := f.WriteString(tc.more); err != nil {
					t.Fatal(err)
				}
			}}
			tab, sum, err := ReadHashed(p, opt)
			if tc.want == "" {
				if err != nil || tab.NumRows != 3 || sum != fileSumOf(tc.bytes) {
					t.Fatalf("err %v, digest %.12s; want the 3 rows and %.12s", err, sum, fileSumOf(tc.bytes))
				}
				return
			}
			if want := fmt.Sprintf(tc.want, p); err == nil || err.Error() != want || !errors.Is(err, ErrChanged) {
				t.Fatalf("err %v; want %s", err, want)
			}
		})
	}
}

// fileSumOf returns the hex SHA-256 of s.
func fileSumOf(s string) string { return fmt.Sprintf("%x", sha256.Sum256([]byte(s))) }
