package engine

import "github.com/polyclass/polyclass/framework/config"

// Declared returns the grid of the rows its experiment file declares: g
// itself when every dataset and pipeline of the file bound (or g was not
// made by Resolve), else a copy whose cells cross the learners and
// reductions that bound with every dataset and pipeline the file
// declares, each one that did not bind (a data file that did not load, an
// encoder of an unknown type) standing in as its block alone, without
// data or steps. A table's rows depend on the learners, their parameter
// sets, the reductions and the pipelines, not on the data, so the copy's
// IDs and Setup name the rows that a run would have once the data and the
// encoders are fixed: what a baseline is checked against in a file with
// errors. The copy's cells must not run. It returns g when the copy would
// have more than MaxCells cells.
func (g *Grid) Declared() *Grid {
	exp := g.Experiment
	if g.learnerParams == nil || exp == nil || (len(g.Datasets) == len(exp.Datasets) && len(g.Pipelines) == len(exp.Pipelines)) {
		return g
	}
	out := *g
	out.Datasets = withStubs(exp.Datasets, g.Datasets, func(d *Dataset) *config.Dataset { return d.Config },
		func(c *config.Dataset) *Dataset { return &Dataset{Config: c} })
	out.Pipelines = withStubs(exp.Pipelines, g.Pipelines, func(p *Pipeline) *config.Pipeline { return p.Config },
		func(c *config.Pipeline) *Pipeline { return &Pipeline{Config: c} })
	if countCells(&out, g.learnerParams, g.redParams) > MaxCells {
		return g
	}
	out.Cells = cells(&out, g.learnerParams, g.redParams)
	return &out
}

// withStubs returns the bound value of each of blocks, in the blocks'
// order: the one of bound whose block it is, or stub's of the block.
func withStubs[C, B any](blocks []*C, bound []*B, block func(*B) *C, stub func(*C) *B) []*B {
	by := make(map[*C]*B, len(bound))
	for _, b := range bound {
		by[block(b)] = b
	}
	out := make([]*B, len(blocks))
	for i, c := range blocks {
		if b, ok := by[c]; ok {
			out[i] = b
		} else {
			out[i] = stub(c)
		}
	}
	return out
}
