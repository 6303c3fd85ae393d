package server

import (
	"context"
	"errors"
	"fmt"

	"github.com/polyclass/polyclass/framework/plugin"
)

// fitBatch trains the problems idx of a request, whose inputs ins share X,
// with the learner's FitBatch (FitBatchParallel on the request's workers
// for a ParallelBatchFitter), or with Fit one after the other when it
// declines. Models go to models[idx[i]]; an error goes to errs[idx[0]].
func (s *learnerServer) fitBatch(ctx context.Context, bf plugin.BatchFitter, ins []plugin.FitInput, idx []int, params plugin.Params, workers int, models []plugin.Model, errs []error) {
	var got []plugin.Model
	var err error
	if pf, ok := bf.(plugin.ParallelBatchFitter); ok {
		got, err = pf.FitBatchParallel(ctx, ins, params, workers)
	} else {
		got, err = bf.FitBatch(ctx, ins, params)
	}
	if errors.Is(err, plugin.ErrBatchDeclined) {
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
	in   plugin.FitInput
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
func (s *learnerServer) batchParts(x plugin.Matrix, rows []int, members groupRows, problems []plugin.Problem, workers int) (parts [][]plugin.FitInput, partIdx [][]int, single []int, conv []*converted) {
	var ins []plugin.FitInput
	var idx []int
	if _, ok := s.impl.(plugin.BatchFitter); ok && len(problems) > 1 {
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
	if _, ok := s.impl.(plugin.ParallelBatchFitter); ok {
		n = 1
	}
	parts, partIdx = make([][]plugin.FitInput, n), make([][]int, n)
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
func leavesGroupOut(members groupRows, p plugin.Problem) bool {
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
