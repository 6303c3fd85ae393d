package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
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
	var bounds []int // cells whose count is an upper bound
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
		// Tuning trains the problems again on inner folds, a halving
		// search as its rounds on each fold's training rows say;
		// calibration once per calibration fold instead.
		byFold := c.FitRoundsByFold()
		cellFits := f.Scale(c.TotalFitRounds())
		n := len(byFold)
		folds += n
		total = total.Add(cellFits)
		params := id.Params
		if params == "" {
			params = "–" // the tables' mark of an absent value
		}
		if c.TuneFitsBound() {
			bounds = append(bounds, c.Index)
		}
		line := fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%d", c.Index, id.Dataset, id.Encoder, id.Learner, params, id.Reduction, n, foldFits(f, byFold), cellFits.Total())
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
	fmt.Fprintf(w, "total: %s, %s, %s (%s)\n", plural(len(g.Cells), "cell"), plural(folds, "fold"), plural(total.Total(), "fit"), strings.Join(kinds, ", "))
	if len(bounds) > 0 {
		fmt.Fprintf(w, "at most, for cells %s: hyperband's brackets draw more candidates than there are, and a candidate scored before on the same rows is not fitted again (which depends on the scores)\n", joinInts(bounds))
	}
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
		fmt.Fprintf(w, "  shard %d/%d: %s, work %d (%.2f × mean)\n", s, n, plural(count[s], "cell"), l, ratio)
	}
}

// foldFits is the fits of one fold, f × the fold's fit rounds: one number
// when every fold of the cell makes the same, else the least and the
// most ("171–180": a halving search's rounds depend on the fold's rows).
func foldFits(f engine.Fits, byFold []int) string {
	if len(byFold) == 0 {
		return "0"
	}
	lo, hi := slices.Min(byFold), slices.Max(byFold)
	if lo == hi {
		return strconv.Itoa(f.Total() * lo)
	}
	return fmt.Sprintf("%d–%d", f.Total()*lo, f.Total()*hi)
}

// joinInts writes ns as "1, 4, 7".
func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}
