package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/polyclass/polyclass/framework/cellspec"
	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/outcome"
	rowsetup "github.com/polyclass/polyclass/framework/setup"
	"github.com/polyclass/polyclass/framework/software"
)

// Status is the state of the run a manifest records.
type Status string

// The states of a run. A manifest is written with StatusRunning before the
// first cell runs and updated when the run ends; a manifest that still says
// "running" after bench is gone records a run that was killed (kill -9, a
// power cut) or that could not write its final manifest (a full disk).
const (
	// StatusRunning: the run has started and not ended.
	StatusRunning Status = "running"
	// StatusComplete: every cell of the grid has a cell file (failed cells
	// included; FailedCells counts them).
	StatusComplete Status = "complete"
	// StatusInterrupted: the run was stopped (Ctrl-C, SIGTERM, SIGHUP,
	// SIGPIPE) before every cell finished; the finished ones are kept.
	StatusInterrupted Status = "interrupted"
	// StatusFailed: the run ended on an error other than an interruption,
	// such as a cell file or table that could not be written.
	StatusFailed Status = "failed"
)

// ManifestSchema is the version of the manifest format.
const ManifestSchema = 1

// Manifest records what a run needs to be repeated, resumed and checked.
type Manifest struct {
	Schema int    `json:"schema"`
	Status Status `json:"status"`
	// Experiment is the experiment's name: a results directory holds the
	// runs of one experiment only.
	Experiment string `json:"experiment"`
	// RunDigest identifies the grid: the SHA-256 of the experiment's name
	// and of every cell's digest in cell order (see RunDigest). Two runs
	// (or two shards) with the same RunDigest compute the same cells.
	RunDigest string `json:"run_digest"`
	// CellDigests are the digests of the grid's cells, by index: those of
	// the cells the tables may show (a cell kept with --keep-other-bench
	// has its own). bench table refuses a cell file of another digest.
	// Empty in a shard's manifest (Shard lists its cells) and in those of
	// a bench from before they were recorded.
	CellDigests []string `json:"cell_digests,omitempty"`
	// Bench is the build of bench that ran (cellspec.Build).
	Bench      *cellspec.Build `json:"bench,omitempty"`
	File       string          `json:"file"`
	FileSHA256 string          `json:"file_sha256"`
	Seed       uint64          `json:"seed"`
	// CV is the resampling; nil in a manifest of a bench from before it
	// was recorded.
	CV        *CVRecord       `json:"cv,omitempty"`
	Datasets  []DatasetRecord `json:"datasets"`
	Plugins   []PluginRecord  `json:"plugins"`
	GoVersion string          `json:"go_version"`
	Args      []string        `json:"args"`
	Workers   int             `json:"workers"`
	Start     time.Time       `json:"start"`
	End       time.Time       `json:"end,omitzero"`
	// Cells is the number of cells of the grid; Finished the number with a
	// cell file; Resumed the number kept from an earlier run.
	Cells       int               `json:"cells"`
	Finished    int               `json:"finished_cells"`
	Resumed     int               `json:"resumed_cells"`
	FailedCells int               `json:"failed_cells"`
	Uploads     int64             `json:"uploads"`
	Outputs     map[string]string `json:"outputs"`
	// OutputSHA256 is, by output name (a key of Outputs), the SHA-256 of
	// the bytes bench wrote into it: an output whose file no longer has it
	// (the user edited it) is moved aside before it is written again. A
	// manifest of a bench from before it records none, and its outputs are
	// written over as they are.
	OutputSHA256 map[string]string `json:"output_sha256,omitempty"`
	// OutputBytes is, by output name, the size in bytes of the file
	// bench wrote (that of OutputSHA256): a file of another size is
	// edited, told without reading it (a huge file put in an output's
	// place is never read whole). A manifest of a bench from before it
	// records none; an output without one is read when it holds no more
	// than MaxFileBytes, and taken as edited otherwise.
	OutputBytes map[string]int64 `json:"output_bytes,omitempty"`
	// OutputPendingSHA256 is, by output name, the SHA-256 of the bytes
	// bench is about to write into an output whose file has another one:
	// recorded before the file is written, and gone from the manifest
	// written once every output is, so that the outputs of a run killed
	// between the two (written, their manifest not) are taken as bench's,
	// not as edited by hand. An output's file is as bench wrote it when
	// its SHA-256 is either.
	OutputPendingSHA256 map[string]string `json:"output_pending_sha256,omitempty"`
	// What the tables show, so that they can be rendered again from the
	// results directory alone (bench table).
	Metrics     []string `json:"metrics"`
	Formats     []string `json:"formats"`
	Baseline    string   `json:"baseline,omitempty"`
	Alpha       float64  `json:"alpha"`
	RankTimings bool     `json:"rank_timings,omitempty"`
	Predictions bool     `json:"predictions"`
	// ConfusionRows names the rows (report.FindRow rule) whose confusion
	// matrices are drawn on every dataset; empty means the best row of
	// each dataset by the first metric.
	ConfusionRows []string `json:"confusion_rows,omitempty"`
	// Rows describe every row of the tables: what the tables show for it
	// (the blocks' labels) and its whole set-up (engine.Grid.Setup); nil
	// in a manifest of a bench from before them, whose tables show the
	// blocks' names and no set-up table.
	Rows []rowsetup.Row `json:"rows,omitempty"`
	// Source is the experiment file's text as run (its SHA-256 is
	// FileSHA256), shown in the HTML report.
	Source string `json:"source,omitempty"`
	// Rope, when set, asks for the Bayesian comparisons with this
	// region of practical equivalence; BayesPairs for every pair of rows.
	Rope       *float64 `json:"rope,omitempty"`
	BayesPairs bool     `json:"bayes_pairs,omitempty"`
	// Shard is set in the manifest of one shard of a run
	// (DIR/shards/I-of-N.json): which shard, and the cells it owns.
	Shard *Shard `json:"shard,omitempty"`
	// MergedShards is, in the manifest bench merge writes, the number of
	// shards merged.
	MergedShards int `json:"merged_shards,omitempty"`

	// Calls counts the protocol calls to each plugin, by method, with
	// their bytes (the plugin host's count); summed over the shards of a
	// merge.
	Calls []outcome.CallStats `json:"calls,omitempty"`

	// Warnings are the experiment's warnings, as validate gives them
	// (the file's, the data's, the code matrices'), which the report
	// lists; none in a manifest of a bench from before them.
	Warnings []string `json:"warnings,omitempty"`
}

