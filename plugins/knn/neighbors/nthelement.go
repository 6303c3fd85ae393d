package neighbors

import "math/bits"

// nthElement rearranges s as GCC's libstdc++ std::nth_element(first,
// first+nth, last, less) does (bits/stl_algo.h: introselect with a
// median-of-three pivot, insertion sort below four elements, heap select
// past 2·⌊log2 n⌋ partitions), so that s[nth] is the element a full sort
// would put there, none after it less and none before it greater. less
// must be a strict total order. scikit-learn's KD tree partitions its
// nodes with it; the order it leaves inside each half decides the order
// a leaf's rows are visited in, and so which of several rows at equal
// distance a query keeps.
func nthElement(s []int32, nth int, less func(a, b int32) bool) {
	if len(s) == 0 || nth == len(s) {
		return
	}
	first, last := 0, len(s)
	depth := 2 * (bits.Len(uint(last-first)) - 1)
	for last-first > 3 {
		if depth == 0 {
			heapSelect(s[first:last], nth+1-first, less)
			s[first], s[nth] = s[nth], s[first]
			return
		}
		depth--
		cut := unguardedPartitionPivot(s, first, last, less)
		if cut <= nth {
			first = cut
		} else {
			last = cut
		}
	}
	insertionSort(s[first:last], less)
}

// unguardedPartitionPivot is std::__unguarded_partition_pivot.
func unguardedPartitionPivot(s []int32, first, last int, less func(a, b int32) bool) int {
	mid := first + (last-first)/2
	moveMedianToFirst(s, first, first+1, mid, last-1, less)
	// std::__unguarded_partition(first+1, last, first)
	lo, hi := first+1, last
	pivot := first
	for {
		for less(s[lo], s[pivot]) {
			lo++
		}
		hi--
		for less(s[pivot], s[hi]) {
			hi--
		}
		if !(lo < hi) {
			return lo
		}
		s[lo], s[hi] = s[hi], s[lo]
		lo++
	}
}

// moveMedianToFirst is std::__move_median_to_first: it swaps the median
// of s[a], s[b], s[c] into s[result].
func moveMedianToFirst(s []int32, result, a, b, c int, less func(x, y int32) bool) {
	swap := func(i int) { s[result], s[i] = s[i], s[result] }
	switch {
	case less(s[a], s[b]):
		switch {
		case less(s[b], s[c]):
			swap(b)
		case less(s[a], s[c]):
			swap(c)
		default:
			swap(a)
		}
	case less(s[a], s[c]):
		swap(a)
	case less(s[b], s[c]):
		swap(c)
	default:
		swap(b)
	}
}

// insertionSort is std::__insertion_sort.
func insertionSort(s []int32, less func(a, b int32) bool) {
	for i := 1; i < len(s); i++ {
		v := s[i]
		if less(v, s[0]) {
			copy(s[1:i+1], s[:i])
			s[0] = v
			continue
		}
		j := i
		for less(v, s[j-1]) {
			s[j] = s[j-1]
			j--
		}
		s[j] = v
	}
}

// heapSelect is std::__heap_select(first, middle, last): a max-heap of
// the first middle elements, into which every later element less than
// its root is swapped.
func heapSelect(s []int32, middle int, less func(a, b int32) bool) {
	makeHeap(s[:middle], less)
	for i := middle; i < len(s); i++ {
		if less(s[i], s[0]) {
			// std::__pop_heap(first, middle, i)
			v := s[i]
			s[i] = s[0]
			adjustHeap(s[:middle], 0, v, less)
		}
	}
}

// makeHeap is std::__make_heap.
func makeHeap(s []int32, less func(a, b int32) bool) {
	n := len(s)
	if n < 2 {
		return
	}
	for parent := (n - 2) / 2; ; parent-- {
		adjustHeap(s, parent, s[parent], less)
		if parent == 0 {
			return
		}
	}
}

// adjustHeap is std::__adjust_heap(first, hole, len(s), v) followed by
// std::__push_heap.
func adjustHeap(s []int32, hole int, v int32, less func(a, b int32) bool) {
	n := len(s)
	top := hole
	child := hole
	for child < (n-1)/2 {
		child = 2 * (child + 1)
		if less(s[child], s[child-1]) {
			child--
		}
		s[hole] = s[child]
		hole = child
	}
	if n&1 == 0 && child == (n-2)/2 {
		child = 2 * (child + 1)
		s[hole] = s[child-1]
		hole = child - 1
	}
	parent := (hole - 1) / 2
	for hole > top && less(s[parent], v) {
		s[hole] = s[parent]
		hole = parent
		parent = (hole - 1) / 2
	}
	s[hole] = v
}
