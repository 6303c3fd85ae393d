package sdk

import (
	"context"
	"errors"
	"fmt"
)

// BatchFitter is an optional interface of a Learner: it trains several
// problems that share one design matrix at once, for instance advancing
// their solvers together so that a product with the matrix serves all of
// them. The problems of a one-vs-all reduction are such a batch: every
// row of the fold, a different target (and weights) each.
//
// The learner server calls FitBatch for the problems of one Fit request
// that use every row of the request (Binary without a target 0,
// Multiclass without a target NotUsed, Regression); a problem that uses a subset
// of the rows (one-vs-one) goes to Fit alone. It gathers the rows once for
// the whole batch, splits the batch into at most as many parts as it
// trains problems at once and calls FitBatch concurrently with the parts.
// The inputs of a part share one X, which FitBatch must not modify.
//
// FitBatch returns one model per input, in order. Each must be the model
// Fit gives for the input alone: batching is a matter of speed, never of
// results. FitBatch returns ErrBatchDeclined, before doing any work, for
// a batch it does not train together (a parameter or problem kind it does
// not batch); the server then fits the batch's problems with Fit.
type BatchFitter interface {
	FitBatch(ctx context.Context, ins []FitInput, params Params) ([]Model, error)
}

// ParallelBatchFitter is an optional interface of a BatchFitter that
// spreads one batch over several goroutines itself, for instance over
// chunks of rows. The learner server then passes every batch problem of a
// Fit request in one call, with the number of goroutines the call may use
// (the server's workers, or the request's threads when fewer), instead of
// splitting the batch into parts that it trains concurrently: problems
// trained in one pass over the rows cost less than the same problems in
// parts, and the goroutines stay busy until the last problem stops.
//
// FitBatchParallel has FitBatch's contract: one model per input, each the
// model Fit gives for the input alone, whatever workers; ErrBatchDeclined
// before doing any work for a batch it does not train together.
type ParallelBatchFitter interface {
	BatchFitter
	FitBatchParallel(ctx context.Context, ins []FitInput, params Params, workers int) ([]Model, error)
}

// ErrBatchDeclined is returned by FitBatch for a batch the learner leaves
// to Fit.
var ErrBatchDeclined = errors.New("sdk: batch declined")

// fitBatch trains the problems idx of a request, whose inputs ins share X,
// with the learner's FitBatch (FitBatchParallel on the request's workers
// for a ParallelBatchFitter), or with Fit one after the other when it
// declines. Models go to models[idx[i]]; an error goes to errs[idx[0]].
func (s *learnerServer) fitBatch(ctx context.Context, bf BatchFitter, ins []FitInput, idx []int, params Params, workers int, models []Model, errs []error) {
	var got []Model
	var err error
	if pf, ok := bf.(ParallelBatchFitter); ok {
		got, err = pf.FitBatchParallel(ctx, ins, params, workers)
	} else {
		got, err = bf.FitBatch(ctx, ins, params)
	}
	if errors.Is(err, ErrBatchDeclined) {
		for i, in := range ins {
			if models[idx[i]], err = s.impl.Fit(ctx, in, params); err != nil {
				errs[idx[i]] = fmt.Errorf("problem %d: %w", idx[i], err)
			}
		}
		return
	}
	if err == nil && len(got) != len(ins) {
		err = fmt.Errorf("FitBatch returned %d models for %d problems", len(got), len(ins))
	}
	for i := 0; err == nil && i < len(got); i++ {
		if got[i] == nil {
			err = fmt.Errorf("FitBatch returned no model for problem %d", idx[i])
		}
	}
	if err != nil {
		errs[idx[0]] = fmt.Errorf("problems %v: %w", idx, err)
		return
	}
	for i, m := range got {
		models[idx[i]] = m
	}
}

// converted is a problem converted by convertProblem: its input without X
// and the rows it uses, or the conversion's error.
type converted struct {
	in   FitInput
	used []int
	err  error
}

// batchParts picks the problems of a request a BatchFitter trains
// together: those that use every row. It returns their inputs, sharing one
// gathered X, split round robin into at most workers parts (one part for
// a ParallelBatchFitter), and the indices of the other problems, with the
// conversions it made of them (conv[i] for problem i, nil when not made;
// conv is nil without a BatchFitter). A problem with compact targets that
// leaves a group out is seen to be one of the others without converting
// it: it is converted by its own job, so that a request of many small
// problems (one-vs-one) holds one conversion per busy job, not one per
// problem. Without a BatchFitter, or with fewer than two problems that use
// every row, every problem is left to Fit.
func (s *learnerServer) batchParts(x Matrix, rows []int, members groupRows, problems []Problem, workers int) (parts [][]FitInput, partIdx [][]int, single []int, conv []*converted) {
	var ins []FitInput
	var idx []int
	if _, ok := s.impl.(BatchFitter); ok && len(problems) > 1 {
		conv = make([]*converted, len(problems))
		for i, p := range problems {
			if leavesGroupOut(members, p) {
				single = append(single, i)
				continue
			}
			c := &converted{}
			c.in, c.used, c.err = convertProblem(rows, members, p)
			conv[i] = c
			if c.err != nil || len(c.used) != len(rows) {
				single = append(single, i)
				continue
			}
			ins, idx = append(ins, c.in), append(idx, i)
		}
	}
	if len(ins) < 2 {
		single = single[:0]
		for i := range problems {
			single = append(single, i)
		}
		return nil, nil, single, conv
	}
	shared := s.taken(gatherRows(x, rows))
	n := min(workers, len(ins))
	if _, ok := s.impl.(ParallelBatchFitter); ok {
		n = 1
	}
	parts, partIdx = make([][]FitInput, n), make([][]int, n)
	for k, in := range ins {
		in.X = shared
		parts[k%n] = append(parts[k%n], in)
		partIdx[k%n] = append(partIdx[k%n], idx[k])
	}
	return parts, partIdx, single, conv
}

// leavesGroupOut reports whether p has compact targets whose code leaves
// out a group that has rows (a code entry of 0): p then does not use every
// row. It is false for dense targets and for a code that does not fit the
// groups (the conversion says what is wrong).
func leavesGroupOut(members groupRows, p Problem) bool {
	if p.Compact == nil || len(p.Compact.Code) < len(members) {
		return false
	}
	for g, rs := range members {
		if len(rs) > 0 && p.Compact.Code[g] == 0 {
			return true
		}
	}
	return false
}
