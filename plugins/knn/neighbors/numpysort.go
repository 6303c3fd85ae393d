package neighbors

import "math/bits"

// This file reproduces the two NumPy 1.24 routines scikit-learn's
// brute-force neighbour search falls back on for metrics its Cython
// reduction does not cover (cosine): np.argpartition (introselect,
// numpy/core/src/npysort/selection.cpp) and np.argsort's default
// quicksort (numpy/core/src/npysort/quicksort.cpp), so that rows at equal
// distance come out in the same places as there. Both order the entries
// of tosort, indices into v, and leave v alone.

// npLess is NumPy's ordering of doubles: NaN after every number.
func npLess(a, b float64) bool { return a < b || (b != b && a == a) }

// msb is npy_get_msb: the index of the highest set bit of n > 0.
func msb(n int) int { return bits.Len(uint(n)) - 1 }

// argPartition rearranges tosort so that v[tosort[kth]] is the value a
// full sort would put there, every entry before it no larger and every
// entry after it no smaller: np.argpartition(v, kth) for one kth.
func argPartition(v []float64, tosort []int32, kth int) {
	num := len(tosort)
	if num == 0 {
		return
	}
	low, high := 0, num-1
	val := func(i int) float64 { return v[tosort[i]] }
	swap := func(a, b int) { tosort[a], tosort[b] = tosort[b], tosort[a] }
	if kth-low < 3 {
		dumbSelect(v, tosort[low:high+1], kth-low)
		return
	}
	if kth == num-1 {
		maxidx, maxval := low, val(low)
		for k := low + 1; k < num; k++ {
			if !npLess(val(k), maxval) {
				maxidx, maxval = k, val(k)
			}
		}
		swap(kth, maxidx)
		return
	}
	depth := msb(num) * 2
	for low+1 < high {
		ll, hh := low+1, high
		if depth > 0 || hh-ll < 5 {
			mid := low + (high-low)/2
			// median3_swap_
			if npLess(val(high), val(mid)) {
				swap(high, mid)
			}
			if npLess(val(high), val(low)) {
				swap(high, low)
			}
			if npLess(val(low), val(mid)) {
				swap(low, mid)
			}
			swap(mid, low+1)
		} else {
			mid := ll + medianOfMedian5(v, tosort[ll:hh])
			swap(mid, low)
			ll--
			hh++
		}
		depth--
		pivot := val(low)
		for {
			for ll++; npLess(val(ll), pivot); ll++ {
			}
			for hh--; npLess(pivot, val(hh)); hh-- {
			}
			if hh < ll {
				break
			}
			swap(ll, hh)
		}
		swap(low, hh)
		if hh >= kth {
			high = hh - 1
		}
		if hh <= kth {
			low = ll
		}
	}
	if high == low+1 && npLess(val(high), val(low)) {
		swap(high, low)
	}
}

// dumbSelect is NumPy's dumb_select_: selection sort of the kth+1
// smallest entries into the front.
func dumbSelect(v []float64, tosort []int32, kth int) {
	for i := 0; i <= kth; i++ {
		minidx, minval := i, v[tosort[i]]
		for k := i + 1; k < len(tosort); k++ {
			if npLess(v[tosort[k]], minval) {
				minidx, minval = k, v[tosort[k]]
			}
		}
		tosort[i], tosort[minidx] = tosort[minidx], tosort[i]
	}
}

// median5 is NumPy's median5_ on tosort[0:5]: it returns the position of
// the median after its swaps.
func median5(v []float64, t []int32) int {
	val := func(i int) float64 { return v[t[i]] }
	swap := func(a, b int) { t[a], t[b] = t[b], t[a] }
	if npLess(val(1), val(0)) {
		swap(1, 0)
	}
	if npLess(val(4), val(3)) {
		swap(4, 3)
	}
	if npLess(val(3), val(0)) {
		swap(3, 0)
	}
	if npLess(val(4), val(1)) {
		swap(4, 1)
	}
	if npLess(val(2), val(1)) {
		swap(2, 1)
	}
	if npLess(val(3), val(2)) {
		if npLess(val(3), val(1)) {
			return 1
		}
		return 3
	}
	return 2
}

