// Package learner adapts the svm solvers to the plugin SDK: the linear
// ones of package linsvm and the kernel C-SVC of package kernelsvm, which
// trains the problems of a Fit request together (sdk.SharedFitter) and
// predicts with their models together (sdk.BatchPredictor), and the
// all-together multiclass SVMs of kernelsvm.TrainTogether (parameter
// multiclass, for native multiclass problems); the
// bench-plugin-svm command serves it, and an in-process host can link it.
package learner

import (
	"context"
	"fmt"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/svm/kernelsvm"
	"github.com/polyclass/polyclass/plugins/svm/linsvm"
)

// version is reported in Info and recorded in run manifests.
const version = "0.1.0"

// Methods.
const (
	dualCD        = "dual_cd"
	crammerSinger = "crammer_singer"
	perceptron    = "perceptron"
	pocket        = "pocket"
	smo           = "smo"
)

// Values of the multiclass parameter: the all-together methods of
// package kernelsvm (crammer_singer is also a linear method's name), or
// auto, the native multiclass training of the kernel or method.
const (
	multiclassAuto = "auto"
	westonWatkins  = kernelsvm.WestonWatkins
)

// learner adapts package linsvm to the plugin SDK.
type learner struct {
	// workspaces holds *linsvm.Workspace: the SDK fits a call's problems
	// on several goroutines, each taking a workspace for one problem.
	workspaces *sync.Pool
}

// New returns the svm learner.
func New() sdk.Learner {
	return learner{workspaces: &sync.Pool{New: func() any { return new(linsvm.Workspace) }}}
}

// workspace returns a workspace for one Fit and the function that gives
// it back; the zero learner (no pool) makes a fresh one.
func (l learner) workspace() (ws *linsvm.Workspace, done func()) {
	if l.workspaces == nil {
		return new(linsvm.Workspace), func() {}
	}
	ws = l.workspaces.Get().(*linsvm.Workspace)
	return ws, func() { l.workspaces.Put(ws) }
}

// BorrowsInput reports that Fit keeps nothing of its input's rows (its
// models hold weights and an intercept), so the SDK may reuse their
// memory (sdk.InputBorrower).
func (learner) BorrowsInput() bool { return true }

