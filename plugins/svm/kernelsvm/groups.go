package kernelsvm

// rowGroups partitions the rows the problems of a Train call use by the
// set of problems that use them: the rows of one class under one-vs-one
// or an output code, every row under one-vs-all. Kernel values are shared
// between problems, and support vectors combined at prediction, by
// group. A row's group is found from a hash of the problems that use it,
// so that rows of equal sets always share a group; two sets whose hashes
// collide merely share one too, which costs some work but changes no
// result.
type rowGroups struct {
	of      []int32 // group of each design row, −1 when no problem uses it
	pos     []int32 // position of each row in its group
	members [][]int // rows of each group, ascending
	// users counts the problems that use group g's rows, per group.
	users []int
	// cross[g*len(users)+h] counts the problems that use both g and h.
	cross []int
	// used lists the groups each problem uses, ascending.
	used [][]int
}

func newRowGroups(n int, problems []Problem) *rowGroups {
	const prime = 1099511628211
	hash := make([]uint64, n)
	seen := make([]bool, n)
	for p := range problems {
		for _, r := range problems[p].Rows {
			hash[r] = hash[r]*prime + uint64(p) + 1
			seen[r] = true
		}
	}
	g := &rowGroups{of: make([]int32, n), pos: make([]int32, n)}
	ids := map[uint64]int32{}
	for r := range n {
		if !seen[r] {
			g.of[r] = -1
			continue
		}
		id, ok := ids[hash[r]]
		if !ok {
			id = int32(len(g.members))
			ids[hash[r]] = id
			g.members = append(g.members, nil)
		}
		g.of[r], g.pos[r] = id, int32(len(g.members[id]))
		g.members[id] = append(g.members[id], r)
	}
	ng := len(g.members)
	g.users, g.cross = make([]int, ng), make([]int, ng*ng)
	g.used = make([][]int, len(problems))
	mark := make([]int, ng)
	for p := range problems {
		for _, r := range problems[p].Rows {
			if id := int(g.of[r]); mark[id] != p+1 {
				mark[id] = p + 1
				g.used[p] = append(g.used[p], id)
			}
		}
		us := g.used[p]
		sortInts(us)
		for _, a := range us {
			g.users[a]++
			for _, b := range us {
				g.cross[a*ng+b]++
			}
		}
	}
	return g
}

// sortInts sorts a short slice in place.
func sortInts(s []int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
