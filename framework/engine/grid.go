// Package engine resolves an experiment against its data and plugins into a
// grid of cells and cross-validates every cell, handing each finished cell
// to a Sink at once (package results writes it to disk).
package engine

import (
	"fmt"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/dataset"
	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/plugin"
)

// Dataset is a loaded dataset with its target and fold assignments
// (package dataset binds a dataset block to it).
type Dataset = dataset.Dataset

// locate names the place of table row i of dataset d in column name
// (Dataset.Locate), for the dry runs' messages.
func (ck *checker) locate(d *Dataset, i int, name string) string { return d.Locate(i, name) }

// rowInFile returns the 0-based row of table row i of dataset d in its
// file (Dataset.RowInFile).
func rowInFile(d *Dataset, i int) int { return d.RowInFile(i) }

// Pipeline is a resolved pipeline: its steps in order.
type Pipeline struct {
	Config *config.Pipeline
	Steps  []encode.Step
}

// Learner is a learner block with its running plugin (or, in a run,
// the stand-in of a plugin that did not start: StartErr).
type Learner struct {
	Config *config.Learner
	Plugin *host.Plugin
	Info   *plugin.LearnerInfo
	// Candidates are the parameter combinations a tuned learner (one with
	// a tune block) chooses from on each fold, in grid order; Tuned names
	// the parameters that vary, TuneMetric the metric that chooses. A
	// learner without a tune block has no Candidates: its combinations are
	// crossed into the grid.
	Candidates []param.Params
	Tuned      map[string]bool
	TuneMetric string
	// MaxResource is the largest value of the budget parameter a halving
	// or hyperband search grows (tune's resource = "max_iter"): the
	// learner's value of it, or the plugin's default; 0 under n_samples.
	MaxResource int
	// Runtime is the software the learner's cells compute with: its
	// plugin's runtime report, then what its parameters add (the
	// plugin's answers to CheckParams, such as the version of the package
	// an estimator comes from), each component once.
	Runtime []plugin.Component
	// StartErr, when set, is why the learner's plugin did not start
	// (ResolveOptions.FailUnstarted): Plugin is a stand-in holding its
	// binary (host.Host.Unstarted), Info is nil, the grid's checks of
	// what the plugin offers pass over the learner, and every fold of
	// its cells fails with StartErr, as a fold whose plugin crashed.
	StartErr error
}

// Reduction is a reduction block with its running plugin (or, in a run,
// the stand-in of a plugin that did not start: StartErr).
type Reduction struct {
	Config *config.Reduction
	Plugin *host.Plugin
	Scheme plugin.Scheme
	// Varied names the parameters given as a list that expands.
	Varied map[string]bool
	// StartErr, when set, is why the reduction's plugin did not start
	// (ResolveOptions.FailUnstarted): Plugin is a stand-in holding its
	// binary, Scheme holds the scheme's name alone, the grid's checks of
	// what the scheme is and its dry runs pass over the reduction, and
	// every fold of its cells fails with StartErr.
	StartErr error
}

// Cell is one combination of the grid.
type Cell struct {
	Index     int
	Dataset   *Dataset
	Pipeline  *Pipeline
	Learner   *Learner
	Params    param.Params
	Reduction *Reduction
	RedParams param.Params
	// Weights, when set, weighs the rows of every problem the cell's
	// learner trains (the reduction's class_weight, else the learner's).
	Weights *ClassWeights
	// denseOver, when set, is the *DenseBudgetError validate warned of
	// for the cell (resolver.denseBudgets): its dataset's design matrix
	// under its pipeline, fitted on every row, is over the dense budget,
	// and every fold of the cell fails with it.
	denseOver error
}

// startErr returns why the plugin of the cell's learner, else of its
// reduction, did not start (Learner.StartErr, Reduction.StartErr), or nil.
func (c *Cell) startErr() error {
	if c.Learner.StartErr != nil {
		return c.Learner.StartErr
	}
	return c.Reduction.StartErr
}

// ClassWeight returns the class_weight setting behind c.Weights, or nil.
func (c *Cell) ClassWeight() *config.ClassWeight { return classWeight(c.Learner, c.Reduction) }

