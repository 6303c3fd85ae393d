package results

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/polyclass/polyclass/framework/cellspec"
	"github.com/polyclass/polyclass/framework/metrics"
	"github.com/polyclass/polyclass/framework/outcome"
)

// CellSchema is the version of the cell file format bench writes. Schema 2
// adds the checksum and a tuned cell's tune_metric and tune_candidates;
// schema 3 the cell's spec. Files of schemas 1 and 2 (without them) are
// read as well. A bench that reads older schemas only does not read newer
// files: it computes those cells again.
const CellSchema = 3

// oldestCellSchema is the oldest cell file format bench reads.
const oldestCellSchema = 1

// Cell is one cell file: a finished cell with its spec (everything that
// determined its numbers) and the spec's digest, its identity.
type Cell struct {
	Schema int    `json:"schema"`
	Digest string `json:"digest"`
	// Spec is the cell's spec, whose digest is Digest; nil in the files of
	// a bench from before specs were stored.
	Spec *cellspec.Spec `json:"spec,omitempty"`
	// Checksum is the SHA-256 of the file as written with an empty
	// checksum: ReadCell finds a file edited or damaged after it was
	// written (a number changed, still valid JSON). Files from a bench
	// that wrote none have none, and are not checked.
	Checksum string `json:"checksum"`
	*outcome.CellResult
}

// CellFileName is the name of a cell's file in the cells directory:
// "IIII-DDDDDDDDDDDDDDDD.json", the cell index (at least four digits) and the
// first 16 hex digits of its digest. Shards of one run write disjoint
// indices, so they never collide in a shared directory; two different runs
// that computed the same index leave two files, which ReadCells reports as
// duplicates instead of one silently replacing the other.
func CellFileName(index int, digest string) string {
	if len(digest) > 16 {
		digest = digest[:16]
	}
	return fmt.Sprintf("%04d-%s.json", index, digest)
}

var hexSHA = regexp.MustCompile(`^[0-9a-f]{64}$`)

// WriteCell writes cell r with its digest and spec (nil: none) into
// cellsDir atomically and returns the file's path.
func WriteCell(cellsDir string, r *outcome.CellResult, digest string, spec *cellspec.Spec) (string, error) {
	b, err := cellBytes(r, digest, spec)
	if err != nil {
		return "", err
	}
	path := filepath.Join(cellsDir, CellFileName(r.Index, digest))
	return path, writeBytes(path, b)
}

// writeCellIn is WriteCell into a cells directory that must exist (a run's:
// one removed meanwhile is an error, never made again).
func writeCellIn(cellsDir string, r *outcome.CellResult, digest string, spec *cellspec.Spec) error {
	b, err := cellBytes(r, digest, spec)
	if err != nil {
		return err
	}
	return replaceFile(filepath.Join(cellsDir, CellFileName(r.Index, digest)), b, 0o644)
}

// cellBytes is the content of cell r's file, with its checksum.
func cellBytes(r *outcome.CellResult, digest string, spec *cellspec.Spec) ([]byte, error) {
	b, err := json.MarshalIndent(Cell{Schema: CellSchema, Digest: digest, Spec: spec, CellResult: r}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("cell %d: %w", r.Index, err)
	}
	b = append(b, '\n')
	sum := sha256.Sum256(b)
	return bytes.Replace(b, checksumField(""), checksumField(hex.EncodeToString(sum[:])), 1), nil
}

// checksumField is the checksum's line of a cell file, as MarshalIndent
// writes it.
func checksumField(sum string) []byte { return []byte("\n  \"checksum\": \"" + sum + "\",\n") }

// checksumOK reports whether b, a cell file whose checksum field holds
// sum, is the file that was written with it, line ends aside: a copy with
// CRLF line ends (git's autocrlf, a Windows editor) or without the final
// newline is the same file.
func checksumOK(b []byte, sum string) bool {
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	if !bytes.HasSuffix(b, []byte("\n")) {
		b = append(b, '\n')
	}
	blank := bytes.Replace(b, checksumField(sum), checksumField(""), 1)
	got := sha256.Sum256(blank)
	return hex.EncodeToString(got[:]) == sum
}

// CellError is a cell file that failed validation.
type CellError struct {
	Path   string
	Reason string
}

func (e *CellError) Error() string { return e.Path + ": " + e.Reason }

