package reducer

import (
	"encoding/json"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
)

// Multi-label schemes: each row may carry several of K labels.
const (
	BinaryRelevance = "br"
	Stacking        = "stack"
	PLST            = "plst"
)

func thresholdSpec() sdk.ParamSpec {
	return sdk.ParamSpec{Name: "threshold", Type: sdk.NumberParam, Default: sdk.Number(0.5), Min: sdk.Bound(0), Max: sdk.Bound(1),
		Description: "predict a label when its probability (PLST: its reconstructed value) is at least this; learners without probabilities: score ≥ 0"}
}

// multiLabelSchemes describes br, stack and plst. br and stack decode
// row-wise: a label is on when its own probability or score passes the
// threshold (stack's decode sees only its final stage's outputs). plst
// does not: its decoding multiplies the n × M test scores by V_Mᵀ with
// gonum's Dgemm, which sums the M components in one run for a small
// product but in runs of 64 when the product has 4 blocks of 64 × 64 or
// more, so that with M > 64 a row's reconstructed labels depend, in the
// last bits, on how many test rows share the product (see
// TestPLSTDecodeNotRowWise).
func multiLabelSchemes() []sdk.Scheme {
	return []sdk.Scheme{
		{
			Name: BinaryRelevance, MultiLabel: true, RowWiseDecode: true,
			Description: "binary relevance: one binary problem per label",
			Params:      []sdk.ParamSpec{thresholdSpec()},
		},
		{
			Name: Stacking, MultiLabel: true, RowWiseDecode: true,
			Description: "2BR stacking: binary relevance, then binary relevance on [x, out-of-fold stage-1 outputs]",
			Params: []sdk.ParamSpec{thresholdSpec(),
				{Name: "inner_folds", Type: sdk.IntegerParam, Default: sdk.Number(5), Min: sdk.Bound(2), Description: "folds of the inner cross-validation giving the training rows' stage-1 outputs"},
				{Name: "inner_seed", Type: sdk.IntegerParam, Min: sdk.Bound(0), Max: sdk.Bound(1<<32 - 1), Description: "seed of the inner split, made as scikit-learn's KFold(inner_folds, shuffle=True, random_state=inner_seed) (default: from the experiment seed)"}},
		},
		{
			Name: PLST, MultiLabel: true, NeedsRegression: true,
			Description: "principal label space transformation: regress on the top-M right singular vectors of the centred label matrix",
			Params: []sdk.ParamSpec{thresholdSpec(),
				{Name: "components", Type: sdk.IntegerParam, Min: sdk.Bound(1), Description: "M, the number of singular vectors kept (required)"}},
		},
	}
}

// mlState is what Decode needs for a multi-label plan.
type mlState struct {
	K int `json:"k"`
	// PLST: the label means ȳ and the K × M matrix V_M, row-major.
	Mean []float64 `json:"mean,omitempty"`
	V    []float64 `json:"v,omitempty"`
	M    int       `json:"m,omitempty"`
}

// planMultiLabel plans br, stack and plst.
func planMultiLabel(req sdk.PlanRequest) (sdk.Plan, error) {
	y := req.LabelMatrix
	if y == nil {
		return sdk.Plan{}, fmt.Errorf("scheme %s needs multi-label data (a label matrix)", req.Scheme)
	}
	n, K := y.Dims()
	if K != req.NumClasses {
		return sdk.Plan{}, fmt.Errorf("label matrix has %d columns for %d labels", K, req.NumClasses)
	}
	for i := 0; i < n; i++ {
		for _, v := range y.RawRowView(i) {
			if v != 0 && v != 1 {
				return sdk.Plan{}, fmt.Errorf("label matrix row %d holds %v; labels are 0 or 1", i, v)
			}
		}
	}
	st := mlState{K: K}
	var plan sdk.Plan
	switch req.Scheme {
	case BinaryRelevance, Stacking:
		plan.Problems = make([]sdk.Problem, K)
		for k := range plan.Problems {
			t := make([]float64, n)
			for i := range t {
				t[i] = 2*y.At(i, k) - 1
			}
			plan.Problems[k] = sdk.Problem{Kind: sdk.Binary, Targets: t}
		}
		if req.Scheme == Stacking && req.Stage == 0 {
			seed := req.Seed
			if _, ok := req.Params["inner_seed"]; ok {
				seed = uint64(req.Params.Int("inner_seed"))
			}
			plan.NextStage = &sdk.StageSpec{InnerFolds: req.Params.Int("inner_folds"), AppendOutputs: true, InnerSeed: seed}
		}
	case PLST:
		M := req.Params.Int("components")
		if M < 1 || M > K {
			return sdk.Plan{}, sdk.WithParam("components", fmt.Errorf("plst needs components = M with 1 ≤ M ≤ %d (the number of labels)", K))
		}
		mean, v, z, err := plst(y, M)
		if err != nil {
			return sdk.Plan{}, err
		}
		st.Mean, st.V, st.M = mean, v.RawMatrix().Data, M
		plan.Problems = make([]sdk.Problem, M)
		for m := range plan.Problems {
			plan.Problems[m] = sdk.Problem{Kind: sdk.Regression, Targets: mat.Col(nil, m, z)}
		}
	default:
		return sdk.Plan{}, fmt.Errorf("unknown scheme %q", req.Scheme)
	}
	plan.Description = describe(req)
	var err error
	plan.State, err = json.Marshal(st)
	return plan, err
}

