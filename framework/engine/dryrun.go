package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/safetext"
)

// dryRuns runs each pipeline once on each dataset and plans each
// reduction once on each dataset it covers, for each of its parameter
// sets: a user code matrix that does not fit the classes is an error at
// its location now, not a failed cell later.
func (r *resolver) dryRuns(b *bound) {
	g := b.grid
	ec := encoderColumns{}
	for _, d := range g.Datasets {
		for _, p := range g.Pipelines {
			if r.ctx.Err() != nil {
				return
			}
			r.encodable(d, p, ec)
		}
	}
	r.reportEncoderColumns(ec)
	var fails []planFailure
	planned := map[*Reduction]bool{}
	for _, d := range g.Datasets {
		for _, red := range g.Reductions {
			if !red.covers(d) || red.Scheme.MultiLabel != d.MultiLabel || red.StartErr != nil {
				continue
			}
			planned[red] = true
			for _, rp := range b.redParams[red] {
				if f := r.dryRun(g, d, red, rp); f != nil {
					fails = append(fails, *f)
				}
			}
		}
	}
	for _, red := range g.Reductions {
		if !planned[red] && red.StartErr == nil {
			fails = append(fails, r.checkScheme(red, b.redParams[red])...)
		}
	}
	r.reportPlanFailures(fails)
}

// checkScheme asks the reducer of red, a reduction that meets no dataset
// that loaded, to check each of its parameter sets without data
// (host.ReducerClient.CheckScheme): a code matrix's own faults are then
// reported in the same pass as the data's. Its refusals have no dataset.
func (r *resolver) checkScheme(red *Reduction, sets []param.Params) []planFailure {
	var fails []planFailure
	for _, params := range sets {
		if r.ctx.Err() != nil {
			return fails
		}
		var check host.ParamCheck
		err := r.pluginCall(red.Plugin, "CheckScheme", func(ctx context.Context) (err error) {
			check, err = red.Plugin.Reducer.CheckScheme(ctx, red.Config.Scheme, params)
			return err
		})
		if errors.Is(err, errHung) {
			return fails
		}
		label := red.Label(params)
		if err != nil {
			fails = append(fails, planFailure{rng: red.Config.SchemeRange, label: label, err: err.Error()})
			continue
		}
		for _, p := range check.Problems {
			rng := red.Config.SchemeRange
			msg := p.Message
			if cp, ok := red.Config.Params[p.Param]; ok {
				rng, msg = cp.Range, p.Param+": "+p.Message
			}
			fails = append(fails, planFailure{rng: rng, label: label, err: msg})
		}
	}
	return fails
}

// planFailure is a reducer's refusal to plan a reduction (its label) on
// a dataset: the error, where it points, and the dataset as the message
// names it (its name, and its classes).
type planFailure struct {
	rng     hcl.Range
	label   string
	dataset string
	err     string
}

// reportPlanFailures reports each failure once: a reduction refused on
// several datasets for the same reason at the same place (a code
// matrix's bad entry and identical rows, whatever the data) is one error
// naming those datasets, not one per dataset.
func (r *resolver) reportPlanFailures(fails []planFailure) {
	type key struct {
		rng        hcl.Range
		label, err string
	}
	var order []key
	datasets := map[key][]string{}
	for _, f := range fails {
		k := key{f.rng, f.label, f.err}
		if datasets[k] == nil {
			order = append(order, k)
		}
		datasets[k] = append(datasets[k], f.dataset)
	}
	for _, k := range order {
		ds := datasets[k]
		if ds[0] == "" { // checked without data (checkScheme)
			r.errorf(k.rng, "Invalid reduction", "Reduction %s: %s", k.label, k.err)
			continue
		}
		which := "dataset " + ds[0]
		if len(ds) > 1 {
			which = "datasets " + strings.Join(ds[:len(ds)-1], ", ") + " and " + ds[len(ds)-1]
		}
		r.errorf(k.rng, "Invalid reduction", "Reduction %s on %s: %s", k.label, which, k.err)
	}
}

