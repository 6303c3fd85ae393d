// Command crash is a learner plugin for tests: it panics during Fit, as a
// buggy third-party plugin would; the panic goes to its stderr.
package main

import (
	"context"

	"github.com/polyclass/polyclass/framework/sdk"
)

type learner struct{}

func (learner) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{Name: "crash", Version: "0.0.1", Capabilities: sdk.Capabilities{Binary: true, Multiclass: true, Scores: true}}
}

func (learner) Fit(context.Context, sdk.FitInput, sdk.Params) (sdk.Model, error) {
	panic("crash: simulated segmentation fault in Fit")
}

func main() { sdk.Serve(sdk.WithLearner(learner{})) }
