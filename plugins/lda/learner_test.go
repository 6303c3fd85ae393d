package main

import (
	"context"
	"testing"

	"github.com/hashicorp/go-plugin"
	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
)

// connect serves the learner in-process over gRPC (go-plugin's test
// helpers) and returns the host's client.
func connect(t *testing.T) *sdk.LearnerClient {
	t.Helper()
	client, _ := plugin.TestPluginGRPCConn(t, false, map[string]plugin.Plugin{sdk.LearnerPluginName: &sdk.LearnerPlugin{Impl: learner{}}})
	t.Cleanup(func() { client.Close() })
	raw, err := client.Dispense(sdk.LearnerPluginName)
	if err != nil {
		t.Fatal(err)
	}
	return raw.(*sdk.LearnerClient)
}

// blobs is a 3-class problem, 4 rows per class around (0,0), (4,0), (0,4).
func blobs() (*mat.Dense, []int) {
	x := mat.NewDense(12, 2, []float64{
		0, 0, 0.5, 0.2, -0.3, 0.4, 0.2, -0.5,
		4, 0, 4.4, 0.3, 3.7, -0.2, 4.1, 0.5,
		0, 4, 0.3, 4.4, -0.4, 3.8, 0.1, 4.2,
	})
	return x, []int{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}
}

// TestProtocol trains every problem kind the plugin declares through the
// protocol and checks the predictions on the training rows.
func TestProtocol(t *testing.T) {
	ctx := context.Background()
	c := connect(t)
	info, err := c.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if errs := sdk.CheckParams(info.Params, sdk.Params{}); len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, s := range info.Params {
		if !s.Default.IsNull() {
			if err := s.Check(s.Default); err != nil {
				t.Errorf("default of %s fails its own schema: %v", s.Name, err)
			}
		}
	}
	x, y := blobs()
	enc := sdk.EncodeMatrix(sdk.Matrix{Dense: x})
	if _, err := c.Ensure(ctx, enc); err != nil {
		t.Fatal(err)
	}
	rows := make([]int, 12)
	binary := make([]float64, 12)
	classes := make([]float64, 12)
	for i := range rows {
		rows[i] = i
		binary[i] = -1
		if y[i] == 1 {
			binary[i] = 1
		}
		classes[i] = float64(y[i] + 1)
	}
	problems := []sdk.Problem{{Kind: sdk.Binary, Targets: binary}}
	if info.Capabilities.Multiclass && batchMulticlass {
		problems = append(problems, sdk.Problem{Kind: sdk.Multiclass, Targets: classes, NumClasses: 3})
	}
	models, err := c.Fit(ctx, enc.Digest, rows, multiclassParams(info), problems)
	if err != nil {
		t.Fatal(err)
	}
	scores, _, err := c.Predict(ctx, enc.Digest, rows, models, info.Capabilities.Probabilities)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if (scores.At(i, 0) > 0) != (y[i] == 1) {
			t.Errorf("binary problem: row %d score %v, class %d", i, scores.At(i, 0), y[i])
		}
		if len(models) == 2 {
			row := scores.RawRowView(i)[1:]
			best := 0
			for k := range row {
				if row[k] > row[best] {
					best = k
				}
			}
			if best != y[i] {
				t.Errorf("multiclass problem: row %d scores %v, class %d", i, row, y[i])
			}
		}
	}
	if err := c.Release(ctx, models); err != nil {
		t.Fatal(err)
	}
}

func multiclassParams(sdk.LearnerInfo) sdk.Params { return nil }

// batchMulticlass: binary and multiclass LDA problems train in one batch.
const batchMulticlass = true
