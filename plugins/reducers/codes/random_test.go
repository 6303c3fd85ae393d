package codes

import (
	"fmt"
	"testing"
)

func TestDefaultLengths(t *testing.T) {
	for _, tc := range []struct {
		K, dense, sparse int
	}{
		{2, 1, 1},    // only one usable column exists for 2 classes
		{3, 3, 6},    // capped: 2²−1 = 3 dense, (27−16+1)/2 = 6 sparse
		{4, 7, 25},   // ⌈20⌉ capped at 7; ⌈30⌉ capped at (81−32+1)/2 = 25
		{5, 15, 35},  // ⌈23.2⌉ capped at 15; ⌈34.8⌉ = 35
		{8, 30, 45},  // ⌈30⌉; ⌈45⌉
		{10, 34, 50}, // ⌈33.2⌉; ⌈49.8⌉
		{26, 48, 71}, // ⌈47.0⌉; ⌈70.5⌉
	} {
		if got := DefaultDenseLength(tc.K); got != tc.dense {
			t.Errorf("DefaultDenseLength(%d) = %d, want %d", tc.K, got, tc.dense)
		}
		if got := DefaultSparseLength(tc.K); got != tc.sparse {
			t.Errorf("DefaultSparseLength(%d) = %d, want %d", tc.K, got, tc.sparse)
		}
	}
	for K, want := range map[int]int{2: 1, 3: 3, 4: 7, 5: 15} {
		if got := MaxDenseColumns(K); got != want {
			t.Errorf("MaxDenseColumns(%d) = %d, want %d", K, got, want)
		}
	}
	for K, want := range map[int]int{2: 1, 3: 6, 4: 25, 5: 90} {
		if got := MaxSparseColumns(K); got != want {
			t.Errorf("MaxSparseColumns(%d) = %d, want %d", K, got, want)
		}
	}
}

// TestMaxColumnsCount checks the closed forms by enumerating all columns.
func TestMaxColumnsCount(t *testing.T) {
	for K := 2; K <= 6; K++ {
		dense, sparse := 0, 0
		total := 1
		for range K {
			total *= 3
		}
		col := make([]int8, K)
		for code := 0; code < total; code++ {
			x := code
			isDense := true
			for k := range col {
				col[k] = int8(x%3) - 1
				x /= 3
				isDense = isDense && col[k] != 0
			}
			if hasBothSigns(col) {
				sparse++
				if isDense {
					dense++
				}
			}
		}
		// Every usable column is counted with its complement.
		if MaxDenseColumns(K) != dense/2 || MaxSparseColumns(K) != sparse/2 {
			t.Errorf("K=%d: closed forms %d/%d, enumeration %d/%d", K, MaxDenseColumns(K), MaxSparseColumns(K), dense/2, sparse/2)
		}
	}
}

func TestRandomReproducibleAndValid(t *testing.T) {
	type gen struct {
		name  string
		f     func(K, L int, seed uint64) (*Matrix, error)
		dflt  func(K int) int
		short int // a shorter length, as a multiple of K
	}
	// Sparse codes separate a pair of classes in a column with probability
	// only 1/8, so they need longer codes than dense ones.
	gens := []gen{{"dense", RandomDense, DefaultDenseLength, 1}, {"sparse", RandomSparse, DefaultSparseLength, 3}}
	for _, g := range gens {
		for _, K := range []int{2, 3, 4, 5, 7, 10, 16} {
			for _, L := range []int{g.dflt(K), min(g.dflt(K), g.short*K)} {
				for seed := uint64(0); seed < 4; seed++ {
					name := fmt.Sprintf("%s K=%d L=%d seed=%d", g.name, K, L, seed)
					a, err := g.f(K, L, seed)
					if err != nil {
						t.Errorf("%s: %v", name, err)
						continue
					}
					b := must(t)(g.f(K, L, seed))
					if !a.Equal(b) {
						t.Errorf("%s: two calls differ", name)
					}
					if gk, gl := a.Dims(); gk != K || gl != L {
						t.Errorf("%s: dims %d×%d", name, gk, gl)
					}
					d := Diagnose(a)
					if d.Degenerate() || len(d.IdenticalRows) > 0 || len(d.ZeroRows) > 0 {
						t.Errorf("%s: degenerate: %v\n%v", name, d.Warnings(nil), a)
					}
					if g.name == "dense" {
						for _, v := range a.Entries() {
							if v == 0 {
								t.Fatalf("%s: dense code has a 0", name)
							}
						}
					}
				}
			}
		}
	}
}

