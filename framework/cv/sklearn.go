package cv

import "fmt"

// SklearnKFold assigns n rows to k folds exactly as scikit-learn's
// KFold(n_splits=k, shuffle=True, random_state=seed) does: the row indices
// are shuffled by numpy's legacy RandomState(seed) (MT19937 and its
// masked-rejection bounded integers), then cut into k contiguous chunks,
// the first n mod k of them one row longer. Only the low 32 bits of seed
// are used, as numpy accepts seeds below 2^32.
func SklearnKFold(n, k int, seed uint64) ([]int, error) {
	if k < 2 || k > n {
		return nil, fmt.Errorf("cannot split %d rows into %d folds", n, k)
	}
	mt := newMT19937(uint32(seed))
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := mt.interval(uint32(i))
		idx[i], idx[j] = idx[j], idx[i]
	}
	fold := make([]int, n)
	start := 0
	for f := 0; f < k; f++ {
		size := n / k
		if f < n%k {
			size++
		}
		for _, r := range idx[start : start+size] {
			fold[r] = f
		}
		start += size
	}
	return fold, nil
}

// mt19937 is the Mersenne Twister as numpy's legacy RandomState seeds it.
type mt19937 struct {
	state [624]uint32
	pos   int
}

func newMT19937(seed uint32) *mt19937 {
	m := &mt19937{pos: 624}
	m.state[0] = seed
	for i := 1; i < 624; i++ {
		prev := m.state[i-1]
		m.state[i] = 1812433253*(prev^(prev>>30)) + uint32(i)
	}
	return m
}

func (m *mt19937) next() uint32 {
	const upper, lower = 0x80000000, 0x7fffffff
	if m.pos >= 624 {
		for i := 0; i < 624; i++ {
			y := m.state[i]&upper | m.state[(i+1)%624]&lower
			v := m.state[(i+397)%624] ^ (y >> 1)
			if y&1 != 0 {
				v ^= 0x9908b0df
			}
			m.state[i] = v
		}
		m.pos = 0
	}
	y := m.state[m.pos]
	m.pos++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// interval returns a uniform integer in [0, max] by masked rejection, as
// numpy's legacy random_interval for max < 2^32.
func (m *mt19937) interval(max uint32) int {
	if max == 0 {
		return 0
	}
	mask := max
	mask |= mask >> 1
	mask |= mask >> 2
	mask |= mask >> 4
	mask |= mask >> 8
	mask |= mask >> 16
	for {
		if v := m.next() & mask; v <= max {
			return int(v)
		}
	}
}

// SklearnStratifiedKFold assigns rows to k folds exactly as scikit-learn's
// StratifiedKFold(n_splits=k, shuffle=True, random_state=seed) does (1.x):
// classes are numbered in order of first appearance; the rows sorted by
// class are dealt to the folds in turn (row i of that order to fold i mod
// k), which fixes how many rows of each class each fold gets; then for
// each class its list of fold numbers (ascending) is shuffled by numpy's
// legacy RandomState(seed) and assigned to the class's rows in order.
// Only the low 32 bits of seed are used.
func SklearnStratifiedKFold(labels []int, k int, seed uint64) ([]int, error) {
	n := len(labels)
	if k < 2 || k > n {
		return nil, fmt.Errorf("cannot split %d rows into %d folds", n, k)
	}
	enc := map[int]int{} // class → number in order of first appearance
	y := make([]int, n)
	for i, c := range labels {
		e, ok := enc[c]
		if !ok {
			e = len(enc)
			enc[c] = e
		}
		y[i] = e
	}
	count := make([]int, len(enc))
	for _, e := range y {
		count[e]++
	}
	// allocation[f][c]: rows of class c in fold f when the class-sorted
	// rows are dealt to the folds in turn.
	allocation := make([][]int, k)
	for f := range allocation {
		allocation[f] = make([]int, len(enc))
	}
	pos := 0
	for c, m := range count {
		for r := 0; r < m; r++ {
			allocation[(pos+r)%k][c]++
		}
		pos += m
	}
	mt := newMT19937(uint32(seed))
	fold := make([]int, n)
	for c := range count {
		var folds []int
		for f := 0; f < k; f++ {
			for r := 0; r < allocation[f][c]; r++ {
				folds = append(folds, f)
			}
		}
		for i := len(folds) - 1; i > 0; i-- {
			j := mt.interval(uint32(i))
			folds[i], folds[j] = folds[j], folds[i]
		}
		next := 0
		for i, e := range y {
			if e == c {
				fold[i] = folds[next]
				next++
			}
		}
	}
	return fold, nil
}
