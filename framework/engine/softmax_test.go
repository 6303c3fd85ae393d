package engine

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
)

// TestSoftmaxScores: a multiclass fold's log_loss and brier are flagged
// as read from a softmax of scores exactly when its decoding does not say
// that its class scores are probabilities; multi-label folds have no such
// metric. Whether a reducer's decodings say so is its own test (the
// shipped reducers': plugins/reducers/reducer).
func TestSoftmaxScores(t *testing.T) {
	for _, tc := range []struct {
		name          string
		multiLabel    bool
		probabilities bool
		want          bool
	}{
		{"probabilities", false, true, false},
		{"softmax of scores", false, false, true},
		{"multi-label", true, false, false},
	} {
		c := &Cell{Dataset: &Dataset{MultiLabel: tc.multiLabel}}
		out := foldOutcome{dec: sdk.Decoding{ClassScoresAreProbabilities: tc.probabilities}}
		if got := softmaxScores(c, out); got != tc.want {
			t.Errorf("%s: softmax %v, want %v", tc.name, got, tc.want)
		}
	}
}

// flaggedOVA is oneVsAll whose decodings carry class scores (a softmax of
// the problems' scores) and say whether they are probabilities.
type flaggedOVA struct {
	oneVsAll
	probabilities bool
}

func (r flaggedOVA) Decode(ctx context.Context, req sdk.DecodeRequest) (sdk.Decoding, error) {
	dec, err := r.oneVsAll.Decode(ctx, req)
	n, k := req.Scores.Dims()
	dec.ClassScores = mat.NewDense(n, k, nil)
	for i := range n {
		sum := 0.0
		for j := range k {
			e := math.Exp(req.Scores.At(i, j))
			dec.ClassScores.Set(i, j, e)
			sum += e
		}
		for j := range k {
			dec.ClassScores.Set(i, j, dec.ClassScores.At(i, j)/sum)
		}
	}
	dec.ClassScoresAreProbabilities = r.probabilities
	return dec, err
}

// TestSoftmaxScoresFromTheDecoder: over the protocol, a fold's
// softmax_scores is what its reducer's decodings say of their class
// scores, and false for a calibrated fold whatever the reducer says; the
// reducer's flag changes no metric value.
func TestSoftmaxScoresFromTheDecoder(t *testing.T) {
	// 36 rows, class k at 5k + 0.1j (j = 0..11): enough rows of each
	// class for the calibration's inner folds.
	x, y := make([]float64, 36), make([]int, 36)
	for i := range x {
		y[i] = i % 3
		x[i] = 5*float64(y[i]) + 0.1*float64(i/3)
	}
	logLoss := map[bool]float64{}
	for _, tc := range []struct {
		name          string
		probabilities bool
		calibrate     string
		want          bool
	}{
		{"decoder says probabilities", true, "", false},
		{"decoder says scores", false, "", true},
		{"calibrated, decoder says scores", false, "platt", false},
	} {
		g, _ := newPluginGrid(t, x, y, flaggedOVA{probabilities: tc.probabilities})
		g.Metrics = []string{"accuracy", "log_loss"}
		g.Reductions[0].Config.Calibrate = tc.calibrate
		res, _, err := Run(context.Background(), g, Options{Workers: 1})
		if err != nil || len(res) != 1 || res[0].Failed() {
			if len(res) == 1 {
				t.Fatalf("%s: %v, %v", tc.name, res[0].Error, err)
			}
			t.Fatalf("%s: results %+v, %v", tc.name, res, err)
		}
		for _, f := range res[0].Folds {
			if f.SoftmaxScores != tc.want {
				t.Errorf("%s: fold %d softmax_scores %v, want %v", tc.name, f.Fold, f.SoftmaxScores, tc.want)
			}
		}
		if tc.calibrate == "" {
			logLoss[tc.probabilities] = res[0].Folds[1].Metrics["log_loss"]
		}
	}
	if logLoss[true] != logLoss[false] || !(logLoss[true] > 0) {
		t.Errorf("log_loss %v (probabilities) vs %v (scores): want the same positive value", logLoss[true], logLoss[false])
	}
}
