package plugin

import (
	"context"
	"errors"

	"gonum.org/v1/gonum/mat"
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

// ParamChecker is an optional interface of a Learner whose parameters need
// more checking than their specs give: a bridge to a library that takes
// parameters the plugin does not list (a "*" spec), or that imports what
// a parameter names. bench validate and bench run call it for every
// combination of a learner block's parameters before any data is
// uploaded, once the specs' own checks pass, with the defaults filled in.
//
// CheckParams returns the components a fit with params computes with
// beyond Info's Runtime (a library a parameter names, say), and an error
// for bad values: a ParamError, or several joined (errors.Join), each
// located at its parameter in the experiment file. It must not train.
type ParamChecker interface {
	CheckParams(ctx context.Context, params Params) ([]Component, error)
}

// SchemeChecker is an optional interface of a Reducer whose scheme
// parameters have faults that show without data: a code matrix with an
// entry outside {−1, 0, +1}, ragged or identical rows, or a matrix given
// beside a generated code. bench validate and bench run call it for each
// parameter set of a reduction that meets no dataset that loads (one
// whose data path is wrong, say), once the specs' own checks pass, with
// the defaults filled in, so that the matrix's faults are reported in the
// same pass as the data's; a reduction that meets a dataset is checked by
// Plan instead.
//
// CheckScheme returns nil, or an error for what is wrong whatever the
// classes: a ParamError, or several joined (errors.Join), each located at
// its parameter in the experiment file. It must not report what depends
// on the classes (a row count), which Plan reports.
type SchemeChecker interface {
	CheckScheme(ctx context.Context, scheme string, params Params) error
}

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