// plst centres y by its column means, takes the SVD y − ȳ = UΣVᵀ and
// returns ȳ, V_M (K × M, the top-M right singular vectors) and the
// regression targets Z = (y − ȳ)V_M.
func plst(y *mat.Dense, M int) ([]float64, *mat.Dense, *mat.Dense, error) {
	n, K := y.Dims()
	mean := make([]float64, K)
	for k := range mean {
		mean[k] = mat.Sum(y.ColView(k)) / float64(n)
	}
	yc := mat.NewDense(n, K, nil)
	for i := 0; i < n; i++ {
		for k := 0; k < K; k++ {
			yc.Set(i, k, y.At(i, k)-mean[k])
		}
	}
	var svd mat.SVD
	if !svd.Factorize(yc, mat.SVDThin) {
		return nil, nil, nil, fmt.Errorf("plst: SVD of the centred label matrix failed")
	}
	var v mat.Dense
	svd.VTo(&v)
	vm := mat.DenseCopyOf(v.Slice(0, K, 0, M))
	z := mat.NewDense(n, M, nil)
	z.Mul(yc, vm)
	return mean, vm, z, nil
}

// decodeMultiLabel turns the final stage's outputs into label sets.
func decodeMultiLabel(req sdk.DecodeRequest) (sdk.Decoding, error) {
	var st mlState
	if err := json.Unmarshal(req.State, &st); err != nil {
		return sdk.Decoding{}, fmt.Errorf("state: %w", err)
	}
	n, L := req.Scores.Dims()
	th := req.Params.Float("threshold")
	d := sdk.Decoding{LabelMatrix: mat.NewDense(n, st.K, nil), ClassScores: mat.NewDense(n, st.K, nil)}
	switch req.Scheme {
	case BinaryRelevance, Stacking:
		if L != st.K {
			return sdk.Decoding{}, fmt.Errorf("scores have %d columns for %d labels", L, st.K)
		}
		// Each label's probability is the learner's, else the logistic of
		// its score.
		d.ClassScoresAreProbabilities = req.Probabilities != nil
		for i := 0; i < n; i++ {
			for k := 0; k < st.K; k++ {
				var p float64
				on := false
				if req.Probabilities != nil {
					p = req.Probabilities.At(i, k)
					on = p >= th
				} else {
					s := req.Scores.At(i, k)
					p = 1 / (1 + math.Exp(-s))
					on = s >= 0
				}
				d.ClassScores.Set(i, k, p)
				if on {
					d.LabelMatrix.Set(i, k, 1)
				}
			}
		}
	case PLST:
		if L != st.M {
			return sdk.Decoding{}, fmt.Errorf("scores have %d columns for %d components", L, st.M)
		}
		v := mat.NewDense(st.K, st.M, st.V)
		var yhat mat.Dense
		yhat.Mul(req.Scores, v.T())
		for i := 0; i < n; i++ {
			for k := 0; k < st.K; k++ {
				val := yhat.At(i, k) + st.Mean[k]
				d.ClassScores.Set(i, k, min(max(val, 0), 1))
				if val >= th {
					d.LabelMatrix.Set(i, k, 1)
				}
			}
		}
	default:
		return sdk.Decoding{}, fmt.Errorf("unknown scheme %q", req.Scheme)
	}
	return d, nil
}
