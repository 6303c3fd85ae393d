package results

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/polyclass/polyclass/framework/cellspec"
	"github.com/polyclass/polyclass/framework/metrics"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/safetext"
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

// writeCellIn is WriteCell into the cells directory of the results
// directory dir, through root, its Root (see writeAt): a cells/ removed
// meanwhile is made again only inside dir, and a link put in its place
// is not followed.
func writeCellIn(root *os.Root, dir string, r *outcome.CellResult, digest string, spec *cellspec.Spec) error {
	b, err := cellBytes(r, digest, spec)
	if err != nil {
		return err
	}
	return writeAt(root, dir, CellsDir+"/"+CellFileName(r.Index, digest), b, 0o644)
}

// cellBytes is the content of cell r's file, with its checksum.
func cellBytes(r *outcome.CellResult, digest string, spec *cellspec.Spec) ([]byte, error) {
	b, err := json.MarshalIndent(Cell{Schema: CellSchema, Digest: digest, Spec: spec, CellResult: r}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("cell %d: %w", r.Index, err)
	}
	b = append(escapeHidden(b), '\n')
	sum := sha256.Sum256(b)
	return bytes.Replace(b, checksumField(""), checksumField(hex.EncodeToString(sum[:])), 1), nil
}

// escapeHidden returns JSON text b with each character that would not
// show, or would change how the text around it shows, written as its
// JSON escape (\u202e; a character beyond U+FFFF as its UTF-16 pair):
// DEL, the C1 controls and what safetext.Hidden reports (bidi controls,
// zero-width and other invisible characters), which encoding/json writes
// as they are. A plugin's error text in a cell file then shows no text
// reversed when a person prints the file, and reads back as it was. Such
// characters stand only inside strings (JSON's own syntax is ASCII), so
// b stays valid JSON; b is returned as it is when it holds none.
func escapeHidden(b []byte) []byte {
	escaped := func(r rune) bool { return r >= 0x7f && (safetext.Refused(r) || safetext.Hidden(r)) }
	if !bytes.ContainsFunc(b, escaped) {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		switch {
		case !escaped(r):
			out = append(out, b[:size]...)
		case r > 0xFFFF:
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		b = b[size:]
	}
	return out
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
// digest, the file name against the index and digest it holds, the
// result's names (visible text, checkCellText, and its spec's,
// checkCellMatchesSpec), the index
// in [0, total) when total ≥ 0, a failed cell with no folds, a finished
// one with folds whose numbers agree (outcome.CellResult.Check) and whose
// metrics lie within their range (see metricRange). The error is a
// *CellError.
func ReadCell(path string, total int) (*Cell, error) {
	b, err := readIn(path)
	if err != nil {
		return nil, &CellError{Path: path, Reason: err.Error()}
	}
	c, err := decodeCell(b)
	if err != nil {
		return nil, &CellError{Path: path, Reason: err.Error()}
	}
	in := cellFile{path: path, raw: b, total: total, c: c}
	for _, check := range cellChecks {
		if err := check(in); err != nil {
			return nil, &CellError{Path: path, Reason: err.Error()}
		}
	}
	return c, nil
}

// cellFile is what the checks of a cell file read: its path, its bytes,
// the grid's number of cells (< 0 when unknown) and the decoded cell.
type cellFile struct {
	path  string
	raw   []byte
	total int
	c     *Cell
}

// cellChecks are ReadCell's checks of a decoded cell file, in the order
// they run; the first that fails names the file's fault.
var cellChecks = []func(cellFile) error{
	checkCellSchema,
	checkCellDigest,
	checkCellChecksum,
	checkCellSpec,
	checkCellIndex,
	checkCellFileName,
	checkCellNames,
	checkCellText,
	checkCellMatchesSpec,
	checkFailedCell,
	checkFinishedCell,
	checkCellFolds,
}

// decodeCell decodes a cell file strictly: no unknown fields, one JSON
// value, a cell in it.
func decodeCell(b []byte) (*Cell, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var c Cell
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("not a cell file: %v", jsonError(b, err))
	}
	if dec.More() {
		return nil, errors.New("not a cell file: more than one JSON value")
	}
	if c.CellResult == nil {
		return nil, errors.New("not a cell file: no cell (null or empty object)")
	}
	return &c, nil
}

// checkCellSchema checks that this bench reads the file's schema.
func checkCellSchema(in cellFile) error {
	if in.c.Schema < oldestCellSchema || in.c.Schema > CellSchema {
		return fmt.Errorf("cell schema %d, this bench reads %d to %d (written by another version?)", in.c.Schema, oldestCellSchema, CellSchema)
	}
	return nil
}

// checkCellDigest checks the form of the digest the cell is filed under.
func checkCellDigest(in cellFile) error {
	if !hexSHA.MatchString(in.c.Digest) {
		return fmt.Errorf("digest %q is not a SHA-256 in lower-case hex", in.c.Digest)
	}
	return nil
}

// checkCellChecksum checks the file's checksum, which every file of
// schema 2 on has.
func checkCellChecksum(in cellFile) error {
	c := in.c
	switch {
	case c.Checksum == "" && c.Schema >= 2:
		return fmt.Errorf("no checksum, which every schema %d cell file has: the file was edited after it was written", c.Schema)
	case c.Checksum != "" && (!hexSHA.MatchString(c.Checksum) || !checksumOK(in.raw, c.Checksum)):
		return errors.New("its content does not match its checksum: the file was edited or damaged after it was written")
	}
	return nil
}

// checkCellSpec checks the spec, when the file holds one, against the
// digest.
func checkCellSpec(in cellFile) error {
	if c := in.c; c.Spec != nil && c.Spec.Digest() != c.Digest {
		return fmt.Errorf("its spec's digest is %.16s…, not the digest %.16s… it is filed under: the file was edited, or written by a bench whose spec encoding differs", c.Spec.Digest(), c.Digest)
	}
	return nil
}

// checkCellIndex checks the index within [0, total) (total ≥ 0 only).
func checkCellIndex(in cellFile) error {
	if i := in.c.Index; i < 0 || (in.total >= 0 && i >= in.total) {
		return fmt.Errorf("cell index %d out of range [0, %d)", i, in.total)
	}
	return nil
}

// checkCellFileName checks the file's name against the index and digest
// it holds.
func checkCellFileName(in cellFile) error {
	c := in.c
	if want := CellFileName(c.Index, c.Digest); filepath.Base(in.path) != want {
		return fmt.Errorf("file name does not match its cell (index %d, digest %.16s…): want %s", c.Index, c.Digest, want)
	}
	return nil
}

// checkCellNames checks that the cell names its dataset, encoder, learner
// and reduction.
func checkCellNames(in cellFile) error {
	c := in.c
	for _, f := range []struct{ name, v string }{{"dataset", c.Dataset}, {"encoder", c.Encoder}, {"learner", c.Learner}, {"reduction", c.Reduction}} {
		if f.v == "" {
			return fmt.Errorf("no %s", f.name)
		}
	}
	return nil
}

// edited ends the reasons of checkCellText and checkCellMatchesSpec: bench
// writes no such cell, so the file was edited (and, when it has a
// checksum, that was computed again).
const edited = "the file was edited after it was written"

// checkCellText checks every string of the result and of its spec that
// the tables, the report and bench's messages show as they are with the
// gate of names, safetext.CheckVisible, which the experiment's names,
// labels and parameter values, the data's class labels and the plugins'
// names, versions, runtimes and plan warnings passed when the cell was
// computed: an escape sequence, a bidi control or another invisible
// character in them would reach every table raw (campaign 9's B08; 10's
// B08d/e/g, where the spec was edited too). The cell's error, free text,
// is escaped where it is shown.
func checkCellText(in cellFile) error {
	c := in.c
	for _, f := range resultTexts(c.CellResult) {
		if err := safetext.CheckVisible(f.v); err != nil {
			return fmt.Errorf("its result's %s %s %w: %s", f.name, safetext.Show(f.v), err, edited)
		}
	}
	if c.Spec == nil {
		return nil
	}
	for _, f := range specTexts(c.Spec) {
		if err := safetext.CheckVisible(f.v); err != nil {
			return fmt.Errorf("its spec's %s %s %w: %s", f.name, safetext.Show(f.v), err, edited)
		}
	}
	return nil
}

// text is a string of a cell file, named as a message names it.
type text struct{ name, v string }

// resultTexts lists the strings of the result r that are shown as they
// are: its key, classes, tuning and the names and notes of its folds.
func resultTexts(r *outcome.CellResult) []text {
	ts := []text{{"dataset", r.Dataset}, {"encoder", r.Encoder}, {"learner", r.Learner},
		{"params", r.Params}, {"reduction", r.Reduction}, {"tune_metric", r.TuneMetric},
		{"tune_strategy", r.TuneStrategy}, {"tune_resource", r.TuneResource}}
	for i, cl := range r.Classes {
		ts = append(ts, text{fmt.Sprintf("class %d", i+1), cl})
	}
	for i, tc := range r.TuneCandidates {
		ts = append(ts, text{fmt.Sprintf("tune candidate %d", i+1), tc})
	}
	for i, f := range r.Folds {
		at := fmt.Sprintf("fold %d's ", i+1)
		ts = append(ts, text{at + "chosen", f.Chosen})
		for _, m := range slices.Sorted(maps.Keys(f.Metrics)) {
			ts = append(ts, text{at + "metric name", m})
		}
		for _, m := range slices.Sorted(maps.Keys(f.Warnings)) {
			ts = append(ts, text{at + "warning's metric name", m})
		}
		for j, w := range f.PlanWarnings {
			ts = append(ts, text{fmt.Sprintf("%splan warning %d", at, j+1), w})
		}
	}
	return ts
}

// specTexts lists the strings of the spec sp that the tables, the
// report's "Computed by" lines and bench's messages show: the cell's key,
// the learner's and reduction's names, parameters and plugins (name,
// version, digest, runtime), the metrics, the tuning, the bench's build.
// The dataset's reading options (a tab delimiter, say) are not shown and
// not held to it.
func specTexts(sp *cellspec.Spec) []text {
	ts := []text{{"cell", sp.Cell}, {"learner name", sp.Learner.Name},
		{"reduction name", sp.Reduction.Name}, {"reduction scheme", sp.Reduction.Scheme},
		{"reduction calibrate", sp.Reduction.Calibrate}, {"class_weight", sp.ClassWeight},
		{"bench version", sp.Bench.Version}, {"bench revision", sp.Bench.Revision},
		{"bench go", sp.Bench.Go}, {"bench sha256", sp.Bench.SHA256}}
	for _, m := range sp.Metrics {
		ts = append(ts, text{"metric", m})
	}
	if t := sp.Tune; t != nil {
		ts = append(ts, text{"tune metric", t.Metric}, text{"tune strategy", t.Strategy},
			text{"tune resource", t.Resource}, text{"tune max_time", t.MaxTime})
	}
	ts = append(ts, paramTexts("learner parameter", sp.Learner.Params)...)
	ts = append(ts, paramTexts("reduction parameter", sp.Reduction.Params)...)
	for _, p := range []struct {
		owner string
		p     cellspec.Plugin
	}{{"learner plugin", sp.Learner.Plugin}, {"reduction plugin", sp.Reduction.Plugin}} {
		ts = append(ts, text{p.owner + " name", p.p.Name}, text{p.owner + " version", p.p.Version}, text{p.owner + " sha256", p.p.SHA256})
		for _, k := range slices.Sorted(maps.Keys(p.p.Runtime)) {
			ts = append(ts, text{p.owner + " runtime component", k}, text{p.owner + " runtime " + safetext.Show(k), p.p.Runtime[k]})
		}
	}
	return ts
}

// paramTexts lists the names and the strings of the values (in lists
// too) of the parameters ps, named by what.
func paramTexts(what string, ps map[string]any) []text {
	var ts []text
	var walk func(name string, v any)
	walk = func(name string, v any) {
		switch v := v.(type) {
		case string:
			ts = append(ts, text{what + " " + name, v})
		case []any:
			for _, e := range v {
				walk(name, e)
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				walk(name, k)
				walk(name, v[k])
			}
		}
	}
	for _, n := range slices.Sorted(maps.Keys(ps)) {
		ts = append(ts, text{what + " name", n})
		walk(safetext.Show(n), ps[n])
	}
	return ts
}

// checkCellMatchesSpec checks that the result names the cell its spec
// describes (the spec's digest is checked by checkCellSpec): its dataset,
// learner and classes are the spec's, and its key (dataset, encoder,
// learner, parameters, reduction) the spec's cell. A file without a spec
// has nothing to match.
func checkCellMatchesSpec(in cellFile) error {
	c, sp := in.c, in.c.Spec
	if sp == nil {
		return nil
	}
	for _, f := range []struct{ name, got, want string }{
		{"dataset", c.Dataset, sp.Dataset.Name}, {"learner", c.Learner, sp.Learner.Name},
	} {
		if f.got != f.want {
			return fmt.Errorf("its result's %s %s is not the %s its spec names, %s: %s", f.name, safetext.Show(f.got), f.name, safetext.Show(f.want), edited)
		}
	}
	if !slices.Equal(c.Classes, sp.Dataset.Classes) {
		return fmt.Errorf("its result's classes %s are not those its spec names, %s: %s", showList(c.Classes), showList(sp.Dataset.Classes), edited)
	}
	if key := c.ID.Key(); key != sp.Cell {
		return fmt.Errorf("its result's cell %s (dataset|encoder|learner|parameters|reduction) is not the cell its spec names, %s: %s", safetext.Show(key), safetext.Show(sp.Cell), edited)
	}
	return nil
}

// showList shows each of names quoted (safetext.Show), in brackets.
func showList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = safetext.Show(n)
	}
	return "[" + strings.Join(out, ", ") + "]"
}

