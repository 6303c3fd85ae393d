package engine

import (
	"github.com/polyclass/polyclass/framework/param"
)

// cells is the cross product of the bound grid g: dataset × pipeline ×
// learner × the learner's parameter sets × each reduction that covers the
// dataset and takes the learner × the reduction's parameter sets, in that
// order, numbered from 0.
func cells(g *Grid, learnerParams map[*Learner][]param.Params, redParams map[*Reduction][]param.Params) []*Cell {
	var out []*Cell
	for _, d := range g.Datasets {
		for _, p := range g.Pipelines {
			for _, l := range g.Learners {
				for _, lp := range learnerParams[l] {
					for _, red := range g.Reductions {
						if !red.covers(d) || !red.meets(l) {
							continue
						}
						for _, rp := range redParams[red] {
							out = append(out, &Cell{
								Index: len(out), Dataset: d, Pipeline: p, Learner: l, Params: lp,
								Reduction: red, RedParams: rp,
								Weights: newClassWeights(classWeight(l, red), d.Classes),
							})
						}
					}
				}
			}
		}
	}
	return out
}

// countCells returns the number of cells of g, counting no further than
// MaxCells+1.
func countCells(g *Grid, learnerParams map[*Learner][]param.Params, redParams map[*Reduction][]param.Params) int {
	n := 0
	for _, d := range g.Datasets {
		for _, l := range g.Learners {
			for _, red := range g.Reductions {
				if red.covers(d) && red.meets(l) {
					n += len(g.Pipelines) * len(learnerParams[l]) * len(redParams[red])
					if n > MaxCells {
						return n
					}
				}
			}
		}
	}
	return n
}
