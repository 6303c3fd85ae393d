// Package outcome holds what a run computes: the result of every cell
// and of each of its folds, with their per-row predictions. The engine
// produces these values, package results stores them in cell files and
// package report renders them; the package depends on no plugin machinery
// (neither gRPC nor go-plugin), so that storing and rendering results
// does not either.
package outcome

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/curves"
	"github.com/polyclass/polyclass/framework/problem"
)

// ID names the cell's coordinates for tables and files.
type ID struct {
	Dataset   string `json:"dataset"`
	Encoder   string `json:"encoder"`
	Learner   string `json:"learner"`
	Params    string `json:"params"`
	Reduction string `json:"reduction"`
}

// Key is the cell's identity, from which its seeds derive.
func (id ID) Key() string {
	return strings.Join([]string{id.Dataset, id.Encoder, id.Learner, id.Params, id.Reduction}, "|")
}

// FoldResult is one fold of one cell.
type FoldResult struct {
	Repeat  int                `json:"repeat"`
	Fold    int                `json:"fold"`
	NTrain  int                `json:"n_train"`
	NTest   int                `json:"n_test"`
	Metrics map[string]float64 `json:"metrics"`
	// Warnings counts metric values set by a convention (0/0 → 0).
	Warnings       map[string]int `json:"warnings,omitempty"`
	Ties           int            `json:"ties"`
	FitSeconds     float64        `json:"fit_seconds"`
	PredictSeconds float64        `json:"predict_seconds"`
	// Confusion is the K×K confusion matrix (rows = actual).
	Confusion Confusion `json:"confusion"`
	// Diagnostics and Warnings are the reducer's notes on its plan (code
	// matrix distances, degenerate columns).
	Diagnostics  *problem.CodeDiagnostics `json:"diagnostics,omitempty"`
	PlanWarnings []string                 `json:"plan_warnings,omitempty"`
	// Chosen names the parameter values a tuned learner chose on this
	// fold's training part (e.g. "C=10"); TuneScores are the inner
	// cross-validation's mean metric of each candidate, in grid order.
	// Under successive halving a candidate's TuneScore is its mean in the
	// last round it reached (on that round's rows), and TuneRounds are
	// the rounds; TuneSeconds is the fit time of the inner fits (set for
	// the random and halving strategies only).
	Chosen      string      `json:"chosen,omitempty"`
	TuneScores  []float64   `json:"tune_scores,omitempty"`
	TuneRounds  []TuneRound `json:"tune_rounds,omitempty"`
	TuneSeconds float64     `json:"tune_seconds,omitempty"`
	// TuneRows is the rows of the outer training part the search ran on
	// (set for the random and halving strategies only).
	TuneRows int `json:"tune_rows,omitempty"`
	// SoftmaxScores tells that the class probabilities the metrics read
	// (log_loss, brier) are a softmax of the decoder's class scores, not
	// the learner's probabilities nor calibrated ones.
	SoftmaxScores bool `json:"softmax_scores,omitempty"`
	// NotConverged counts the fold's binary and multiclass fits that
	// stopped at their iteration bound before their stopping rule was met
	// (the learner says so: sdk.ConvergenceReporter), of Fits, the fold's
	// fits. Both are recorded only when NotConverged > 0, so that the cell
	// of a fold whose fits all converged reads as before.
	NotConverged int `json:"not_converged,omitempty"`
	Fits         int `json:"fits,omitempty"`
	// Predictions holds the fold's per-row predictions when
	// Options.KeepPredictions is set (cell files keep them, so that a
	// resumed run or a merge of shards writes the same predictions files).
	Predictions *Predictions `json:"predictions,omitempty"`
}

// AllTied reports whether every test row of the fold was decided by the
// tie-breaking rule (Ties = NTest > 0): the class scores were tied on
// every row, the predictions of a constant model (a logreg fit with every
// class weight 0, say), whose metrics say nothing of the learner.
func (f *FoldResult) AllTied() bool { return f.NTest > 0 && f.Ties == f.NTest }

// OneClass reports whether the fold predicted one class for every test
// row while its test rows hold more than one class (its confusion
// matrix has one non-zero column and several non-zero rows): a constant
// model whose class scores need not be tied, such as a kernel machine
// whose rbf values are all 0 between distinct rows or a nearest-neighbour
// search whose distances all underflow. A fold whose scores were all
// tied (AllTied) is not counted again.
func (f *FoldResult) OneClass() bool {
	if f.AllTied() || len(f.Confusion) == 0 {
		return false
	}
	actual, predicted := 0, make(map[int]bool)
	for _, row := range f.Confusion {
		rowTotal := 0
		for j, n := range row {
			if n != 0 {
				rowTotal += n
				predicted[j] = true
			}
		}
		if rowTotal > 0 {
			actual++
		}
	}
	return actual > 1 && len(predicted) == 1
}

