// Command hang is a learner plugin for tests: its Fit never returns and
// ignores its context, as a stuck third-party plugin would.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/polyclass/polyclass/framework/sdk"
)

type learner struct{}

func (learner) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{Name: "hang", Version: "0.0.1", Capabilities: sdk.Capabilities{Binary: true, Scores: true}}
}

func (learner) Fit(context.Context, sdk.FitInput, sdk.Params) (sdk.Model, error) {
	fmt.Fprintln(os.Stderr, "hang: stuck in Fit")
	select {}
}

func main() { sdk.Serve(sdk.WithLearner(learner{})) }
