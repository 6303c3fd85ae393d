// Command bench-plugin-naive_bayes serves naive Bayes classification
// (binary and native multiclass): Gaussian, multinomial and Bernoulli, as
// scikit-learn's GaussianNB, MultinomialNB and BernoulliNB.
package main

import (
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/naive_bayes/learner"
)

func main() {
	sdk.Serve(sdk.WithLearner(learner.New()))
}
