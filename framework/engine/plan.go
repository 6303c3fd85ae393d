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
	if err := c.Reduction.StartErr; err != nil {
		return err
	}
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
// every halving round: tuneCandidateFits), planned for the cell's first
// outer training part. FoldFits × FitRounds is the models that fold
// trains; TotalFitRounds sums every fold's.
func (c *Cell) FitRounds() int {
	rows, _ := c.trainRows()
	if len(rows) == 0 {
		return c.fitRounds(-1)
	}
	return c.fitRounds(rows[0])
}

// TotalFitRounds is FitRounds summed over every outer fold of the cell
// (repeats × folds), each planned for its own training rows: a halving
// search's rounds depend on them. FoldFits × TotalFitRounds is the models
// a run of the cell trains, unless the search is bounded by max_time (not
// foreseen: the plan counts the whole search) or hyperband's brackets
// draw a candidate again (TuneFitsBound).
func (c *Cell) TotalFitRounds() int {
	n := 0
	for _, r := range c.FitRoundsByFold() {
		n += r
	}
	return n
}

// FitRoundsByFold is FitRounds for each outer fold of the cell, in repeat
// and fold order, each planned for its own training rows.
func (c *Cell) FitRoundsByFold() []int {
	rows, _ := c.trainRows()
	out := make([]int, len(rows))
	for i, r := range rows {
		out[i] = c.fitRounds(r)
	}
	return out
}

// TuneFitsBound reports whether the cell's tune fits are an upper bound
// rather than the count: hyperband's brackets draw more candidates than
// there are, so a candidate may meet rows it was scored on before, which
// the run does not fit again; whether it does depends on the scores.
func (c *Cell) TuneFitsBound() bool {
	l := c.Learner
	if l.Candidates == nil || l.Config.Tune.Strategy != config.StrategyHyperband {
		return false
	}
	rows, classes := c.trainRows()
	for _, r := range rows {
		brackets, err := c.brackets(c.mostResource(r), classes)
		if err != nil {
			continue
		}
		drawn := 0
		for _, b := range brackets {
			drawn += b.rounds[0].candidates
		}
		if drawn > len(l.Candidates) {
			return true
		}
	}
	return false
}

// fitRounds is FitRounds for an outer training part of rows rows (-1:
// unknown, every candidate counted once per inner fold).
func (c *Cell) fitRounds(rows int) int {
	perScore := 1
	if c.Reduction.Config.Calibrate != "" {
		perScore = CalibrationFolds
	}
	n := perScore
	if l := c.Learner; l.Candidates != nil {
		n += l.Config.Tune.Folds * c.tuneCandidateFits(rows) * perScore
	}
	return n
}

// trainRows returns the rows of each outer training part of the cell's
// dataset, in repeat and fold order, and the classes a halving search's
// "smallest" counts (2 for multi-label data).
func (c *Cell) trainRows() ([]int, int) {
	d := c.Dataset
	var out []int
	for _, assign := range d.Folds {
		for f := 0; f < d.NumFolds; f++ {
			train, _ := cv.Split(assign, f)
			out = append(out, len(train))
		}
	}
	if d.MultiLabel {
		return out, 2
	}
	return out, d.K()
}

// mostResource is what a halving search's last round gives a candidate on
// an outer training part of rows rows: the rows, or the budget
// parameter's largest value.
func (c *Cell) mostResource(rows int) int {
	if c.Learner.Config.Tune.OverParam() {
		return c.Learner.MaxResource
	}
	return rows
}

// tuneCandidateFits is the candidates one inner fold of a tuned cell
// trains on an outer training part of rows rows, as the run trains them:
// every candidate (the first max_evals of a random search), or under
// successive halving the sum of its rounds' candidates, replays of the
// previous round's rows left out, under hyperband the sum of its
// brackets' (an upper bound when they draw a candidate again:
// TuneFitsBound), each search stopped where max_evals stops it (see
// budget; max_time is not foreseen).
func (c *Cell) tuneCandidateFits(rows int) int {
	l := c.Learner
	t := l.Config.Tune
	if !t.Halves() || rows < 0 {
		if t.Strategy == config.StrategyRandom && t.MaxEvals > 0 {
			return min(len(l.Candidates), t.MaxEvals)
		}
		return len(l.Candidates)
	}
	_, classes := c.trainRows()
	rounds, replays, err := c.tuneRounds(c.mostResource(rows), classes)
	if err != nil {
		return len(l.Candidates)
	}
	n, evals := 0, 0
	for i, r := range rounds {
		if i > 0 && t.MaxEvals > 0 && evals >= t.MaxEvals {
			break // the budget closes (see budget.open)
		}
		if i == 0 || !replays || r.resources != rounds[i-1].resources { // a replay fits nothing (see halve)
			n += r.candidates
			evals += r.candidates
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
	brackets, err := c.brackets(rows, classes)
	var out []halvingRound
	for _, b := range brackets {
		out = append(out, b.rounds...)
	}
	return out, false, err
}

// brackets is the brackets of the cell's hyperband search on rows outer
// training rows (its largest resource).
func (c *Cell) brackets(rows, classes int) ([]hyperbandBracket, error) {
	t := c.Learner.Config.Tune
	minRes := t.MinResources
	if minRes <= 0 {
		minRes = smallestResource(t, t.Folds, classes)
	}
	if minRes > rows {
		return nil, tooFewResources(t, minRes, rows)
	}
	return hyperbandSchedule(len(c.Learner.Candidates), rows, minRes, t.Factor)
}
