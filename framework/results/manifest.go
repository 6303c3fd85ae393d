package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/polyclass/polyclass/framework/report"
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
	RunDigest  string          `json:"run_digest"`
	File       string          `json:"file"`
	FileSHA256 string          `json:"file_sha256"`
	Seed       uint64          `json:"seed"`
	Datasets   []DatasetRecord `json:"datasets"`
	Plugins    []PluginRecord  `json:"plugins"`
	GoVersion  string          `json:"go_version"`
	Args       []string        `json:"args"`
	Workers    int             `json:"workers"`
	Start      time.Time       `json:"start"`
	End        time.Time       `json:"end,omitzero"`
	// Cells is the number of cells of the grid; Finished the number with a
	// cell file; Resumed the number kept from an earlier run.
	Cells       int               `json:"cells"`
	Finished    int               `json:"finished_cells"`
	Resumed     int               `json:"resumed_cells"`
	FailedCells int               `json:"failed_cells"`
	Uploads     int64             `json:"uploads"`
	Outputs     map[string]string `json:"outputs"`
	// What the tables show, so that they can be rendered again from the
	// results directory alone (bench table).
	Metrics     []string `json:"metrics"`
	Formats     []string `json:"formats"`
	Baseline    string   `json:"baseline,omitempty"`
	Alpha       float64  `json:"alpha"`
	Predictions bool     `json:"predictions"`
	// ConfusionRows names the rows (report.FindRow rule) whose confusion
	// matrices are drawn on every dataset; empty means the best row of
	// each dataset by the first metric.
	ConfusionRows []string `json:"confusion_rows,omitempty"`
}

// DatasetRecord identifies one dataset file.
type DatasetRecord struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Rows   int    `json:"rows"`
}

// PluginRecord identifies one plugin binary.
type PluginRecord struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Path    string `json:"path"`
	SHA256  string `json:"sha256"`
}

// Spec returns what the tables of the run show, with finished of the
// manifest's cells done: the tables of a partial run say so ("12 of 40
// cells finished (run status: interrupted)").
func (m *Manifest) Spec(finished int) report.Spec {
	s := report.Spec{Experiment: m.Experiment, Metrics: m.Metrics, Formats: m.Formats, Baseline: m.Baseline,
		Alpha: m.Alpha, Predictions: m.Predictions, ConfusionRows: m.ConfusionRows}
	if finished < m.Cells {
		s.Partial = fmt.Sprintf("%d of %d cells finished (run status: %s)", finished, m.Cells, m.Status)
	}
	return s
}

// ReadManifest reads dir/manifest.json.
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("results directory %s: %w", dir, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if m.Experiment == "" {
		return nil, fmt.Errorf("%s: no experiment name", path)
	}
	// Schema 0 is a manifest of a bench from before resume: readable, and
	// its cell files are moved aside as not resumable.
	if m.Schema > ManifestSchema {
		return nil, fmt.Errorf("%s: manifest schema %d, this bench reads %d (written by another version?)", path, m.Schema, ManifestSchema)
	}
	return &m, nil
}

// writeManifest writes m to dir/manifest.json atomically.
func writeManifest(dir string, m *Manifest) error {
	m.Schema = ManifestSchema
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	return writeBytes(filepath.Join(dir, ManifestFile), append(b, '\n'))
}
