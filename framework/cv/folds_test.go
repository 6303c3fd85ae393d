package cv

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/internal/adversarial"
)

func TestStratifiedKFoldBalances(t *testing.T) {
	// 3 classes of 50, 30, 20 rows over 10 folds: each fold gets 5, 3, 2.
	var labels []int
	for c, n := range []int{50, 30, 20} {
		for i := 0; i < n; i++ {
			labels = append(labels, c)
		}
	}
	folds, err := StratifiedKFold(labels, 10, 7)
	if err != nil {
		t.Fatal(err)
	}
	count := map[[2]int]int{}
	for i, f := range folds {
		count[[2]int{f, labels[i]}]++
	}
	for f := 0; f < 10; f++ {
		for c, want := range []int{5, 3, 2} {
			if got := count[[2]int{f, c}]; got != want {
				t.Errorf("fold %d class %d: %d rows, want %d", f, c, got, want)
			}
		}
	}
	again, _ := StratifiedKFold(labels, 10, 7)
	other, _ := StratifiedKFold(labels, 10, 8)
	same, differ := true, false
	for i := range folds {
		same = same && folds[i] == again[i]
		differ = differ || folds[i] != other[i]
	}
	if !same || !differ {
		t.Errorf("same seed reproduces: %v; another seed differs: %v", same, differ)
	}
}

func TestKFoldSizes(t *testing.T) {
	folds, err := KFold(23, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	size := make([]int, 5)
	for _, f := range folds {
		size[f]++
	}
	for f, n := range size {
		if n != 4 && n != 5 {
			t.Errorf("fold %d has %d rows, want 4 or 5", f, n)
		}
	}
	if _, err := KFold(3, 5, 1); err == nil {
		t.Error("5 folds of 3 rows: want an error")
	}
}

func TestParseFolds(t *testing.T) {
	tests := []struct {
		name, in, err string
		k             int
	}{
		{name: "ok", in: "fold\n0\n1\n1\n0\n", k: 2},
		{name: "second column", in: "row,fold\n0,1\n1,0\n", k: 2},
		{name: "no column", in: "x\n0\n", err: "folds.csv:1: no column named \"fold\""},
		{name: "duplicate fold column", in: "fold,fold\n0,1\n1,0\n", err: "folds.csv:1:6: column \"fold\" (col 2): duplicate column name (first at col 1)"},
		{name: "duplicate quoted fold column", in: "row,fold,\"fold\"\n0,0,1\n1,1,0\n", err: "folds.csv:1:10: column \"fold\" (col 3): duplicate column name (first at col 2)"},
		{name: "not a number", in: "fold\n0\nx\n", err: "folds.csv:3:1: column \"fold\": \"x\""},
		{name: "negative", in: "fold\n0\n-1\n", err: "folds.csv:3:"},
		{name: "gap", in: "fold\n0\n2\n2\n", err: "fold 1 has no rows"},
		{name: "more folds than rows", in: "fold\n0\n2\n", err: "folds.csv:3:1: column \"fold\": fold 2 with only 2 rows"},
		{name: "largest int", in: "id,fold\n7,0\n8,9223372036854775807\n9,1\n", err: "folds.csv:3:3: column \"fold\": fold 9223372036854775807 with only 3 rows"},
		{name: "2^40", in: "fold\n1099511627776\n0\n", err: "folds.csv:2:1: column \"fold\": fold 1099511627776 with only 2 rows"},
		{name: "too large for int", in: "fold\n0\n9223372036854775808\n", err: "folds.csv:3:1: column \"fold\": \"9223372036854775808\" is not a fold number"},
		{name: "one fold", in: "fold\n0\n0\n", err: "at least 2 folds"},
		{name: "empty", in: "", err: "empty folds file"},
		// A UTF-8 byte order mark, as data files may start with, and the
		// line ends of Windows and of old Mac editors.
		{name: "bom", in: "\uFEFFfold\n0\n1\n", k: 2},
		{name: "bom crlf", in: "\uFEFFid,fold\r\n1,0\r\n2,1\r\n", k: 2},
		{name: "cr only", in: "fold\r0\r1\r2\r", k: 3},
		{name: "quoted", in: "\"id\",\"fold\"\n\"a\",\"0\"\n\"b\",\"1\"\n", k: 2},
		{name: "header only", in: "fold\n", err: "folds.csv: a header and no rows"},
		// A folds file that is a link to /proc/self/environ (campaign 5
		// q04): NUL-separated, no line end; the message quotes the text up
		// to the first NUL only, not the whole environment.
		{name: "environ", in: "SECRET=hunter2\x00HOME=/root\x00PATH=/bin", err: "folds.csv:1: no column named \"fold\" in the header \"SECRET=hunter2\", then a NUL (U+0000) at character 15"},
		// A long header or value is quoted cut to its first 60 characters.
		{name: "long header", in: strings.Repeat("a", 200) + "\n0\n", err: "no column named \"fold\" in the header \"" + strings.Repeat("a", 60) + "\"…"},
		{name: "long value", in: "fold\n0\n" + strings.Repeat("x", 200) + "\n", err: "folds.csv:3:1: column \"fold\": \"" + strings.Repeat("x", 60) + "\"… is not a fold number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, k, err := ParseFolds(strings.NewReader(tt.in), "folds.csv")
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want it to contain %q", err, tt.err)
				}
				return
			}
			if err != nil || k != tt.k {
				t.Fatalf("k=%d err=%v, want k=%d", k, err, tt.k)
			}
		})
	}
}