// classWeight returns the class_weight that applies to cells of learner l
// under reduction red: the reduction's, else the learner's.
func classWeight(l *Learner, red *Reduction) *config.ClassWeight {
	if red.Config.ClassWeight != nil {
		return red.Config.ClassWeight
	}
	return l.Config.ClassWeight
}

// ID returns the cell's coordinates.
func (c *Cell) ID() outcome.ID {
	params := c.Params.String()
	if c.Learner.Candidates != nil {
		params += " (tuned)"
	}
	return outcome.ID{
		Dataset: c.Dataset.Config.Name, Encoder: c.Pipeline.Config.Name,
		Learner: c.Learner.Config.Name, Params: params, Reduction: c.Reduction.Label(c.RedParams),
	}
}

// Label names the reduction with one of its parameter sets. It names only
// the parameters its block varies (decode = ["hamming", "loss:exp"]); the
// others are part of its name.
func (red *Reduction) Label(params param.Params) string {
	varied := param.Params{}
	for n, v := range params {
		if red.Varied[n] {
			varied[n] = v
		}
	}
	if len(varied) == 0 {
		return red.Config.Name
	}
	return red.Config.Name + "[" + varied.String() + "]"
}

// CodeInfo is the plan a reduction makes for a dataset, as checked when
// the grid is resolved: its code-matrix diagnostics and warnings.
type CodeInfo struct {
	Dataset, Reduction string
	Diagnostics        *plugin.CodeDiagnostics
	Warnings           []string
}

// CodeWarnings returns the warnings of the code matrices (Codes), each
// naming its dataset and reduction: "dataset d, reduction e: column 1
// lacks a +1 or a −1: …".
func (g *Grid) CodeWarnings() []string {
	var out []string
	for _, c := range g.Codes {
		for _, w := range c.Warnings {
			out = append(out, fmt.Sprintf("dataset %s, reduction %s: %s", c.Dataset, c.Reduction, w))
		}
	}
	return out
}

// Grid is a resolved experiment.
type Grid struct {
	// Host runs the plugins; cells ask it for a plugin at every fold, so
	// a plugin that died is started again.
	Host *host.Host
	// Codes holds one CodeInfo per dataset × reduction × parameter set.
	Codes []CodeInfo
	// Plans holds what each reduction's plan says of itself, once per
	// dataset × reduction × parameter set (see Setup).
	Plans      []PlanInfo
	Experiment *config.Experiment
	Datasets   []*Dataset
	Pipelines  []*Pipeline
	Learners   []*Learner
	Reductions []*Reduction
	Cells      []*Cell
	Metrics    []string

	// learnerParams and redParams hold the parameter sets of each
	// learner's and each reduction's cells, as Resolve bound them (see
	// Declared); nil in a grid made otherwise.
	learnerParams map[*Learner][]param.Params
	redParams     map[*Reduction][]param.Params
}

// IDs returns the coordinates of every cell, in cell order.
func (g *Grid) IDs() []outcome.ID {
	out := make([]outcome.ID, len(g.Cells))
	for i, c := range g.Cells {
		out[i] = c.ID()
	}
	return out
}

// Plugins returns every plugin the grid uses, once each: the learners'
// first, in declaration order, then the reducers'.
func (g *Grid) Plugins() []*host.Plugin {
	var out []*host.Plugin
	seen := map[string]bool{}
	add := func(p *host.Plugin) {
		if !seen[p.Name] {
			seen[p.Name] = true
			out = append(out, p)
		}
	}
	for _, l := range g.Learners {
		add(l.Plugin)
	}
	for _, r := range g.Reductions {
		add(r.Plugin)
	}
	return out
}

// MaxParamSets bounds the parameter sets the lists of one learner's or
// reduction's parameters make (config.MaxParamSets); MaxCells bounds the
// cells of an experiment. Three lists of 999 values made validate
// allocate a billion parameter sets until it ran out of memory.
const (
	MaxParamSets = config.MaxParamSets
	MaxCells     = 1_000_000
)
