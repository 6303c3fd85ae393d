package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"slices"

	"github.com/polyclass/polyclass/framework/cellspec"
	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/software"
)

// Specs returns the spec of every cell of g (by cell index), computed by
// the build of bench b: everything that determines the cell's numbers (see
// package cellspec). It is derived from the resolved grid alone.
func Specs(g *Grid, b cellspec.Build) []*cellspec.Spec {
	folds := map[*Dataset]cellspec.Folds{}
	out := make([]*cellspec.Spec, len(g.Cells))
	for i, c := range g.Cells {
		f, ok := folds[c.Dataset]
		if !ok {
			f = foldsSpec(c.Dataset)
			folds[c.Dataset] = f
		}
		out[i] = cellSpec(g, c, f, b)
	}
	return out
}

// Digests returns the digest of every spec (cellspec.Spec.Digest).
func Digests(specs []*cellspec.Spec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Digest()
	}
	return out
}

// cellSpec is the spec of cell c of g, whose dataset's folds are f.
func cellSpec(g *Grid, c *Cell, f cellspec.Folds, b cellspec.Build) *cellspec.Spec {
	s := &cellspec.Spec{
		Format: cellspec.Format, Cell: c.ID().Key(), Seed: g.Experiment.Seed,
		Dataset: datasetSpec(c.Dataset), Folds: f,
		Pipeline:  pipelineSpec(g.Experiment.Encoders, c.Pipeline),
		Learner:   learnerSpec(c.Learner, c.Params),
		Reduction: reductionSpec(c.Reduction, c.RedParams),
		Metrics:   slices.Sorted(slices.Values(g.Metrics)),
		Bench:     b,
	}
	if w := c.ClassWeight(); w != nil {
		s.ClassWeight = w.String()
	}
	if t := c.Learner.Config.Tune; t != nil {
		s.Tune = &cellspec.Tune{Folds: t.Folds, Metric: c.Learner.TuneMetric, InnerSeed: t.InnerSeed}
		if !t.IsGrid() {
			s.Tune.Strategy, s.Tune.NIter = t.Strategy, t.NIter
			s.Tune.Candidates = len(c.Learner.Candidates)
		}
		if t.Halves() {
			s.Tune.Factor, s.Tune.MinResources, s.Tune.Aggressive = t.Factor, t.MinResources, t.AggressiveElimination
		}
		if t.OverParam() {
			s.Tune.Resource = t.Resource
		}
		s.Tune.MaxEvals = t.MaxEvals
		if t.MaxTime > 0 {
			s.Tune.MaxTime = t.MaxTime.String()
		}
	}
	return s
}

func datasetSpec(d *Dataset) cellspec.Dataset {
	c := d.Config
	return cellspec.Dataset{Name: c.Name, SHA256: d.SHA256, TestSHA256: d.TestSHA256,
		Target: c.Target, TargetDefaulted: c.TargetDefaulted, Labels: c.Labels, LabelsPrefix: c.LabelsPrefix,
		Categorical: c.Categorical, Numeric: c.Numeric, Ignore: c.Ignore, Missing: c.Missing, Delimiter: c.Delimiter,
		Classes: d.Classes, MultiLabel: d.MultiLabel}
}

// foldsSpec digests a dataset's fold assignment: per repeat, its number
// of rows and the fold of each (varints).
func foldsSpec(d *Dataset) cellspec.Folds {
	h := sha256.New()
	var buf [binary.MaxVarintLen64]byte
	for _, rep := range d.Folds {
		h.Write(buf[:binary.PutUvarint(buf[:], uint64(len(rep)))])
		for _, f := range rep {
			h.Write(buf[:binary.PutVarint(buf[:], int64(f))])
		}
	}
	return cellspec.Folds{Repeats: len(d.Folds), Folds: d.NumFolds, SHA256: hex.EncodeToString(h.Sum(nil))}
}

// pipelineSpec lists a pipeline's steps with every option, defaults
// included.
func pipelineSpec(encoders []*config.Encoder, p *Pipeline) []cellspec.Step {
	kinds := encode.Kinds()
	out := []cellspec.Step{}
	for _, name := range p.Config.Steps {
		i := slices.IndexFunc(encoders, func(e *config.Encoder) bool { return e.Name == name })
		if i < 0 {
			out = append(out, cellspec.Step{Name: name})
			continue
		}
		e := encoders[i]
		opts := param.Params{}
		for n, o := range e.Options {
			opts[n] = o.Value
		}
		out = append(out, cellspec.Step{Name: name, Type: e.Type, Options: paramsJSON(param.WithDefaults(kinds[e.Type].Options, opts))})
	}
	return out
}

