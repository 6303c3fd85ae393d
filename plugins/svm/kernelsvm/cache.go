package kernelsvm

// columnCache is LIBSVM's kernel cache (class Cache): the columns of one
// problem's Q matrix, each cached as a prefix [0, n) in the solver's
// current (shrinking) order, least recently used evicted first within a
// budget of float32 entries. swap keeps the cached columns in step with
// the solver's swaps of two indices.
type columnCache struct {
	size int64 // float32 entries still available
	head []cacheHead
	// lru is the sentinel of the circular list of cached columns, at
	// index len(head) of links; front = least recently used.
	links []cacheLink
}

type cacheHead struct {
	data []float32 // data[:n] is cached
	n    int
}

type cacheLink struct{ prev, next int32 }

// newColumnCache returns a cache for l columns within budget bytes,
// accounting as LIBSVM does: the budget less l column headers of 32
// bytes, and at least two whole columns.
func newColumnCache(l int, budget int64) *columnCache {
	c := &columnCache{head: make([]cacheHead, l), links: make([]cacheLink, l+1)}
	c.size = budget/4 - int64(l)*32/4
	c.size = max(c.size, 2*int64(l))
	c.links[l] = cacheLink{prev: int32(l), next: int32(l)}
	return c
}

func (c *columnCache) lruDelete(h int32) {
	l := c.links[h]
	c.links[l.prev].next = l.next
	c.links[l.next].prev = l.prev
}

// lruInsert puts h at the back (most recently used).
func (c *columnCache) lruInsert(h int32) {
	s := int32(len(c.head))
	last := c.links[s].prev
	c.links[h] = cacheLink{prev: last, next: s}
	c.links[last].next = h
	c.links[s].prev = h
}

// get returns column index with room for n entries and the position from
// which they must be filled (n when the cached prefix covers them).
func (c *columnCache) get(index, n int) (data []float32, start int) {
	h := &c.head[index]
	if h.n > 0 {
		c.lruDelete(int32(index))
	}
	start = n
	if more := int64(n - h.n); more > 0 {
		for c.size < more {
			old := c.links[len(c.head)].next
			c.lruDelete(old)
			o := &c.head[old]
			c.size += int64(o.n)
			o.data, o.n = nil, 0
		}
		if cap(h.data) < n {
			d := make([]float32, n)
			copy(d, h.data[:h.n])
			h.data = d
		}
		h.data = h.data[:n]
		c.size -= more
		start, h.n = h.n, n
	}
	c.lruInsert(int32(index))
	return h.data, start
}

// swap exchanges columns i and j and entries i and j of every cached
// column; a column that holds i but not j is dropped.
func (c *columnCache) swap(i, j int) {
	if i == j {
		return
	}
	if c.head[i].n > 0 {
		c.lruDelete(int32(i))
	}
	if c.head[j].n > 0 {
		c.lruDelete(int32(j))
	}
	c.head[i], c.head[j] = c.head[j], c.head[i]
	if c.head[i].n > 0 {
		c.lruInsert(int32(i))
	}
	if c.head[j].n > 0 {
		c.lruInsert(int32(j))
	}
	if i > j {
		i, j = j, i
	}
	s := int32(len(c.head))
	for h := c.links[s].next; h != s; h = c.links[h].next {
		e := &c.head[h]
		if e.n > i {
			if e.n > j {
				e.data[i], e.data[j] = e.data[j], e.data[i]
			} else {
				c.lruDelete(h)
				c.size += int64(e.n)
				e.data, e.n = nil, 0
			}
		}
	}
}
