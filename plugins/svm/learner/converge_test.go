package learner

import (
	"testing"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/framework/sdk/conformance"
)

// TestNotConverged fits svm through the protocol on three blobs: dual
// coordinate descent and Crammer–Singer stopped at their iteration bound
// say so (Model.not_converged); run to their tol rule they do not, nor
// does a perceptron, whose epochs bound no stopping rule. A kernel svm
// whose kernel matrix is degenerate (rbf gamma = 1e308, sigmoid coef0 =
// 1e308: a constant model, said nothing before) says so too; one with
// the default gamma does not.
func TestNotConverged(t *testing.T) {
	c := conformance.Connect(t, learner{})
	for _, tc := range []struct {
		name   string
		params sdk.Params
		kind   sdk.ProblemKind
		want   bool
	}{
		{"dual_cd max_iter=1", sdk.Params{"max_iter": sdk.Number(1)}, sdk.Binary, true},
		{"dual_cd default", nil, sdk.Binary, false},
		{"crammer_singer max_iter=1", sdk.Params{"max_iter": sdk.Number(1), "tol": sdk.Number(1e-12)}, sdk.Multiclass, true},
		{"crammer_singer default", nil, sdk.Multiclass, false},
		{"perceptron epochs=1", sdk.Params{"method": sdk.String("perceptron"), "epochs": sdk.Number(1)}, sdk.Binary, false},
		{"rbf gamma=1e308", sdk.Params{"kernel": sdk.String("rbf"), "gamma": sdk.Number(1e308)}, sdk.Binary, true},
		{"rbf gamma=1e308 multiclass", sdk.Params{"kernel": sdk.String("rbf"), "gamma": sdk.Number(1e308)}, sdk.Multiclass, true},
		{"sigmoid coef0=1e308", sdk.Params{"kernel": sdk.String("sigmoid"), "coef0": sdk.Number(1e308)}, sdk.Binary, true},
		{"rbf default", sdk.Params{"kernel": sdk.String("rbf")}, sdk.Binary, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := conformance.FitBlobs(t, c, tc.params, tc.kind).NotConverged; got != tc.want {
				t.Errorf("not converged %v, want %v", got, tc.want)
			}
		})
	}
}
