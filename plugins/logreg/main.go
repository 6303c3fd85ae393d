// Command bench-plugin-logreg serves L2-regularised logistic regression:
// binary (trust-region Newton, L-BFGS, SGD or gradient descent) and native
// multiclass softmax regression.
package main

import (
	"context"
	"log"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/logreg/learner"
)

func main() {
	if err := sdk.Serve(context.Background(), sdk.WithLearner(learner.New())); err != nil {
		log.Fatal(err)
	}
}
