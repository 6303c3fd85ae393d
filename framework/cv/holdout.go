package cv

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// HoldoutSizes returns the rows of the test and the training part that
// Holdout makes of n rows at fraction frac: ceil(frac · n) and the rest.
func HoldoutSizes(n int, frac float64) (test, train int) {
	test = int(math.Ceil(frac * float64(n)))
	return test, n - test
}

// HoldoutFits reports whether a holdout of frac of n rows leaves each of
// its parts (HoldoutSizes) at least need rows.
func HoldoutFits(n, need int, frac float64) bool {
	test, train := HoldoutSizes(n, frac)
	return test >= need && train >= need
}

// HoldoutFractions returns the fractions whose holdout of n rows leaves
// each part at least need rows: those above lo/n and at most hi/n
// (lo = need-1, hi = n-need). ok is false when no fraction does, n being
// under 2·need.
func HoldoutFractions(n, need int) (lo, hi int, ok bool) {
	if n < 2*need {
		return 0, 0, false
	}
	return need - 1, n - need, true
}

// Holdout assigns rows to one random train/test split: fold 0 is the test
// part, fold 1 the training part (so Split(folds, 0) gives both). The test
// part has ceil(frac · n) rows, as scikit-learn's train_test_split. With
// labels (stratified), each class contributes its share of the test rows
// (largest remainders decide the rounding, ties to the larger class), and
// its rows are drawn at random within the class; without labels, rows are
// drawn at random from all. frac must lie in (0, 1) and leave both parts
// non-empty.
func Holdout(n int, labels []int, frac float64, seed uint64) ([]int, error) {
	if !(frac > 0 && frac < 1) {
		return nil, fmt.Errorf("holdout fraction %v is not in (0, 1)", frac)
	}
	nTest, _ := HoldoutSizes(n, frac)
	if nTest < 1 || nTest >= n {
		return nil, fmt.Errorf("a holdout of %v leaves %d of %d rows for testing; both parts need rows", frac, nTest, n)
	}
	rng := rand.New(rand.NewPCG(seed, 0x686f6c646f7574))
	folds := make([]int, n)
	for i := range folds {
		folds[i] = 1
	}
	if labels == nil {
		for _, r := range rng.Perm(n)[:nTest] {
			folds[r] = 0
		}
		return folds, nil
	}
	byClass := map[int][]int{}
	var classes []int
	for i, y := range labels {
		if byClass[y] == nil {
			classes = append(classes, y)
		}
		byClass[y] = append(byClass[y], i)
	}
	sort.Ints(classes)
	// Each class's exact share, floored; the rows left go to the largest
	// remainders.
	take := make([]int, len(classes))
	rem := make([]float64, len(classes))
	left := nTest
	for j, y := range classes {
		exact := float64(nTest) * float64(len(byClass[y])) / float64(n)
		take[j] = int(math.Floor(exact))
		rem[j] = exact - float64(take[j])
		left -= take[j]
	}
	order := make([]int, len(classes))
	for j := range order {
		order[j] = j
	}
	sort.SliceStable(order, func(a, b int) bool {
		if rem[order[a]] != rem[order[b]] {
			return rem[order[a]] > rem[order[b]]
		}
		return len(byClass[classes[order[a]]]) > len(byClass[classes[order[b]]])
	})
	for _, j := range order[:left] {
		take[j]++
	}
	for j, y := range classes {
		rows := byClass[y]
		for _, p := range rng.Perm(len(rows))[:take[j]] {
			folds[rows[p]] = 0
		}
	}
	return folds, nil
}
