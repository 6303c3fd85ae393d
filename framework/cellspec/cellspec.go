// Package cellspec describes what determines the numbers of one cell of an
// experiment: its canonical, serialisable spec (the data's digests and
// reading options, the folds, the encoding steps, the learner and the
// reduction with every parameter including defaults, tuning, calibration,
// class weights, seed, metrics, and every program that computes a number:
// bench itself and each plugin, with its runtime), and the digest that
// identifies it, the SHA-256 of the spec's canonical JSON.
//
// The engine derives a cell's spec from the resolved grid; package
// results stores it in the cell's file, so that a resumed run can say
// which input of a cell changed (Diff).
package cellspec

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// Format names the spec's layout; it changes whenever a field is added,
// removed or means something else, so that cells of an older bench are
// computed again rather than trusted.
const Format = "polyclass cell spec 1"

// Spec is everything that determines a cell's numbers.
type Spec struct {
	Format string `json:"format"`
	// Cell is the cell's key (dataset|encoder|learner|params|reduction):
	// the seeds of its folds derive from it and from Seed.
	Cell string `json:"cell"`
	Seed uint64 `json:"seed"`
	// Dataset is the data the cell reads, Folds its resampling.
	Dataset Dataset `json:"dataset"`
	Folds   Folds   `json:"folds"`
	// Pipeline is the encoding, step by step.
	Pipeline []Step `json:"pipeline"`
	// Learner and Reduction are the models and the reduction scheme.
	Learner   Learner   `json:"learner"`
	Reduction Reduction `json:"reduction"`
	// ClassWeight is the class_weight that applies ("balanced", a map
	// such as "{a=2, b=0.5}", or "": none).
	ClassWeight string `json:"class_weight,omitempty"`
	// Tune is the inner cross-validation of a tuned learner, or nil.
	Tune *Tune `json:"tune,omitempty"`
	// Metrics are the metrics computed, sorted.
	Metrics []string `json:"metrics"`
	// Bench is the build of bench that computed the cell (its encoders,
	// folds, metrics and decoding run in bench itself).
	Bench Build `json:"bench"`
}

// Dataset is a dataset's content and how it is read.
type Dataset struct {
	Name string `json:"name"`
	// SHA256 is the data file's digest; TestSHA256 the test file's, when
	// the dataset has one.
	SHA256     string `json:"sha256"`
	TestSHA256 string `json:"test_sha256,omitempty"`
	// The reading options of the dataset block.
	Target          string   `json:"target"`
	TargetDefaulted bool     `json:"target_defaulted,omitempty"`
	Labels          []string `json:"labels,omitempty"`
	LabelsPrefix    string   `json:"labels_prefix,omitempty"`
	Categorical     []string `json:"categorical,omitempty"`
	Numeric         []string `json:"numeric,omitempty"`
	Ignore          []string `json:"ignore,omitempty"`
	Missing         []string `json:"missing,omitempty"`
	Delimiter       string   `json:"delimiter,omitempty"`
	// Classes are the classes (or labels) in index order.
	Classes    []string `json:"classes"`
	MultiLabel bool     `json:"multi_label,omitempty"`
}

// Folds is a dataset's fold assignment.
type Folds struct {
	// Repeats and Folds count the repetitions and the folds of each.
	Repeats int `json:"repeats"`
	Folds   int `json:"folds"`
	// SHA256 is the digest of the fold of every row in every repeat
	// (whether drawn from the seed or read from a folds file).
	SHA256 string `json:"sha256"`
}

// Step is one encoding step, with every option including defaults.
type Step struct {
	Name    string         `json:"name"`
	Type    string         `json:"type"`
	Options map[string]any `json:"options"`
}

// Plugin is a plugin program: its binary's digest, the version it
// reports and its runtime (for a Python plugin: the interpreter and the
// versions of the packages it computes with).
type Plugin struct {
	Name    string            `json:"name"`
	Version string            `json:"version"`
	SHA256  string            `json:"sha256"`
	Runtime map[string]string `json:"runtime,omitempty"`
}

// Learner is a learner block as a cell uses it: every parameter, the
// defaults the plugin declares included.
type Learner struct {
	Name   string         `json:"name"`
	Plugin Plugin         `json:"plugin"`
	Params map[string]any `json:"params"`
}

// Reduction is a reduction block as a cell uses it: its scheme, every
// parameter including defaults, and its calibration.
type Reduction struct {
	Name      string         `json:"name"`
	Scheme    string         `json:"scheme"`
	Plugin    Plugin         `json:"plugin"`
	Params    map[string]any `json:"params"`
	Calibrate string         `json:"calibrate,omitempty"`
}

// Tune is a tuned learner's inner cross-validation.
type Tune struct {
	Folds     int    `json:"folds"`
	Metric    string `json:"metric"`
	InnerSeed int64  `json:"inner_seed"`
	// The search, for a strategy other than the grid (all omitted for the
	// grid, whose specs read as before strategies existed).
	Strategy     string `json:"strategy,omitempty"`
	NIter        int    `json:"n_iter,omitempty"`
	Candidates   int    `json:"candidates,omitempty"`
	Factor       int    `json:"factor,omitempty"`
	MinResources int    `json:"min_resources,omitempty"`
	Aggressive   bool   `json:"aggressive_elimination,omitempty"`
	// Resource is the budget parameter the rounds grow (omitted for
	// rows, n_samples).
	Resource string `json:"resource,omitempty"`
	// MaxEvals and MaxTime (a Go duration, "5m0s") are the search's
	// budgets (omitted when not set).
	MaxEvals int    `json:"max_evals,omitempty"`
	MaxTime  string `json:"max_time,omitempty"`
}

// Build identifies a build of bench: its module version and VCS revision,
// whether the working tree was modified, the Go toolchain and build
// settings, and, when neither a released version nor a clean revision
// identifies it, the executable's SHA-256.
type Build struct {
	Version  string            `json:"version"`
	Revision string            `json:"revision,omitempty"`
	Modified bool              `json:"modified,omitempty"`
	Go       string            `json:"go"`
	Settings map[string]string `json:"settings,omitempty"`
	SHA256   string            `json:"sha256,omitempty"`
}

// String names the build in one line: "v1.2.0", "(devel) 3f2a9c1d0e4b",
// "(devel) 3f2a9c1d0e4b+modified sha256 91c0…".
func (b Build) String() string {
	s := b.Version
	if b.Revision != "" {
		s += " " + short(b.Revision, 12)
	}
	if b.Modified {
		s += "+modified"
	}
	if b.SHA256 != "" {
		s += " sha256 " + short(b.SHA256, 12)
	}
	return s
}

// Canonical returns the spec's canonical encoding: JSON with the fields in
// the order of the types above, map keys sorted, no space.
func (s *Spec) Canonical() []byte {
	b, err := json.Marshal(s)
	if err != nil {
		// The spec holds strings, numbers, booleans and lists of them.
		panic(fmt.Sprintf("cellspec: %v", err))
	}
	return b
}

// Digest returns the SHA-256 (lower-case hex) of the canonical encoding:
// the cell's identity.
func (s *Spec) Digest() string {
	sum := sha256.Sum256(s.Canonical())
	return hex.EncodeToString(sum[:])
}

// short cuts a hex digest to n digits and an ellipsis.
func short(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
