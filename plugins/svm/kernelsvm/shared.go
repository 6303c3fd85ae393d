package kernelsvm

import "sync"

// sharedCache holds kernel values that several problems of a Train call
// need: the block K(x_r, x_s) for s over the rows of group g, for a row r
// of group a, when at least two problems use both groups a and g (under
// one-vs-one, a row's values against its own class, which the K−1
// problems of the class all need; under one-vs-all, whole rows). A
// block is computed once, in full, by the first problem that needs it and
// kept, least recently used evicted first, within a budget of float32
// entries. It is safe for concurrent use.
type sharedCache struct {
	eval   *evaluator
	groups *rowGroups
	ng     int

	mu      sync.Mutex
	entries []*block // index r·ng + g
	lru     block    // sentinel; lru.next is the least recently used
	size    int64    // float32 entries still available
}

type block struct {
	prev, next *block
	key        int
	data       []float32
}

func newSharedCache(eval *evaluator, groups *rowGroups, budget int64) *sharedCache {
	ng := len(groups.members)
	c := &sharedCache{eval: eval, groups: groups, ng: ng, entries: make([]*block, len(groups.of)*ng), size: budget / 4}
	c.lru.prev, c.lru.next = &c.lru, &c.lru
	return c
}

// shares reports whether blocks of rows of group a against group g are
// shared.
func (c *sharedCache) shares(a, g int) bool {
	return c.groups.cross[a*c.ng+g] >= 2
}

func (c *sharedCache) unlink(b *block) {
	b.prev.next, b.next.prev = b.next, b.prev
}

func (c *sharedCache) pushBack(b *block) {
	b.prev, b.next = c.lru.prev, &c.lru
	c.lru.prev.next = b
	c.lru.prev = b
}

// get returns the block of row r against the rows of group g, computing it
// when it is not held; buf is scratch of at least the group's size.
func (c *sharedCache) get(r, g int, buf []float64) []float32 {
	key := r*c.ng + g
	c.mu.Lock()
	if b := c.entries[key]; b != nil {
		c.unlink(b)
		c.pushBack(b)
		c.mu.Unlock()
		return b.data
	}
	c.mu.Unlock()
	rows := c.groups.members[g]
	data := make([]float32, len(rows))
	c.eval.column32(data, buf[:len(rows)], r, rows)
	c.mu.Lock()
	defer c.mu.Unlock()
	if b := c.entries[key]; b != nil { // another goroutine was first
		return b.data
	}
	need := int64(len(data))
	for c.size < need && c.lru.next != &c.lru {
		old := c.lru.next
		c.unlink(old)
		c.entries[old.key] = nil
		c.size += int64(len(old.data))
	}
	if c.size >= need {
		b := &block{key: key, data: data}
		c.entries[key] = b
		c.pushBack(b)
		c.size -= need
	}
	return data
}

// problemSource serves one problem's kernel values: from the shared
// blocks of the groups the cache shares, computed directly otherwise.
type problemSource struct {
	eval   *evaluator
	shared *sharedCache // nil: nothing shared
	used   []int        // groups of the problem
	blocks [][]float32  // per group id, for the current row
	buf    []float64
	idx    []int
	rows   []int
	tmp    []float32
}

func newProblemSource(eval *evaluator, shared *sharedCache, used []int) *problemSource {
	s := &problemSource{eval: eval, shared: shared, used: used}
	if shared != nil {
		s.blocks = make([][]float32, shared.ng)
	}
	return s
}

func (s *problemSource) at(i, j int) float64 { return s.eval.at(i, j) }

// column32 sets dst[k] = float32(K(x_r, x_rows[k])).
func (s *problemSource) column32(dst []float32, r int, rows []int) {
	if s.shared == nil {
		s.buf = grow(s.buf, len(rows))
		s.eval.column32(dst, s.buf, r, rows)
		return
	}
	c, gr := s.shared, s.shared.groups
	a := int(gr.of[r])
	any := false
	for _, g := range s.used {
		s.blocks[g] = nil
		if c.shares(a, g) {
			s.buf = grow(s.buf, len(gr.members[g]))
			s.blocks[g] = c.get(r, g, s.buf)
			any = true
		}
	}
	if !any {
		s.buf = grow(s.buf, len(rows))
		s.eval.column32(dst, s.buf, r, rows)
		return
	}
	s.idx, s.rows = s.idx[:0], s.rows[:0]
	for k, q := range rows {
		if b := s.blocks[gr.of[q]]; b != nil {
			dst[k] = b[gr.pos[q]]
		} else {
			s.idx, s.rows = append(s.idx, k), append(s.rows, q)
		}
	}
	if len(s.rows) == 0 {
		return
	}
	s.buf, s.tmp = grow(s.buf, len(s.rows)), grow(s.tmp, len(s.rows))
	s.eval.column32(s.tmp, s.buf, r, s.rows)
	for k, i := range s.idx {
		dst[i] = s.tmp[k]
	}
}

// grow returns s with length n, reusing its memory when it can.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}
