package plugin

import (
	"context"

	"gonum.org/v1/gonum/mat"
)

// Capabilities lists what a learner can do.
type Capabilities struct {
	Binary        bool // trains Binary problems
	Multiclass    bool // trains Multiclass problems natively
	Regression    bool // trains Regression problems
	Scores        bool // predicts real-valued scores
	Probabilities bool // predicts probabilities
	// Sparse: the learner takes CSR input as it is. A learner without it
	// gets dense matrices only: the host densifies before uploading, and
	// the SDK densifies any CSR upload before Fit and Predict see it.
	Sparse  bool
	Weights bool // takes per-row weights (class_weight needs them)
}

// LearnerInfo describes a learner plugin.
type LearnerInfo struct {
	Name, Version, Description string
	Capabilities               Capabilities
	Params                     []ParamSpec
	// Runtime is the software the learner computes with beyond its own
	// code (see Component). The SDK's server sends the binary's Go
	// version and modules (software.Build) followed by these; a learner
	// that loads libraries at run time (a model file, a shared library)
	// adds them here. The host reads it back as the plugin's whole report.
	Runtime []Component
}

// FitInput is one problem as a learner sees it: the rows it uses only.
type FitInput struct {
	Kind ProblemKind
	// X holds the problem's training rows, in memory of its own that the
	// learner may keep and change, unless it borrows its input
	// (InputBorrower).
	X Matrix
	// Targets: ±1 for Binary, real values for Regression.
	Targets []float64
	// Classes: 0..NumClasses−1 for Multiclass.
	Classes    []int
	NumClasses int
	// Weights are per-row weights; nil means all 1.
	Weights []float64
	Seed    uint64
}

// Learner is the interface a learner plugin implements.
type Learner interface {
	// Info describes the learner. It is called once per process.
	Info() LearnerInfo
	// Fit trains one problem. params holds every declared parameter,
	// defaults filled in. Fit may be called concurrently.
	Fit(ctx context.Context, in FitInput, params Params) (Model, error)
}

// InputBorrower is an optional interface of a Learner. A learner whose
// BorrowsInput returns true only reads FitInput.X and keeps nothing of it
// once Fit returns (its models hold what they need: weights, means,
// copies). The SDK then hands the same rows to every problem of a Fit call
// that uses them all (one-vs-all: one gather a call, not one a problem),
// and gathers the rows of the others into memory that the call's next
// problem reuses rather than allocating it afresh, as a one-vs-one fold's
// hundreds of problems (325 on letter) would otherwise. A learner that
// keeps its training rows, a nearest-neighbour model say, or writes into
// them must not borrow.
type InputBorrower interface {
	BorrowsInput() bool
}

// Model is a trained model.
type Model interface {
	// Outputs is the number of score columns the model predicts.
	Outputs() int
	// Predict writes the scores of every row of x into scores
	// (rows × Outputs) and, when probs is not nil, probabilities of the
	// same shape. Scores are finite, but for −Inf in a multiclass model's
	// column of a class it cannot predict (one without training rows);
	// the host fails the call on any other NaN or ±Inf.
	Predict(ctx context.Context, x Matrix, scores, probs *mat.Dense) error
}

// ConvergenceReporter is an optional interface of a Model. A model whose
// fit stopped at its iteration bound before its stopping rule was met
// (a logistic regression at max_iter, say), or that met it on a
// degenerate problem whose model is a constant one (a kernel SVM whose
// kernel matrix cannot tell the training rows apart), reports
// NotConverged true; the host records it with the fold and the tables
// flag the entry. A model without the method is taken to have converged.
type ConvergenceReporter interface {
	NotConverged() bool
}

// Scheme describes one reduction a reducer offers.
type Scheme struct {
	Name, Description string
	MultiLabel        bool
	NeedsMulticlass   bool
	NeedsRegression   bool
	Params            []ParamSpec
	// RowWiseDecode declares that Decode is row-wise: each test row's
	// prediction (class, class scores, label row, tie) depends only on
	// that row's scores and probabilities, the state, the parameters and
	// the training scores, bit for bit, whatever the other test rows. The
	// host then splits a decode over the message bound into runs of test
	// rows and concatenates the answers (summing ties); without it such a
	// decode fails. A decoder that looks at all test rows at once, or
	// whose arithmetic depends on their number (a blocked matrix product,
	// say), must leave it false. bench plugin check compares a decode
	// whole with one in two halves for each scheme that sets it.
	RowWiseDecode bool
}

// ReducerInfo describes a reducer plugin.
type ReducerInfo struct {
	Name, Version, Description string
	Schemes                    []Scheme
	// Runtime is the software the reducer computes with (see
	// LearnerInfo.Runtime).
	Runtime []Component
}