func (learner) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{
		Name: "svm", Version: version,
		Description:  "SVMs: linear 0.5·(||w||²+b²) + C·Σ loss (bias a penalised constant feature; Crammer–Singer for native multiclass problems), or kernel C-SVC (rbf, poly, sigmoid) by LIBSVM's SMO, with Platt probabilities; with any kernel, the all-together multiclass SVMs of Crammer–Singer and Weston–Watkins (multiclass, reduction none)",
		Capabilities: sdk.Capabilities{Binary: true, Multiclass: true, Scores: true, Probabilities: true, Sparse: true, Weights: true},
		Params: []sdk.ParamSpec{
			{Name: "kernel", Type: sdk.StringParam, Default: sdk.String(kernelsvm.Linear), Allowed: []string{kernelsvm.Linear, kernelsvm.RBF, kernelsvm.Poly, kernelsvm.Sigmoid}, Description: "linear: the method's linear solver; rbf exp(−γ‖x−z‖²), poly (γ·x·z + coef0)^degree, sigmoid tanh(γ·x·z + coef0): LIBSVM's C-SVC by SMO (as method = smo)"},
			{Name: "method", Type: sdk.StringParam, Default: sdk.String(dualCD), Allowed: []string{dualCD, crammerSinger, perceptron, pocket, smo}, Description: "linear kernel: dual coordinate descent (binary; native multiclass problems then use Crammer–Singer), Crammer–Singer (multiclass), perceptron or pocket (binary baselines), or smo (LIBSVM's C-SVC with the linear kernel, intercept unpenalised); other kernels train by smo",
				AppliesWhen: []sdk.Condition{sdk.When("kernel", kernelsvm.Linear)}},
			{Name: "loss", Type: sdk.StringParam, Default: sdk.String(linsvm.LossHinge), Allowed: []string{linsvm.LossHinge, linsvm.LossSquaredHinge}, Description: "dual_cd loss: hinge (LIBLINEAR -s 3) or squared_hinge (-s 1)",
				AppliesWhen: []sdk.Condition{sdk.When("method", dualCD).On(sdk.Binary)}},
			{Name: "multiclass", Type: sdk.StringParam, Default: sdk.String(multiclassAuto), Allowed: []string{multiclassAuto, crammerSinger, westonWatkins}, Description: "native multiclass problems (reduction none): auto trains the kernel's one-vs-one pairs by SMO (LIBSVM) or the linear method's Crammer–Singer with its bias feature; crammer_singer (Crammer & Singer 2001) or weston_watkins (Weston & Watkins 1999) solve the all-together dual with the kernel, any kernel, by a decomposition method with shrinking and a kernel cache (kernelsvm.TrainTogether; bias adds bias² to every kernel value)",
				AppliesWhen: []sdk.Condition{sdk.OnProblems(sdk.Multiclass)}},
			{Name: "C", Type: sdk.NumberParam, Default: sdk.Number(1), Min: sdk.Bound(0), MinExclusive: true, Description: "penalty of the loss"},
			{Name: "gamma", Type: sdk.NumberParam, Default: sdk.Number(0), Min: sdk.Bound(0), DefaultMeans: "1/features",
				Description: "γ of the rbf, poly and sigmoid kernels (0: 1/number of features, LIBSVM's default)",
				AppliesWhen: []sdk.Condition{sdk.When("kernel", kernelsvm.RBF, kernelsvm.Poly, kernelsvm.Sigmoid)}},
			{Name: "degree", Type: sdk.IntegerParam, Default: sdk.Number(3), Min: sdk.Bound(0), Description: "degree of the poly kernel",
				AppliesWhen: []sdk.Condition{sdk.When("kernel", kernelsvm.Poly)}},
			{Name: "coef0", Type: sdk.NumberParam, Default: sdk.Number(0), Description: "coef0 of the poly and sigmoid kernels",
				AppliesWhen: []sdk.Condition{sdk.When("kernel", kernelsvm.Poly, kernelsvm.Sigmoid)}},
			{Name: "cache_size", Type: sdk.NumberParam, Default: sdk.Number(100), Min: sdk.Bound(0), MinExclusive: true, Description: "smo and the all-together methods: megabytes of kernel values kept by one fit (LIBSVM's -m), shared by the problems trained together",
				AppliesWhen: []sdk.Condition{sdk.When("kernel", kernelsvm.RBF, kernelsvm.Poly, kernelsvm.Sigmoid), sdk.When("method", smo), sdk.When("multiclass", crammerSinger, westonWatkins)}},
			{Name: "shrinking", Type: sdk.BoolParam, Default: sdk.Bool(true), Description: "smo and the all-together methods: shrinking heuristics (LIBSVM's -h)",
				AppliesWhen: []sdk.Condition{sdk.When("kernel", kernelsvm.RBF, kernelsvm.Poly, kernelsvm.Sigmoid), sdk.When("method", smo), sdk.When("multiclass", crammerSinger, westonWatkins)}},
			{Name: "probability", Type: sdk.BoolParam, Default: sdk.Bool(false), Description: "smo: Platt-scaled probabilities from a 5-fold cross-validation, as LIBSVM's -b 1 (five more fits per problem)",
				AppliesWhen: []sdk.Condition{sdk.When("kernel", kernelsvm.RBF, kernelsvm.Poly, kernelsvm.Sigmoid), sdk.When("method", smo)}},
			{Name: "bias", Type: sdk.NumberParam, Default: sdk.Number(1), Description: "linear methods and the all-together ones: value of the constant feature appended to every row (≤ 0: no bias; all-together: bias² added to every kernel value, a penalised intercept per class as in Hsu & Lin 2002)",
				AppliesWhen: []sdk.Condition{sdk.When("method", dualCD, crammerSinger, perceptron, pocket), sdk.When("multiclass", crammerSinger, westonWatkins)}},
			{Name: "tol", Type: sdk.NumberParam, Default: sdk.Number(1e-3), Min: sdk.Bound(0), MinExclusive: true, Description: "stopping tolerance: LIBLINEAR's eps for the linear methods (LIBLINEAR's default is 0.1; 1e-3 reaches the optimum closely enough for per-fold parity), LIBSVM's -e for smo (its default), the largest KKT violation for the all-together methods",
				AppliesWhen: []sdk.Condition{sdk.When("kernel", kernelsvm.RBF, kernelsvm.Poly, kernelsvm.Sigmoid), sdk.When("method", dualCD, crammerSinger, smo), sdk.When("multiclass", crammerSinger, westonWatkins)}},
			{Name: "max_iter", Type: sdk.IntegerParam, Default: sdk.Number(100000), Min: sdk.Bound(1), Description: "linear methods: outer iteration limit (LIBLINEAR's 1000 stops short of the optimum on nearly separable problems; Crammer–Singer uses 100 × max_iter)", Budget: true,
				AppliesWhen: []sdk.Condition{sdk.When("method", dualCD, crammerSinger)}},
			{Name: "epochs", Type: sdk.IntegerParam, Default: sdk.Number(100), Min: sdk.Bound(1), Description: "passes over the data for perceptron and pocket", Budget: true,
				AppliesWhen: []sdk.Condition{sdk.When("method", perceptron, pocket)}},
		},
	}
}