// checkFailedCell checks that a failed cell has no folds.
func checkFailedCell(in cellFile) error {
	if c := in.c; c.Failed() && len(c.Folds) > 0 {
		return fmt.Errorf("a failed cell with %d folds", len(c.Folds))
	}
	return nil
}

// checkFinishedCell checks that a finished cell has folds whose numbers
// agree (outcome.CellResult.Check).
func checkFinishedCell(in cellFile) error {
	c := in.c
	if c.Failed() {
		return nil
	}
	if len(c.Folds) == 0 {
		return errors.New("no folds and no error")
	}
	return c.CellResult.Check()
}

// checkCellFolds checks each fold of a finished cell: repeat and fold
// numbers distinct and not negative, rows on both sides, metrics within
// their range, predictions of the fold's shape.
func checkCellFolds(in cellFile) error {
	c := in.c
	if c.Failed() {
		return nil
	}
	seen := map[[2]int]bool{}
	for i, f := range c.Folds {
		if f.Repeat < 0 || f.Fold < 0 || seen[[2]int{f.Repeat, f.Fold}] {
			return fmt.Errorf("fold %d: repeat %d fold %d is negative or repeated", i, f.Repeat, f.Fold)
		}
		seen[[2]int{f.Repeat, f.Fold}] = true
		if err := checkFold(f, len(c.Classes)); err != nil {
			return fmt.Errorf("fold %d: %v", i, err)
		}
	}
	return nil
}

// checkFold checks one fold of a cell of k classes: rows on both sides,
// metrics within their range (in name order), predictions of its shape.
func checkFold(f outcome.FoldResult, k int) error {
	if f.NTest <= 0 || f.NTrain <= 0 {
		return fmt.Errorf("%d training and %d test rows", f.NTrain, f.NTest)
	}
	if len(f.Metrics) == 0 {
		return errors.New("no metrics")
	}
	if f.Predictions != nil {
		if err := f.Predictions.Check(f.NTest, k); err != nil {
			return fmt.Errorf("predictions: %v", err)
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
			return fmt.Errorf("%s = %v is outside [%v, %v]", n, v, lo, hi)
		}
	}
	return nil
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
