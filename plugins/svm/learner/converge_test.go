package learner

import (
	"context"
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
	enc, y := conformance.Blobs(t, c)
	rows := make([]int, len(y))
	binary, classes := make([]float64, len(y)), make([]float64, len(y))
	for i, k := range y {
		rows[i], classes[i] = i, float64(k)
		if k == 0 {
			binary[i] = 1
		}
	}
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
			p := sdk.Problem{Kind: tc.kind, Targets: binary}
			if tc.kind == sdk.Multiclass {
				p = sdk.Problem{Kind: tc.kind, Targets: classes, NumClasses: 3}
			}
			models, err := c.Fit(context.Background(), enc.Digest, rows, tc.params, []sdk.Problem{p}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := models[0].NotConverged; got != tc.want {
				t.Errorf("not converged %v, want %v", got, tc.want)
			}
		})
	}
}
