// Command bench-plugin-knn serves k-nearest-neighbours classification
// (binary and native multiclass), as scikit-learn's KNeighborsClassifier.
package main

import (
	"context"
	"log"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/knn/learner"
)

func main() {
	if err := sdk.Serve(context.Background(), sdk.WithLearner(learner.New())); err != nil {
		log.Fatal(err)
	}
}
