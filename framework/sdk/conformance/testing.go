// Package plugintest checks a learner plugin through the protocol, served
// in-process with go-plugin's test helpers.
package plugintest

import (
	"context"
	"testing"

	"github.com/hashicorp/go-plugin"
	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
)

// Connect serves l in-process over gRPC and returns the host's client.
func Connect(t *testing.T, l sdk.Learner) *sdk.LearnerClient {
	t.Helper()
	client, _ := plugin.TestPluginGRPCConn(t, false, map[string]plugin.Plugin{sdk.LearnerPluginName: &sdk.LearnerPlugin{Impl: l}})
	t.Cleanup(func() { client.Close() })
	raw, err := client.Dispense(sdk.LearnerPluginName)
	if err != nil {
		t.Fatal(err)
	}
	return raw.(*sdk.LearnerClient)
}

// Blobs is a separable 3-class problem: 4 rows per class around (0,0),
// (4,0) and (0,4). It returns the design, uploaded to c, and the classes.
func Blobs(t *testing.T, c *sdk.LearnerClient) (*sdk.EncodedMatrix, []int) {
	t.Helper()
	x := mat.NewDense(12, 2, []float64{
		0, 0, 0.5, 0.2, -0.3, 0.4, 0.2, -0.5,
		4, 0, 4.4, 0.3, 3.7, -0.2, 4.1, 0.5,
		0, 4, 0.3, 4.4, -0.4, 3.8, 0.1, 4.2,
	})
	enc := sdk.EncodeMatrix(sdk.Matrix{Dense: x})
	if _, err := c.Ensure(context.Background(), enc); err != nil {
		t.Fatal(err)
	}
	return enc, []int{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}
}

// CheckSchema checks that every declared default passes its own spec.
func CheckSchema(t *testing.T, c *sdk.LearnerClient) sdk.LearnerInfo {
	t.Helper()
	info, err := c.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range info.Params {
		if !s.Default.IsNull() {
			if err := s.Check(s.Default); err != nil {
				t.Errorf("default of %s fails its own schema: %v", s.Name, err)
			}
		}
	}
	return info
}

// CheckBinary trains "class 2 against the rest" of Blobs with params and
// checks that the score's sign separates the training rows.
func CheckBinary(t *testing.T, c *sdk.LearnerClient, params sdk.Params) {
	t.Helper()
	enc, y := Blobs(t, c)
	targets := make([]float64, len(y))
	for i, k := range y {
		targets[i] = -1
		if k == 1 {
			targets[i] = 1
		}
	}
	scores := fitPredict(t, c, enc, params, sdk.Problem{Kind: sdk.Binary, Targets: targets})
	for i, k := range y {
		if (scores.At(i, 0) > 0) != (k == 1) {
			t.Errorf("binary: row %d score %v, class %d", i, scores.At(i, 0), k)
		}
	}
}

// CheckMulticlass trains Blobs as one native multiclass problem with
// params and checks that the largest score is each row's class.
func CheckMulticlass(t *testing.T, c *sdk.LearnerClient, params sdk.Params) {
	t.Helper()
	enc, y := Blobs(t, c)
	targets := make([]float64, len(y))
	for i, k := range y {
		targets[i] = float64(k + 1)
	}
	scores := fitPredict(t, c, enc, params, sdk.Problem{Kind: sdk.Multiclass, Targets: targets, NumClasses: 3})
	for i, k := range y {
		row := scores.RawRowView(i)
		best := 0
		for j := range row {
			if row[j] > row[best] {
				best = j
			}
		}
		if best != k {
			t.Errorf("multiclass: row %d scores %v, class %d", i, row, k)
		}
	}
}

func fitPredict(t *testing.T, c *sdk.LearnerClient, enc *sdk.EncodedMatrix, params sdk.Params, p sdk.Problem) *mat.Dense {
	t.Helper()
	ctx := context.Background()
	rows := make([]int, len(p.Targets))
	for i := range rows {
		rows[i] = i
	}
	models, err := c.Fit(ctx, enc.Digest, rows, params, []sdk.Problem{p})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release(ctx, models)
	scores, _, err := c.Predict(ctx, enc.Digest, rows, models, true)
	if err != nil {
		t.Fatal(err)
	}
	return scores
}
