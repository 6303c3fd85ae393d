// Command bench-plugin-svm serves linear support vector machines: binary
// L1- and L2-loss SVMs by dual coordinate descent (as LIBLINEAR), the native
// multiclass Crammer–Singer SVM, and the perceptron and pocket baselines.
package main

import (
	"context"
	"log"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/svm/learner"
)

func main() {
	if err := sdk.Serve(context.Background(), sdk.WithLearner(learner.New())); err != nil {
		log.Fatal(err)
	}
}
