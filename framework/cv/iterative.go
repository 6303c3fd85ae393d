package cv

import (
	"fmt"
	"math/rand/v2"
)

// IterativeStratification assigns the rows of a multi-label dataset to k
// folds by the iterative stratification of Sechidis, Tsoumakas and
// Vlahavas (2011): labels are served rarest first, and each row carrying
// the current label goes to the fold that most wants that label (then the
// fold that most wants rows), so every label's positives spread evenly.
// labels[i][j] reports whether row i has label j. Ties between folds are
// broken by a seeded draw.
func IterativeStratification(labels [][]bool, k int, seed uint64) ([]int, error) {
	n := len(labels)
	if k < 2 || k > n {
		return nil, fmt.Errorf("cannot split %d rows into %d folds", n, k)
	}
	q := 0
	if n > 0 {
		q = len(labels[0])
	}
	rng := rand.New(rand.NewPCG(seed, 0x69746572))
	// Desired number of rows, and of rows per label, in each fold.
	want := make([]float64, k)
	wantLabel := make([][]float64, q)
	for f := range want {
		want[f] = float64(n) / float64(k)
	}
	remaining := make([]int, q) // unassigned rows per label
	for i, row := range labels {
		if len(row) != q {
			return nil, fmt.Errorf("row %d has %d labels, row 0 has %d", i, len(row), q)
		}
		for j, on := range row {
			if on {
				remaining[j]++
			}
		}
	}
	for j := range wantLabel {
		wantLabel[j] = make([]float64, k)
		for f := range wantLabel[j] {
			wantLabel[j][f] = float64(remaining[j]) / float64(k)
		}
	}
	fold := make([]int, n)
	assigned := make([]bool, n)
	left := n
	place := func(i int, candidates []int) {
		// Among candidates prefer the fold wanting most rows, then a
		// seeded draw.
		best := []int{}
		for _, f := range candidates {
			switch {
			case len(best) == 0 || want[f] > want[best[0]]:
				best = []int{f}
			case want[f] == want[best[0]]:
				best = append(best, f)
			}
		}
		f := best[rng.IntN(len(best))]
		fold[i], assigned[i] = f, true
		left--
		want[f]--
		for j, on := range labels[i] {
			if on {
				wantLabel[j][f]--
				remaining[j]--
			}
		}
	}
	all := make([]int, k)
	for f := range all {
		all[f] = f
	}
	for left > 0 {
		// The label with the fewest unassigned rows (but some).
		l := -1
		for j, r := range remaining {
			if r > 0 && (l < 0 || r < remaining[l]) {
				l = j
			}
		}
		if l < 0 {
			// Rows without labels: by the folds' wanted sizes.
			for i := range labels {
				if !assigned[i] {
					place(i, all)
				}
			}
			break
		}
		for i, row := range labels {
			if assigned[i] || !row[l] {
				continue
			}
			var cands []int
			for f := 0; f < k; f++ {
				switch {
				case len(cands) == 0 || wantLabel[l][f] > wantLabel[l][cands[0]]:
					cands = []int{f}
				case wantLabel[l][f] == wantLabel[l][cands[0]]:
					cands = append(cands, f)
				}
			}
			place(i, cands)
		}
	}
	return fold, nil
}