// CVRecord is the resampling of a run (the experiment's cv block).
type CVRecord struct {
	Folds      int     `json:"folds"`
	Repeats    int     `json:"repeats"`
	Stratified bool    `json:"stratified"`
	Iterative  bool    `json:"iterative,omitempty"`
	Holdout    float64 `json:"holdout,omitempty"`
	FoldsFile  string  `json:"folds_file,omitempty"`
}

// DatasetRecord identifies one dataset file and records its shape.
type DatasetRecord struct {
	Name     string `json:"name"`
	Path     string `json:"path"`
	SHA256   string `json:"sha256"`
	TestPath string `json:"test_path,omitempty"`
	// Rows counts the rows of the file (and of the test file).
	Rows int `json:"rows"`
	// NumericFeatures and CategoricalFeatures count the feature columns.
	NumericFeatures     int  `json:"numeric_features"`
	CategoricalFeatures int  `json:"categorical_features"`
	MultiLabel          bool `json:"multi_label,omitempty"`
	// Classes are the classes (or labels) with their number of rows.
	Classes []ClassCount `json:"classes,omitempty"`
}

// ClassCount is a class (or label) and its number of rows.
type ClassCount struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// PluginRecord identifies one plugin binary and the software it
// computes with.
type PluginRecord struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Path    string `json:"path"`
	SHA256  string `json:"sha256"`
	// Runtime is the plugin's runtime report (host.Plugin.Runtime): its
	// interpreter or Go toolchain and the libraries it runs on.
	Runtime []software.Component `json:"runtime,omitempty"`
}

// Partial says, when finished of the manifest's cells are done and not
// all, that the run's tables are partial ("12 of 40 cells finished (run
// status: interrupted)"); "" when every cell is done.
func (m *Manifest) Partial(finished int) string {
	if finished >= m.Cells {
		return ""
	}
	return fmt.Sprintf("%d of %d cells finished (run status: %s)", finished, m.Cells, m.Status)
}

// ReadManifest reads dir/manifest.json.
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestFile)
	b, err := readIn(path)
	if err != nil {
		return nil, fmt.Errorf("results directory %s: %w", dir, err)
	}
	return parseManifest(path, b)
}

// readManifestFile reads a manifest file: the run's or a shard's.
func readManifestFile(path string) (*Manifest, error) {
	b, err := readIn(path)
	if err != nil {
		return nil, err
	}
	return parseManifest(path, b)
}

// parseManifest reads the manifest b, read from path.
func parseManifest(path string, b []byte) (*Manifest, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, jsonError(b, err))
	}
	if m.Experiment == "" {
		return nil, fmt.Errorf("%s: no experiment name", path)
	}
	// Schema 0 is a manifest of a bench from before resume: readable, and
	// its cell files are moved aside as not resumable.
	if m.Schema > ManifestSchema {
		return nil, fmt.Errorf("%s: %w", path, newerSchemaError{m.Schema})
	}
	return &m, nil
}

// newerSchemaError is the error of a manifest of a schema newer than
// ManifestSchema, which this bench does not read.
type newerSchemaError struct{ schema int }

func (e newerSchemaError) Error() string {
	return fmt.Sprintf("manifest schema %d, this bench reads %d (written by another version?)", e.schema, ManifestSchema)
}

// writeManifest writes m to dir/manifest.json atomically, through root,
// dir's Root.
func writeManifest(root *os.Root, dir string, m *Manifest) error {
	m.Schema = ManifestSchema
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	// Into dir as it is: a results directory removed meanwhile is an
	// error, never made again.
	return writeAt(root, dir, ManifestFile, append(b, '\n'), 0o644)
}

// rewriteManifest writes m, a manifest read from dir, back to
// dir/manifest.json atomically, through root, under the schema it was
// read with: a change of a field the schema has (an output about to be
// written), nothing else.
func rewriteManifest(root *os.Root, dir string, m *Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	return writeAt(root, dir, ManifestFile, append(b, '\n'), 0o644)
}

// NewCVRecord records an experiment's cv block.
func NewCVRecord(cv config.CV) *CVRecord {
	return &CVRecord{Folds: cv.Folds, Repeats: cv.Repeats, Stratified: cv.Stratified, Iterative: cv.Iterative,
		Holdout: cv.Holdout, FoldsFile: cv.FoldsFile}
}
