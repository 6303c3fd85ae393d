package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/polyclass/polyclass/framework/engine"
)

// foldWeights returns the models one fold of each cell of g fits, by cell
// index (engine.Options.Weight): the reducer's plan of the cell's dataset
// (engine.Grid.FoldFits, asked once per dataset and reduction) times the
// cell's fit rounds (tuning, calibration). A progress bar that counts
// these rather than folds estimates the time left from the work done: a
// one-vs-one fold on K classes fits K(K−1)/2 models, a one-vs-all fold K.
// A plan that cannot be had counts 1 model (the resolved grid planned
// every reduction already, so it does not happen).
func foldWeights(ctx context.Context, g *engine.Grid) map[int]int {
	type key struct{ dataset, reduction string }
	perFold := map[key]int{}
	weights := make(map[int]int, len(g.Cells))
	for _, c := range g.Cells {
		id := c.ID()
		k := key{id.Dataset, id.Reduction}
		n, ok := perFold[k]
		if !ok {
			n = 1
			if f, err := g.FoldFits(ctx, c); err == nil {
				n = max(f.Total(), 1)
			}
			perFold[k] = n
		}
		weights[c.Index] = n * c.FitRounds()
	}
	return weights
}

// showProgress reports whether a run shows a progress bar: on a terminal,
// unless quiet.
func showProgress(stderr io.Writer, quiet bool) bool {
	f, ok := stderr.(*os.File)
	return ok && !quiet && term.IsTerminal(int(f.Fd()))
}

// newProgressBar returns the progress bar of a run of total models on
// stderr. Its estimate of the time left assumes that the models left take
// as long on average as those fitted so far.
func newProgressBar(stderr io.Writer, name string, total int) *progressbar.ProgressBar {
	return progressbar.NewOptions(total, progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription(name), progressbar.OptionShowCount(), progressbar.OptionSetItsString("fits"),
		progressbar.OptionShowIts(), progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
}

// progressEvery is how often a run whose stderr is no terminal prints a
// line of its progress.
const progressEvery = time.Minute

// progressLines prints a line of a run's progress each time its tick
// fires, on a writer that is no terminal (a batch job's log, a pipe),
// where a bar would write control characters: "bench run NAME: 120 of
// 675 folds done (17 %), 2m0s elapsed". Without it, a long run redirected
// to a file said nothing between its start and its end.
type progressLines struct {
	done, total atomic.Int64
	stop        chan struct{}
	ended       chan struct{}
}

// startProgressLines prints on w, at each tick, the progress of run name
// that set records, with the time since reports elapsed; finish stops it.
func startProgressLines(w io.Writer, name string, tick <-chan time.Time, since func() time.Duration) *progressLines {
	p := &progressLines{stop: make(chan struct{}), ended: make(chan struct{})}
	go func() {
		defer close(p.ended)
		for {
			select {
			case <-p.stop:
				return
			case <-tick:
				done, total := p.done.Load(), p.total.Load()
				if total == 0 {
					continue
				}
				fmt.Fprintf(w, "bench run %s: %d of %d folds done (%d %%), %s elapsed\n", name, done, total, 100*done/total, since().Round(time.Second))
			}
		}
	}()
	return p
}

// set records the folds done of total (engine.Options.Progress).
func (p *progressLines) set(done, total int) {
	p.done.Store(int64(done))
	p.total.Store(int64(total))
}

// finish stops the lines and waits for the last to be written.
func (p *progressLines) finish() {
	close(p.stop)
	<-p.ended
}
