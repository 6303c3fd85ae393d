package learner

import (
	"testing"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/framework/sdk/conformance"
)

// TestNotConverged fits logreg through the protocol on three blobs: a
// binary or softmax fit stopped at max_iter says so (Model.not_converged);
// one run to its tol rule does not.
func TestNotConverged(t *testing.T) {
	c := conformance.Connect(t, learner{})
	for _, tc := range []struct {
		name   string
		params sdk.Params
		kind   sdk.ProblemKind
		want   bool
	}{
		{"binary max_iter=1", sdk.Params{"max_iter": sdk.Number(1)}, sdk.Binary, true},
		{"binary default", nil, sdk.Binary, false},
		{"softmax max_iter=1", sdk.Params{"max_iter": sdk.Number(1)}, sdk.Multiclass, true},
		{"softmax default", nil, sdk.Multiclass, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := conformance.FitBlobs(t, c, tc.params, tc.kind).NotConverged; got != tc.want {
				t.Errorf("not converged %v, want %v", got, tc.want)
			}
		})
	}
}
