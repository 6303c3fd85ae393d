package data

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf16"
)

// TestUTF16DataFile: a data file saved as UTF-16 (with a byte order mark
// or without one) is one encoding error at its first byte that names the
// encoding, in each format; before, a CSV file was refused for a column
// name "not valid UTF-8" or holding a control character U+0000, shown
// with its NUL bytes. A UTF-8 file with its byte order mark reads.
func TestUTF16DataFile(t *testing.T) {
	encode := func(s string, little bool, mark ...byte) []byte {
		b := append([]byte(nil), mark...)
		for _, u := range utf16.Encode([]rune(s)) {
			if little {
				b = append(b, byte(u), byte(u>>8))
			} else {
				b = append(b, byte(u>>8), byte(u))
			}
		}
		return b
	}
	const csv = "a,class\n1,x\n2,y\n"
	const advice = "; a data file must be UTF-8: save it as UTF-8 (in the program that wrote it, or: iconv -f UTF-16 -t UTF-8 FILE > NEW)"
	tests := []struct {
		name, file string
		text       []byte
		want       string // the error after "$FILE:"; "" when the file reads
	}{
		{"CSV, little-endian with a mark", "d.csv", encode(csv, true, 0xFF, 0xFE),
			"1:1: not valid UTF-8: the file is encoded as UTF-16 little-endian, with a byte order mark (FF FE)" + advice},
		{"CSV, big-endian without a mark", "d.csv", encode(csv, false),
			"1:1: not valid UTF-8: the file is encoded as UTF-16 big-endian (a NUL byte before each ASCII character)" + advice},
		{"ARFF, big-endian with a mark", "d.arff", encode("@relation r\n@attribute a numeric\n@data\n1\n", false, 0xFE, 0xFF),
			"1:1: not valid UTF-8: the file is encoded as UTF-16 big-endian, with a byte order mark (FE FF)" + advice},
		{"LIBSVM, little-endian without a mark", "d.libsvm", encode("1 1:0.5\n2 1:0.25\n", true),
			"1:1: not valid UTF-8: the file is encoded as UTF-16 little-endian (a NUL byte after each ASCII character)" + advice},
		{"CSV in UTF-8 with its mark", "d.csv", append([]byte{0xEF, 0xBB, 0xBF}, csv...), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tt.file)
			if err := os.WriteFile(path, tt.text, 0o644); err != nil {
				t.Fatal(err)
			}
			tab, err := Read(path, Options{})
			if tt.want == "" {
				if err != nil || tab.NumRows != 2 {
					t.Errorf("Read: %v", err)
				}
				return
			}
			if err == nil || err.Error() != path+":"+tt.want || !errors.Is(err, ErrEncoding) {
				t.Errorf("error %v\nwant %s:%s", err, path, tt.want)
			}
		})
	}
}
