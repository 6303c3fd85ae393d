// Package config reads experiment files: HCL documents that declare
// datasets, encoders, pipelines, learners, reductions, cross-validation and
// outputs. Parsing keeps every source range, and every problem found is
// reported as an hcl.Diagnostic with its location instead of stopping at the
// first.
package config

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/param"
)

// Experiment is a parsed experiment file.
type Experiment struct {
	Name string
	Seed uint64
	// DeclRange is the range of the experiment block's header, NameRange
	// that of its name.
	DeclRange, NameRange hcl.Range
	// File is the experiment file's path; Dir its directory, against which
	// relative paths resolve.
	File, Dir string
	// Source is the text decoded (ParseSource's src): what a run records
	// of its experiment file, its digest included, is what it read, not
	// what the path holds later.
	Source []byte
	// Partial is set when a syntax error kept the parser from reading the
	// whole file: the experiment holds what it read.
	Partial bool
	// Faulty holds the ranges of the top-level blocks and attributes in
	// which the parser found an error: what the experiment holds of them
	// may be incomplete, so that a later check's finding there may be a
	// consequence of that error (see Outside).
	Faulty []hcl.Range
	// InText holds the type and name of every block the file's text
	// declares ({"learner", "svm"}), read by the parser or not, when
	// Partial; nil otherwise.
	InText map[[2]string]bool

	Datasets   []*Dataset
	Encoders   []*Encoder
	Pipelines  []*Pipeline
	Learners   []*Learner
	Reductions []*Reduction
	CV         CV
	Metrics    []string
	Output     Output

	MetricsRange hcl.Range
	// MetricRanges holds the range of each element of Metrics (all
	// MetricsRange when the list is not written out literally).
	MetricRanges []hcl.Range
}

// Dataset declares one data file.
type Dataset struct {
	Name string
	// Path is resolved against the experiment file's directory.
	Path   string `hcl:"path"`
	Target string `hcl:"target,optional"`
	// TargetDefaulted reports that the file named neither target nor
	// labels: the target is "class", unless the data file itself names
	// its labels (a MEKA/MULAN ARFF relation with "-C n").
	TargetDefaulted bool
	Labels          []string `hcl:"labels,optional"`
	LabelsPrefix    string   `hcl:"labels_prefix,optional"`
	Categorical     []string `hcl:"categorical,optional"`
	Numeric         []string `hcl:"numeric,optional"`
	Ignore          []string `hcl:"ignore,optional"`
	Missing         []string `hcl:"missing,optional"`
	Delimiter       string   `hcl:"delimiter,optional"`
	// FoldsFile, when set, fixes this dataset's folds (it overrides the
	// cv block's folds_file).
	FoldsFile string `hcl:"folds_file,optional"`

	// TestPath, when set, names the dataset's test file: one fit on the
	// rows of Path, one score on the rows of TestPath (same columns).
	TestPath string `hcl:"test_path,optional"`

	// Ranges of the block and of its values (empty when not given).
	DeclRange         hcl.Range
	PathRange         hcl.Range `hcl:"path,attr_value_range"`
	TargetRange       hcl.Range `hcl:"target,attr_value_range"`
	LabelsRange       hcl.Range `hcl:"labels,attr_value_range"`
	LabelsPrefixRange hcl.Range `hcl:"labels_prefix,attr_value_range"`
	CategoricalRange  hcl.Range `hcl:"categorical,attr_value_range"`
	NumericRange      hcl.Range `hcl:"numeric,attr_value_range"`
	IgnoreRange       hcl.Range `hcl:"ignore,attr_value_range"`
	FoldsFileRange    hcl.Range `hcl:"folds_file,attr_value_range"`
	TestPathRange     hcl.Range `hcl:"test_path,attr_value_range"`
	DelimiterRange    hcl.Range `hcl:"delimiter,attr_value_range"`
}

// Encoder declares one encoding step.
type Encoder struct {
	Name string
	Type string
	// Options holds the other attributes of the block.
	Options map[string]Param

	DeclRange, TypeRange hcl.Range
}

// Pipeline is an ordered list of encoder names.
type Pipeline struct {
	Name  string
	Steps []string `hcl:"steps"`
	// Label, when set, names the pipeline in tables, figures and file
	// names instead of Name (see Display).
	Label      string    `hcl:"label,optional"`
	LabelRange hcl.Range `hcl:"label,attr_value_range"`
	// Default marks the pipeline made of every encoder when the file
	// declares none.
	Default bool

	DeclRange  hcl.Range
	StepsRange hcl.Range `hcl:"steps,attr_value_range"`
}

// Param is a parameter value as written, with its location. A list given
// for a scalar parameter expands into one combination per element.
type Param struct {
	Value param.Value
	// Dist, when set, is the parameter's search space (Value is then
	// null): a tune block draws its candidates from it.
	Dist *Distribution
	// Range is the value's range, NameRange the parameter name's (the
	// attribute name, or the key in params = { … }).
	Range, NameRange hcl.Range
}

