// Package learner adapts package bayes to the plugin SDK; the
// bench-plugin-naive_bayes command serves it, and an in-process host can
// link it.
package learner

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/naive_bayes/bayes"
)

// version is reported in Info and recorded in run manifests.
const version = "0.1.0"

// learner adapts package bayes to the plugin SDK.
type learner struct{}

// New returns the naive_bayes learner.
func New() sdk.Learner { return learner{} }

// BorrowsInput reports that Fit keeps nothing of its input's rows (its
// models hold means, variances and log probabilities), so the SDK may
// reuse their memory (sdk.InputBorrower).
func (learner) BorrowsInput() bool { return true }

// Distributions.
const (
	gaussian    = "gaussian"
	multinomial = "multinomial"
	bernoulli   = "bernoulli"
)

func (learner) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{
		Name: "naive_bayes", Version: version,
		Description: "naive Bayes: Gaussian (default), multinomial or Bernoulli, as scikit-learn's GaussianNB, MultinomialNB, BernoulliNB",
		// Sparse: the discrete models count one-hot and count columns as
		// CSR; the Gaussian model densifies.
		Capabilities: sdk.Capabilities{Binary: true, Multiclass: true, Scores: true, Probabilities: true, Sparse: true, Weights: true},
		Params: []sdk.ParamSpec{
			{Name: "distribution", Type: sdk.StringParam, Default: sdk.String(gaussian), Allowed: []string{gaussian, multinomial, bernoulli}, Description: "the features' distribution given the class: gaussian (real values), multinomial (counts, one-hot), bernoulli (binary)"},
			{Name: "var_smoothing", Type: sdk.NumberParam, Default: sdk.Number(bayes.DefaultVarSmoothing), Min: sdk.Bound(0), Description: "gaussian: share of the largest feature variance added to every variance",
				AppliesWhen: []sdk.Condition{sdk.When("distribution", gaussian)}},
			{Name: "alpha", Type: sdk.NumberParam, Default: sdk.Number(bayes.DefaultAlpha), Min: sdk.Bound(0), Description: "multinomial, bernoulli: additive smoothing of the counts (at least 1e-10 is applied)",
				AppliesWhen: []sdk.Condition{sdk.When("distribution", multinomial, bernoulli)}},
			{Name: "fit_prior", Type: sdk.BoolParam, Default: sdk.Bool(true), Description: "multinomial, bernoulli: class priors from the class frequencies (false: uniform)",
				AppliesWhen: []sdk.Condition{sdk.When("distribution", multinomial, bernoulli)}},
			{Name: "binarize", Type: sdk.NumberOrStringParam, Default: sdk.Number(0), Allowed: []string{"none"}, Description: `bernoulli: a value above this threshold counts as 1, any other as 0; "none" takes the values as they are`,
				AppliesWhen: []sdk.Condition{sdk.When("distribution", bernoulli)}},
		},
	}
}

func (learner) Fit(_ context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	classes, k := in.Classes, in.NumClasses
	binary := in.Kind == sdk.Binary
	switch in.Kind {
	case sdk.Binary:
		classes, k = make([]int, len(in.Targets)), 2
		pos := 0
		for i, t := range in.Targets {
			if t > 0 {
				classes[i] = 1
				pos++
			}
		}
		// The log-odds of a class without rows is infinite.
		if pos == 0 || pos == len(classes) {
			return nil, fmt.Errorf("a binary problem needs rows of both classes; all %d rows are %+d", len(classes), 2*classes[0]-1)
		}
	case sdk.Multiclass:
	default:
		return nil, fmt.Errorf("naive_bayes classifies; it cannot train %s problems", in.Kind)
	}
	opt := bayes.DiscreteOptions{Alpha: p.Float("alpha"), FitPrior: p.Bool("fit_prior"), Binarize: p.Float("binarize")}
	if v := p["binarize"]; v.Kind() == sdk.StringValue {
		opt.Binarize = bayes.NoBinarize
	}
	var (
		m   jointLogLikelihood
		err error
	)
	switch p.Str("distribution") {
	case gaussian:
		var g *bayes.Gaussian
		g, err = bayes.FitGaussian(in.X.AsDense().Dense, classes, k, in.Weights, p.Float("var_smoothing"))
		m = gaussianModel{g}
	case multinomial:
		var d *bayes.Discrete
		d, err = bayes.FitMultinomial(in.X, classes, k, in.Weights, opt)
		m = d
	case bernoulli:
		var d *bayes.Discrete
		d, err = bayes.FitBernoulli(in.X, classes, k, in.Weights, opt)
		m = d
	default:
		return nil, sdk.WithParam("distribution", fmt.Errorf("unknown distribution %q", p.Str("distribution")))
	}
	if err != nil {
		return nil, err
	}
	return model{m: m, k: k, binary: binary}, nil
}

// jointLogLikelihood is what the three models share.
type jointLogLikelihood interface {
	JointLogLikelihood(dst *mat.Dense, x sdk.Matrix) error
}

type gaussianModel struct{ *bayes.Gaussian }

func (g gaussianModel) JointLogLikelihood(dst *mat.Dense, x sdk.Matrix) error {
	return g.Gaussian.JointLogLikelihood(dst, x.AsDense().Dense)
}

// model scores a row with its joint log-likelihoods log P(c) + log P(x|c)
// (whose largest is scikit-learn's prediction) and gives the posterior
// probabilities; a binary model's score is the log-odds
// log P(+1|x) − log P(−1|x), its probability P(+1|x).
type model struct {
	m      jointLogLikelihood
	k      int
	binary bool
}

func (m model) Outputs() int {
	if m.binary {
		return 1
	}
	return m.k
}

func (m model) Predict(_ context.Context, x sdk.Matrix, scores, probs *mat.Dense) error {
	n, _ := x.Dims()
	jll := scores
	if m.binary {
		jll = mat.NewDense(n, 2, nil)
	}
	if err := m.m.JointLogLikelihood(jll, x); err != nil {
		return err
	}
	if m.binary {
		for i := range n {
			scores.Set(i, 0, jll.At(i, 1)-jll.At(i, 0))
		}
	}
	if probs == nil {
		return nil
	}
	p := probs
	if m.binary {
		p = mat.NewDense(n, 2, nil)
	}
	bayes.Probabilities(p, jll)
	if m.binary {
		for i := range n {
			probs.Set(i, 0, p.At(i, 1))
		}
	}
	return nil
}
