package engine

import (
	"context"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/param"
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
	p := mat.NewDense(3, 3, []float64{0.2, 0.5, 0.3, 0.4, 0.4, 0.2, 0, 0, 1})
	if got := argmax(p); !equalInts(got, []int{1, 0, 2}) {
		t.Errorf("argmax %v, want [1 0 2] (a tie to the first)", got)
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
	if n := c.FitRounds(); n != 1+5*3+CalibrationFolds {
		t.Errorf("tuned and calibrated: %d rounds, want 21", n)
	}
}