// medianOfMedian5 is NumPy's median_of_median5_: the position in tosort
// of the median of the medians of its groups of five.
func medianOfMedian5(v []float64, tosort []int32) int {
	num := len(tosort)
	nmed := num / 5
	for i, sub := 0, 0; i < nmed; i, sub = i+1, sub+5 {
		m := median5(v, tosort[sub:])
		tosort[sub+m], tosort[i] = tosort[i], tosort[sub+m]
	}
	if nmed > 2 {
		argPartition(v, tosort[:nmed], nmed/2)
	}
	return nmed / 2
}

// smallQuicksort is NumPy's SMALL_QUICKSORT: partitions of at most this
// many entries past the first are insertion-sorted.
const smallQuicksort = 16

// argSort sorts tosort by v ascending: np.argsort(kind="quicksort"), an
// introsort whose small partitions are insertion-sorted (stable for up to
// 17 entries) and which falls back on heapsort past 2·log2(n) levels.
func argSort(v []float64, tosort []int32) {
	num := len(tosort)
	if num < 2 {
		return
	}
	type span struct{ lo, hi, depth int }
	var stack []span
	pl, pr := 0, num-1
	cdepth := msb(num) * 2
	swap := func(a, b int) { tosort[a], tosort[b] = tosort[b], tosort[a] }
	for {
		if cdepth < 0 {
			argHeapsort(v, tosort[pl:pr+1])
		} else {
			for pr-pl > smallQuicksort {
				pm := pl + (pr-pl)>>1
				if npLess(v[tosort[pm]], v[tosort[pl]]) {
					swap(pm, pl)
				}
				if npLess(v[tosort[pr]], v[tosort[pm]]) {
					swap(pr, pm)
				}
				if npLess(v[tosort[pm]], v[tosort[pl]]) {
					swap(pm, pl)
				}
				vp := v[tosort[pm]]
				pi, pj := pl, pr-1
				swap(pm, pj)
				for {
					for pi++; npLess(v[tosort[pi]], vp); pi++ {
					}
					for pj--; npLess(vp, v[tosort[pj]]); pj-- {
					}
					if pi >= pj {
						break
					}
					swap(pi, pj)
				}
				swap(pi, pr-1)
				cdepth--
				if pi-pl < pr-pi {
					stack = append(stack, span{pi + 1, pr, cdepth})
					pr = pi - 1
				} else {
					stack = append(stack, span{pl, pi - 1, cdepth})
					pl = pi + 1
				}
			}
			for pi := pl + 1; pi <= pr; pi++ {
				vi := tosort[pi]
				vp := v[vi]
				pj := pi
				for pj > pl && npLess(vp, v[tosort[pj-1]]) {
					tosort[pj] = tosort[pj-1]
					pj--
				}
				tosort[pj] = vi
			}
		}
		if len(stack) == 0 {
			return
		}
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		pl, pr, cdepth = s.lo, s.hi, s.depth
	}
}

// argHeapsort is NumPy's aheapsort_.
func argHeapsort(v []float64, tosort []int32) {
	n := len(tosort)
	a := func(i int) *int32 { return &tosort[i-1] } // 1-based
	for l := n >> 1; l > 0; l-- {
		tmp := *a(l)
		i, j := l, l<<1
		for j <= n {
			if j < n && npLess(v[*a(j)], v[*a(j + 1)]) {
				j++
			}
			if !npLess(v[tmp], v[*a(j)]) {
				break
			}
			*a(i) = *a(j)
			i, j = j, j+j
		}
		*a(i) = tmp
	}
	for n > 1 {
		tmp := *a(n)
		*a(n) = *a(1)
		n--
		i, j := 1, 2
		for j <= n {
			if j < n && npLess(v[*a(j)], v[*a(j + 1)]) {
				j++
			}
			if !npLess(v[tmp], v[*a(j)]) {
				break
			}
			*a(i) = *a(j)
			i, j = j, j+j
		}
		*a(i) = tmp
	}
}
