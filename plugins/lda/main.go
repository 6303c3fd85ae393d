// Command bench-plugin-lda serves linear discriminant analysis (binary and
// native multiclass), least-squares indicator regression and ridge
// regression for real-valued targets.
package main

import (
	"context"
	"log"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/lda/learner"
)

func main() {
	if err := sdk.Serve(context.Background(), sdk.WithLearner(learner.New())); err != nil {
		log.Fatal(err)
	}
}
