package server

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/plugin"
)

// hasProbabilities reports whether every model has probabilities.
func hasProbabilities(models []plugin.Model) bool {
	for _, m := range models {
		if pm, ok := m.(plugin.ProbabilityModel); ok && !pm.HasProbabilities() {
			return false
		}
	}
	return true
}

// fitShared trains every problem of a request with the learner's
// FitShared. Models go to models, errors to errs, by problem.
func (s *learnerServer) fitShared(ctx context.Context, sf plugin.SharedFitter, x plugin.Matrix, rows []int, members groupRows, problems []plugin.Problem, params plugin.Params, workers int, models []plugin.Model, errs []error) {
	ins := make([]plugin.FitInput, len(problems))
	pos := make([][]int, len(problems))
	failed := false
	for i, p := range problems {
		in, used, err := convertProblem(rows, members, p)
		if err != nil {
			errs[i], failed = fmt.Errorf("problem %d: %w", i, err), true
			continue
		}
		ins[i], pos[i] = in, positions(rows, used)
	}
	if failed {
		return
	}
	got, err := sf.FitShared(ctx, s.taken(gatherRows(x, rows)), ins, pos, params, workers)
	if err == nil && len(got) != len(problems) {
		err = fmt.Errorf("FitShared returned %d models for %d problems", len(got), len(problems))
	}
	for i := 0; err == nil && i < len(got); i++ {
		if got[i] == nil {
			err = fmt.Errorf("FitShared returned no model for problem %d", i)
		}
	}
	if err != nil {
		errs[0] = fmt.Errorf("problems 0..%d: %w", len(problems)-1, err)
		return
	}
	copy(models, got)
}

// positions returns the positions in rows of used, a subsequence of rows.
func positions(rows, used []int) []int {
	pos := make([]int, len(used))
	k := 0
	for i, r := range rows {
		if k < len(used) && used[k] == r {
			pos[k] = i
			k++
		}
	}
	return pos
}

// predictBatch predicts with the learner's PredictBatch; ok is false when
// the learner declined.
func predictBatch(ctx context.Context, bp plugin.BatchPredictor, models []plugin.Model, x plugin.Matrix, scores, probs *mat.Dense) (ok bool, err error) {
	err = bp.PredictBatch(ctx, models, x, scores, probs)
	if errors.Is(err, plugin.ErrBatchDeclined) {
		return false, nil
	}
	return true, err
}