// Learner declares a learner plugin and its parameter grid.
type Learner struct {
	Name   string
	Plugin string
	Params map[string]Param
	// ClassWeight, when set, weighs the rows of every problem the learner
	// trains by their class.
	ClassWeight *ClassWeight
	// Tune, when set, tunes the list-valued parameters by inner
	// cross-validation instead of crossing them into the grid.
	Tune *Tune
	// Label, when set, names the learner in tables, figures and file
	// names instead of its name and fixed parameters (see Display).
	Label string

	DeclRange, PluginRange, ParamsRange, LabelRange hcl.Range
}

// Reduction declares a reduction scheme and its parameters.
type Reduction struct {
	Name   string
	Plugin string
	Scheme string
	Params map[string]Param
	// Datasets, when set, limits the reduction to these datasets (a user
	// code matrix fits one number of classes).
	Datasets      []string
	DatasetsRange hcl.Range
	// Learners, when set, limits the reduction to these learners.
	Learners      []string
	LearnersRange hcl.Range
	// ClassWeight, when set, weighs the rows of the reduction's problems
	// (for each binary problem, "balanced" counts its own positives and
	// negatives).
	ClassWeight *ClassWeight
	// Calibrate, when "platt" or "isotonic", makes the class probabilities
	// and the predicted class those of scikit-learn's
	// CalibratedClassifierCV(cv=5, ensemble=True): five models, each
	// trained on four fifths of the training part and calibrated on the
	// rest, none on the whole training part.
	Calibrate      string
	CalibrateRange hcl.Range
	// Label, when set, names the reduction in tables, figures and file
	// names instead of Name (see Display).
	Label string

	DeclRange, PluginRange, SchemeRange, LabelRange hcl.Range
}

// CV configures cross-validation.
type CV struct {
	Folds      int
	Repeats    int
	Stratified bool
	// Iterative (stratified = "iterative") stratifies multi-label data by
	// iterative stratification; multi-label data otherwise gets plain
	// shuffled k-fold.
	Iterative bool
	// FoldsFile, when set, gives a predefined fold per data row (resolved
	// against the experiment file's directory).
	FoldsFile string
	// Timeout bounds one fold of one cell, in seconds (0 = none); a
	// plugin that hangs fails only its own cells. Default DefaultTimeout.
	Timeout float64

	FoldsFileRange hcl.Range
	// FoldsRange is the range of the folds value; empty when defaulted.
	FoldsRange hcl.Range
	// RepeatsRange is the range of the repeats value; empty when
	// defaulted.
	RepeatsRange hcl.Range
	// StratifiedRange is the range of the stratified value; empty when
	// defaulted.
	StratifiedRange hcl.Range
	// Holdout, when in (0, 1), replaces k-fold by one random train/test
	// split with this fraction of test rows (stratified as Stratified says),
	// drawn afresh for each repeat.
	Holdout      float64
	HoldoutRange hcl.Range
}

// Output configures what a run writes.
type Output struct {
	// Dir is the results directory, resolved against the experiment file.
	Dir         string   `hcl:"dir,optional"`
	Formats     []string `hcl:"formats,optional"`
	Predictions bool     `hcl:"predictions,optional"`
	Baseline    string   `hcl:"baseline,optional"`
	Alpha       float64  `hcl:"alpha,optional"`
	// RankTimings ranks and tests timing metrics (fit_seconds,
	// predict_seconds) like the others; by default their tables show the
	// means only.
	RankTimings bool `hcl:"rank_timings,optional"`
	// Confusion names the rows (as labelled in the tables, e.g.
	// "logreg C=1 ova") whose confusion matrices are drawn.
	Confusion []string `hcl:"confusion,optional"`
	// Rope, when set (≥ 0), asks for the Bayesian comparisons with a
	// region of practical equivalence of this half-width, in the units of
	// each metric: every row against the baseline, or every pair of rows
	// with BayesPairs.
	Rope *float64 `hcl:"rope,optional"`
	// BayesPairs compares every pair of rows, not only each row with the
	// baseline (needs Rope).
	BayesPairs bool `hcl:"bayes_pairs,optional"`

	// Ranges of the values given (empty when not given).
	DirRange        hcl.Range `hcl:"dir,attr_value_range"`
	FormatsRange    hcl.Range `hcl:"formats,attr_value_range"`
	BaselineRange   hcl.Range `hcl:"baseline,attr_value_range"`
	AlphaRange      hcl.Range `hcl:"alpha,attr_value_range"`
	ConfusionRange  hcl.Range `hcl:"confusion,attr_value_range"`
	RopeRange       hcl.Range `hcl:"rope,attr_value_range"`
	BayesPairsRange hcl.Range `hcl:"bayes_pairs,attr_value_range"`
	// ConfusionRanges holds the range of each entry of Confusion (the
	// whole list's when it is not written as a literal list).
	ConfusionRanges []hcl.Range
}