// dryRun plans reduction red with parameters params on dataset d, and
// returns the reducer's refusal (nil when it planned).
func (r *resolver) dryRun(g *Grid, d *Dataset, red *Reduction, params param.Params) *planFailure {
	var plan plugin.Plan
	err := r.pluginCall(red.Plugin, "Plan", func(ctx context.Context) (err error) {
		plan, err = red.Plugin.Reducer.Plan(ctx, planRequest(r.exp.Seed, d, red, params))
		return err
	})
	label := red.Label(params)
	if errors.Is(err, errHung) {
		return nil
	}
	if err != nil {
		// Point at the parameter the plugin blames (its error's structured
		// field), else at the scheme.
		rng := red.Config.SchemeRange
		for _, name := range host.FaultParams(err) {
			if p, ok := red.Config.Params[name]; ok {
				rng = p.Range
				break
			}
		}
		return &planFailure{rng: rng, label: label, err: err.Error(),
			dataset: fmt.Sprintf("%q (%d classes: %s)", d.Config.Name, d.K(), safetext.Few(d.Classes, safetext.Listed, nil))}
	}
	g.Plans = append(g.Plans, PlanInfo{Dataset: d.Config.Name, Reduction: label, Description: plan.Description})
	if pr, ok := fewestProblemRows(d, plan.Problems); ok {
		if r.problemRows == nil {
			r.problemRows = map[dsRed]problemRows{}
		}
		k := dsRed{d, red}
		if prev, seen := r.problemRows[k]; !seen || pr.Rows < prev.Rows {
			r.problemRows[k] = pr
		}
	}
	if plan.Code != nil {
		g.Codes = append(g.Codes, CodeInfo{Dataset: d.Config.Name, Reduction: label, Diagnostics: plan.Diagnostics, Warnings: plan.Warnings})
	}
	return nil
}

// encodable runs pipeline p's steps once on every row of dataset d, as
// each fold will on its own rows, records the shape of the design matrix
// they make (for denseBudgets), and reports what would fail every fold:
// categorical columns left without an encoder, and missing values that no
// impute step fills, located in the data file. A missing value of a
// categorical column is an error too, at the step that encodes the column
// without an impute step before it: the run would not fail, but onehot
// and hash would silently encode it as zeros, counts as a level of its
// own. It records in ec what each step's columns option meets.
func (r *resolver) encodable(d *Dataset, p *Pipeline, ec encoderColumns) {
	c := d.Config
	train := make([]int, d.Table.NumRows)
	for i := range train {
		train[i] = i
	}
	ctx := &encode.Context{Train: train, Labels: d.Labels, K: d.K(), Seed: r.exp.Seed}
	f := d.Features
	steps := "no steps"
	if len(p.Config.Steps) > 0 {
		steps = "steps " + strings.Join(p.Config.Steps, ", ")
	}
	fix := "declare an impute encoder, encoder \"impute\" { type = \"impute\" }, before the other encoders (the default pipeline takes them in file order)"
	if !p.Config.Default {
		fix = "declare encoder \"impute\" { type = \"impute\" } and put it first in the pipeline's steps"
	}
	for i, s := range p.Steps {
		var err error
		ctx.Last = i == len(p.Steps)-1
		before := f
		if e := r.encoder(p.Config.Steps[i]); e != nil {
			ec.stepColumns(e, d, p, f)
		}
		if f, err = s.FitTransform(f, ctx); err != nil {
			// Fitted on every row it fails; a fold's rows may still do.
			// A cell fails when one of its folds does: a failing fold
			// fails every cell of the dataset with the pipeline.
			if fold, step, ferr := r.foldFailure(d, p); ferr != nil {
				r.errorf(r.encoderRange(p.Config.Steps[step], c.PathRange), "Pipeline fails in every cell",
					"Dataset %q, pipeline %q step %d (%s), fitted on the training rows of fold %d (repeat 0) as the run fits it: %v; every cell of dataset %q with pipeline %q would fail.",
					c.Name, p.Config.Name, step+1, p.Config.Steps[step], fold, ferr, c.Name, p.Config.Name)
				return
			}
			r.warnf(c.PathRange, "Pipeline fails on the whole dataset", "Dataset %q, pipeline %q step %d (%s), fitted on every row: %v",
				c.Name, p.Config.Name, i+1, p.Config.Steps[i], err)
			return
		}
		if col, row, count := encodedMissing(before, f); col != "" {
			r.errorf(c.PathRange, "Missing values without impute",
				"Dataset %q: %s categorical column %q has a missing value (data row %d; %d missing value(s) in the column), and pipeline %q (%s) encodes the column at step %d (%s) with no impute step before it: the encoder would silently take a missing value for no level at all (onehot and hash: zeros) or for a level of its own (counts). To fix it, %s.",
				c.Name, r.locate(d, row, col), col, rowInFile(d, row)+1, count, p.Config.Name, steps, i+1, p.Config.Steps[i], fix)
			return
		}
	}
	if len(f.Cat) > 0 {
		names := make([]string, len(f.Cat))
		for i, col := range f.Cat {
			names[i] = fmt.Sprintf("%q", col.Name)
		}
		r.errorf(c.PathRange, "Categorical columns without an encoder",
			"Dataset %q: column(s) %s hold text, and pipeline %q (%s) does not encode them, so every fold would fail. Add an encoder such as onehot to the pipeline, or list the columns in ignore.",
			c.Name, strings.Join(names, ", "), p.Config.Name, steps)
		return
	}
	col, row, count := firstMissing(f)
	if col == "" {
		cols, csr := f.DesignShape()
		r.designs[designKey{d, p}] = designShape{f.Rows, cols, csr}
		return
	}
	r.errorf(c.PathRange, "Missing values without impute",
		"Dataset %q: %s column %q has a missing value (data row %d; %d missing value(s) in all), and pipeline %q (%s) has no impute step that fills it, so every fold would fail. To fix it, %s.",
		c.Name, r.locate(d, row, col), col, rowInFile(d, row)+1, count, p.Config.Name, steps, fix)
}

