package codes

import (
	"fmt"
	"sort"
)

// MaxExhaustiveClasses is the largest K accepted by Exhaustive
// (2^11 − 1 = 2047 columns).
const MaxExhaustiveClasses = 12

// OVA returns the K × K one-vs-all matrix: column k has +1 for class k and
// −1 for every other class.
func OVA(K int) (*Matrix, error) {
	if K < 2 {
		return nil, fmt.Errorf("one-vs-all: need at least 2 classes, got %d", K)
	}
	m := zeros(K, K)
	for k := 0; k < K; k++ {
		for i := 0; i < K; i++ {
			m.data[k*K+i] = -1
		}
		m.data[k*K+k] = 1
	}
	return m, nil
}

// Ordered returns the K × (K−1) decision-list matrix for the class order
// (a permutation of 0..K−1): column t has +1 for class order[t], −1 for the
// classes order[t+1:] still in play and 0 for order[:t], already decided.
// For K = 3 and order (0,1,2) the rows are [+1,0], [−1,+1], [−1,−1]. Decode
// it with the "sequential" decoder.
func Ordered(order []int) (*Matrix, error) {
	K := len(order)
	if K < 2 {
		return nil, fmt.Errorf("ordered: need at least 2 classes, got %d", K)
	}
	seen := make([]bool, K)
	for t, c := range order {
		if c < 0 || c >= K || seen[c] {
			return nil, fmt.Errorf("ordered: order %v is not a permutation of 0..%d (position %d)", order, K-1, t)
		}
		seen[c] = true
	}
	L := K - 1
	m := zeros(K, L)
	for t := 0; t < L; t++ {
		m.data[order[t]*L+t] = 1
		for _, c := range order[t+1:] {
			m.data[c*L+t] = -1
		}
	}
	return m, nil
}

// FrequencyOrder returns the classes 0..K−1 ordered by descending frequency
// in labels, ties broken by ascending class index: the usual order for
// Ordered (largest class split off first).
func FrequencyOrder(labels []int, K int) ([]int, error) {
	if K < 1 {
		return nil, fmt.Errorf("frequency order: need at least 1 class, got %d", K)
	}
	counts := make([]int, K)
	for i, y := range labels {
		if y < 0 || y >= K {
			return nil, fmt.Errorf("frequency order: label %d of row %d is outside 0..%d", y, i, K-1)
		}
		counts[y]++
	}
	order := make([]int, K)
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(a, b int) bool { return counts[order[a]] > counts[order[b]] })
	return order, nil
}

// OVO returns the one-vs-one matrix. Without asymmetric it has
// K(K−1)/2 columns for the pairs (0,1), (0,2), …, (0,K−1), (1,2), …,
// (K−2,K−1) in that order; the column of pair (i, j), i < j, is +1 for class
// i, −1 for class j and 0 elsewhere. With asymmetric the K(K−1)/2 swapped
// columns (−1 for i, +1 for j) follow, in the same pair order, giving
// K(K−1) columns whose first half is the symmetric matrix.
func OVO(K int, asymmetric bool) (*Matrix, error) {
	if K < 2 {
		return nil, fmt.Errorf("one-vs-one: need at least 2 classes, got %d", K)
	}
	P := K * (K - 1) / 2
	L := P
	if asymmetric {
		L = 2 * P
	}
	m := zeros(K, L)
	c := 0
	for i := 0; i < K; i++ {
		for j := i + 1; j < K; j++ {
			m.data[i*L+c] = 1
			m.data[j*L+c] = -1
			if asymmetric {
				m.data[i*L+P+c] = -1
				m.data[j*L+P+c] = 1
			}
			c++
		}
	}
	return m, nil
}

// Exhaustive returns the exhaustive code of Dietterich & Bakiri (1995) for
// 2 ≤ K ≤ MaxExhaustiveClasses: 2^{K−1} − 1 columns, every split of the
// classes into two non-empty groups exactly once. Row 0 is all +1; row k ≥ 1
// alternates runs of 2^{K−1−k} entries −1 and +1 (the "zeros" and "ones" of
// the paper), so column c gives row k the bit K−1−k of c. Every pair of rows
// is at distance 2^{K−2}.
func Exhaustive(K int) (*Matrix, error) {
	if K < 2 || K > MaxExhaustiveClasses {
		return nil, fmt.Errorf("exhaustive: K = %d outside 2..%d", K, MaxExhaustiveClasses)
	}
	L := 1<<(K-1) - 1
	m := zeros(K, L)
	for c := 0; c < L; c++ {
		m.data[c] = 1
		for k := 1; k < K; k++ {
			v := int8(-1)
			if (c>>(K-1-k))&1 == 1 {
				v = 1
			}
			m.data[k*L+c] = v
		}
	}
	return m, nil
}
