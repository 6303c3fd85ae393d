package neighbors

// heapPush offers (val, idx) to a fixed-size max-heap of the k smallest
// values seen, stored as parallel arrays whose root (values[0]) is the
// largest kept. It is scikit-learn's heap_push (sklearn/utils/_heap.pyx),
// step for step: a value enters only when strictly smaller than the root,
// and the descent prefers the left child when the children are equal. The
// neighbour kept among rows at equal distance therefore depends on the
// order the rows are offered in and on the heap's shape at the time, as
// scikit-learn's does.
func heapPush(values []float64, indices []int32, val float64, idx int32) {
	if val >= values[0] {
		return
	}
	size := len(values)
	cur := 0
	for {
		left := 2*cur + 1
		right := left + 1
		var swap int
		switch {
		case left >= size:
			values[cur], indices[cur] = val, idx
			return
		case right >= size:
			if values[left] > val {
				swap = left
			} else {
				values[cur], indices[cur] = val, idx
				return
			}
		case values[left] >= values[right]:
			if val < values[left] {
				swap = left
			} else {
				values[cur], indices[cur] = val, idx
				return
			}
		default:
			if val < values[right] {
				swap = right
			} else {
				values[cur], indices[cur] = val, idx
				return
			}
		}
		values[cur], indices[cur] = values[swap], indices[swap]
		cur = swap
	}
}

// simultaneousSort sorts values ascending and applies the same swaps to
// indices: scikit-learn's simultaneous_sort (a median-of-three quicksort,
// sklearn/utils/_sorting.pyx), which orders rows at equal distance as it
// does.
func simultaneousSort(values []float64, indices []int32) {
	size := len(values)
	swap := func(a, b int) {
		values[a], values[b] = values[b], values[a]
		indices[a], indices[b] = indices[b], indices[a]
	}
	switch {
	case size <= 1:
	case size == 2:
		if values[0] > values[1] {
			swap(0, 1)
		}
	case size == 3:
		if values[0] > values[1] {
			swap(0, 1)
		}
		if values[1] > values[2] {
			swap(1, 2)
			if values[0] > values[1] {
				swap(0, 1)
			}
		}
	default:
		pivot := size / 2
		if values[0] > values[size-1] {
			swap(0, size-1)
		}
		if values[size-1] > values[pivot] {
			swap(size-1, pivot)
			if values[0] > values[size-1] {
				swap(0, size-1)
			}
		}
		pv := values[size-1]
		store := 0
		for i := 0; i < size-1; i++ {
			if values[i] < pv {
				swap(i, store)
				store++
			}
		}
		swap(store, size-1)
		if store > 1 {
			simultaneousSort(values[:store], indices[:store])
		}
		if store+2 < size {
			simultaneousSort(values[store+1:], indices[store+1:])
		}
	}
}
