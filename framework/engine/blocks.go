package engine

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/plugin"
)

// predictDecode predicts the fold's test rows with the models (whose
// identities are keys, nil for models of the fold's own) and decodes
// their outputs with req (the scheme, its parameters and state, and the
// training scores), asking for probabilities when wantProbs and the
// learner has them. Outputs predicted in one block are shared with the
// other cells of the fold's share group (predictTest). A scheme that
// decodes row-wise
// (plugin.Scheme.RowWiseDecode) gets the test rows in blocks whose outputs
// take at most decodeBlock bytes (see decodeBlocks), so that the fold
// never holds the outputs of every test row for every problem (a
// one-vs-one fold of 200 classes has 19,900 problems: 1 GB for 6,667 test
// rows).
func (f *fold) predictDecode(digest string, keys []string, models []host.ModelRef, wantProbs bool, req plugin.DecodeRequest) (plugin.Decoding, error) {
	n := len(f.test)
	per := max(n, 1)
	if f.c.Reduction.Scheme.RowWiseDecode {
		per = blockRows(models, wantProbs && f.c.Learner.Info.Capabilities.Probabilities, f.decodeBlock)
	}
	if per < n {
		// Its test outputs come in blocks, none shared: the siblings'
		// outputs it claimed go back to their folds now, not when it ends.
		f.giveBackOutputs()
		return f.decodeBlocks(digest, models, wantProbs, req, per)
	}
	var err error
	if req.Scores, req.Probabilities, err = f.predictTest(digest, keys, models, wantProbs); err != nil {
		return plugin.Decoding{}, err
	}
	return f.decode(req)
}

// decode asks the reducer to decode req.
func (f *fold) decode(req plugin.DecodeRequest) (plugin.Decoding, error) {
	start := time.Now()
	dec, err := f.rp.Reducer.Decode(f.ctx, req)
	f.clock.since(phaseDecode, start)
	if err != nil {
		return plugin.Decoding{}, f.rerr(err)
	}
	return dec, nil
}

// decodeBlocks predicts and decodes the fold's test rows in blocks of per
// rows on lanes goroutines (decodeLanes): each takes the next block in row
// order, has the learner predict it and the reducer decode it, then takes
// another, so that one block's predictions (on the learner's cores) run
// beside another's checks and decoding (on the host's and the reducer's),
// and the decodings of several blocks at once. The fold holds at most
// lanes blocks' outputs. The decodings are joined in row order, which for
// a row-wise scheme is the decoding of all rows at once, bit for bit, as
// each model scores each row alone; whatever the lanes and their timing,
// the fold's answer is the same. A failed block stops the lanes from
// taking more, and the error returned is the lowest failed block's.
func (f *fold) decodeBlocks(digest string, models []host.ModelRef, wantProbs bool, req plugin.DecodeRequest, per int) (plugin.Decoding, error) {
	n := len(f.test)
	count := (n + per - 1) / per
	parts, lens, errs := make([]plugin.Decoding, count), make([]int, count), make([]error, count)
	var next atomic.Int64
	var failed atomic.Bool
	var mu sync.Mutex // guards f.predictSeconds
	var wg sync.WaitGroup
	for range min(f.decodeLanes(), count) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := int(next.Add(1) - 1); b < count && !failed.Load(); b = int(next.Add(1) - 1) {
				lo, hi := b*per, min((b+1)*per, n)
				var took float64
				parts[b], took, errs[b] = f.blockOutcome(digest, f.test[lo:hi], models, wantProbs, req)
				lens[b] = hi - lo
				mu.Lock()
				f.predictSeconds += took
				mu.Unlock()
				if errs[b] != nil {
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return plugin.Decoding{}, err
		}
	}
	return host.JoinDecodings(req.Scheme, parts, lens)
}

// blockOutcome predicts the test rows of one block and decodes them with
// req (a copy: the block's scores go into it), returning the decoding and
// the seconds the prediction took.
func (f *fold) blockOutcome(digest string, rows []int, models []host.ModelRef, wantProbs bool, req plugin.DecodeRequest) (plugin.Decoding, float64, error) {
	scores, probs, took, err := f.predictTimed(digest, rows, models, wantProbs)
	if err != nil {
		return plugin.Decoding{}, took, err
	}
	req.Scores, req.Probabilities = scores, probs
	dec, err := f.decode(req)
	return dec, took, err
}

// maxDecodeLanes bounds decodeLanes: the blocks a fold holds at once
// (16 MiB each by default), whatever the CPUs; each Predict of a block
// already runs on every worker of the learner.
const maxDecodeLanes = 4

// decodeLanes returns the goroutines decodeBlocks runs: the fold's share
// of the CPUs now (scheduler.fitThreads; all of them for a fold alone),
// at least 2, so that a fold that shares the CPUs with others still has
// one block predicted while another is decoded, and at most
// maxDecodeLanes.
func (f *fold) decodeLanes() int {
	if f.threads == nil {
		return 2
	}
	return min(max(f.threads(), 2), maxDecodeLanes)
}