func learnerSpec(l *Learner, params param.Params) cellspec.Learner {
	var specs []param.ParamSpec
	if l.Info != nil {
		specs = l.Info.Params
	}
	p := pluginSpec(l.Plugin, l.Plugin.Runtime())
	if l.Runtime != nil {
		p = pluginSpec(l.Plugin, l.Runtime) // what its parameters add included
	}
	return cellspec.Learner{Name: l.Config.Name, Plugin: p, Params: paramsJSON(param.WithDefaults(specs, params))}
}

func reductionSpec(r *Reduction, params param.Params) cellspec.Reduction {
	return cellspec.Reduction{Name: r.Config.Name, Scheme: r.Scheme.Name, Plugin: pluginSpec(r.Plugin, r.Plugin.Runtime()),
		Params: paramsJSON(param.WithDefaults(r.Scheme.Params, params)), Calibrate: r.Config.Calibrate}
}

// pluginSpec is a plugin program: its name, version, binary digest and
// runtime rt, each component's name and version (its path, where it is
// installed, tells people apart two installations of one version, which
// compute the same).
func pluginSpec(p *host.Plugin, rt []software.Component) cellspec.Plugin {
	if p == nil {
		return cellspec.Plugin{}
	}
	out := cellspec.Plugin{Name: p.Name, Version: p.Version(), SHA256: p.SHA256}
	for _, c := range rt {
		if out.Runtime == nil {
			out.Runtime = map[string]string{}
		}
		if v, dup := out.Runtime[c.Name]; dup {
			out.Runtime[c.Name] = v + ", " + c.Version
		} else {
			out.Runtime[c.Name] = c.Version
		}
	}
	return out
}

// paramsJSON gives parameter values as JSON values: numbers, strings,
// booleans and lists of them.
func paramsJSON(p param.Params) map[string]any {
	out := make(map[string]any, len(p))
	for n, v := range p {
		out[n] = valueJSON(v)
	}
	return out
}

func valueJSON(v param.Value) any {
	switch v.Kind() {
	case param.NumberValue:
		return v.Num()
	case param.StringValue:
		return v.Str()
	case param.BoolValue:
		return v.Truth()
	case param.ListValue:
		out := make([]any, len(v.Elems()))
		for i, e := range v.Elems() {
			out[i] = valueJSON(e)
		}
		return out
	}
	return nil
}

