// Package learner adapts the lda solvers to the plugin SDK; the
// bench-plugin-lda command serves it, and an in-process host can link it.
package learner

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/lda/discriminant"
)

// version is reported in Info and recorded in run manifests.
const version = "0.1.0"

// learner adapts package discriminant to the plugin SDK.
type learner struct{}

// New returns the lda learner.
func New() sdk.Learner { return learner{} }

// BorrowsInput reports that Fit keeps nothing of its input's rows (its
// models hold coefficients, means and covariances computed afresh), so the
// SDK may reuse their memory (sdk.InputBorrower).
func (learner) BorrowsInput() bool { return true }

func (learner) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{
		Name: "lda", Version: version,
		Description:  "linear discriminant analysis (pooled covariance, SVD solver as scikit-learn), least-squares indicator regression, ridge regression",
		Capabilities: sdk.Capabilities{Binary: true, Multiclass: true, Regression: true, Scores: true, Probabilities: true},
		Params: []sdk.ParamSpec{
			{Name: "method", Type: sdk.StringParam, Default: sdk.String("lda"), Allowed: []string{"lda", "lsq", "ridge"}, Description: "lda; lsq = least squares on the indicator matrix, argmax; ridge = regression (binary targets ±1)"},
			{Name: "shrinkage", Type: sdk.NumberParam, Default: sdk.Number(0), Min: sdk.Bound(0), Max: sdk.Bound(1), Description: "covariance shrinkage towards trace/d·I (> 0 switches to the lsqr solver) of method lda; auto_shrinkage replaces it",
				AppliesWhen: []sdk.Condition{onLDA(sdk.Clause{Param: "auto_shrinkage", OneOf: []sdk.Value{sdk.Bool(false)}})}},
			{Name: "auto_shrinkage", Type: sdk.BoolParam, Default: sdk.Bool(false), Description: "Ledoit–Wolf shrinkage (lsqr solver) of method lda",
				AppliesWhen: []sdk.Condition{onLDA()}},
			{Name: "ridge", Type: sdk.NumberParam, Default: sdk.Number(0), Min: sdk.Bound(0), Description: "ridge penalty of lsq and ridge (0 = ordinary least squares), and of every regression problem",
				AppliesWhen: []sdk.Condition{sdk.When("method", "lsq", "ridge"), sdk.OnProblems(sdk.Regression)}},
			{Name: "tol", Type: sdk.NumberParam, Default: sdk.Number(discriminant.DefaultTol), Min: sdk.Bound(0), MinExclusive: true, Description: "rank tolerance of the SVD solver of method lda",
				AppliesWhen: []sdk.Condition{onLDA()}},
		},
	}
}

// onLDA returns the condition that the learner fits by method lda (the
// method is lda and its problems are classes: regression problems are
// fitted by ridge regression whatever the method), with the clauses more.
func onLDA(more ...sdk.Clause) sdk.Condition {
	c := sdk.When("method", "lda").On(sdk.Binary, sdk.Multiclass)
	c.Clauses = append(c.Clauses, more...)
	return c
}

// dense returns x as a dense matrix: the solvers need one. (lda does not
// declare the sparse capability, so x is dense already when it comes
// through the SDK.)
func dense(x sdk.Matrix) *mat.Dense { return x.AsDense().Dense }