// NotConvergedFits returns the fits of the fold that did not converge and
// all its fits (0, 0 when every fit converged).
func (f *FoldResult) NotConvergedFits() (notConverged, fits int) {
	if f.NotConverged == 0 {
		return 0, 0
	}
	return f.NotConverged, f.Fits
}

// Predictions are one fold's predictions for its test rows.
type Predictions struct {
	// Rows are the 0-based data rows of the test part.
	Rows []int
	// True and Predicted are class indices (multiclass).
	True, Predicted []int
	// TrueSet and PredSet are the rows × K 0/1 label matrices (multi-label).
	TrueSet, PredSet *mat.Dense
	// Scores is the rows × K matrix of class probabilities the metrics used.
	Scores *mat.Dense
}

// CellResult is a finished cell.
type CellResult struct {
	Index int `json:"index"`
	ID
	Classes []string     `json:"classes"`
	Folds   []FoldResult `json:"folds"`
	Error   string       `json:"error,omitempty"`
	// TuneMetric and TuneCandidates describe a tuned cell: the metric its
	// inner cross-validations compare and its candidates' tuned
	// parameters ("C=0.1"), in grid order (parameter names sorted, the
	// last varying fastest, as scikit-learn's ParameterGrid), the order of
	// each fold's TuneScores.
	TuneMetric     string   `json:"tune_metric,omitempty"`
	TuneCandidates []string `json:"tune_candidates,omitempty"`
	// TuneStrategy and TuneFolds are set when the strategy is not the
	// grid: "random" or "halving", and the number of inner folds (what
	// the fits spent are counted in).
	TuneStrategy string `json:"tune_strategy,omitempty"`
	TuneFolds    int    `json:"tune_folds,omitempty"`
	// TuneResource is the budget parameter a halving or hyperband search
	// grew (resource = "max_iter"; empty for rows), and TuneMaxResource
	// its largest value: the rounds' Resources are its values.
	TuneResource    string `json:"tune_resource,omitempty"`
	TuneMaxResource int    `json:"tune_max_resource,omitempty"`
	// Curves are the cell's threshold views: ROC and precision–recall
	// curves, the reliability diagram of its probabilities, from the
	// out-of-fold scores of all its folds pooled when it finished (see
	// package curves); nil for a cell without class scores, and in cells
	// of a bench from before them.
	Curves *curves.Set `json:"curves,omitempty"`
}

// Failed reports whether the cell failed.
func (c *CellResult) Failed() bool { return c.Error != "" }

// Check reports a finished cell whose numbers contradict each other: a
// fold's confusion matrix (multiclass cells have one) that is not K×K for
// the cell's K classes, has a negative count, or does not sum to the
// fold's test rows, or an accuracy that is not the matrix's trace over its
// sum, or more fits that did not converge than fits (or fewer than
// none). A failed cell has nothing to check.
func (c *CellResult) Check() error {
	k := len(c.Classes)
	for i, f := range c.Folds {
		if f.NotConverged < 0 || f.NotConverged > f.Fits {
			return fmt.Errorf("fold %d: %d fits did not converge of %d", i, f.NotConverged, f.Fits)
		}
		if f.Confusion == nil {
			continue
		}
		if len(f.Confusion) != k {
			return fmt.Errorf("fold %d: the confusion matrix has %d rows for %d classes", i, len(f.Confusion), k)
		}
		sum, trace := 0, 0
		for r, row := range f.Confusion {
			if len(row) != k {
				return fmt.Errorf("fold %d: row %d of the confusion matrix has %d entries for %d classes", i, r, len(row), k)
			}
			for col, n := range row {
				if n < 0 {
					return fmt.Errorf("fold %d: the confusion matrix counts %d rows of class %d predicted %d", i, n, r, col)
				}
				sum += n
			}
			trace += row[r]
		}
		if sum != f.NTest {
			return fmt.Errorf("fold %d: n_test is %d but the confusion matrix counts %d rows", i, f.NTest, sum)
		}
		if acc, ok := f.Metrics["accuracy"]; ok && sum > 0 && math.Abs(acc-float64(trace)/float64(sum)) > 1e-12 {
			return fmt.Errorf("fold %d: accuracy is %v but the confusion matrix gives %d/%d", i, acc, trace, sum)
		}
	}
	return nil
}

// TuneRound is one round of a successive halving search on one outer
// fold: the candidates it scored (indices into the cell's
// TuneCandidates), the rows each inner fit trained and was scored on
// (Resources: scikit-learn's n_resources, a share of the outer training
// part), and each candidate's mean inner score. The next round's
// candidates are this round's survivors.
//
// Under hyperband, Bracket is the round's bracket s (s_max first; set
// for hyperband only), and Reused counts the round's candidates whose
// scores were not fitted again: a candidate already scored on the same
// rows (by another bracket) keeps that score.
type TuneRound struct {
	Resources  int       `json:"resources"`
	Candidates []int     `json:"candidates"`
	Scores     []float64 `json:"scores"`
	Bracket    *int      `json:"bracket,omitempty"`
	Reused     int       `json:"reused,omitempty"`
}