// PlanRequest describes the training part of one fold.
type PlanRequest struct {
	Scheme string
	Params Params
	// NumClasses is K, the number of classes or labels.
	NumClasses int
	// Labels are the class indices 0..K−1 of the training rows (multiclass).
	Labels []int
	// LabelMatrix is the n_train × K 0/1 matrix (multi-label).
	LabelMatrix *mat.Dense
	ClassNames  []string
	Seed        uint64
	// Stage counts the stages run so far; State is the previous stage's.
	Stage int
	State []byte
}

// Rows returns the number of training rows of r: its labels', or its
// label matrix's for a multi-label request.
func (r PlanRequest) Rows() int {
	if r.LabelMatrix != nil {
		n, _ := r.LabelMatrix.Dims()
		return n
	}
	return len(r.Labels)
}

// StageSpec asks the host to run another stage before decoding.
type StageSpec struct {
	InnerFolds    int
	AppendOutputs bool
	// InnerSeed seeds the inner split, made as scikit-learn's
	// KFold(InnerFolds, shuffle=True, random_state=InnerSeed mod 2^32).
	InnerSeed uint64
}

// Plan is a reducer's answer to a PlanRequest.
type Plan struct {
	// Problems hold one target per training row, in Targets or, for
	// Binary problems, in Compact: the problems of a code matrix are best
	// given as CodeColumn(*Code, j, groups) with groups the request's
	// Labels as int32s, one slice for all of them, which the server sends
	// in compact form as it is (an all-pairs plan of K classes over n
	// rows would otherwise hold K(K−1)/2 × n float64s).
	Problems []Problem
	// Code is the code matrix behind the problems, when there is one.
	Code *CodeMatrix
	// State is passed back to Decode (and to the next stage's Plan).
	State []byte
	// NextStage, when set, asks for another stage.
	NextStage *StageSpec
	// NeedsTrainingScores asks the host to pass the models' scores on the
	// training rows to Decode.
	NeedsTrainingScores bool
	// IgnoresProbabilities tells the host that Decode reads none of the
	// learners' probabilities for this plan: it then asks Predict for
	// scores only (a learner computes no probabilities) and passes none.
	// False has them passed whenever the learner has them. It is read from
	// the last stage's plan; the outputs a stage appends (NextStage) are
	// probabilities whenever the learner has them.
	IgnoresProbabilities bool
	// Diagnostics describe the code matrix, when the scheme has one.
	Diagnostics *CodeDiagnostics
	// Warnings are human-readable notes on the plan (e.g. the defects of
	// a degenerate code matrix).
	Warnings []string
	// Description says in words what the plan is, for the set-up table
	// of the run's report. The host shows it as it is: only the reducer
	// knows what its parameters mean. The host refuses a plan whose
	// warnings or description hold a control, bidi control or other
	// invisible character (safetext.CheckVisible).
	Description PlanDescription
}

// PlanDescription says in a phrase each what a plan is. An empty phrase
// leaves the report to show the scheme and its parameters alone.
type PlanDescription struct {
	// Code is the code the problems form: "one-vs-one, K(K−1)/2
	// columns", "random dense code, 37 columns".
	Code string
	// Decoder is how Decode turns the models' outputs into classes:
	// "votes", "loss-based decoding, exponential loss".
	Decoder string
}

// DecodeRequest carries a fold's outputs.
type DecodeRequest struct {
	Scheme string
	Params Params
	State  []byte
	// Scores is n_test × L, columns in problem order.
	Scores *mat.Dense
	// Probabilities is n_test × L, or nil.
	Probabilities *mat.Dense
	// TrainingScores is n_train × L, when the plan asked for it.
	TrainingScores *mat.Dense
}

// Decoding holds a reducer's predictions.
type Decoding struct {
	// Predicted is the class index of each row (multiclass).
	Predicted []int
	// ClassScores is n_test × K, each entry in [0, 1] (multiclass: rows
	// sum to one).
	ClassScores *mat.Dense
	// ClassScoresAreProbabilities says that ClassScores are class
	// probabilities (the learner's passed on, or combined from them) and
	// not a softmax of decision scores: the host footnotes the metrics
	// that read probabilities (log_loss, brier) of a decoding without it.
	ClassScoresAreProbabilities bool
	// LabelMatrix is the n_test × K 0/1 prediction (multi-label).
	LabelMatrix *mat.Dense
	// Ties counts rows decided by the tie-breaking rule.
	Ties int
}

// Reducer is the interface a reducer plugin implements. A reducer holds no
// state between calls: whatever Decode needs travels in Plan.State.
type Reducer interface {
	Info() ReducerInfo
	Plan(ctx context.Context, req PlanRequest) (Plan, error)
	Decode(ctx context.Context, req DecodeRequest) (Decoding, error)
}