func rows(x sdk.Matrix) linsvm.Rows {
	if x.CSR != nil {
		return x.CSR
	}
	return linsvm.NewDense(x.Dense)
}

func (l learner) Fit(ctx context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	if l.SharesFit(p) {
		ms, err := l.FitShared(ctx, in.X, []sdk.FitInput{in}, [][]int{seq(in.X)}, p, 1)
		if err != nil {
			return nil, err
		}
		return ms[0], nil
	}
	if in.Kind == sdk.Multiclass && together(p) {
		ms, err := fitTogether(ctx, in.X, []sdk.FitInput{in}, [][]int{seq(in.X)}, p, 1)
		if err != nil {
			return nil, err
		}
		return ms[0], nil
	}
	x := rows(in.X)
	method := p.Str("method")
	opt := linsvm.Options{
		C: p.Float("C"), Loss: p.Str("loss"), Bias: p.Float("bias"),
		Tol: p.Float("tol"), MaxIter: p.Int("max_iter"), Seed: in.Seed,
	}
	switch {
	// Crammer–Singer is the native multiclass solver: reduction none runs
	// it with the default method too.
	case in.Kind == sdk.Multiclass && (method == crammerSinger || method == dualCD):
		opt.MaxIter *= 100
		r, err := linsvm.FitCrammerSinger(x, in.Classes, in.NumClasses, in.Weights, opt)
		if err != nil {
			return nil, err
		}
		return csModel{r}, nil
	case in.Kind == sdk.Multiclass:
		return nil, fmt.Errorf("method %s trains binary problems; use method = %q (or the default) for a native multiclass problem (reduction none)", method, crammerSinger)
	case in.Kind != sdk.Binary:
		return nil, fmt.Errorf("svm cannot fit %s problems", in.Kind)
	case method == dualCD:
		ws, done := l.workspace()
		r, err := ws.Fit(x, in.Targets, in.Weights, opt)
		done() // the model keeps r.W, not r.Alpha (the workspace's)
		if err != nil {
			return nil, err
		}
		return linearModel{w: r.W, b: r.B, notConverged: !r.Converged}, nil
	case method == perceptron || method == pocket:
		po := linsvm.PerceptronOptions{Epochs: p.Int("epochs"), Bias: p.Float("bias"), Seed: in.Seed}
		fit := linsvm.Perceptron
		if method == pocket {
			fit = linsvm.Pocket
		}
		r, err := fit(x, in.Targets, po)
		if err != nil {
			return nil, err
		}
		return linearModel{w: r.W, b: r.B}, nil
	}
	return nil, fmt.Errorf("method %s cannot train binary problems; use it with reduction none", method)
}

// HasProbabilities reports that linear models have no probabilities
// (sdk.ProbabilityModel).
func (linearModel) HasProbabilities() bool { return false }

// HasProbabilities reports that Crammer–Singer models have no
// probabilities (sdk.ProbabilityModel).
func (csModel) HasProbabilities() bool { return false }

// linearModel scores w·x + b.
type linearModel struct {
	w []float64
	b float64
	// notConverged: dual coordinate descent stopped at max_iter before
	// its tol rule was met (a perceptron's epochs bound no stopping rule).
	notConverged bool
}

// NotConverged reports whether the solver stopped at max_iter before its
// tol rule was met (sdk.ConvergenceReporter).
func (m linearModel) NotConverged() bool { return m.notConverged }

// NotConverged reports whether the Crammer–Singer solver stopped at its
// iteration bound before its tol rule was met (sdk.ConvergenceReporter).
func (m csModel) NotConverged() bool { return !m.r.Converged }

func (linearModel) Outputs() int { return 1 }

func (m linearModel) Predict(_ context.Context, x sdk.Matrix, scores, _ *mat.Dense) error {
	r := rows(x)
	n, d := r.Dims()
	if d != len(m.w) {
		return fmt.Errorf("model has %d weights, data has %d columns", len(m.w), d)
	}
	for i := 0; i < n; i++ {
		idx, val := r.Row(i)
		s := m.b
		if idx == nil {
			for j, v := range val {
				s += m.w[j] * v
			}
		} else {
			for k, j := range idx {
				s += m.w[j] * val[k]
			}
		}
		scores.Set(i, 0, s)
	}
	return nil
}

type csModel struct{ r *linsvm.CSResult }

func (m csModel) Outputs() int { return len(m.r.B) }

func (m csModel) Predict(_ context.Context, x sdk.Matrix, scores, _ *mat.Dense) error {
	r := rows(x)
	n, _ := r.Dims()
	for i := 0; i < n; i++ {
		m.r.Decision(scores.RawRowView(i), r, i)
	}
	return nil
}
