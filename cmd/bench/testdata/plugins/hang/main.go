// Command hang is a learner plugin for tests: with hang = true (the
// default) its Fit never returns and ignores its context, as a stuck
// third-party plugin would; with hang = false it is a small working
// learner, so a test can show that a hang costs only the cells it hit.
// With stop = true, Fit stops the whole process (SIGSTOP), so that no call,
// the graceful shutdown included, is ever answered.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"syscall"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
)

type learner struct{}

func (learner) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{
		Name: "hang", Version: "0.0.2",
		Capabilities: sdk.Capabilities{Binary: true, Scores: true},
		Params: []sdk.ParamSpec{
			{Name: "hang", Type: sdk.BoolParam, Default: sdk.Bool(true)},
			{Name: "stop", Type: sdk.BoolParam, Default: sdk.Bool(false)},
		},
	}
}

func (learner) Fit(_ context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	if p.Bool("stop") {
		// As kill -STOP: every call, the shutdown included, goes unanswered.
		fmt.Fprintln(os.Stderr, "hang: stopping the process")
		_ = syscall.Kill(os.Getpid(), syscall.SIGSTOP)
	}
	if p.Bool("hang") {
		fmt.Fprintln(os.Stderr, "hang: stuck in Fit")
		select {}
	}
	_, d := in.X.Dims()
	w := make(direction, d)
	for i, y := range in.Targets {
		for j := range w {
			w[j] += y * in.X.Dense.At(i, j)
		}
	}
	return w, nil
}

// direction scores x·w with w = Σ yᵢxᵢ, the difference of the class sums.
type direction []float64

func (direction) Outputs() int { return 1 }

func (w direction) Predict(_ context.Context, x sdk.Matrix, scores, _ *mat.Dense) error {
	n, _ := x.Dims()
	for i := 0; i < n; i++ {
		scores.Set(i, 0, mat.Dot(mat.NewVecDense(len(w), w), x.Dense.RowView(i)))
	}
	return nil
}

// startDelayEnv, a Go duration in the environment, makes the process
// sleep before it serves: a plugin slow to start (a Python plugin's
// imports), for the test that a fold's timeout does not count the start.
const startDelayEnv = "HANG_START_DELAY"

func main() {
	if d, err := time.ParseDuration(os.Getenv(startDelayEnv)); err == nil {
		time.Sleep(d)
	}
	if err := sdk.Serve(context.Background(), sdk.WithLearner(learner{})); err != nil {
		log.Fatal(err)
	}
}