func (learner) Fit(_ context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	x := dense(in.X)
	method := p.Str("method")
	ridge := p.Float("ridge")
	if in.Kind == sdk.Regression || (in.Kind == sdk.Binary && method == "ridge") {
		t := mat.NewDense(len(in.Targets), 1, append([]float64(nil), in.Targets...))
		r, err := discriminant.FitRidge(x, t, in.Weights, ridge)
		if err != nil {
			return nil, err
		}
		return ridgeModel{r}, nil
	}
	classes, k := in.Classes, in.NumClasses
	if in.Kind == sdk.Binary {
		classes, k = make([]int, len(in.Targets)), 2
		pos := 0
		for i, t := range in.Targets {
			if t > 0 {
				classes[i] = 1
				pos++
			}
		}
		// A class without rows has prior 0: its discriminant is −∞.
		if pos == 0 || pos == len(classes) {
			return nil, fmt.Errorf("a binary problem needs rows of both classes; all %d rows are %+d", len(classes), 2*classes[0]-1)
		}
	}
	switch method {
	case "lda":
		if in.Weights != nil {
			return nil, fmt.Errorf("lda does not take row weights")
		}
		opt := discriminant.LDAOptions{Tol: p.Float("tol")}
		if s := p.Float("shrinkage"); s > 0 || p.Bool("auto_shrinkage") {
			opt.Solver, opt.Shrinkage, opt.AutoShrinkage = discriminant.SolverLSQR, s, p.Bool("auto_shrinkage")
		}
		m, err := discriminant.FitLDA(x, classes, k, opt)
		if err != nil {
			return nil, err
		}
		return ldaModel{m: m, binary: in.Kind == sdk.Binary}, nil
	case "lsq":
		m, err := discriminant.FitLSQ(x, classes, k, in.Weights, ridge)
		if err != nil {
			return nil, err
		}
		return lsqModel{m: m, binary: in.Kind == sdk.Binary}, nil
	}
	return nil, fmt.Errorf("method %s fits real-valued targets; it cannot train %s problems", method, in.Kind)
}

// ldaModel scores with the discriminants: for a binary problem the score
// is δ₊ − δ₋ and the probability P(+1|x).
type ldaModel struct {
	m      *discriminant.LDA
	binary bool
}

func (m ldaModel) Outputs() int {
	if m.binary {
		return 1
	}
	return len(m.m.Intercept)
}

func (m ldaModel) Predict(_ context.Context, x sdk.Matrix, scores, probs *mat.Dense) error {
	d := dense(x)
	s := m.m.DecisionFunction(nil, d)
	var pr *mat.Dense
	if probs != nil {
		pr = m.m.PredictProba(nil, d)
	}
	return fill(s, pr, m.binary, scores, probs)
}

// fill copies K-column outputs into the model's output matrices; a binary
// model reports the difference of the two columns and P(class 1).
func fill(s, pr *mat.Dense, binary bool, scores, probs *mat.Dense) error {
	n, _ := s.Dims()
	for i := 0; i < n; i++ {
		if binary {
			scores.Set(i, 0, s.At(i, 1)-s.At(i, 0))
			if probs != nil && pr != nil {
				probs.Set(i, 0, pr.At(i, 1))
			}
			continue
		}
		scores.SetRow(i, s.RawRowView(i))
		if probs != nil && pr != nil {
			probs.SetRow(i, pr.RawRowView(i))
		}
	}
	return nil
}

type lsqModel struct {
	m      *discriminant.LSQ
	binary bool
}

func (m lsqModel) Outputs() int {
	if m.binary {
		return 1
	}
	_, c := m.m.Ridge.Coef.Dims()
	return c
}

func (m lsqModel) Predict(_ context.Context, x sdk.Matrix, scores, probs *mat.Dense) error {
	s := m.m.DecisionFunction(nil, dense(x))
	// Indicator-regression outputs are not probabilities: report them
	// clipped to [0, 1] and normalised, so that AUC can rank rows.
	var pr *mat.Dense
	if probs != nil {
		r, c := s.Dims()
		pr = mat.NewDense(r, c, nil)
		for i := 0; i < r; i++ {
			var sum float64
			for j := 0; j < c; j++ {
				v := min(max(s.At(i, j), 0), 1)
				pr.Set(i, j, v)
				sum += v
			}
			for j := 0; j < c && sum > 0; j++ {
				pr.Set(i, j, pr.At(i, j)/sum)
			}
		}
	}
	return fill(s, pr, m.binary, scores, probs)
}

type ridgeModel struct{ r *discriminant.Ridge }

func (ridgeModel) Outputs() int { return 1 }

func (m ridgeModel) Predict(_ context.Context, x sdk.Matrix, scores, probs *mat.Dense) error {
	p := m.r.Predict(nil, dense(x))
	n, _ := p.Dims()
	for i := 0; i < n; i++ {
		scores.Set(i, 0, p.At(i, 0))
		if probs != nil {
			probs.Set(i, 0, min(max((p.At(i, 0)+1)/2, 0), 1))
		}
	}
	return nil
}
