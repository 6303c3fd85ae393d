package kernelsvm

import (
	"cmp"
	"slices"
	"sync"
)

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

	// enabled[a·ng + g]: blocks of group a's rows against group g are
	// shared (sharedPairs).
	enabled []bool

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
	c.enabled = sharedPairs(groups, c.size)
	return c
}

// sharedPairs chooses the pairs of groups (a, g) whose blocks are shared:
// those two or more problems use, most used first, as long as all their
// blocks (every row of a against g) fit in size float32 entries together.
// A block computed whole serves every problem that needs it only while
// it is held; a cache too small for the blocks the problems go through
// would compute whole rows that one problem needs a part of (the solver
// asks for its active rows only) again and again. Under one-vs-one the
// classes against themselves fit (letter: 35 MB); under one-vs-all on
// letter the rows against all rows (900 MB) do not, and the problems
// compute their columns as LIBSVM does.
func sharedPairs(groups *rowGroups, size int64) []bool {
	ng := len(groups.members)
	var pairs []int
	for p, c := range groups.cross {
		if c >= 2 {
			pairs = append(pairs, p)
		}
	}
	bytes := func(p int) int64 {
		return int64(len(groups.members[p/ng])) * int64(len(groups.members[p%ng]))
	}
	slices.SortStableFunc(pairs, func(p, q int) int {
		return cmp.Or(cmp.Compare(groups.cross[q], groups.cross[p]), cmp.Compare(bytes(p), bytes(q)))
	})
	enabled := make([]bool, ng*ng)
	for _, p := range pairs {
		if b := bytes(p); b <= size {
			enabled[p], size = true, size-b
		}
	}
	return enabled
}

// shares reports whether blocks of rows of group a against group g are
// shared.
func (c *sharedCache) shares(a, g int) bool {
	return c.enabled[a*c.ng+g]
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
	data := make([]float32, len(c.groups.members[g]))
	c.eval.block(data, buf[:len(data)], r, g)
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
// blocks of the groups the cache shares, else computed. On a dense design
// the dot products of a row with a whole group come at once (cheap next
// to the kernel function, which is then applied to the rows asked for
// only).
type problemSource struct {
	eval   *evaluator
	shared *sharedCache // nil: nothing shared
	used   []int        // groups of the problem
	// For the current row, per group id: its shared block, or its dot
	// products with the group (computed when first needed).
	blocks [][]float32
	dots   [][]float64
	have   []bool
	buf    []float64
	idx    []int // positions of the rows computed
	rows   []int
	tmp    []float32
}

func newProblemSource(eval *evaluator, shared *sharedCache, used []int) *problemSource {
	ng := len(eval.groups.members)
	return &problemSource{eval: eval, shared: shared, used: used,
		blocks: make([][]float32, ng), dots: make([][]float64, ng), have: make([]bool, ng)}
}

func (s *problemSource) at(i, j int) float64 { return s.eval.at(i, j) }

// column32 sets dst[k] = float32(K(x_r, x_rows[k])): from the shared
// blocks where the cache shares them; the rest computed, on a dense
// design from the dot products of x_r with whole groups (one vector
// operation per column) when the rows asked for are at least a quarter of
// those groups, else row by row.
func (s *problemSource) column32(dst []float32, r int, rows []int) {
	e, gr := s.eval, s.eval.groups
	a := int(gr.of[r])
	unshared := 0
	for _, g := range s.used {
		s.blocks[g], s.have[g] = nil, false
		if s.shared != nil && s.shared.shares(a, g) {
			s.buf = grow(s.buf, len(gr.members[g]))
			s.blocks[g] = s.shared.get(r, g, s.buf)
		} else {
			unshared += len(gr.members[g])
		}
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
	if e.xt != nil && 4*len(s.rows) >= unshared {
		for j, q := range s.rows {
			g := gr.of[q]
			if !s.have[g] {
				s.dots[g] = grow(s.dots[g], len(gr.members[g]))
				e.groupDots(s.dots[g], r, int(g))
				s.have[g] = true
			}
			dst[s.idx[j]] = float32(e.value(s.dots[g][gr.pos[q]], r, q))
		}
		return
	}
	s.tmp = grow(s.tmp, len(s.rows))
	e.column32(s.tmp, r, s.rows)
	for j, k := range s.idx {
		dst[k] = s.tmp[j]
	}
}

// grow returns s with length n, reusing its memory when it can.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}
