package discriminant

import (
	"math"
	"testing"
)

// TestLDAFoldParity checks that per-fold test accuracy on the reference
// 10-fold splits equals scikit-learn 1.2.1 LinearDiscriminantAnalysis()
// (solver="svd") as recorded in shared/reference/sklearn_cv.jsonl
// (rounded to 6 decimals there, so equal accuracy means an equal count of
// correct test rows).
func TestLDAFoldParity(t *testing.T) {
	for _, name := range []string{"iris", "wine", "breast_cancer", "vehicle", "digits", "segment"} {
		t.Run(name, func(t *testing.T) {
			ds := loadDataset(t, name)
			folds := loadFolds(t, name)
			ref := loadCVRef(t, name, "lda")
			for k := range 10 {
				xtr, ytr, xte, yte := split(ds, folds, k)
				m, err := FitLDA(xtr, ytr, len(ds.classes), LDAOptions{})
				if err != nil {
					t.Fatalf("fold %d: %v", k, err)
				}
				acc := accuracy(m.Predict(nil, xte), yte)
				if math.Abs(acc-ref[k]) > 5e-7 {
					t.Errorf("fold %d: accuracy %.6f, sklearn %.6f", k, acc, ref[k])
				}
			}
		})
	}
}
