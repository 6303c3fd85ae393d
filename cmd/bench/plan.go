package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/polyclass/polyclass/framework/engine"
)

// writePlan lists every cell of the grid with its folds (repeats × folds)
// and the models one fold fits (tuning and calibration included), then the
// totals the file expands to.
func writePlan(ctx context.Context, g *engine.Grid, w io.Writer) error {
	type key struct{ dataset, reduction string }
	perFold := map[key]engine.Fits{}
	var total engine.Fits
	folds := 0
	fmt.Fprintf(w, "\nplan (fits per fold as the reducer plans the whole dataset):\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "cell\tdataset\tencoder\tlearner\tparams\treduction\tfolds\tfits/fold\tfits")
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
		f = f.Scale(c.FitRounds()) // tuning and calibration train it again on inner folds
		n := len(c.Dataset.Folds) * c.Dataset.NumFolds
		folds += n
		total = total.Add(f.Scale(n))
		params := id.Params
		if params == "" {
			params = "-"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\n", c.Index, id.Dataset, id.Encoder, id.Learner, params, id.Reduction, n, f.Total(), n*f.Total())
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
	return nil
}
