package codes

import (
	"fmt"
	"math"
	"math/rand/v2"
)

const (
	// DefaultTrials is the number of candidate matrices RandomDense and
	// RandomSparse draw; the one with the largest minimum row distance is
	// kept (Allwein, Schapire & Singer 2000 drew 10,000; 100 keeps the cost
	// O(100·K²·L) small while already improving d_min markedly).
	DefaultTrials = 100
	// DenseFactor is the length factor of DefaultDenseLength:
	// L = ⌈10·log₂ K⌉, as in Allwein et al. (2000).
	DenseFactor = 10
	// SparseFactor is the length factor of DefaultSparseLength:
	// L = ⌈15·log₂ K⌉, as in Allwein et al. (2000).
	SparseFactor = 15
	// columnRetries bounds the draws spent on one column before a trial is
	// abandoned.
	columnRetries = 1000
	// pcg stream constants (the second PCG word) of the generators.
	seqRandom = 0x636f6465732f726e // "codes/rn"
)

// DefaultDenseLength returns ⌈DenseFactor·log₂ K⌉ capped at
// MaxDenseColumns(K), the number of distinct usable dense columns.
func DefaultDenseLength(K int) int {
	return capLength(DefaultLength(K, DenseFactor), MaxDenseColumns(K))
}

// DefaultSparseLength returns ⌈SparseFactor·log₂ K⌉ capped at
// MaxSparseColumns(K).
func DefaultSparseLength(K int) int {
	return capLength(DefaultLength(K, SparseFactor), MaxSparseColumns(K))
}

// DefaultLength returns ⌈factor·log₂ K⌉, at least 1 (uncapped).
func DefaultLength(K int, factor float64) int {
	if K < 2 {
		return 1
	}
	return max(1, int(math.Ceil(factor*math.Log2(float64(K))-1e-9)))
}

func capLength(l, limit int) int {
	if limit > 0 && l > limit {
		return limit
	}
	return l
}

// MaxDenseColumns returns 2^{K−1} − 1, the number of ±1 columns with both
// signs that are pairwise neither equal nor complementary; 0 (no limit) when
// that does not fit an int.
func MaxDenseColumns(K int) int {
	if K < 2 {
		return 0
	}
	if K > 62 {
		return 0
	}
	return 1<<(K-1) - 1
}

// MaxSparseColumns returns (3^K − 2^{K+1} + 1)/2, the number of ternary
// columns with at least one +1 and one −1 up to negation; 0 (no limit) when
// that does not fit an int.
func MaxSparseColumns(K int) int {
	if K < 2 {
		return 0
	}
	if K > 38 {
		return 0
	}
	p3 := 1
	for range K {
		p3 *= 3
	}
	return (p3 - 1<<(K+1) + 1) / 2
}

// RandomDense returns a K × L matrix with independent ±1 entries (each with
// probability ½), the best of DefaultTrials draws. See Random.
func RandomDense(K, L int, seed uint64) (*Matrix, error) {
	return Random(K, L, 0, seed, DefaultTrials)
}

// RandomSparse returns a K × L matrix with entries 0 with probability ½ and
// ±1 with probability ¼ each, the best of DefaultTrials draws. See Random.
func RandomSparse(K, L int, seed uint64) (*Matrix, error) {
	return Random(K, L, 0.5, seed, DefaultTrials)
}

// Random draws trials random K × L code matrices, entries 0 with
// probability pZero and ±1 with probability (1−pZero)/2 each, and returns
// the valid one with the largest minimum row distance (the first on ties).
// A valid matrix has every column containing both a +1 and a −1, no two
// columns equal or complementary (column draws violating this are redrawn),
// and every pair of classes on opposite sides of at least one column (so no
// identical rows and no all-zero row). The result depends only on
// (K, L, pZero, seed, trials). It fails when L exceeds the number of
// distinct usable columns or no trial yields a valid matrix.
func Random(K, L int, pZero float64, seed uint64, trials int) (*Matrix, error) {
	switch {
	case K < 2:
		return nil, fmt.Errorf("random code: need at least 2 classes, got %d", K)
	case L < 1:
		return nil, fmt.Errorf("random code: need at least 1 column, got %d", L)
	case !(pZero >= 0 && pZero < 1):
		return nil, fmt.Errorf("random code: zero probability %v outside [0,1)", pZero)
	case trials < 1:
		return nil, fmt.Errorf("random code: need at least 1 trial, got %d", trials)
	}
	limit := MaxSparseColumns(K)
	if pZero == 0 {
		limit = MaxDenseColumns(K)
	}
	if limit > 0 && L > limit {
		return nil, fmt.Errorf("random code: %d columns requested but only %d distinct usable columns exist for %d classes", L, limit, K)
	}
	rng := rand.New(rand.NewPCG(seed, seqRandom))
	var best *Matrix
	bestD := math.Inf(-1)
	cand := zeros(K, L)
	col := make([]int8, K)
	neg := make([]int8, K)
	seen := make(map[string]struct{}, 2*L)
	for range trials {
		clear(seen)
		ok := true
		for i := 0; i < L && ok; i++ {
			ok = false
			for range columnRetries {
				drawColumn(rng, col, pZero)
				if !hasBothSigns(col) {
					continue
				}
				key := string(int8Bytes(col))
				if _, dup := seen[key]; dup {
					continue
				}
				for k, v := range col {
					neg[k] = -v
				}
				seen[key] = struct{}{}
				seen[string(int8Bytes(neg))] = struct{}{}
				for k, v := range col {
					cand.data[k*L+i] = v
				}
				ok = true
				break
			}
		}
		if !ok {
			continue
		}
		if d, valid := minSeparatedDistance(cand, bestD); valid && d > bestD {
			best, bestD = cand.Clone(), d
		}
	}
	if best == nil {
		return nil, fmt.Errorf("random code: no valid %d×%d matrix (zero probability %v) in %d trials; try more columns", K, L, pZero, trials)
	}
	return best, nil
}

// drawColumn fills col with 0 (probability pZero) or ±1.
func drawColumn(rng *rand.Rand, col []int8, pZero float64) {
	for k := range col {
		u := rng.Float64()
		switch {
		case u < pZero:
			col[k] = 0
		case u < pZero+(1-pZero)/2:
			col[k] = 1
		default:
			col[k] = -1
		}
	}
}

func hasBothSigns(col []int8) bool {
	var pos, neg bool
	for _, v := range col {
		pos = pos || v == 1
		neg = neg || v == -1
	}
	return pos && neg
}

// minSeparatedDistance returns the minimum row distance of m and whether
// every pair of rows is separated by some column. It gives up (valid =
// false) as soon as a pair's distance is at most floor, since such a
// candidate cannot beat the current best.
func minSeparatedDistance(m *Matrix, floor float64) (d float64, valid bool) {
	d = math.Inf(1)
	for a := 0; a < m.k; a++ {
		ra := m.data[a*m.l : (a+1)*m.l]
		for b := a + 1; b < m.k; b++ {
			rb := m.data[b*m.l : (b+1)*m.l]
			dot, sep := 0, false
			for i, v := range ra {
				p := int(v) * int(rb[i])
				dot += p
				sep = sep || p < 0
			}
			if !sep {
				return 0, false
			}
			dist := float64(m.l-dot) / 2
			if dist <= floor {
				return 0, false
			}
			d = min(d, dist)
		}
	}
	return d, true
}
