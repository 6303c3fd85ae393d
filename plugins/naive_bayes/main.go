// Command bench-plugin-naive_bayes serves naive Bayes classification
// (binary and native multiclass): Gaussian, multinomial and Bernoulli, as
// scikit-learn's GaussianNB, MultinomialNB and BernoulliNB.
package main

import (
	"context"
	"log"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/naive_bayes/learner"
)

func main() {
	if err := sdk.Serve(context.Background(), sdk.WithLearner(learner.New())); err != nil {
		log.Fatal(err)
	}
}
