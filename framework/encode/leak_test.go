package encode

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/plugins/logreg/logistic"
)

// leakAccuracy runs 5-fold stratified CV of logistic regression on the
// counts encoding of a random ID column with random binary labels and
// returns the mean training and test accuracies.
func leakAccuracy(t *testing.T, f *Frame, labels []int, step *Counts) (trainAcc, testAcc float64) {
	t.Helper()
	folds, err := cv.StratifiedKFold(labels, 5, 11)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 5; k++ {
		train, test := cv.Split(folds, k)
		out, err := step.FitTransform(f, &Context{Train: train, Labels: labels, K: 2, Seed: cv.Seed(3, "leak", strconv.Itoa(k))})
		if err != nil {
			t.Fatal(err)
		}
		m, _, err := out.Design()
		if err != nil {
			t.Fatal(err)
		}
		rowsOf := func(rows []int) (*mat.Dense, []float64) {
			_, d := m.Dense.Dims()
			x := mat.NewDense(len(rows), d, nil)
			y := make([]float64, len(rows))
			for r, i := range rows {
				x.SetRow(r, m.Dense.RawRowView(i))
				y[r] = float64(2*labels[i] - 1)
			}
			return x, y
		}
		xtr, ytr := rowsOf(train)
		res, err := logistic.Fit(logistic.NewDense(xtr), ytr, nil, logistic.Options{C: 10})
		if err != nil {
			t.Fatal(err)
		}
		acc := func(x *mat.Dense, y []float64) float64 {
			dec := res.Decision(nil, logistic.NewDense(x))
			right := 0
			for i, v := range dec {
				if (v > 0) == (y[i] > 0) {
					right++
				}
			}
			return float64(right) / float64(len(y))
		}
		xte, yte := rowsOf(test)
		trainAcc += acc(xtr, ytr) / 5
		testAcc += acc(xte, yte) / 5
	}
	return trainAcc, testAcc
}

// TestCountsLeakage is the leakage test of issue 5: 1000 rows, an ID
// column with 700 random values (about 1.4 rows each) and labels drawn
// independently of it, so no encoding can beat chance (50%) on test rows.
// In-sample counts carry each training row's own label, so logistic
// regression reaches a high training accuracy that does not carry over;
// out-of-fold counts (m = 5) and leave-one-out carry no label of their own
// row, so training and test accuracies both stay at chance level.
func TestCountsLeakage(t *testing.T) {
	const n = 1000
	rng := rand.New(rand.NewPCG(5, 6))
	ids := make([]string, n)
	labels := make([]int, n)
	for i := range ids {
		ids[i] = "id" + strconv.Itoa(rng.IntN(700))
		labels[i] = rng.IntN(2)
	}
	f := &Frame{Rows: n, Cat: []CatCol{catCol("id", ids...)}}
	tests := []struct {
		name             string
		step             *Counts
		trainLo, trainHi float64
	}{
		{"in-sample", &Counts{}, 0.75, 1},
		{"out-of-fold", &Counts{Folds: 5}, 0, 0.6},
	}
	for _, tc := range tests {
		tr, te := leakAccuracy(t, f, labels, tc.step)
		t.Logf("%s: training accuracy %.3f, test accuracy %.3f", tc.name, tr, te)
		if tr < tc.trainLo || tr > tc.trainHi {
			t.Errorf("%s: training accuracy %.3f outside [%v, %v]", tc.name, tr, tc.trainLo, tc.trainHi)
		}
		if te < 0.44 || te > 0.56 {
			t.Errorf("%s: test accuracy %.3f is not at chance level (0.44–0.56)", tc.name, te)
		}
	}
}
