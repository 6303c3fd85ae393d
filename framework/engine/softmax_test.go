package engine

import (
	"testing"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/sdk"
)

// TestSoftmaxScores: log_loss and brier read probabilities only when the
// cell is calibrated, or when the learner gave probabilities and the
// reduction passes them on (argmax decoding, the default of ova and of
// native learners); otherwise a softmax of the decoder's class scores.
func TestSoftmaxScores(t *testing.T) {
	spec := func(def string) sdk.Scheme {
		return sdk.Scheme{Name: "s", Params: []param.ParamSpec{{Name: "decode", Type: param.StringParam, Default: param.String(def)}}}
	}
	for _, tc := range []struct {
		name       string
		scheme     sdk.Scheme
		params     param.Params
		calibrate  string
		multiLabel bool
		probs      bool
		want       bool
	}{
		{"ova, learner with probabilities", spec("argmax"), nil, "", false, true, false},
		{"ova, learner without (svm)", spec("argmax"), nil, "", false, false, true},
		{"ova decoded by hamming", spec("argmax"), param.Params{"decode": param.String("hamming")}, "", false, true, true},
		{"ovo votes by default", spec("vote"), nil, "", false, true, true},
		{"ova calibrated, svm", spec("argmax"), nil, "platt", false, false, false},
		{"ecoc calibrated", spec("hamming"), nil, "isotonic", false, true, false},
		{"scheme without decode, probabilities", sdk.Scheme{Name: "x"}, nil, "", false, true, false},
		{"scheme without decode, scores only", sdk.Scheme{Name: "x"}, nil, "", false, false, true},
		{"multi-label", spec("argmax"), nil, "", true, false, false},
	} {
		c := &Cell{Dataset: &Dataset{MultiLabel: tc.multiLabel}, RedParams: tc.params,
			Reduction: &Reduction{Config: &config.Reduction{Calibrate: tc.calibrate}, Scheme: tc.scheme}}
		if got := softmaxScores(c, foldOutcome{learnerProbs: tc.probs}); got != tc.want {
			t.Errorf("%s: softmax %v, want %v", tc.name, got, tc.want)
		}
	}
}
