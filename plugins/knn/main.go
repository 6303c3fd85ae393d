// Command bench-plugin-knn serves k-nearest-neighbours classification
// (binary and native multiclass), as scikit-learn's KNeighborsClassifier.
package main

import (
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/knn/learner"
)

func main() {
	sdk.Serve(sdk.WithLearner(learner.New()))
}
