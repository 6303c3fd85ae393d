package engine

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/calibrate"
	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/plugin"
)

// CalibrationFolds is the number of inner folds of calibrate, as
// scikit-learn's CalibratedClassifierCV(cv=5).
const CalibrationFolds = 5

// calibrated returns the fold's test rows' class probabilities as
// scikit-learn's CalibratedClassifierCV(cv=5, ensemble=True) makes them:
// the training part is split into 5 stratified inner folds; the cell is
// trained on 4 of them, and on the fifth each class's decoder score is
// mapped to a probability of that class (Platt's sigmoid or isotonic
// regression, one against the rest); the 5 calibrated models' normalised
// probabilities for the test rows are averaged. The calibrators see the
// decoder's class scores as they are (for svm + ova, a softmax of the
// decision values: a monotone map of each), and the design matrix is the
// fold's x (encoders fitted on the whole training part; for a tuning
// candidate, the inner fold's).
func (f *fold) calibrated(x matrix.Matrix, enc *matrix.EncodedMatrix) (*mat.Dense, error) {
	d, kind := f.c.Dataset, f.c.Reduction.Config.Calibrate
	inner, err := f.innerFolds(CalibrationFolds, -1)
	if err != nil {
		return nil, fmt.Errorf("calibrate: %w", err)
	}
	k := d.K()
	out := mat.NewDense(len(f.test), k, nil)
	for j := 0; j < CalibrationFolds; j++ {
		fitIdx, calIdx := cv.Split(inner, j)
		cal := pick(f.train, calIdx)
		rows := append(append([]int(nil), cal...), f.test...)
		sub := &fold{ctx: f.ctx, g: f.g, c: f.c, stats: f.stats, clock: f.clock, plans: f.plans, train: pick(f.train, fitIdx), test: rows,
			seed: f.seed, solverSeed: f.solverSeed, lp: f.lp, rp: f.rp, params: f.params, threads: f.threads, decodeBlock: f.decodeBlock}
		o, err := sub.evaluate(x, enc)
		sub.release()
		f.fitSeconds += sub.fitSeconds
		f.predictSeconds += sub.predictSeconds
		if err != nil {
			return nil, fmt.Errorf("calibrate inner fold %d: %w", j, err)
		}
		s := o.dec.ClassScores
		if s == nil {
			return nil, fmt.Errorf("calibrate: reducer %s gives no class scores to calibrate", f.rp.Name)
		}
		if r, c := s.Dims(); r != len(rows) || c != k {
			return nil, fmt.Errorf("calibrate: reducer %s returned %d×%d class scores for %d rows and %d classes", f.rp.Name, r, c, len(rows), k)
		}
		p := mat.NewDense(len(f.test), k, nil)
		for c := 0; c < k; c++ {
			score := make([]float64, len(cal))
			is := make([]bool, len(cal))
			for i, r := range cal {
				score[i], is[i] = s.At(i, c), d.Labels[r] == c
			}
			predict := calibrator(kind, score, is)
			for i := range f.test {
				p.Set(i, c, predict(s.At(len(cal)+i, c)))
			}
		}
		for i := range f.test {
			row := p.RawRowView(i)
			sum := 0.0
			for _, v := range row {
				sum += v
			}
			for c := range row {
				if sum > 0 {
					row[c] /= sum
				} else {
					row[c] = 1 / float64(k) // as scikit-learn: uniform
				}
				out.Set(i, c, out.At(i, c)+row[c]/CalibrationFolds)
			}
		}
	}
	return out, nil
}

// calibratedOutcome is the outcome of a fold whose reduction calibrates,
// as scikit-learn's CalibratedClassifierCV(ensemble=True) predicts: the
// calibrated models alone (see calibrated) give the probabilities, and the
// largest decides (its ties counted); no model is trained on the whole
// training part. The reducer's plan for the training part still gives the
// fold's diagnostics (see lastPlan).
func (f *fold) calibratedOutcome(x matrix.Matrix, enc *matrix.EncodedMatrix) (foldOutcome, error) {
	plan, err := f.lastPlan(f.planRequest())
	if err != nil {
		return foldOutcome{}, err
	}
	dec, err := f.calibratedDecoding(x, enc)
	return foldOutcome{plan: plan, dec: dec}, err
}

// lastPlan returns the reducer's plan of the last stage from req on,
// followed through the stages by plans alone (a stage's plan needs no
// features): the plan whose diagnostics and warnings an uncalibrated
// fold reports.
func (f *fold) lastPlan(req plugin.PlanRequest) (plugin.Plan, error) {
	for {
		plan, err := f.plan(req)
		if err != nil || plan.NextStage == nil {
			return plan, err
		}
		if req.Stage >= maxStages {
			return plugin.Plan{}, fmt.Errorf("reducer %s asks for more than %d stages", f.rp.Name, maxStages)
		}
		req.Stage++
		req.State = plan.State
	}
}

// calibratedDecoding is the fold's decoding by its calibrated models: their
// probabilities (see calibrated), the largest deciding each row, ties
// counted.
func (f *fold) calibratedDecoding(x matrix.Matrix, enc *matrix.EncodedMatrix) (plugin.Decoding, error) {
	scores, err := f.calibrated(x, enc)
	if err != nil {
		return plugin.Decoding{}, err
	}
	dec := plugin.Decoding{ClassScores: scores, ClassScoresAreProbabilities: true}
	dec.Predicted, dec.Ties = argmax(scores)
	return dec, nil
}

// calibrator fits a calibration of the given kind and returns its map.
func calibrator(kind string, score []float64, is []bool) func(float64) float64 {
	if kind == "isotonic" {
		return calibrate.FitIsotonic(score, is).Predict
	}
	return calibrate.FitSigmoid(score, is).Predict
}

// argmax returns each row's largest column (ties to the first) and the
// number of rows whose largest value is in more than one column (decided
// by that rule).
func argmax(p *mat.Dense) (idx []int, ties int) {
	r, _ := p.Dims()
	idx = make([]int, r)
	for i := 0; i < r; i++ {
		row := p.RawRowView(i)
		tied := false
		for c, v := range row {
			switch {
			case v > row[idx[i]]:
				idx[i], tied = c, false
			case c > idx[i] && v == row[idx[i]]:
				tied = true
			}
		}
		if tied {
			ties++
		}
	}
	return idx, ties
}
