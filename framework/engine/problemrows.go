package engine

import (
	"github.com/polyclass/polyclass/framework/plugin"
)

// problemRows is the fewest rows a problem of a reduction's plan trains
// on in an outer training part of a dataset: Rows of problem Problem, in
// the training part of fold Fold.
type problemRows struct {
	Rows, Problem, Fold int
}

// dsRed names the plans of a reduction on a dataset.
type dsRed struct {
	d   *Dataset
	red *Reduction
}

// maxDenseCounts bounds the rows × dense problems × repeats that
// fewestProblemRows counts one by one; past it, dense problems are left
// out (the fewest rows of the others still bound the fewest of all from
// above, which is all a check that a value is over needs).
const maxDenseCounts = 1 << 27

// fewestProblemRows returns the fewest rows one of problems (a plan made
// on every row of d) trains on within an outer training part of d, each
// problem training on the rows it uses (plugin.Problem.Uses) that lie in
// the part: with a one-vs-one plan, the rows of a pair of classes. A fold
// plans on its training part alone, and a code matrix assigns rows by
// their class, so the count is the fold's own. The problems of a code
// matrix (compact targets sharing one Groups slice) are counted per
// group, dense ones row by row (up to maxDenseCounts). It returns false
// when d has no folds or no problem was counted.
func fewestProblemRows(d *Dataset, problems []plugin.Problem) (problemRows, bool) {
	n := len(d.Labels)
	if len(d.Folds) > 0 {
		n = len(d.Folds[0])
	}
	dense := 0
	for _, p := range problems {
		if p.Compact == nil {
			dense++
		}
	}
	countDense := dense*n*len(d.Folds) <= maxDenseCounts
	best, found := problemRows{}, false
	for _, folds := range d.Folds {
		k := d.NumFolds
		// The counts per group of each Groups slice the compact problems
		// share.
		groupCounts := map[*int32][][]int{}
		for j, p := range problems {
			if p.Rows() != len(folds) || p.Compact == nil && !countDense {
				continue
			}
			var perFold []int
			var all int
			if p.Compact != nil {
				perFold, all = compactRows(p.Compact, folds, k, groupCounts)
			} else {
				perFold, all = denseRows(p, folds, k)
			}
			for f := range k {
				rows := all - perFold[f]
				if !found || rows < best.Rows || rows == best.Rows && (f < best.Fold || f == best.Fold && j < best.Problem) {
					best, found = problemRows{Rows: rows, Problem: j, Fold: f}, true
				}
			}
		}
	}
	return best, found
}

// compactRows returns the rows of compact problem c in each test fold f
// of folds (k folds) and in all: its rows in training part f are the
// rest (cv.Split). It counts the rows of each group once per Groups
// slice, in counts.
func compactRows(c *plugin.CompactTargets, folds []int, k int, counts map[*int32][][]int) (perFold []int, all int) {
	var key *int32
	if len(c.Groups) > 0 {
		key = &c.Groups[0]
	}
	per, ok := counts[key]
	if !ok {
		per = groupRows(c, folds, k)
		counts[key] = per
	}
	perFold = make([]int, k)
	for g, code := range c.Code {
		if code == 0 || g >= len(per[k]) {
			continue
		}
		all += per[k][g]
		for f := range k {
			perFold[f] += per[f][g]
		}
	}
	return perFold, all
}

// groupRows counts the rows of each group of c (a row of its code) in each
// test fold f of folds (k folds), then in all (index k).
func groupRows(c *plugin.CompactTargets, folds []int, k int) [][]int {
	per := make([][]int, k+1)
	for f := range per {
		per[f] = make([]int, len(c.Code))
	}
	for i, f := range folds {
		g := int(c.Groups[i])
		if g < 0 || g >= len(c.Code) {
			continue
		}
		per[k][g]++
		if f >= 0 && f < k {
			per[f][g]++
		}
	}
	return per
}

// denseRows returns the rows problem p uses in each test fold f of folds
// (k folds) and in all.
func denseRows(p plugin.Problem, folds []int, k int) (perFold []int, all int) {
	perFold = make([]int, k)
	for i, f := range folds {
		if p.Uses(i) {
			all++
			if f >= 0 && f < k {
				perFold[f]++
			}
		}
	}
	return perFold, all
}
