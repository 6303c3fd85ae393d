package engine

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/sdk"
)

func TestBestCandidate(t *testing.T) {
	for _, tc := range []struct {
		scores []float64
		higher bool
		want   int
	}{
		{[]float64{0.8, 0.9, 0.85}, true, 1},
		{[]float64{0.9, 0.8, 0.9}, true, 0}, // tie: the first in grid order
		{[]float64{0.3, 0.1, 0.1}, false, 1},
		{[]float64{0.5}, true, 0},
	} {
		if got := best(tc.scores, tc.higher); got != tc.want {
			t.Errorf("best(%v, higher=%v) = %d, want %d", tc.scores, tc.higher, got, tc.want)
		}
	}
}

func TestInnerFolds(t *testing.T) {
	g := stubGrid()
	g.Experiment.CV.Stratified = true
	d := g.Datasets[1]
	d.Folds = [][]int{{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1}}
	d.Labels = []int{0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 0, 1}
	f := &fold{g: g, c: g.Cells[2], train: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, solverSeed: 11}
	labels := []int{0, 1, 1, 0, 0, 1, 0, 1, 1, 0}
	// inner_seed: scikit-learn's StratifiedKFold on the training rows.
	got, err := f.innerFolds(2, 3)
	want, _ := cv.SklearnStratifiedKFold(labels, 2, 3)
	if err != nil || !equalInts(got, want) {
		t.Errorf("inner_seed 3: %v (%v), want %v", got, err, want)
	}
	// Otherwise stratified folds seeded from the cell's solver seed.
	got, _ = f.innerFolds(2, -1)
	want, _ = cv.StratifiedKFold(labels, 2, cv.Seed(11, "tune"))
	if !equalInts(got, want) {
		t.Errorf("seeded: %v, want %v", got, want)
	}
	for k := 0; k < 2; k++ {
		n := 0
		for i, v := range got {
			if v == k && labels[i] == 1 {
				n++
			}
		}
		if n != 2 && n != 3 {
			t.Errorf("inner fold %d holds %d of the 5 rows of class 1: not stratified", k, n)
		}
	}
	g.Experiment.CV = config.CV{Stratified: false}
	got, _ = f.innerFolds(2, 3)
	want, _ = cv.SklearnKFold(10, 2, 3)
	if !equalInts(got, want) {
		t.Errorf("unstratified inner_seed 3: %v, want scikit-learn's KFold %v", got, want)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestArgmax(t *testing.T) {
	// Row 1 ties its first two columns; row 3 has a tie below its
	// largest value, which decides nothing.
	p := mat.NewDense(4, 3, []float64{0.2, 0.5, 0.3, 0.4, 0.4, 0.2, 0, 0, 1, 0.1, 0.1, 0.8})
	if got, ties := argmax(p); !equalInts(got, []int{1, 0, 2, 2}) || ties != 1 {
		t.Errorf("argmax %v with %d ties, want [1 0 2 2] (a tie to the first) with 1", got, ties)
	}
	// A tie that a later larger value overrules is no tie.
	if got, ties := argmax(mat.NewDense(1, 3, []float64{0.3, 0.3, 0.4})); got[0] != 2 || ties != 0 {
		t.Errorf("argmax [0.3 0.3 0.4] = %v with %d ties, want [2] with 0", got, ties)
	}
}

// TestCalibrationNeedsClassScores: a decoder without class scores cannot
// be calibrated; the fold says why.
func TestCalibrationNeedsClassScores(t *testing.T) {
	g, _ := pluginGrid(t)
	g.Reductions[0].Config.Calibrate = "platt"
	g.Experiment.CV.Stratified = true
	// 12 rows, 6 for training: calibration's 5 inner folds need them.
	res, _, err := Run(context.Background(), g, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := "calibrate: reducer ova gives no class scores to calibrate"; !strings.Contains(res[0].Error, want) {
		t.Errorf("cell error %q, want %q", res[0].Error, want)
	}
}

func TestFitRounds(t *testing.T) {
	g := stubGrid()
	c := g.Cells[0]
	if n := c.FitRounds(); n != 1 {
		t.Errorf("plain cell: %d rounds, want 1", n)
	}
	c.Learner.Config.Tune = &config.Tune{Folds: 5}
	c.Learner.Candidates = make([]param.Params, 3)
	if n := c.FitRounds(); n != 1+5*3 {
		t.Errorf("tuned over 3 candidates by 5 folds: %d rounds, want 16", n)
	}
	c.Reduction.Config.Calibrate = "platt"
	if n := c.FitRounds(); n != CalibrationFolds+5*3*CalibrationFolds {
		t.Errorf("tuned and calibrated: %d rounds, want 80", n)
	}
	c.Learner.Candidates = nil
	if n := c.FitRounds(); n != CalibrationFolds {
		t.Errorf("calibrated: %d rounds, want 5", n)
	}
}

// scoredOneVsAll is oneVsAll with class scores: each row's scores turned
// into probabilities by a softmax, so that calibration has scores to map.
type scoredOneVsAll struct{ oneVsAll }

func (r scoredOneVsAll) Decode(ctx context.Context, req sdk.DecodeRequest) (sdk.Decoding, error) {
	dec, err := r.oneVsAll.Decode(ctx, req)
	if err != nil {
		return dec, err
	}
	n, k := req.Scores.Dims()
	dec.ClassScores = mat.NewDense(n, k, nil)
	for i := range n {
		var sum float64
		for j := range k {
			sum += math.Exp(req.Scores.At(i, j))
		}
		for j := range k {
			dec.ClassScores.Set(i, j, math.Exp(req.Scores.At(i, j))/sum)
		}
	}
	return dec, nil
}

// TestTunedCalibratedFits: a tuned cell whose reduction calibrates trains
// FitRounds times per fold: on each calibration fold of the training part,
// and, per inner fold and candidate, on each of its calibration folds (the
// calibrated models alone predict, as CalibratedClassifierCV's, inside
// GridSearchCV too).
func TestTunedCalibratedFits(t *testing.T) {
	// 60 rows in three classes of 20 (at 0, 5 and 10, spread by 0.1):
	// each outer training part has 10 per class, each inner one 5.
	var x []float64
	var y []int
	for i := range 60 {
		x, y = append(x, float64(5*(i%3))+0.1*float64(i%7)), append(y, i%3)
	}
	g, learner := newPluginGrid(t, x, y, scoredOneVsAll{})
	g.Experiment.CV.Stratified = true
	g.Reductions[0].Config.Calibrate = "platt"
	l := g.Learners[0]
	l.Config.Tune = &config.Tune{Folds: 2, InnerSeed: -1}
	l.TuneMetric = "accuracy"
	l.Candidates = []param.Params{{"c": param.Number(1)}, {"c": param.Number(2)}, {"c": param.Number(3)}}
	l.Tuned = map[string]bool{"c": true}
	res, _, err := Run(context.Background(), g, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Failed() {
		t.Fatalf("cell failed: %s", res[0].Error)
	}
	c := g.Cells[0]
	rounds := c.FitRounds()
	if want := CalibrationFolds + 2*3*CalibrationFolds; rounds != want {
		t.Fatalf("FitRounds %d, want %d", rounds, want)
	}
	// The reduction's problems (three) per round, two outer folds.
	per, err := g.FoldFits(context.Background(), c)
	if err != nil || per.Binary != 3 {
		t.Fatalf("FoldFits %+v, %v; want 3 binary", per, err)
	}
	if n, want := learner.fits.Load(), int64(per.Binary*rounds*2); n != want {
		t.Errorf("%d fits, want %d (%d problems × %d rounds × 2 folds)", n, want, per.Binary, rounds)
	}
	for _, f := range res[0].Folds {
		if f.Chosen == "" || len(f.TuneScores) != 3 {
			t.Errorf("fold %d: chosen %q, scores %v", f.Fold, f.Chosen, f.TuneScores)
		}
	}
}

// stagedOneVsAll is oneVsAll in two stages: the first asks for a second,
// and each stage's plan warns with its number.
type stagedOneVsAll struct{ scoredOneVsAll }

func (r stagedOneVsAll) Plan(ctx context.Context, req sdk.PlanRequest) (sdk.Plan, error) {
	plan, err := r.oneVsAll.Plan(ctx, req)
	plan.Warnings = []string{fmt.Sprintf("stage %d", req.Stage)}
	if req.Stage == 0 {
		plan.NextStage = &sdk.StageSpec{InnerFolds: 2}
	}
	return plan, err
}

// TestLastPlan: a calibrated fold's diagnostics come from the plan of the
// reduction's last stage, as an uncalibrated fold's, though it fits
// nothing on the whole training part to get there.
func TestLastPlan(t *testing.T) {
	g, learner := newPluginGrid(t, []float64{0, 0, 5, 5, 10, 10}, []int{0, 0, 1, 1, 2, 2}, stagedOneVsAll{})
	s := newScheduler(g, Options{})
	f, err := newFold(context.Background(), g, s.tasks[0], &s.stats)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := f.lastPlan(f.planRequest())
	if err != nil {
		t.Fatal(err)
	}
	if plan.NextStage != nil || !slices.Equal(plan.Warnings, []string{"stage 1"}) || len(plan.Problems) != 3 {
		t.Errorf("plan with warnings %q, next stage %v, %d problems; want the last stage's", plan.Warnings, plan.NextStage, len(plan.Problems))
	}
	if n := learner.fits.Load(); n != 0 {
		t.Errorf("%d fits to follow the plans, want none", n)
	}
}
