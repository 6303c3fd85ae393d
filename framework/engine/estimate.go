package engine

import (
	"context"

	"github.com/polyclass/polyclass/framework/shard"
)

// EstimateShards returns the cells of grid g with their estimated work: the
// rows every model of one fold trains on (Grid.FoldRows: the
// reducer's plan on the whole dataset, a multiclass model counting K
// times) × the dataset's features (see features) × the fit rounds of
// tuning and calibration × folds × repeats. It asks each reducer for its
// plan once per dataset and reduction parameter set; where the plan fails
// (the cell will fail when it runs), it counts one-vs-all's K problems of
// every row. It fails only when ctx ends. Package shard deals the cells
// out (shard.Assign); the estimate is the engine's, which knows the grid.
func EstimateShards(ctx context.Context, g *Grid) ([]shard.Cell, error) {
	type key struct{ dataset, reduction string }
	perFold := map[key]int64{}
	out := make([]shard.Cell, len(g.Cells))
	for i, c := range g.Cells {
		id := c.ID()
		k := key{id.Dataset, id.Reduction}
		rows, ok := perFold[k]
		if !ok {
			var err error
			if rows, err = g.FoldRows(ctx, c); err != nil {
				if ctx.Err() != nil {
					return nil, err
				}
				// A plan that fails here fails the cell when it runs; the
				// estimate of one-vs-all keeps the assignment going.
				rows = int64(c.Dataset.Table.NumRows) * int64(max(c.Dataset.K(), 1))
			}
			perFold[k] = rows
		}
		folds := int64(len(c.Dataset.Folds) * c.Dataset.NumFolds)
		out[i] = shard.Cell{Index: c.Index, Key: id.Key(), Group: id.Dataset + "|" + id.Encoder,
			Work: rows * features(c.Dataset) * int64(c.FitRounds()) * folds}
	}
	return out, nil
}

// features estimates the width of a dataset's design matrix, as its cost
// per row: a numeric column counts 1, a categorical one its levels (as
// one-hot encodes it), a sparse block its mean entries per row.
func features(d *Dataset) int64 {
	f := d.Features
	if f == nil {
		return 1
	}
	n := int64(len(f.Num))
	for _, c := range f.Cat {
		n += int64(max(len(c.Levels), 1))
	}
	for _, b := range f.Sparse {
		n += int64(len(b.M.Values)/max(b.M.Rows, 1)) + 1
	}
	return max(n, 1)
}