// schemaAccount accounts for every field of the experiment schema (the
// types of package config, by TYPE.FIELD): what the cell spec holds of it,
// or why it does not change a cell's numbers. TestSpecAccountsForSchema
// fails on a field missing here, and checks each claim:
//
//	"spec PATH"        the spec copies the field to PATH: changing the field
//	                   changes the digest
//	"from PATH: HOW"   the spec holds at PATH what the field determines
//	"not: REASON"      the field does not change a cell's numbers
//
// Fields of type hcl.Range (source locations, for error messages) are
// not listed: they never change a number.
var schemaAccount = map[string]string{
	"Experiment.Name":       "not: names the results directory and the tables; no seed derives from it",
	"Experiment.Seed":       "spec seed",
	"Experiment.File":       "not: where the experiment file is; its blocks are in the spec",
	"Experiment.Dir":        "not: the directory relative paths start from; the files' contents are in the spec",
	"Experiment.Source":     "not: the file's text, recorded in the manifest; its blocks are in the spec",
	"Experiment.Partial":    "not: set only with a syntax error, which stops the file before any cell",
	"Experiment.InText":     "not: set only with a syntax error, which stops the file before any cell",
	"Experiment.Datasets":   "from dataset: the cell's dataset block",
	"Experiment.Encoders":   "from pipeline: the cell's pipeline steps are encoder blocks",
	"Experiment.Pipelines":  "from pipeline: the cell's pipeline block",
	"Experiment.Learners":   "from learner: the cell's learner block",
	"Experiment.Reductions": "from reduction: the cell's reduction block",
	"Experiment.CV":         "from folds: the fold assignment the cv block draws",
	"Experiment.Metrics":    "from metrics: the metrics the grid computes",
	"Experiment.Output":     "not: what is written and how, after the numbers",

	"Dataset.Name":            "spec dataset.name",
	"Dataset.Path":            "from dataset.sha256: the file's content (the path only says where it is)",
	"Dataset.Target":          "spec dataset.target",
	"Dataset.TargetDefaulted": "spec dataset.target_defaulted",
	"Dataset.Labels":          "spec dataset.labels",
	"Dataset.LabelsPrefix":    "spec dataset.labels_prefix",
	"Dataset.Categorical":     "spec dataset.categorical",
	"Dataset.Numeric":         "spec dataset.numeric",
	"Dataset.Ignore":          "spec dataset.ignore",
	"Dataset.Missing":         "spec dataset.missing",
	"Dataset.Delimiter":       "spec dataset.delimiter",
	"Dataset.FoldsFile":       "from folds.sha256: the folds the file gives",
	"Dataset.TestPath":        "from dataset.test_sha256: the test file's content",

	"Encoder.Name":    "spec pipeline.name",
	"Encoder.Type":    "spec pipeline.type",
	"Encoder.Options": "spec pipeline.options",

	"Param.Value": "from learner.params: each cell's values (a list expanded, defaults added); also reduction.params and pipeline.options",

	"Pipeline.Name":    "from cell: the cell's key names its pipeline (encoder column)",
	"Pipeline.Steps":   "from pipeline: the steps in order",
	"Pipeline.Default": "not: marks the pipeline bench makes of every encoder; its steps are in the spec",
	"Pipeline.Label":   "not: the pipeline's name in the tables, figures and file names",

	"Learner.Name":        "spec learner.name",
	"Learner.Plugin":      "from learner.plugin: the plugin's name, version, binary digest and runtime",
	"Learner.Params":      "from learner.params: the cell's values, defaults added",
	"Learner.ClassWeight": "from class_weight: the class_weight that applies (the reduction's, else the learner's)",
	"Learner.Tune":        "from tune: the inner cross-validation",
	"Learner.Label":       "not: the learner's name in the tables, figures and file names",

	"ClassWeight.Balanced": "spec class_weight",
	"ClassWeight.ByClass":  "spec class_weight",

	"Tune.Folds":                 "spec tune.folds",
	"Tune.Metric":                "from tune.metric: the metric that chooses (default: the experiment's first)",
	"Tune.InnerSeed":             "spec tune.inner_seed",
	"Tune.Strategy":              "from tune: tune.strategy, omitted for the grid (whose specs read as before strategies existed)",
	"Tune.NIter":                 "from tune: tune.n_iter, with tune.candidates (for the random and halving strategies)",
	"Tune.Factor":                "from tune: tune.factor (halving and hyperband only)",
	"Tune.MinResources":          "from tune: tune.min_resources (halving and hyperband only; 0: \"exhaust\", -1: \"smallest\")",
	"Tune.Resource":              "from tune: tune.resource, omitted for n_samples (the budget parameter's largest value is in the learner's params)",
	"Tune.AggressiveElimination": "from tune: tune.aggressive_elimination (halving only)",
	"Tune.MaxEvals":              "from tune: tune.max_evals (omitted when not set)",
	"Tune.MaxTime":               "from tune: tune.max_time, a Go duration (omitted when not set; the numbers then also depend on the machine)",
	"Param.Dist":                 "from learner.params: the search space as written (loguniform(0.001, 1000)); the draws follow from it and the seed",

	"Distribution.Kind":    "from learner.params: the search space as written",
	"Distribution.Low":     "from learner.params: the search space as written",
	"Distribution.High":    "from learner.params: the search space as written",
	"Distribution.Choices": "from learner.params: the search space as written",

	"Reduction.Name":        "spec reduction.name",
	"Reduction.Plugin":      "from reduction.plugin: the plugin's name, version, binary digest and runtime",
	"Reduction.Scheme":      "from reduction.scheme: the scheme the plugin resolved",
	"Reduction.Params":      "from reduction.params: the cell's values, defaults added",
	"Reduction.Datasets":    "not: decides which cells exist, not their numbers",
	"Reduction.Learners":    "not: decides which cells exist, not their numbers",
	"Reduction.ClassWeight": "from class_weight: the class_weight that applies",
	"Reduction.Calibrate":   "spec reduction.calibrate",
	"Reduction.Label":       "not: the reduction's name in the tables, figures and file names",

	"CV.Folds":      "from folds: the fold assignment (folds.folds counts them)",
	"CV.Repeats":    "from folds: the fold assignment (folds.repeats counts them)",
	"CV.Stratified": "from folds.sha256: the fold assignment",
	"CV.Iterative":  "from folds.sha256: the fold assignment",
	"CV.FoldsFile":  "from folds.sha256: the folds the file gives",
	"CV.Timeout":    "not: bounds a fold's time; a fold that runs out fails its cell, which a later run computes again",
	"CV.Holdout":    "from folds.sha256: the split drawn",

	"Output.Dir":         "not: where the results go",
	"Output.Formats":     "not: which files show the numbers",
	"Output.Predictions": "not: whether cells keep their per-row predictions; a cell without them is computed again when they are asked for",
	"Output.Baseline":    "not: which row the tables test the others against",
	"Output.Alpha":       "not: the level of the tables' tests",
	"Output.RankTimings": "not: whether the tables rank timings",
	"Output.Confusion":   "not: which confusion matrices are drawn",
	"Output.Rope":        "not: the tables' Bayesian comparisons, computed from the cells' scores",
	"Output.BayesPairs":  "not: which rows the tables' Bayesian comparisons pair",
}
