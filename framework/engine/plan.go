package engine

import (
	"context"
	"fmt"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/plugin"
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
func planRequest(seed uint64, d *Dataset, red *Reduction, params param.Params) plugin.PlanRequest {
	req := plugin.PlanRequest{
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
	var fits Fits
	err := g.planStages(ctx, c, func(problems []plugin.Problem, times int) {
		var stage Fits
		for _, p := range problems {
			switch p.Kind {
			case plugin.Binary:
				stage.Binary++
			case plugin.Regression:
				stage.Regression++
			default:
				stage.Multiclass++
			}
		}
		fits = fits.Add(stage.Scale(times))
	})
	return fits, err
}

// FoldRows estimates the work of one fold of cell c as FoldFits plans it:
// the rows every model trains on (a binary or multiclass problem leaves out
// the rows whose target is 0, as one-vs-one does), a multiclass model
// counting K times, the rows of the whole dataset standing for the
// training part's. Tuning and calibration rounds are not included (see
// FitRounds).
func (g *Grid) FoldRows(ctx context.Context, c *Cell) (int64, error) {
	var rows int64
	err := g.planStages(ctx, c, func(problems []plugin.Problem, times int) {
		for _, p := range problems {
			var n int64
			for i := range p.Rows() {
				if p.Uses(i) {
					n++
				}
			}
			if p.Kind == plugin.Multiclass && p.NumClasses > 1 {
				n *= int64(p.NumClasses)
			}
			rows += n * int64(times)
		}
	})
	return rows, err
}

// planStages follows the reducer's plan of cell c on every row of its
// dataset through every stage, calling fn with each stage's problems and
// the times a fold trains them: k+1 for a stage that asks for another with
// k inner folds, 1 for the last.
func (g *Grid) planStages(ctx context.Context, c *Cell, fn func(problems []plugin.Problem, times int)) error {
	req := planRequest(g.Experiment.Seed, c.Dataset, c.Reduction, c.RedParams)
	for {
		plan, err := c.Reduction.Plugin.Reducer.Plan(ctx, req)
		if err != nil {
			return fmt.Errorf("reduction %s on dataset %s, stage %d: %w", c.Reduction.Label(c.RedParams), c.Dataset.Config.Name, req.Stage, err)
		}
		if plan.NextStage == nil {
			fn(plan.Problems, 1)
			return nil
		}
		if req.Stage >= maxStages {
			return fmt.Errorf("reducer %s asks for more than %d stages", c.Reduction.Plugin.Name, maxStages)
		}
		fn(plan.Problems, plan.NextStage.InnerFolds+1)
		req.Stage++
		req.State = plan.State
	}
}

// FitRounds is how many times one fold of cell c trains the reducer's
// problems: once on the training part, or, when the reduction calibrates,
// once per calibration fold instead (CalibrationFolds: the calibrated
// models alone predict); plus, for a tuned learner, as many again per
// inner fold and candidate (tune folds × candidates, or the candidates of
// every halving round: tuneCandidateFits). FoldFits × FitRounds
// is the models one fold trains.
func (c *Cell) FitRounds() int {
	perScore := 1
	if c.Reduction.Config.Calibrate != "" {
		perScore = CalibrationFolds
	}
	n := perScore
	if l := c.Learner; l.Candidates != nil {
		n += l.Config.Tune.Folds * c.tuneCandidateFits() * perScore
	}
	return n
}

// tuneCandidateFits is the candidates one inner fold of a tuned cell
// trains: every candidate (the first max_evals of a random search), or
// under successive halving the sum of its rounds' candidates, replays of
// the previous round's rows left out, under hyperband the sum of its
// brackets' (planned for an outer training part of the dataset's rows
// less one fold; each round's fits train on fewer rows; what a budget or
// hyperband's reuse of a score saves is not foreseen).
func (c *Cell) tuneCandidateFits() int {
	l, d := c.Learner, c.Dataset
	t := l.Config.Tune
	if !t.Halves() || len(d.Folds) == 0 || d.NumFolds == 0 {
		if t.Strategy == config.StrategyRandom && t.MaxEvals > 0 {
			return min(len(l.Candidates), t.MaxEvals)
		}
		return len(l.Candidates)
	}
	rows := len(d.Folds[0])
	classes := d.K()
	if d.MultiLabel {
		classes = 2
	}
	most := rows - rows/d.NumFolds
	if t.OverParam() {
		most = l.MaxResource
	}
	rounds, replays, err := c.tuneRounds(most, classes)
	if err != nil {
		return len(l.Candidates)
	}
	n := 0
	for i, r := range rounds {
		if i == 0 || !replays || r.resources != rounds[i-1].resources { // a replay fits nothing (see halve)
			n += r.candidates
		}
	}
	return n
}

// tuneRounds is the rounds of a halving or hyperband search (hyperband's
// brackets one after the other) on rows outer training rows, and whether
// a round on the rows of the round before replays it (halving's
// aggressive elimination, never hyperband's).
func (c *Cell) tuneRounds(rows, classes int) ([]halvingRound, bool, error) {
	l := c.Learner
	t := l.Config.Tune
	if t.Strategy != config.StrategyHyperband {
		r, err := halvingSchedule(len(l.Candidates), rows, classes, t.Folds, t)
		return r, true, err
	}
	minRes := t.MinResources
	if minRes <= 0 {
		minRes = smallestResource(t, t.Folds, classes)
	}
	if minRes > rows {
		return nil, false, tooFewResources(t, minRes, rows)
	}
	brackets, err := hyperbandSchedule(len(l.Candidates), rows, minRes, t.Factor)
	var out []halvingRound
	for _, b := range brackets {
		out = append(out, b.rounds...)
	}
	return out, false, err
}
