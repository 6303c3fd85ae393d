// Package shard splits the cells of a grid into n shards that separate
// processes (the tasks of a Slurm job array, the pods of a Kubernetes
// Indexed Job) run on their own.
//
// The assignment depends only on the experiment: each cell's identity and
// its estimated work (rows × features × models per fold × folds, which
// the engine estimates: engine.EstimateShards), never on timing or on the
// machine, so that every task computes the same assignment without
// talking to the others. Cells that share a dataset and a pipeline (and so
// their encoded design matrices and uploads) stay in one shard unless
// their group is too big for the shards to balance; the groups, or their
// parts, are then dealt largest first to the least-loaded shard (LPT).
// When no single cell exceeds half a shard's mean work, the largest shard
// holds at most 1.5 times the mean.
package shard

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Cell is one cell of a grid as the assignment sees it.
type Cell struct {
	// Index is the cell's index in the grid.
	Index int
	// Key is the cell's identity (outcome.ID.Key): it breaks ties.
	Key string
	// Group names the cells that share their design matrices (the
	// dataset and pipeline).
	Group string
	// Work is the cell's estimated work, in any unit (≥ 1).
	Work int64
}

// Spec is shard Index of Count (0 ≤ Index < Count).
type Spec struct {
	Index, Count int
}

// String returns "I/N".
func (s Spec) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Parse reads "I/N" (I 0-based).
func Parse(s string) (Spec, error) {
	i, n, ok := strings.Cut(s, "/")
	if !ok {
		return Spec{}, fmt.Errorf("shard %q: want I/N, e.g. 0/4 (I counts from 0)", s)
	}
	si, err1 := strconv.Atoi(strings.TrimSpace(i))
	sn, err2 := strconv.Atoi(strings.TrimSpace(n))
	if err1 != nil || err2 != nil {
		return Spec{}, fmt.Errorf("shard %q: want I/N with whole numbers, e.g. 0/4", s)
	}
	sp := Spec{Index: si, Count: sn}
	return sp, sp.Check()
}

// MaxCount bounds the number of shards: a Kubernetes Indexed Job has at
// most 100000 completions (a Slurm job array, by default, 1001 tasks). A
// shard count beyond it is refused before anything is sized by it (the
// assignment's loads, the shard manifests looked for), so that --shard
// 0/99999999999 is an error, not an out-of-memory crash. Shards beyond the
// number of cells, up to MaxCount, run nothing.
const MaxCount = 100000

// CheckCount reports whether 1 ≤ n ≤ MaxCount.
func CheckCount(n int) error {
	switch {
	case n < 1:
		return fmt.Errorf("the number of shards must be at least 1")
	case n > MaxCount:
		return fmt.Errorf("%d shards: at most %d (a Kubernetes Indexed Job's completions; more shards than cells run nothing)", n, MaxCount)
	}
	return nil
}

// Check reports whether 0 ≤ Index < Count ≤ MaxCount.
func (s Spec) Check() error {
	if err := CheckCount(s.Count); err != nil {
		return fmt.Errorf("shard %s: %w", s, err)
	}
	if s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("shard %s: the shard index must be in [0, %d) (it counts from 0)", s, s.Count)
	}
	return nil
}

// Assign returns the shard (in [0, n)) of every cell, by position in
// cells. It depends only on the cells' keys, groups and work (not on their
// order in the slice beyond that, nor on anything else). Shards beyond the
// number of cells get no cell.
func Assign(cells []Cell, n int) []int {
	owner := make([]int, len(cells))
	if n <= 1 || len(cells) == 0 {
		return owner
	}
	var total int64
	for _, c := range cells {
		total += work(c)
	}
	// A group heavier than half a shard's mean is cut into parts no
	// heavier than that (unless a single cell is), so that LPT balances.
	limit := (total + int64(2*n) - 1) / int64(2*n)
	var parts []part
	for _, g := range groups(cells) {
		parts = append(parts, split(cells, g, limit)...)
	}
	sort.Slice(parts, func(a, b int) bool {
		if parts[a].work != parts[b].work {
			return parts[a].work > parts[b].work
		}
		return parts[a].key < parts[b].key
	})
	loads := make([]int64, n)
	for _, p := range parts {
		s := 0
		for i := 1; i < n; i++ {
			if loads[i] < loads[s] {
				s = i
			}
		}
		loads[s] += p.work
		for _, c := range p.cells {
			owner[c] = s
		}
	}
	return owner
}

// Loads returns the estimated work of every shard under owner.
func Loads(cells []Cell, owner []int, n int) []int64 {
	loads := make([]int64, n)
	for i, c := range cells {
		loads[owner[i]] += work(c)
	}
	return loads
}

// part is a group of cells (positions in the cells slice) dealt to one
// shard; key is the smallest cell key, for ties.
type part struct {
	cells []int
	work  int64
	key   string
}

func (p *part) add(cells []Cell, i int) {
	p.cells = append(p.cells, i)
	p.work += work(cells[i])
	if len(p.cells) == 1 || cells[i].Key < p.key {
		p.key = cells[i].Key
	}
}

// groups returns the positions of the cells of each group, the groups in
// the order of their smallest key.
func groups(cells []Cell) [][]int {
	by := map[string][]int{}
	for i, c := range cells {
		by[c.Group] = append(by[c.Group], i)
	}
	out := make([][]int, 0, len(by))
	for _, g := range by {
		sort.Slice(g, func(a, b int) bool { return cells[g[a]].Key < cells[g[b]].Key })
		out = append(out, g)
	}
	sort.Slice(out, func(a, b int) bool { return cells[out[a][0]].Key < cells[out[b][0]].Key })
	return out
}

// split cuts group g into parts of at most limit work each (a cell heavier
// than limit is a part of its own): first fit, heaviest cells first.
func split(cells []Cell, g []int, limit int64) []part {
	var sum int64
	for _, i := range g {
		sum += work(cells[i])
	}
	if sum <= limit {
		p := part{}
		for _, i := range g {
			p.add(cells, i)
		}
		return []part{p}
	}
	order := append([]int(nil), g...)
	sort.SliceStable(order, func(a, b int) bool { return work(cells[order[a]]) > work(cells[order[b]]) })
	var parts []part
	for _, i := range order {
		placed := false
		for k := range parts {
			if parts[k].work+work(cells[i]) <= limit {
				parts[k].add(cells, i)
				placed = true
				break
			}
		}
		if !placed {
			p := part{}
			p.add(cells, i)
			parts = append(parts, p)
		}
	}
	return parts
}

// work is a cell's work, at least 1 so that empty estimates still spread.
func work(c Cell) int64 {
	if c.Work < 1 {
		return 1
	}
	return c.Work
}
