// Command knobs is a third-party reducer plugin for tests: scheme "ova"
// (one class against the rest, argmax) with a parameter knob that must
// not exceed the number of classes. Its error blames knob through the
// structured field (sdk.WithParam), in words that do not name it, so the
// host can only locate it by the field. Its plan carries the one-vs-rest
// code matrix with typed code diagnostics and a warning, which the host
// shows in its code-matrix tables. Its scheme declares row-wise decoding,
// as its argmax is; built as bench-plugin-notrowwise it centres each score
// column on its mean over the test rows before the argmax, which is not
// row-wise, for the row-wise-decode check of bench plugin check. With
// exit = N > 0 its Plan writes a line to stderr and exits with status N,
// as a plugin that runs out of memory planning ends.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
)

// reducer is the knobs reducer; notRowWise makes its decode depend on
// every test row.
type reducer struct{ notRowWise bool }

func (reducer) Info() sdk.ReducerInfo {
	return sdk.ReducerInfo{Name: "knobs", Version: "0.1.0", Schemes: []sdk.Scheme{{
		Name: "ova", Description: "one against the rest, argmax", RowWiseDecode: true,
		Params: []sdk.ParamSpec{
			{Name: "knob", Type: sdk.NumberParam, Default: sdk.Number(1), Min: sdk.Bound(1)},
			{Name: "label", Type: sdk.StringParam, Default: sdk.String("")},
			{Name: "exit", Type: sdk.IntegerParam, Default: sdk.Number(0), Min: sdk.Bound(0), Max: sdk.Bound(125)},
		},
	}}}
}

func (reducer) Plan(_ context.Context, req sdk.PlanRequest) (sdk.Plan, error) {
	K := req.NumClasses
	if code := req.Params.Int("exit"); code > 0 {
		fmt.Fprintf(os.Stderr, "knobs: exiting with status %d in Plan\n", code)
		os.Exit(code)
	}
	if k := req.Params.Float("knob"); k > float64(K) {
		return sdk.Plan{}, sdk.WithParam("knob", fmt.Errorf("%v is more than the %d classes of the data", k, K))
	}
	plan := sdk.Plan{
		Code: &sdk.CodeMatrix{Rows: K, Cols: K, Entries: make([]int8, K*K)},
		// Rows of the one-vs-rest matrix differ in two columns.
		Diagnostics: &sdk.CodeDiagnostics{Classes: K, Columns: K, MinDistance: 2, MeanDistance: 2},
		Warnings:    []string{fmt.Sprintf("knob %v is only a test", req.Params.Float("knob"))},
	}
	for i := range plan.Code.Entries {
		plan.Code.Entries[i] = -1
		if i%(K+1) == 0 {
			plan.Code.Entries[i] = 1
		}
	}
	for c := 0; c < K; c++ {
		t := make([]float64, len(req.Labels))
		for i, y := range req.Labels {
			t[i] = -1
			if y == c {
				t[i] = 1
			}
		}
		plan.Problems = append(plan.Problems, sdk.Problem{Kind: sdk.Binary, Targets: t})
	}
	plan.State, _ = json.Marshal(K)
	return plan, nil
}

func (r reducer) Decode(_ context.Context, req sdk.DecodeRequest) (sdk.Decoding, error) {
	var K int
	if err := json.Unmarshal(req.State, &K); err != nil {
		return sdk.Decoding{}, err
	}
	n, L := req.Scores.Dims()
	if L != K {
		return sdk.Decoding{}, errors.New("scores do not match the plan")
	}
	if r.notRowWise {
		centred := mat.DenseCopyOf(req.Scores)
		for j := 0; j < L; j++ {
			mean := mat.Sum(centred.ColView(j)) / float64(n)
			for i := 0; i < n; i++ {
				centred.Set(i, j, centred.At(i, j)-mean)
			}
		}
		req.Scores = centred
	}
	d := sdk.Decoding{Predicted: make([]int, n), ClassScores: mat.NewDense(n, K, nil)}
	for i := 0; i < n; i++ {
		row := req.Scores.RawRowView(i)
		for j, v := range row {
			if v > row[d.Predicted[i]] {
				d.Predicted[i] = j
			}
		}
		d.ClassScores.Set(i, d.Predicted[i], 1)
	}
	return d, nil
}

func main() {
	notRowWise := filepath.Base(os.Args[0]) == "bench-plugin-notrowwise"
	if err := sdk.Serve(context.Background(), sdk.WithReducer(reducer{notRowWise: notRowWise})); err != nil {
		log.Fatal(err)
	}
}
