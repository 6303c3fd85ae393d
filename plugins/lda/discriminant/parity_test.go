package discriminant

import (
	"math"
	"testing"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// TestLDAFoldParity checks that per-fold test accuracy on the reference
// 10-fold splits equals scikit-learn 1.2.1 LinearDiscriminantAnalysis()
// (solver="svd") as recorded in testdata/reference/sklearn_cv.jsonl
// (rounded to 6 decimals there, so equal accuracy means an equal count of
// correct test rows).
func TestLDAFoldParity(t *testing.T) {
	for _, name := range []string{"iris", "wine", "breast_cancer", "vehicle", "digits", "segment"} {
		t.Run(name, func(t *testing.T) {
			ds := reftest.Load(t, name)
			folds := reftest.Folds(t, name)
			ref := reftest.SklearnAccuracy(t, name, "lda")
			for k := range 10 {
				xtr, ytr, xte, yte := reftest.Split(ds, folds, k)
				m, err := FitLDA(xtr, ytr, len(ds.Classes), LDAOptions{})
				if err != nil {
					t.Fatalf("fold %d: %v", k, err)
				}
				acc := reftest.Accuracy(m.Predict(nil, xte), yte)
				if math.Abs(acc-ref[k]) > 5e-7 {
					t.Errorf("fold %d: accuracy %.6f, sklearn %.6f", k, acc, ref[k])
				}
			}
		})
	}
}
