package encode

import (
	"fmt"
	"math/rand/v2"
	"strconv"
)

// Counts is the counter (likelihood) encoder. For a categorical column f
// and a value u, let counts(u) be the number of training rows with f = u
// and successes_k(u) the number of those in class k. Each prior set
// c = (c_1, …, c_K) gives K features
//
//	g_k(x) = (successes_k(f(x)) + c_k) / (counts(f(x)) + Σ_m c_m),  k = 1..K,
//
// named "col#k<k>" (with one prior set) or "col#s<s>k<k>" (several sets,
// s counting from 0). IncludeCounts adds counts(f(x)) ("col#n") and
// successes_k(f(x)) ("col#n_k<k>") as raw features.
//
// The statistics come from the training rows only. Test rows (the rows
// not in ctx.Train) always use the statistics of the whole training part.
// Training rows use, by Folds:
//   - 0: the statistics of the whole training part (in-sample; the
//     feature then contains the row's own label, which a learner can
//     overfit on high-cardinality columns);
//   - m ≥ 2: out-of-fold: the training rows are dealt to m parts at random
//     (seeded by ctx.Seed) and each part's features come from the other
//     m − 1 parts only;
//   - LOO (leave-one-out): each training row's features come from all the
//     other training rows. Beware that within a value, leave-one-out
//     features still differ by the row's label, so they leak on columns
//     with many repeated values; out-of-fold m = 5 is the safer default.
//
// Values are grouped into statistics keys before counting. Without
// HashBuckets every level (and "missing") is its own key; with
// HashBuckets = B the key of a level is HashBucket(0, column, level, B), so
// memory is bounded by B whatever the cardinality, at the price of
// collisions. Keys seen in fewer than max(MinCount, 1) training rows —
// which includes values never seen in training — are pooled into one
// "rare" key, whose statistics are those of all the rows pooled there; a
// rare key with no training rows gives the prior c_k / Σ_m c_m. Rarity is
// decided on the whole training part from counts alone (no labels).
type Counts struct {
	// Columns limits the step to these columns; nil means every
	// categorical one.
	Columns []string
	// Priors holds the prior sets; each set has K numbers ≥ 0 with a
	// positive sum, or one number used for every class. Nil means one set
	// of all ones (Laplace smoothing).
	Priors [][]float64
	// IncludeCounts adds counts and successes as features.
	IncludeCounts bool
	// Folds is 0 (in-sample) or the number m ≥ 2 of out-of-fold parts.
	Folds int
	// LOO selects leave-one-out statistics for the training rows (Folds
	// must then be 0).
	LOO bool
	// MinCount pools keys seen in fewer training rows into the rare key.
	MinCount int
	// HashBuckets, when > 0, keys the statistics by hashed value.
	HashBuckets int
}

// FitTransform implements Step.
func (s *Counts) FitTransform(f *Frame, ctx *Context) (*Frame, error) {
	if err := s.checkContext(f, ctx); err != nil {
		return nil, err
	}
	priors, err := s.priorSets(ctx.K)
	if err != nil {
		return nil, err
	}
	if err := checkTrainLabels(ctx); err != nil {
		return nil, err
	}
	inTrain := make([]bool, f.Rows)
	for _, i := range ctx.Train {
		inTrain[i] = true
	}
	// Out-of-fold parts of the training rows (position in ctx.Train).
	var parts [][]int
	if s.Folds >= 2 {
		parts = oofParts(ctx.Train, s.Folds, ctx.Seed)
	}

	out := f.clone()
	out.Cat = nil
	for _, c := range f.Cat {
		if !selected(s.Columns, c.Name) {
			out.Cat = append(out.Cat, c)
			continue
		}
		cols := s.columnStats(c, f.Rows, ctx, priors, inTrain, parts)
		out.Num = append(out.Num, cols.cols...)
	}
	return out, nil
}

// checkContext checks that ctx labels every row of f and that the step's
// folds split its training rows.
func (s *Counts) checkContext(f *Frame, ctx *Context) error {
	if k := ctx.K; k < 1 || len(ctx.Labels) != f.Rows {
		return fmt.Errorf("counts: needs the class of every row (%d labels for %d rows, K = %d)", len(ctx.Labels), f.Rows, k)
	}
	if s.Folds != 0 && (s.Folds < 2 || s.LOO) {
		return fmt.Errorf("counts: folds = %d: want 0, ≥ 2 or \"loo\"", s.Folds)
	}
	if s.Folds > len(ctx.Train) {
		return fmt.Errorf("counts: cannot split %d training rows into %d parts", len(ctx.Train), s.Folds)
	}
	return nil
}

// checkTrainLabels checks that the class of every training row lies in
// [0, K).
func checkTrainLabels(ctx *Context) error {
	for _, i := range ctx.Train {
		if y := ctx.Labels[i]; y < 0 || y >= ctx.K {
			return fmt.Errorf("counts: class %d of row %d is outside [0, %d)", y, i, ctx.K)
		}
	}
	return nil
}

