// Command bench-plugin-lda serves linear discriminant analysis (binary and
// native multiclass), least-squares indicator regression and ridge
// regression for real-valued targets.
package main

import (
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/lda/learner"
)

func main() {
	sdk.Serve(sdk.WithLearner(learner.New()))
}
