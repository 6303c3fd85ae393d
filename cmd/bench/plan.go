package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/shard"
)

// writePlan lists every cell of the grid with its folds (repeats × folds)
// and the models one fold fits (tuning and calibration included), then the
// totals the file expands to.
//
// With shards > 0 it shows each cell's shard (bench run --shard I/N) and
// each shard's cells and estimated work.
func writePlan(ctx context.Context, g *engine.Grid, shards int, w io.Writer) error {
	var est []shard.Cell
	var owner []int
	if shards > 0 {
		var err error
		if est, err = engine.EstimateShards(ctx, g); err != nil {
			return err
		}
		owner = shard.Assign(est, shards)
	}
	type key struct{ dataset, reduction string }
	perFold := map[key]engine.Fits{}
	var total engine.Fits
	folds := 0
	fmt.Fprintf(w, "\nplan (fits per fold as the reducer plans the whole dataset):\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "cell\tdataset\tpipeline\tlearner\tparams\treduction\tfolds\tfits/fold\tfits"
	if shards > 0 {
		head += "\tshard"
	}
	fmt.Fprintln(tw, head)
	for _, c := range g.Cells {
		id := c.ID()
		k := key{id.Dataset, id.Reduction}
		f, ok := perFold[k]
		if !ok {
			var err error
			if f, err = g.FoldFits(ctx, c); err != nil {
				return err
			}
			perFold[k] = f
		}
		f = f.Scale(c.FitRounds()) // tuning trains it again on inner folds; calibration once per calibration fold instead
		n := len(c.Dataset.Folds) * c.Dataset.NumFolds
		folds += n
		total = total.Add(f.Scale(n))
		params := id.Params
		if params == "" {
			params = "–" // the tables' mark of an absent value
		}
		line := fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d", c.Index, id.Dataset, id.Encoder, id.Learner, params, id.Reduction, n, f.Total(), n*f.Total())
		if shards > 0 {
			line += fmt.Sprintf("\t%d", owner[c.Index])
		}
		fmt.Fprintln(tw, line)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	kinds := []string{fmt.Sprintf("%d binary", total.Binary)}
	if total.Multiclass > 0 {
		kinds = append(kinds, fmt.Sprintf("%d multiclass", total.Multiclass))
	}
	if total.Regression > 0 {
		kinds = append(kinds, fmt.Sprintf("%d regression", total.Regression))
	}
	fmt.Fprintf(w, "total: %d cells, %d folds, %d fits (%s)\n", len(g.Cells), folds, total.Total(), strings.Join(kinds, ", "))
	if shards > 0 {
		writeShards(w, est, owner, shards)
	}
	return nil
}

// writeShards lists each shard's cells and estimated work (training rows
// of every model of every fold), with its ratio to the mean.
func writeShards(w io.Writer, est []shard.Cell, owner []int, n int) {
	loads := shard.Loads(est, owner, n)
	var sum int64
	count := make([]int, n)
	for i := range est {
		count[owner[i]]++
	}
	for _, l := range loads {
		sum += l
	}
	mean := float64(sum) / float64(n)
	fmt.Fprintf(w, "\nshards (estimated work: training rows × features of every model of every fold):\n")
	for s, l := range loads {
		ratio := 0.0
		if mean > 0 {
			ratio = float64(l) / mean
		}
		fmt.Fprintf(w, "  shard %d/%d: %d cells, work %d (%.2f × mean)\n", s, n, count[s], l, ratio)
	}
}