// columnStats computes the statistics columns of categorical column c:
// the training part's for the rows outside it (and for every row
// in-sample), leave-one-out or out-of-fold ones for the training rows.
func (s *Counts) columnStats(c CatCol, rows int, ctx *Context, priors [][]float64, inTrain []bool, parts [][]int) *countCols {
	k := ctx.K
	keys, nkeys := s.keys(c, ctx.Train)
	st := keyStats{k: k, cnt: make([]int64, nkeys), succ: make([]int64, nkeys*k)}
	for _, i := range ctx.Train {
		st.add(keys[i], ctx.Labels[i], 1)
	}
	cols := newCountCols(c.Name, rows, k, priors, s.IncludeCounts)
	for i := 0; i < rows; i++ {
		if !inTrain[i] || (s.Folds == 0 && !s.LOO) {
			u := keys[i]
			cols.set(i, st.cnt[u], st.of(u))
		}
	}
	switch {
	case s.LOO:
		own := make([]int64, k)
		for _, i := range ctx.Train {
			u, y := keys[i], ctx.Labels[i]
			copy(own, st.of(u))
			own[y]--
			cols.set(i, st.cnt[u]-1, own)
		}
	case s.Folds >= 2:
		for _, part := range parts {
			for _, i := range part { // the other parts' statistics
				st.add(keys[i], ctx.Labels[i], -1)
			}
			for _, i := range part {
				u := keys[i]
				cols.set(i, st.cnt[u], st.of(u))
			}
			for _, i := range part {
				st.add(keys[i], ctx.Labels[i], 1)
			}
		}
	}
	return cols
}

// keyStats counts the rows of each key (cnt) and of each key and class
// (succ, k a key).
type keyStats struct {
	k         int
	cnt, succ []int64
}

// add adds d rows of key u and class y.
func (st keyStats) add(u, y int, d int64) {
	st.cnt[u] += d
	st.succ[u*st.k+y] += d
}

// of returns the class counts of key u.
func (st keyStats) of(u int) []int64 { return st.succ[u*st.k : u*st.k+st.k] }

// priorSets returns the prior sets expanded to k classes.
func (s *Counts) priorSets(k int) ([][]float64, error) {
	if len(s.Priors) == 0 {
		ones := make([]float64, k)
		for i := range ones {
			ones[i] = 1
		}
		return [][]float64{ones}, nil
	}
	sets := make([][]float64, len(s.Priors))
	for si, p := range s.Priors {
		switch len(p) {
		case 1:
			sets[si] = make([]float64, k)
			for i := range sets[si] {
				sets[si][i] = p[0]
			}
		case k:
			sets[si] = p
		default:
			return nil, fmt.Errorf("counts: prior set %d has %d numbers; want 1 or K = %d", si+1, len(p), k)
		}
		var sum float64
		for _, c := range sets[si] {
			if !(c >= 0) {
				return nil, fmt.Errorf("counts: prior set %d has a negative prior %v", si+1, c)
			}
			sum += c
		}
		if sum <= 0 {
			return nil, fmt.Errorf("counts: prior set %d sums to 0", si+1)
		}
	}
	return sets, nil
}

// keys returns the statistics key of every row of c and the number of
// keys; the last key is the rare key.
func (s *Counts) keys(c CatCol, train []int) ([]int, int) {
	width := len(c.Levels)
	if s.HashBuckets > 0 {
		width = s.HashBuckets
	}
	missing, rare := width, width+1
	raw := make([]int, len(c.Levels))
	for code, lv := range c.Levels {
		raw[code] = code
		if s.HashBuckets > 0 {
			raw[code], _ = HashBucket(0, c.Name, lv, s.HashBuckets)
		}
	}
	keys := make([]int, len(c.Codes))
	for i, code := range c.Codes {
		keys[i] = missing
		if code >= 0 {
			keys[i] = raw[code]
		}
	}
	seen := make([]int, width+2)
	for _, i := range train {
		seen[keys[i]]++
	}
	for i, u := range keys {
		if seen[u] < max(s.MinCount, 1) {
			keys[i] = rare
		}
	}
	return keys, width + 2
}

// countCols holds the output columns of one encoded column.
type countCols struct {
	priors [][]float64
	sums   []float64
	counts bool
	cols   []NumCol
}

func newCountCols(name string, rows, k int, priors [][]float64, counts bool) *countCols {
	cc := &countCols{priors: priors, counts: counts}
	for si, p := range priors {
		var sum float64
		for _, c := range p {
			sum += c
		}
		cc.sums = append(cc.sums, sum)
		for j := 0; j < k; j++ {
			n := name + "#k" + strconv.Itoa(j)
			if len(priors) > 1 {
				n = name + "#s" + strconv.Itoa(si) + "k" + strconv.Itoa(j)
			}
			cc.cols = append(cc.cols, NumCol{Name: n, Vals: make([]float64, rows)})
		}
	}
	if counts {
		cc.cols = append(cc.cols, NumCol{Name: name + "#n", Vals: make([]float64, rows)})
		for j := 0; j < k; j++ {
			cc.cols = append(cc.cols, NumCol{Name: name + "#n_k" + strconv.Itoa(j), Vals: make([]float64, rows)})
		}
	}
	return cc
}

// set writes row i's features from the count and successes of its key.
func (cc *countCols) set(i int, cnt int64, succ []int64) {
	col := 0
	for si, p := range cc.priors {
		den := float64(cnt) + cc.sums[si]
		for j, c := range p {
			cc.cols[col].Vals[i] = (float64(succ[j]) + c) / den
			col++
		}
	}
	if cc.counts {
		cc.cols[col].Vals[i] = float64(cnt)
		col++
		for _, v := range succ {
			cc.cols[col].Vals[i] = float64(v)
			col++
		}
	}
}

// oofParts deals the training rows to m parts of sizes differing by at
// most one, in a random order drawn from seed.
func oofParts(train []int, m int, seed uint64) [][]int {
	rng := rand.New(rand.NewPCG(seed, 0x636f756e7473))
	parts := make([][]int, m)
	for p, r := range rng.Perm(len(train)) {
		parts[p%m] = append(parts[p%m], train[r])
	}
	return parts
}
