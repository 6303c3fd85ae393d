// Command bench-plugin-svm serves support vector machines: binary L1- and
// L2-loss SVMs by dual coordinate descent (as LIBLINEAR), the native
// multiclass Crammer–Singer SVM, the perceptron and pocket baselines,
// kernel C-SVC by SMO (as LIBSVM), and the kernel all-together multiclass
// SVMs of Crammer–Singer and Weston–Watkins (multiclass parameter).
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