func TestRandomSeedsDiffer(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func(K, L int, seed uint64) (*Matrix, error)
	}{{"dense", RandomDense}, {"sparse", RandomSparse}} {
		seen := map[string]uint64{}
		for seed := uint64(0); seed < 20; seed++ {
			m := must(t)(tc.f(10, 30, seed))
			key := m.String()
			if prev, dup := seen[key]; dup {
				t.Errorf("%s: seeds %d and %d give the same matrix", tc.name, prev, seed)
			}
			seen[key] = seed
		}
	}
}

// TestRandomSparseProportions checks the entry distribution P(0) = ½,
// P(±1) = ¼ over many columns (the rejection of bad columns biases it only
// slightly for K = 12).
func TestRandomSparseProportions(t *testing.T) {
	var counts [3]int
	for seed := uint64(0); seed < 20; seed++ {
		for _, v := range must(t)(Random(12, 100, 0.5, seed, 1)).Entries() {
			counts[v+1]++
		}
	}
	n := float64(counts[0] + counts[1] + counts[2])
	for i, want := range []float64{0.25, 0.5, 0.25} {
		if got := float64(counts[i]) / n; got < want-0.02 || got > want+0.02 {
			t.Errorf("P(%d) = %.3f, want %.2f ± 0.02", i-1, got, want)
		}
	}
}

// TestRandomBestOfTrials: the first trial of a many-trial run is the
// single-trial matrix of the same seed, and the kept matrix is at least as
// good.
func TestRandomBestOfTrials(t *testing.T) {
	improved := 0
	for seed := uint64(0); seed < 10; seed++ {
		one, err := Random(10, 15, 0, seed, 1)
		if err != nil {
			continue // the first trial happened to be invalid
		}
		many := must(t)(Random(10, 15, 0, seed, DefaultTrials))
		d1, dn := Diagnose(one).MinDistance, Diagnose(many).MinDistance
		if dn < d1 {
			t.Errorf("seed %d: best of %d trials has d_min %v < first trial's %v", seed, DefaultTrials, dn, d1)
		}
		if dn > d1 {
			improved++
		}
	}
	if improved == 0 {
		t.Error("100 trials never improved on a single draw for K=10, L=15")
	}
}

func TestRandomErrors(t *testing.T) {
	for _, tc := range []struct {
		K, L   int
		p0     float64
		trials int
	}{
		{1, 5, 0, 10},
		{4, 0, 0, 10},
		{3, 4, 0, 10},  // only 3 usable dense columns for 3 classes
		{3, 7, .5, 10}, // only 6 usable sparse columns
		{4, 5, 1, 10},
		{4, 5, -0.1, 10},
		{4, 5, 0, 0},
		{40, 2, 0, 10}, // 2 ±1 columns cannot separate 40 classes
	} {
		if m, err := Random(tc.K, tc.L, tc.p0, 1, tc.trials); err == nil {
			t.Errorf("Random(%d, %d, %v, trials %d): no error, got\n%v", tc.K, tc.L, tc.p0, tc.trials, m)
		}
	}
	// At the limit the generator still succeeds: all 7 columns of K = 4.
	m := must(t)(RandomDense(4, 7, 3))
	if d := Diagnose(m); d.MinDistance != 4 || d.Degenerate() {
		t.Errorf("RandomDense(4,7) should be the exhaustive code up to column order and sign; d=%+v", d)
	}
}