func TestSeedDependsOnPartsOnly(t *testing.T) {
	// Seeds are part of every result: a change of this value changes every
	// published table, so it is pinned (computed by this implementation
	// when the seed derivation was fixed).
	if got := Seed(1, "iris", "0"); got != 4783876338122303396 {
		t.Fatalf("Seed(1, iris, 0) = %d, want 4783876338122303396", got)
	}
	if Seed(1, "iris", "0") == Seed(1, "iris0") || Seed(1, "a") == Seed(2, "a") {
		t.Fatal("distinct inputs gave the same seed")
	}
}

// FuzzParseFolds: the folds-file reader never panics nor allocates
// beyond its input, an error names the file, and an accepted file gives k
// ≥ 2 folds numbered 0..k-1, none empty; the same file with CRLF or lone
// CR line ends, or a byte order mark, reads the same; and the folds written
// back as a plain folds file read the same. Seeds: the testdata/fuzz
// corpus and every case of the adversarial folds corpus.
func FuzzParseFolds(f *testing.F) {
	f.Add("fold\n0\n1\n")
	f.Add("a,fold\n1,0\n2,1\n")
	for _, c := range adversarial.Load(f, "folds") {
		b, _ := c.File("folds.csv")
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, in string) {
		folds, k, err := ParseFolds(strings.NewReader(in), "f")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f:") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if k < 2 || len(folds) < k {
			t.Fatalf("%d folds of %d rows", k, len(folds))
		}
		sizes := make([]int, k)
		for _, v := range folds {
			if v < 0 || v >= k {
				t.Fatalf("fold %d outside 0..%d", v, k-1)
			}
			sizes[v]++
		}
		if slices.Contains(sizes, 0) {
			t.Fatalf("an empty fold: sizes %v", sizes)
		}
		same := func(what, variant string) {
			got, gk, err := ParseFolds(strings.NewReader(variant), "f")
			if err != nil || gk != k || !slices.Equal(got, folds) {
				t.Fatalf("%s: %v (%d folds), want %v (%d folds)", what, err, gk, folds, k)
			}
		}
		if !strings.Contains(in, "\r") {
			same("CRLF line ends", strings.ReplaceAll(in, "\n", "\r\n"))
			same("lone CR line ends", strings.ReplaceAll(in, "\n", "\r"))
		}
		if !strings.HasPrefix(in, "\uFEFF") {
			same("a byte order mark", "\uFEFF"+in)
		}
		var b strings.Builder
		b.WriteString("fold\n")
		for _, v := range folds {
			fmt.Fprintf(&b, "%d\n", v)
		}
		same("written back", b.String())
	})
}

