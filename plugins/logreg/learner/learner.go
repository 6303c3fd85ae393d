// Package learner adapts the logreg solvers to the plugin SDK; the
// bench-plugin-logreg command serves it, and an in-process host can link it.
package learner

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/logreg/logistic"
)

// version is reported in Info and recorded in run manifests.
const version = "0.1.0"

// learner adapts package logistic to the plugin SDK.
type learner struct{}

// New returns the logreg learner.
func New() sdk.Learner { return learner{} }

// BorrowsInput reports that Fit keeps nothing of its input's rows (its
// models hold weights and intercepts), so the SDK may reuse their memory
// (sdk.InputBorrower).
func (learner) BorrowsInput() bool { return true }

func (learner) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{
		Name: "logreg", Version: version,
		Description:  "L2 logistic regression 0.5·||w||² + C·Σ log(1+exp(−y(w·x+b))), intercept not penalised; softmax regression for native multiclass problems",
		Capabilities: sdk.Capabilities{Binary: true, Multiclass: true, Scores: true, Probabilities: true, Sparse: true, Weights: true},
		Params: []sdk.ParamSpec{
			{Name: "C", Type: sdk.NumberParam, Default: sdk.Number(1), Min: sdk.Bound(0), MinExclusive: true, Description: "inverse regularisation strength"},
			{Name: "solver", Type: sdk.StringParam, Default: sdk.String(logistic.SolverNewton), Allowed: []string{logistic.SolverNewton, logistic.SolverLBFGS, logistic.SolverSGD, logistic.SolverGD}, Description: "binary solver: trust-region Newton (as LIBLINEAR), L-BFGS, stochastic or full-batch gradient descent",
				AppliesWhen: []sdk.Condition{sdk.OnProblems(sdk.Binary)}},
			{Name: "multinomial", Type: sdk.BoolParam, Default: sdk.Bool(true), Description: "fit native multiclass problems (reduction none) by softmax regression; false rejects them",
				AppliesWhen: []sdk.Condition{sdk.OnProblems(sdk.Multiclass)}},
			{Name: "tol", Type: sdk.NumberParam, Default: sdk.Number(1e-4), Min: sdk.Bound(0), MinExclusive: true, Description: "binary: stop when ||∇f|| ≤ tol·max(min(n+,n−),1)/n·||∇f(0)|| (LIBLINEAR's rule); softmax: ||∇f|| ≤ tol·||∇f(0)||"},
			{Name: "max_iter", Type: sdk.IntegerParam, Default: sdk.Number(1000), Min: sdk.Bound(1), Description: "iteration limit of newton, lbfgs, gd and softmax regression", Budget: true,
				AppliesWhen: []sdk.Condition{sdk.When("solver", logistic.SolverNewton, logistic.SolverLBFGS, logistic.SolverGD), sdk.OnProblems(sdk.Multiclass)}},
			{Name: "epochs", Type: sdk.IntegerParam, Default: sdk.Number(100), Min: sdk.Bound(1), Description: "passes over the data for solver sgd", Budget: true,
				AppliesWhen: []sdk.Condition{sdk.When("solver", logistic.SolverSGD)}},
			{Name: "step", Type: sdk.NumberParam, Default: sdk.Number(0.1), Min: sdk.Bound(0), MinExclusive: true, Description: "initial step size for sgd (η_t = step/(1+step·λ·t)) and gd",
				AppliesWhen: []sdk.Condition{sdk.When("solver", logistic.SolverSGD, logistic.SolverGD)}},
		},
	}
}

func design(x sdk.Matrix) logistic.Design {
	if x.CSR != nil {
		return logistic.NewCSR(x.CSR)
	}
	return logistic.NewDense(x.Dense)
}

// binaryOptions are the options of a binary problem.
func binaryOptions(p sdk.Params, seed uint64) logistic.Options {
	return logistic.Options{
		C: p.Float("C"), Tol: p.Float("tol"), MaxIter: p.Int("max_iter"),
		Solver: p.Str("solver"), Epochs: p.Int("epochs"),
		Step: p.Float("step"), Seed: seed,
	}
}

func (learner) Fit(_ context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	x := design(in.X)
	switch in.Kind {
	case sdk.Binary:
		r, err := logistic.Fit(x, in.Targets, in.Weights, binaryOptions(p, in.Seed))
		if err != nil {
			return nil, err
		}
		return binaryModel{r}, nil
	case sdk.Multiclass:
		if !p.Bool("multinomial") {
			return nil, fmt.Errorf("a native multiclass problem needs multinomial = true")
		}
		r, err := logistic.FitSoftmax(x, in.Classes, in.NumClasses, in.Weights, logistic.SoftmaxOptions{
			C: p.Float("C"), Tol: p.Float("tol"), MaxIter: p.Int("max_iter"),
		})
		if err != nil {
			return nil, err
		}
		return softmaxModel{r}, nil
	}
	return nil, fmt.Errorf("logreg cannot fit %s problems", in.Kind)
}

type binaryModel struct{ r *logistic.Result }

func (binaryModel) Outputs() int { return 1 }

func (m binaryModel) Predict(_ context.Context, x sdk.Matrix, scores, probs *mat.Dense) error {
	d := design(x)
	n, _ := d.Dims()
	if s := column(scores, n); s != nil {
		m.r.Decision(s, d)
	} else {
		scores.SetCol(0, m.r.Decision(make([]float64, n), d))
	}
	if probs == nil {
		return nil
	}
	if p := column(probs, n); p != nil {
		m.r.Probability(p, d)
	} else {
		probs.SetCol(0, m.r.Probability(make([]float64, n), d))
	}
	return nil
}

// column returns the n values of a one-column matrix when they lie side
// by side (the SDK hands one-output models such matrices), else nil.
func column(m *mat.Dense, n int) []float64 {
	if raw := m.RawMatrix(); raw.Cols == 1 && (raw.Stride == 1 || n == 1) && raw.Rows == n {
		return raw.Data[:n]
	}
	return nil
}

type softmaxModel struct{ r *logistic.SoftmaxResult }

func (m softmaxModel) Outputs() int { return len(m.r.B) }

func (m softmaxModel) Predict(_ context.Context, x sdk.Matrix, scores, probs *mat.Dense) error {
	d := design(x)
	m.r.Decision(scores, d)
	if probs != nil {
		m.r.Probability(probs, d)
	}
	return nil
}

// NotConverged reports whether the solver stopped at max_iter before its
// tol rule was met (sdk.ConvergenceReporter).
func (m binaryModel) NotConverged() bool { return !m.r.Converged }

// NotConverged reports whether the solver stopped at max_iter before its
// tol rule was met (sdk.ConvergenceReporter).
func (m softmaxModel) NotConverged() bool { return !m.r.Converged }