// foldFailure fits pipeline p on the training rows of each fold of
// dataset d's first repeat, with each fold's encoding seed, as the run
// does, and returns the first fold whose fit fails, the index of the step
// that failed and its error; the error is nil when every fold's fit
// succeeds (or ctx ends).
func (r *resolver) foldFailure(d *Dataset, p *Pipeline) (fold, step int, err error) {
	if len(d.Folds) == 0 {
		return 0, 0, nil
	}
	for fold := range d.NumFolds {
		if r.ctx.Err() != nil {
			return 0, 0, nil
		}
		train, _ := cv.Split(d.Folds[0], fold)
		if _, step, err := fitSteps(d, p, train, encodeSeed(r.exp.Seed, d, p, 0, fold)); err != nil {
			return fold, step, err
		}
	}
	return 0, 0, nil
}

// encoderRange is the location of the encoder block name, else other.
func (r *resolver) encoderRange(name string, other hcl.Range) hcl.Range {
	for _, e := range r.exp.Encoders {
		if e.Name == name {
			return e.DeclRange
		}
	}
	return other
}

// encodedMissing returns a categorical column of before (the frame a
// step took) that holds missing values and that the step encoded (it is
// no longer among after's categorical columns), with the row of its first
// missing value and their count; "" when there is none. An impute step
// fills the missing values instead, and a column a step leaves alone is
// checked at the step that encodes it.
func encodedMissing(before, after *encode.Frame) (col string, row, count int) {
	kept := map[string]bool{}
	for _, c := range after.Cat {
		kept[c.Name] = true
	}
	for _, c := range before.Cat {
		if kept[c.Name] {
			continue
		}
		row, count = -1, 0
		for i, code := range c.Codes {
			if code < 0 {
				if row < 0 {
					row = i
				}
				count++
			}
		}
		if count > 0 {
			return c.Name, row, count
		}
	}
	return "", 0, 0
}

// firstMissing returns the column and row of the first missing value of
// the frame's numeric columns (lowest row, then column order) and the
// number of missing values; "" when there is none.
func firstMissing(f *encode.Frame) (col string, row, count int) {
	row = -1
	for _, nc := range f.Num {
		for i, v := range nc.Vals {
			if v != v {
				count++
				if row < 0 || i < row {
					col, row = nc.Name, i
				}
			}
		}
	}
	return col, row, count
}