// TestSklearnKFold: fold assignments made by scikit-learn 1.2.1 (Debian
// python3-sklearn) with
//
//	for i, (_, te) in enumerate(KFold(k, shuffle=True, random_state=s).split(np.zeros(n))): f[te] = i
func TestSklearnKFold(t *testing.T) {
	tests := []struct {
		n, k int
		seed uint64
		want []int
		sum  int // sum of all folds, for the long case
	}{
		{n: 20, k: 5, seed: 0, want: []int{4, 0, 2, 4, 2, 2, 1, 3, 0, 3, 1, 3, 4, 1, 2, 4, 3, 1, 0, 0}},
		{n: 23, k: 4, seed: 7, want: []int{1, 0, 0, 3, 3, 0, 1, 3, 2, 2, 2, 1, 0, 2, 2, 3, 1, 2, 1, 3, 0, 1, 0}},
		{n: 534, k: 5, seed: 0, want: []int{3, 0, 2, 3, 1, 1, 1, 1, 1, 4, 1, 3, 0, 3, 1, 0, 3, 0, 1, 3}, sum: 1066},
	}
	for _, tt := range tests {
		got, err := SklearnKFold(tt.n, tt.k, tt.seed)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0
		for _, f := range got {
			sum += f
		}
		for i, w := range tt.want {
			if got[i] != w {
				t.Fatalf("n=%d k=%d seed=%d: folds %v, want %v", tt.n, tt.k, tt.seed, got[:len(tt.want)], tt.want)
			}
		}
		if tt.sum != 0 && sum != tt.sum {
			t.Errorf("n=%d: fold sum %d, want %d", tt.n, sum, tt.sum)
		}
	}
}

// TestIterativeStratificationSpreadsLabels: a rare label's 10 positives
// over 5 folds land 2 per fold, every label's positives differ by at most
// one between folds, and fold sizes stay balanced.
func TestIterativeStratificationSpreadsLabels(t *testing.T) {
	const n, q, k = 200, 4, 5
	labels := make([][]bool, n)
	for i := range labels {
		labels[i] = []bool{i%2 == 0, i%5 == 0, i < 10, i%3 == 0 && i%2 == 1}
	}
	folds, err := IterativeStratification(labels, k, 1)
	if err != nil {
		t.Fatal(err)
	}
	size := make([]int, k)
	pos := make([][]int, q)
	for j := range pos {
		pos[j] = make([]int, k)
	}
	for i, f := range folds {
		size[f]++
		for j, on := range labels[i] {
			if on {
				pos[j][f]++
			}
		}
	}
	for j := range pos {
		lo, hi := pos[j][0], pos[j][0]
		for _, c := range pos[j] {
			lo, hi = min(lo, c), max(hi, c)
		}
		if hi-lo > 1 {
			t.Errorf("label %d positives per fold %v", j, pos[j])
		}
	}
	if pos[2][0] != 2 {
		t.Errorf("rare label per fold %v, want 2 each", pos[2])
	}
	for f, s := range size {
		if s < 38 || s > 42 {
			t.Errorf("fold %d has %d rows, want about 40", f, s)
		}
	}
	again, _ := IterativeStratification(labels, k, 1)
	for i := range folds {
		if folds[i] != again[i] {
			t.Fatal("not reproducible from the seed")
		}
	}
}

// TestReadFoldsFileGzip: a gzipped folds file named .gz is read as its
// text (2 folds of 4 rows); one named .csv is an error saying that it
// holds gzip data, as the data reader says of a data file (on the code
// before: no column named "fold" in the header "", then a control
// character U+001F); a .gz file that is not gzip data cannot be gunzipped.
func TestReadFoldsFileGzip(t *testing.T) {
	const text = "fold\n0\n1\n0\n1\n"
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	if _, err := zw.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		data []byte
		want string // the error after the path, or "" for the folds
	}{
		{"f.csv.gz", zipped.Bytes(), ""},
		{"f.CSV.GZ", zipped.Bytes(), ""},
		{"f.csv", zipped.Bytes(), ": the file holds gzip data (it starts with the bytes 1f 8b): name it " + filepath.Join(dir, "f.csv") + ".gz, or gunzip it"},
		{"text.csv.gz", []byte(text), ": gunzip: gzip: invalid header"},
		{"cut.csv.gz", zipped.Bytes()[:zipped.Len()-6], ":6: unexpected EOF"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name)
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			folds, k, err := ReadFoldsFile(path)
			if tc.want == "" {
				if err != nil || k != 2 || !slices.Equal(folds, []int{0, 1, 0, 1}) {
					t.Errorf("folds %v, k %d, error %v; want [0 1 0 1], 2", folds, k, err)
				}
				return
			}
			if err == nil || err.Error() != path+tc.want {
				t.Errorf("error %v, want %s%s", err, path, tc.want)
			}
		})
	}
}
