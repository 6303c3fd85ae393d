// Package learner adapts package neighbors to the plugin SDK; the
// bench-plugin-knn command serves it, and an in-process host can link it.
package learner

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/knn/neighbors"
)

// version is reported in Info and recorded in run manifests.
const version = "0.1.0"

// learner adapts package neighbors to the plugin SDK. Its models keep
// their training rows, so it does not borrow its input.
type learner struct{}

// New returns the knn learner.
func New() sdk.Learner { return learner{} }

func (learner) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{
		Name: "knn", Version: version,
		Description: "k nearest neighbours, exact (brute force or KD tree), as scikit-learn's KNeighborsClassifier",
		// Sparse: a one-hot row's few non-zero columns make its dot
		// products with every training row short.
		Capabilities: sdk.Capabilities{Binary: true, Multiclass: true, Scores: true, Probabilities: true, Sparse: true},
		Params: []sdk.ParamSpec{
			{Name: "k", Type: sdk.IntegerParam, Default: sdk.Number(neighbors.DefaultK), Min: sdk.Bound(1), AtMostTrainingRows: true, Description: "number of neighbours (scikit-learn's n_neighbors)"},
			{Name: "weights", Type: sdk.StringParam, Default: sdk.String("uniform"), Allowed: []string{"uniform", "distance"}, Description: "uniform: one vote each; distance: weight 1/distance (neighbours at distance 0 alone vote)"},
			{Name: "metric", Type: sdk.StringParam, Default: sdk.String("euclidean"), Allowed: []string{"euclidean", "manhattan", "cosine"}, Description: "distance between rows"},
			{Name: "algorithm", Type: sdk.StringParam, Default: sdk.String("auto"), Allowed: []string{"auto", "brute", "kd_tree"}, Description: "auto: KD tree for dense rows of at most 15 columns (euclidean, manhattan), else brute force, as scikit-learn"},
			{Name: "leaf_size", Type: sdk.IntegerParam, Default: sdk.Number(neighbors.DefaultLeafSize), Min: sdk.Bound(1), Description: "KD tree leaf size"},
		},
	}
}

// options reads the parameters (checked against Info's specs by the SDK).
func options(p sdk.Params) (neighbors.Options, error) {
	opt := neighbors.Options{K: p.Int("k"), LeafSize: p.Int("leaf_size")}
	var err error
	if opt.Weights, err = neighbors.ParseWeighting(p.Str("weights")); err != nil {
		return opt, sdk.WithParam("weights", err)
	}
	if opt.Metric, err = neighbors.ParseMetric(p.Str("metric")); err != nil {
		return opt, sdk.WithParam("metric", err)
	}
	if opt.Algorithm, err = neighbors.ParseAlgorithm(p.Str("algorithm")); err != nil {
		return opt, sdk.WithParam("algorithm", err)
	}
	if opt.Algorithm == neighbors.KDTree && opt.Metric == neighbors.Cosine {
		return opt, sdk.WithParam("algorithm", fmt.Errorf("the kd_tree algorithm does not take the cosine metric"))
	}
	return opt, nil
}

func (learner) Fit(_ context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	opt, err := options(p)
	if err != nil {
		return nil, err
	}
	classes, k := in.Classes, in.NumClasses
	binary := in.Kind == sdk.Binary
	switch in.Kind {
	case sdk.Binary:
		classes, k = make([]int, len(in.Targets)), 2
		for i, t := range in.Targets {
			if t > 0 {
				classes[i] = 1
			}
		}
	case sdk.Multiclass:
	default:
		return nil, fmt.Errorf("knn classifies; it cannot train %s problems", in.Kind)
	}
	if n, _ := in.X.Dims(); opt.K > n {
		return nil, sdk.WithParam("k", fmt.Errorf("k = %d neighbours, but the problem has %d training rows", opt.K, n))
	}
	c, err := neighbors.Fit(in.X, classes, k, opt)
	if err != nil {
		return nil, err
	}
	return model{c: c, k: k, binary: binary}, nil
}

// model scores a row with its class votes (a native multiclass model's
// largest vote is scikit-learn's prediction) and gives the vote shares as
// probabilities; a binary model's score is P(+1) − P(−1), its
// probability P(+1).
type model struct {
	c      *neighbors.Classifier
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
	if !m.binary {
		return m.c.Predict(x, scores, probs)
	}
	p := mat.NewDense(n, 2, nil)
	if err := m.c.Predict(x, nil, p); err != nil {
		return err
	}
	for i := range n {
		scores.Set(i, 0, p.At(i, 1)-p.At(i, 0))
		if probs != nil {
			probs.Set(i, 0, p.At(i, 1))
		}
	}
	return nil
}
