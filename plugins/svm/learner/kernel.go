package learner

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/svm/kernelsvm"
)

// SharesFit reports whether the parameters train by SMO (kernelsvm), whose
// problems share kernel values (sdk.SharedFitter).
func (learner) SharesFit(p sdk.Params) bool {
	return p.Str("kernel") != kernelsvm.Linear || p.Str("method") == smo
}

// kernelOptions returns the SMO options of the parameters for a design
// of d columns.
func kernelOptions(p sdk.Params, d int) (kernelsvm.Options, error) {
	switch m := p.Str("method"); m {
	case dualCD, smo:
	default:
		return kernelsvm.Options{}, sdk.WithParam("method", fmt.Errorf("method %s is linear; kernel %s trains by smo", m, p.Str("kernel")))
	}
	return kernelsvm.Options{
		Kernel:      kernelOf(p, d),
		C:           p.Float("C"),
		Eps:         p.Float("tol"),
		NoShrinking: !p.Bool("shrinking"),
		CacheBytes:  int64(p.Float("cache_size") * (1 << 20)),
		Probability: p.Bool("probability"),
	}, nil
}

// kernelOf returns the kernel of the parameters for a design of d
// columns: gamma = 0 means 1/d, LIBSVM's default.
func kernelOf(p sdk.Params, d int) kernelsvm.Kernel {
	gamma := p.Float("gamma")
	if gamma == 0 {
		gamma = 1 / float64(max(d, 1))
	}
	return kernelsvm.Kernel{Type: p.Str("kernel"), Gamma: gamma, Degree: p.Int("degree"), Coef0: p.Float("coef0")}
}

// kernelData returns x as kernelsvm reads it.
func kernelData(x sdk.Matrix) *kernelsvm.Data {
	if x.CSR != nil {
		return kernelsvm.NewSparse(x.CSR)
	}
	return kernelsvm.NewDense(x.Dense)
}

// FitShared trains the problems of a request by SMO on their rows of x,
// sharing kernel values between them (kernelsvm.Train): a binary problem
// as svm-train trains a two-class set, a native multiclass one as
// svm-train trains a multiclass set (one-vs-one pairs and their vote).
// With multiclass = crammer_singer or weston_watkins the native
// multiclass problems train by that method instead (fitTogether).
func (learner) FitShared(ctx context.Context, x sdk.Matrix, ins []sdk.FitInput, rows [][]int, p sdk.Params, workers int) ([]sdk.Model, error) {
	if !together(p) {
		return fitSMO(ctx, x, ins, rows, p, workers)
	}
	out := make([]sdk.Model, len(ins))
	for _, multi := range []bool{true, false} {
		var idx []int
		var sub []sdk.FitInput
		var subRows [][]int
		for i, in := range ins {
			if (in.Kind == sdk.Multiclass) == multi {
				idx, sub, subRows = append(idx, i), append(sub, in), append(subRows, rows[i])
			}
		}
		if len(idx) == 0 {
			continue
		}
		fit := fitSMO
		if multi {
			fit = fitTogether
		}
		ms, err := fit(ctx, x, sub, subRows, p, workers)
		if err != nil {
			return nil, err
		}
		for k, i := range idx {
			out[i] = ms[k]
		}
	}
	return out, nil
}

// fitSMO is FitShared by SMO.
func fitSMO(ctx context.Context, x sdk.Matrix, ins []sdk.FitInput, rows [][]int, p sdk.Params, workers int) ([]sdk.Model, error) {
	_, d := x.Dims()
	opt, err := kernelOptions(p, d)
	if err != nil {
		return nil, err
	}
	problems := make([]kernelsvm.Problem, len(ins))
	for i, in := range ins {
		switch in.Kind {
		case sdk.Binary:
			problems[i] = kernelsvm.Problem{Rows: rows[i], Targets: in.Targets, Weights: in.Weights}
		case sdk.Multiclass:
			problems[i] = kernelsvm.Problem{Rows: rows[i], Classes: in.Classes, NumClasses: in.NumClasses, Weights: in.Weights}
		default:
			return nil, sdk.WithParam("kernel", fmt.Errorf("problem %d: kernel %s trains classification problems, not %s ones", i, p.Str("kernel"), in.Kind))
		}
	}
	ms, err := kernelsvm.Train(ctx, kernelData(x), problems, opt, workers)
	if err != nil {
		return nil, err
	}
	out := make([]sdk.Model, len(ms))
	for i, m := range ms {
		out[i] = kernelModel{m}
	}
	return out, nil
}

// PredictBatch predicts with kernel models together: the models of one
// request share their support vectors' kernel values (kernelsvm.Predict).
func (learner) PredictBatch(ctx context.Context, models []sdk.Model, x sdk.Matrix, scores, probs *mat.Dense) error {
	ms := make([]*kernelsvm.Model, len(models))
	for i, m := range models {
		km, ok := m.(kernelModel)
		if !ok {
			return sdk.ErrBatchDeclined
		}
		ms[i] = km.m
	}
	return kernelsvm.Predict(ctx, ms, kernelData(x), scores, probs)
}

// kernelModel is a kernel C-SVC (kernelsvm.Model): for a binary problem
// one score, the decision value, and with Platt scaling the probability
// of +1; for a multiclass one a score per class (votes, ties to the class
// seen first in training) and, with Platt scaling, LIBSVM's coupled
// probabilities.
type kernelModel struct{ m *kernelsvm.Model }

func (k kernelModel) Outputs() int { return k.m.Outputs() }

func (k kernelModel) Predict(ctx context.Context, x sdk.Matrix, scores, probs *mat.Dense) error {
	return kernelsvm.Predict(ctx, []*kernelsvm.Model{k.m}, kernelData(x), scores, probs)
}

// NotConverged reports a degenerate kernel matrix on the training rows
// (kernelsvm.Model.Degenerate: rbf with a gamma that makes every
// off-diagonal value underflow to 0, a sigmoid saturated by coef0, say):
// SMO met its stopping rule, but on a kernel that cannot tell the rows
// apart, so the model is a constant one. The host records it as a fit
// that did not converge and the tables mark the entry (§), the note the
// sdk.ConvergenceReporter path carries.
func (k kernelModel) NotConverged() bool { return k.m.Degenerate() }

// HasProbabilities reports whether the model was fitted with probability
// = true (sdk.ProbabilityModel).
func (k kernelModel) HasProbabilities() bool { return k.m.Probability() }
