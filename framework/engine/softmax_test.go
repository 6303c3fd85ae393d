package engine

import (
	"testing"

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
