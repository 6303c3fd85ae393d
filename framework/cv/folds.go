// Package cv assigns data rows to cross-validation folds: seeded plain and
// stratified k-fold, and predefined assignments read from a folds file.
package cv

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/polyclass/polyclass/framework/safetext"
	"github.com/polyclass/polyclass/internal/regfile"
)

// Seed derives a 64-bit seed from the experiment seed and the parts that
// identify what the seed is for (a dataset name, a cell key, a fold number).
// It depends on nothing else, so results do not depend on execution order.
func Seed(base uint64, parts ...string) uint64 {
	h := sha256.New()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], base)
	h.Write(b[:])
	for _, p := range parts {
		binary.LittleEndian.PutUint64(b[:], uint64(len(p)))
		h.Write(b[:])
		h.Write([]byte(p))
	}
	return binary.LittleEndian.Uint64(h.Sum(nil))
}

// KFold assigns n rows to k folds of sizes differing by at most one, in a
// random order drawn from seed.
func KFold(n, k int, seed uint64) ([]int, error) {
	if k < 2 || k > n {
		return nil, fmt.Errorf("cannot split %d rows into %d folds", n, k)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6b666f6c64))
	perm := rng.Perm(n)
	fold := make([]int, n)
	for i, r := range perm {
		fold[r] = i % k
	}
	return fold, nil
}

// StratifiedKFold assigns rows to k folds so that every class is spread as
// evenly as possible over the folds: the rows of each class are shuffled
// (seeded) and dealt to the folds in turn, each class starting where the
// previous one stopped so that fold sizes differ by at most one.
func StratifiedKFold(labels []int, k int, seed uint64) ([]int, error) {
	n := len(labels)
	if k < 2 || k > n {
		return nil, fmt.Errorf("cannot split %d rows into %d folds", n, k)
	}
	byClass := map[int][]int{}
	maxClass := 0
	for i, y := range labels {
		byClass[y] = append(byClass[y], i)
		maxClass = max(maxClass, y)
	}
	rng := rand.New(rand.NewPCG(seed, 0x7374726174))
	fold := make([]int, n)
	next := 0
	for c := 0; c <= maxClass; c++ {
		rows := byClass[c]
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		for _, r := range rows {
			fold[r] = next
			next = (next + 1) % k
		}
	}
	return fold, nil
}

// ReadFoldsFile reads a predefined assignment: a CSV file with a header
// that has a column `fold`, and one row per data row holding its fold
// number (0-based). It returns the fold of each row and the number of folds.
// As for data files, a file whose name ends in .gz is gunzipped, and one
// that holds gzip data under another name is an error that says so.
func ReadFoldsFile(path string) ([]int, int, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("folds file: %w", err)
	}
	defer f.Close()
	if !strings.HasSuffix(strings.ToLower(path), ".gz") {
		if regfile.IsGzip(f) {
			return nil, 0, fmt.Errorf("%s: the file holds gzip data (it starts with the bytes 1f 8b): name it %s.gz, or gunzip it", path, path)
		}
		return ParseFolds(f, path)
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: gunzip: %w", path, err)
	}
	folds, k, err := ParseFolds(zr, path)
	if err == nil {
		err = zr.Close()
	}
	if err != nil {
		return nil, 0, err
	}
	return folds, k, nil
}

// ParseFolds parses a folds file read from r; name labels errors, which
// give the line and, for a field, its byte column (name:line:col:).
//
// The header is the first line; the column whose name is fold (blanks
// and double quotes around names and values are dropped) holds each data
// row's fold: 0, 1, ..., k-1, every fold with a row. Lines end in LF,
// CRLF or a lone CR (old Mac editors); a leading UTF-8 byte order mark is
// dropped, as data files' is; empty lines are skipped.
func ParseFolds(r io.Reader, name string) ([]int, int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	sc.Split(scanLines)
	line := 0
	col := -1
	var folds []int
	maxFold, maxLine, maxCol := -1, 0, 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, "\uFEFF")
		}
		fields := strings.Split(text, ",")
		if col < 0 {
			var err error
			if col, err = foldColumn(fields, name, line); err != nil {
				return nil, 0, err
			}
			continue
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		if col >= len(fields) {
			return nil, 0, fmt.Errorf("%s:%d: row has %d field(s), the fold column is field %d", name, line, len(fields), col+1)
		}
		at := fieldColumn(fields, col)
		v, err := strconv.Atoi(unquote(fields[col]))
		if err != nil || v < 0 {
			return nil, 0, fmt.Errorf("%s:%d:%d: column \"fold\": %s is not a fold number (0, 1, ...)", name, line, at, safetext.Excerpt(fields[col]))
		}
		folds = append(folds, v)
		if v > maxFold {
			maxFold, maxLine, maxCol = v, line, at
		}
	}
	if err := sc.Err(); err != nil {
		return nil, 0, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	if col < 0 {
		return nil, 0, fmt.Errorf("%s: empty folds file", name)
	}
	if len(folds) == 0 {
		return nil, 0, fmt.Errorf("%s: a header and no rows", name)
	}
	if maxFold >= len(folds) {
		// Folds are numbered 0..k−1 and none is empty, so k ≤ rows; this
		// also bounds the memory of the check below.
		return nil, 0, fmt.Errorf("%s:%d:%d: column \"fold\": fold %d with only %d rows (folds are numbered 0..k-1 without gaps)",
			name, maxLine, maxCol, maxFold, len(folds))
	}
	k := maxFold + 1
	seen := make([]bool, k)
	for _, v := range folds {
		seen[v] = true
	}
	for i, s := range seen {
		if !s {
			return nil, 0, fmt.Errorf("%s: fold %d has no rows (folds must be numbered 0..%d without gaps)", name, i, k-1)
		}
	}
	if k < 2 {
		return nil, 0, fmt.Errorf("%s: needs at least 2 folds, found %d", name, k)
	}
	return folds, k, nil
}

// foldColumn returns the index of the field named fold of the header at
// line of file name; a header without one, or with two (which of them
// holds the folds?), is an error located in the file.
func foldColumn(header []string, name string, line int) (int, error) {
	col := -1
	for i, h := range header {
		if unquote(h) != "fold" {
			continue
		}
		if col >= 0 {
			return -1, fmt.Errorf("%s:%d:%d: column \"fold\" (col %d): duplicate column name (first at col %d)", name, line, fieldColumn(header, i), i+1, col+1)
		}
		col = i
	}
	if col < 0 {
		return -1, fmt.Errorf("%s:%d: no column named \"fold\" in the header %s", name, line, safetext.Excerpt(strings.Join(header, ",")))
	}
	return col, nil
}

// unquote returns a header name or value without blanks and double
// quotes around it.
func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}

// fieldColumn returns the 1-based byte column where field i of a line
// split at commas starts.
func fieldColumn(fields []string, i int) int {
	col := 1
	for _, f := range fields[:i] {
		col += len(f) + 1
	}
	return col
}

// scanLines is bufio.ScanLines with a lone CR also ending a line.
func scanLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	for i, c := range data {
		switch c {
		case '\n':
			return i + 1, data[:i], nil
		case '\r':
			if i+1 < len(data) {
				if data[i+1] == '\n' {
					return i + 2, data[:i], nil
				}
				return i + 1, data[:i], nil
			}
			if atEOF {
				return i + 1, data[:i], nil
			}
			return 0, nil, nil // a CRLF may be split across reads
		}
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// Split returns the training and test rows of fold f.
func Split(folds []int, f int) (train, test []int) {
	for i, v := range folds {
		if v == f {
			test = append(test, i)
		} else {
			train = append(train, i)
		}
	}
	return train, test
}
