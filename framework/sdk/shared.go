package sdk

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// SharedFitter is an optional interface of a Learner that trains all the
// problems of a Fit request together, each on its own rows of one design
// matrix: a kernel machine, say, whose problems share the kernel values of
// the rows they have in common (the one-vs-one problems of a class all use
// its rows; one-vs-all problems use every row).
//
// For a request whose parameters SharesFit accepts, the learner server
// gathers the request's rows once into x (dense unless the learner takes
// sparse input) and calls FitShared with every problem in request order:
// ins[i] is problem i's input without X (its targets and weights over its
// rows) and rows[i] the positions in x of its rows, ascending. FitShared
// may keep up to workers goroutines busy and must not modify x or keep it
// once it returns (a model keeps copies of the rows it needs). It returns
// one model per problem, each the model Fit gives for the problem alone:
// sharing is a matter of speed, never of results.
type SharedFitter interface {
	// SharesFit reports whether FitShared trains problems with params.
	SharesFit(params Params) bool
	FitShared(ctx context.Context, x Matrix, ins []FitInput, rows [][]int, params Params, workers int) ([]Model, error)
}

// BatchPredictor is an optional interface of a Learner whose models predict
// together: the learner server hands it every model of a Predict request
// at once, so that work the models have in common is done once (a kernel
// machine computes each test row's kernel values against the union of the
// models' support vectors, not once per model).
//
// PredictBatch writes the scores of models[i] into the columns of scores
// that follow those of models[:i] (each model has Outputs() columns), and
// its probabilities into the same columns of probs when probs is not nil.
// Each model's columns must equal, bit for bit, what its Predict writes,
// whichever models come with it. It returns ErrBatchDeclined, before
// writing anything, for models it does not predict together (the server
// then calls each model's Predict).
type BatchPredictor interface {
	PredictBatch(ctx context.Context, models []Model, x Matrix, scores, probs *mat.Dense) error
}

// ProbabilityModel is an optional interface of a Model of a learner that
// declares the Probabilities capability but whose models do not always
// have them (an SVM trained without Platt scaling, say). The learner
// server answers a Predict request with probabilities only when every
// model of the request has them (a model that does not implement the
// interface has them); without, the host uses the scores.
type ProbabilityModel interface {
	HasProbabilities() bool
}

// hasProbabilities reports whether every model has probabilities.
func hasProbabilities(models []Model) bool {
	for _, m := range models {
		if pm, ok := m.(ProbabilityModel); ok && !pm.HasProbabilities() {
			return false
		}
	}
	return true
}

// fitShared trains every problem of a request with the learner's
// FitShared. Models go to models, errors to errs, by problem.
func (s *learnerServer) fitShared(ctx context.Context, sf SharedFitter, x Matrix, rows []int, members groupRows, problems []Problem, params Params, workers int, models []Model, errs []error) {
	ins := make([]FitInput, len(problems))
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
func predictBatch(ctx context.Context, bp BatchPredictor, models []Model, x Matrix, scores, probs *mat.Dense) (ok bool, err error) {
	err = bp.PredictBatch(ctx, models, x, scores, probs)
	if errors.Is(err, ErrBatchDeclined) {
		return false, nil
	}
	return true, err
}