// ReadCell reads and checks one cell file: the JSON schema (no unknown
// fields, nothing after the object), its checksum, its spec against its
// digest, the file name against the index and digest it holds, the index
// in [0, total) when total ≥ 0, a failed cell with no folds, a finished
// one with folds whose numbers agree (outcome.CellResult.Check) and whose
// metrics lie within their range (see metricRange). The error is a
// *CellError.
func ReadCell(path string, total int) (*Cell, error) {
	bad := func(format string, args ...any) (*Cell, error) {
		return nil, &CellError{Path: path, Reason: fmt.Sprintf(format, args...)}
	}
	b, err := readIn(path)
	if err != nil {
		return nil, &CellError{Path: path, Reason: err.Error()}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var c Cell
	if err := dec.Decode(&c); err != nil {
		return bad("not a cell file: %v", jsonError(b, err))
	}
	if dec.More() {
		return bad("not a cell file: more than one JSON value")
	}
	if c.CellResult == nil {
		return bad("not a cell file: no cell (null or empty object)")
	}
	if c.Schema < oldestCellSchema || c.Schema > CellSchema {
		return bad("cell schema %d, this bench reads %d to %d (written by another version?)", c.Schema, oldestCellSchema, CellSchema)
	}
	if !hexSHA.MatchString(c.Digest) {
		return bad("digest %q is not a SHA-256 in lower-case hex", c.Digest)
	}
	switch {
	case c.Checksum == "" && c.Schema >= 2:
		return bad("no checksum, which every schema %d cell file has: the file was edited after it was written", c.Schema)
	case c.Checksum != "" && (!hexSHA.MatchString(c.Checksum) || !checksumOK(b, c.Checksum)):
		return bad("its content does not match its checksum: the file was edited or damaged after it was written")
	}
	if c.Spec != nil && c.Spec.Digest() != c.Digest {
		return bad("its spec's digest is %.16s…, not the digest %.16s… it is filed under: the file was edited, or written by a bench whose spec encoding differs", c.Spec.Digest(), c.Digest)
	}
	if c.Index < 0 || (total >= 0 && c.Index >= total) {
		return bad("cell index %d out of range [0, %d)", c.Index, total)
	}
	if want := CellFileName(c.Index, c.Digest); filepath.Base(path) != want {
		return bad("file name does not match its cell (index %d, digest %.16s…): want %s", c.Index, c.Digest, want)
	}
	for _, f := range []struct{ name, v string }{{"dataset", c.Dataset}, {"encoder", c.Encoder}, {"learner", c.Learner}, {"reduction", c.Reduction}} {
		if f.v == "" {
			return bad("no %s", f.name)
		}
	}
	if c.Failed() {
		if len(c.Folds) > 0 {
			return bad("a failed cell with %d folds", len(c.Folds))
		}
		return &c, nil
	}
	if len(c.Folds) == 0 {
		return bad("no folds and no error")
	}
	if err := c.CellResult.Check(); err != nil {
		return bad("%v", err)
	}
	seen := map[[2]int]bool{}
	for i, f := range c.Folds {
		if f.Repeat < 0 || f.Fold < 0 || seen[[2]int{f.Repeat, f.Fold}] {
			return bad("fold %d: repeat %d fold %d is negative or repeated", i, f.Repeat, f.Fold)
		}
		seen[[2]int{f.Repeat, f.Fold}] = true
		if f.NTest <= 0 || f.NTrain <= 0 {
			return bad("fold %d: %d training and %d test rows", i, f.NTrain, f.NTest)
		}
		if len(f.Metrics) == 0 {
			return bad("fold %d: no metrics", i)
		}
		if f.Predictions != nil {
			if err := f.Predictions.Check(f.NTest, len(c.Classes)); err != nil {
				return bad("fold %d: predictions: %v", i, err)
			}
		}
		names := make([]string, 0, len(f.Metrics))
		for n := range f.Metrics {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			v := f.Metrics[n]
			lo, hi := metricRange(n)
			if !math.IsNaN(v) && (v < lo || v > hi) {
				return bad("fold %d: %s = %v is outside [%v, %v]", i, n, v, lo, hi)
			}
		}
	}
	return &c, nil
}

// metricRange returns the interval every value of a metric lies in (its
// metrics.Metric bounds); an unknown name gets (−∞, +∞).
func metricRange(name string) (lo, hi float64) {
	m, err := metrics.Lookup(name)
	if err != nil {
		return math.Inf(-1), math.Inf(1)
	}
	return m.Min, m.Max
}

// ReadCells reads and checks every cell file of a cells directory (names
// starting with "." are unfinished writes and skipped), in index order.
// total is the number of cells of the grid (from the manifest; < 0 when
// unknown). Every bad file is reported, each named with its reason (joined
// *CellError values), as are two files holding the same cell: the same
// index of a known grid, or, when total < 0 (cells found by digest, to be
// renumbered), the same digest; two files with one index and different
// digests are then two cells, as a run killed while renumbering leaves
// them. The good cells are returned all the same.
func ReadCells(cellsDir string, total int) ([]*Cell, error) {
	entries, err := os.ReadDir(cellsDir)
	if err != nil {
		return nil, fmt.Errorf("cells: %w", err)
	}
	var cells []*Cell
	var errs []error
	seen := map[string]string{} // the cell's key → its file
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		path := filepath.Join(cellsDir, name)
		if e.IsDir() || !strings.HasSuffix(name, ".json") {
			errs = append(errs, &CellError{Path: path, Reason: "not a cell file (cells/ holds IIII-DIGEST.json files only)"})
			continue
		}
		c, err := ReadCell(path, total)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		key, again := strconv.Itoa(c.Index), fmt.Sprintf("cell %d again", c.Index)
		if total < 0 {
			key, again = c.Digest, fmt.Sprintf("the same cell (digest %.16s) again", c.Digest)
		}
		if prev, dup := seen[key]; dup {
			errs = append(errs, &CellError{Path: path, Reason: fmt.Sprintf("%s (also in %s)", again, filepath.Base(prev))})
			continue
		}
		seen[key] = path
		cells = append(cells, c)
	}
	sort.Slice(cells, func(i, j int) bool { return cells[i].Index < cells[j].Index })
	return cells, errors.Join(errs...)
}
