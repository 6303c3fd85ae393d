package engine

import (
	"context"
	"fmt"

	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/sdk"
)

// Fits counts the models one fold of a cell trains, by problem kind.
type Fits struct {
	Binary, Multiclass, Regression int
}

// Total returns the number of models of every kind.
func (f Fits) Total() int { return f.Binary + f.Multiclass + f.Regression }

// Add returns f + o.
func (f Fits) Add(o Fits) Fits {
	return Fits{Binary: f.Binary + o.Binary, Multiclass: f.Multiclass + o.Multiclass, Regression: f.Regression + o.Regression}
}

// Scale returns n·f.
func (f Fits) Scale(n int) Fits {
	return Fits{Binary: n * f.Binary, Multiclass: n * f.Multiclass, Regression: n * f.Regression}
}

// maxStages bounds the stages of a reduction, as a fold does.
const maxStages = 8

// planRequest is the request of the validation dry run: the reduction
// planned on every row of the dataset.
func planRequest(seed uint64, d *Dataset, red *Reduction, params sdk.Params) sdk.PlanRequest {
	req := sdk.PlanRequest{
		Scheme: red.Scheme.Name, Params: params, NumClasses: d.K(), Labels: d.Labels,
		ClassNames: d.Classes, Seed: cv.Seed(seed, "plan", d.Config.Name, red.Config.Name),
	}
	if d.MultiLabel {
		req.Labels, req.LabelMatrix = nil, d.LabelMatrix
	}
	return req
}

// FoldFits asks the cell's reducer for its plan on every row of the
// cell's dataset, following every stage as a fold does, and counts the
// models one fold trains. A stage that asks for another trains its P
// problems on each of its k inner folds and once on the whole training
// part, (k+1)·P models; the last stage trains its problems once. A fold
// plans on its training rows only, so the count is exact when every class
// occurs in every training part (as stratified folds ensure).
func (g *Grid) FoldFits(ctx context.Context, c *Cell) (Fits, error) {
	req := planRequest(g.Experiment.Seed, c.Dataset, c.Reduction, c.RedParams)
	var fits Fits
	for {
		plan, err := c.Reduction.Plugin.Reducer.Plan(ctx, req)
		if err != nil {
			return Fits{}, fmt.Errorf("reduction %s on dataset %s, stage %d: %w", c.Reduction.Label(c.RedParams), c.Dataset.Config.Name, req.Stage, err)
		}
		var stage Fits
		for _, p := range plan.Problems {
			switch p.Kind {
			case sdk.Binary:
				stage.Binary++
			case sdk.Regression:
				stage.Regression++
			default:
				stage.Multiclass++
			}
		}
		if plan.NextStage == nil {
			return fits.Add(stage), nil
		}
		if req.Stage >= maxStages {
			return Fits{}, fmt.Errorf("reducer %s asks for more than %d stages", c.Reduction.Plugin.Name, maxStages)
		}
		fits = fits.Add(stage.Scale(plan.NextStage.InnerFolds + 1))
		req.Stage++
		req.State = plan.State
	}
}

// FitRounds is how many times one fold of cell c trains the reducer's
// problems: once on the training part, plus, for a tuned learner, once per
// inner fold and candidate (tune folds × candidates), plus, when the
// reduction calibrates, once per calibration fold (CalibrationFolds).
// FoldFits × FitRounds is the models one fold trains.
func (c *Cell) FitRounds() int {
	n := 1
	if l := c.Learner; l.Candidates != nil {
		n += l.Config.Tune.Folds * len(l.Candidates)
	}
	if c.Reduction.Config.Calibrate != "" {
		n += CalibrationFolds
	}
	return n
}
