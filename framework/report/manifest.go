package report

import (
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// Manifest records what a run needs to be repeated and checked.
type Manifest struct {
	Experiment  string            `json:"experiment"`
	File        string            `json:"file"`
	FileSHA256  string            `json:"file_sha256"`
	Seed        uint64            `json:"seed"`
	Datasets    []DatasetRecord   `json:"datasets"`
	Plugins     []PluginRecord    `json:"plugins"`
	GoVersion   string            `json:"go_version"`
	Args        []string          `json:"args"`
	Workers     int               `json:"workers"`
	Start       time.Time         `json:"start"`
	End         time.Time         `json:"end"`
	Cells       int               `json:"cells"`
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
	// ConfusionRows names the rows (FindRow rule) whose confusion matrices
	// are drawn on every dataset; empty means the best row of each dataset
	// by the first metric.
	ConfusionRows []string `json:"confusion_rows,omitempty"`
}

// ReadManifest reads a manifest written by WriteManifest.
func ReadManifest(r io.Reader) (*Manifest, error) {
	var m Manifest
	if err := json.NewDecoder(r).Decode(&m); err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	return &m, nil
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

// WriteManifest writes m as indented JSON.
func WriteManifest(w io.Writer, m *Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
