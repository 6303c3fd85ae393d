package bayes

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/internal/refdata"
	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// sklearnNB is testdata/sklearn_nb.json (see testdata/gen_sklearn_nb.py).
type sklearnNB struct {
	Datasets map[string]map[string]struct {
		Predictions []int                `json:"predictions"`
		Proba       map[string][]float64 `json:"proba"`
		Fold0       struct {
			Theta          [][]float64 `json:"theta"`
			Var            [][]float64 `json:"var"`
			Epsilon        float64     `json:"epsilon"`
			ClassPrior     []float64   `json:"class_prior"`
			FeatureLogProb [][]float64 `json:"feature_log_prob"`
			ClassLogPrior  []float64   `json:"class_log_prior"`
		} `json:"fold0"`
	} `json:"datasets"`
}

// fitter fits one configuration of the generator (CONFIGS there) and
// returns the model's joint log-likelihood function.
type fitter func(x matrix.Matrix, y []int, k int, w []float64) (model, error)

// model is a fitted model as the tests see it.
type model interface {
	jll(dst *mat.Dense, x matrix.Matrix) error
}

type gaussianModel struct{ *Gaussian }

func (g gaussianModel) jll(dst *mat.Dense, x matrix.Matrix) error {
	return g.JointLogLikelihood(dst, x.AsDense().Dense)
}

type discreteModel struct{ *Discrete }

func (d discreteModel) jll(dst *mat.Dense, x matrix.Matrix) error {
	return d.JointLogLikelihood(dst, x)
}

func gaussian(smoothing float64) fitter {
	return func(x matrix.Matrix, y []int, k int, w []float64) (model, error) {
		g, err := FitGaussian(x.AsDense().Dense, y, k, w, smoothing)
		return gaussianModel{g}, err
	}
}

func multinomial(opt DiscreteOptions) fitter {
	return func(x matrix.Matrix, y []int, k int, w []float64) (model, error) {
		m, err := FitMultinomial(x, y, k, w, opt)
		return discreteModel{m}, err
	}
}

func bernoulli(opt DiscreteOptions) fitter {
	return func(x matrix.Matrix, y []int, k int, w []float64) (model, error) {
		m, err := FitBernoulli(x, y, k, w, opt)
		return discreteModel{m}, err
	}
}

var configs = map[string]fitter{
	"gaussian":                gaussian(DefaultVarSmoothing),
	"gaussian_smooth":         gaussian(1e-2),
	"gaussian_weighted":       gaussian(DefaultVarSmoothing),
	"multinomial":             multinomial(DiscreteOptions{Alpha: 1, FitPrior: true}),
	"multinomial_a05_uniform": multinomial(DiscreteOptions{Alpha: 0.5}),
	"multinomial_weighted":    multinomial(DiscreteOptions{Alpha: 1, FitPrior: true}),
	"bernoulli":               bernoulli(DiscreteOptions{Alpha: 1, FitPrior: true}),
	"bernoulli_b8_a05":        bernoulli(DiscreteOptions{Alpha: 0.5, FitPrior: true, Binarize: 8}),
	"bernoulli_weighted":      bernoulli(DiscreteOptions{Alpha: 1, FitPrior: true}),
	"bernoulli_none":          bernoulli(DiscreteOptions{Alpha: 1, FitPrior: true, Binarize: NoBinarize}),
	"bernoulli_uniform":       bernoulli(DiscreteOptions{Alpha: 2}),
}

// loadCategorical reads a data set of string columns (class last), its
// classes as indices in sorted order.
func loadCategorical(t *testing.T, name string) ([][]string, []int) {
	t.Helper()
	f, err := refdata.Open(refdata.Data(t, name+".csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	recs = recs[1:]
	labels := make([]string, len(recs))
	feats := make([][]string, len(recs))
	for i, r := range recs {
		feats[i], labels[i] = r[:len(r)-1], r[len(r)-1]
	}
	classes := slices.Sorted(slices.Values(labels))
	classes = slices.Compact(classes)
	y := make([]int, len(recs))
	for i, l := range labels {
		y[i], _ = slices.BinarySearch(classes, l)
	}
	return feats, y
}

// oneHot encodes rows of feats with one column per value of each column
// seen in the rows fit, values sorted, as OneHotEncoder(handle_unknown=
// "ignore").
func oneHot(feats [][]string, fit, rows []int) *mat.Dense {
	cols := len(feats[0])
	cats := make([][]string, cols)
	width := 0
	for j := range cols {
		for _, i := range fit {
			cats[j] = append(cats[j], feats[i][j])
		}
		slices.Sort(cats[j])
		cats[j] = slices.Compact(cats[j])
		width += len(cats[j])
	}
	out := mat.NewDense(len(rows), width, nil)
	for r, i := range rows {
		off := 0
		for j := range cols {
			if p, ok := slices.BinarySearch(cats[j], feats[i][j]); ok {
				out.Set(r, off+p, 1)
			}
			off += len(cats[j])
		}
	}
	return out
}

// TestMatchesSklearn cross-validates every configuration of the
// generator on the reference folds and compares with scikit-learn 1.2.1:
// every row's predicted class, the probabilities of every 10th row (within
// 1e-11), and fold 0's parameters: the Gaussian means, variances and
// priors bit for bit (the same sums in the same order) and the discrete
// models' log probabilities within 1e-13 (NumPy's log rounds differently
// from Go's in the last place).
func TestMatchesSklearn(t *testing.T) {
	b, err := os.ReadFile("testdata/sklearn_nb.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref sklearnNB
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	for name, entry := range ref.Datasets {
		file := strings.TrimSuffix(name, "_raw")
		folds := reftest.Folds(t, file)
		var (
			x     *mat.Dense
			feats [][]string
			y     []int
		)
		if name == "car" {
			feats, y = loadCategorical(t, file)
		} else {
			ds := reftest.Load(t, file)
			x, y = ds.X, ds.Y
		}
		K := slices.Max(y) + 1
		split := func(k int) (xtr, xte *mat.Dense, train, test []int) {
			train, test = cv.Split(folds, k)
			switch {
			case name == "car":
				return oneHot(feats, train, train), oneHot(feats, train, test), train, test
			case strings.HasSuffix(name, "_raw"):
				_, d := x.Dims()
				xtr, xte = mat.NewDense(len(train), d, nil), mat.NewDense(len(test), d, nil)
				for r, i := range train {
					xtr.SetRow(r, x.RawRowView(i))
				}
				for r, i := range test {
					xte.SetRow(r, x.RawRowView(i))
				}
				return xtr, xte, train, test
			}
			return reftest.NumpyStandardize(x, train, train), reftest.NumpyStandardize(x, train, test), train, test
		}
		for cname, want := range entry {
			t.Run(name+"/"+cname, func(t *testing.T) {
				fit := configs[cname]
				if fit == nil {
					t.Fatalf("no configuration %s", cname)
				}
				pred := make([]int, len(folds))
				probs := map[int][]float64{}
				for k := range 10 {
					xtr, xte, train, test := split(k)
					var w []float64
					if strings.HasSuffix(cname, "_weighted") {
						w = make([]float64, len(train))
						for r, i := range train {
							w[r] = float64(1 + i%3)
						}
					}
					m, err := fit(matrix.Matrix{Dense: xtr}, reftest.Pick(y, train), K, w)
					if err != nil {
						t.Fatalf("fold %d: %v", k, err)
					}
					jll := mat.NewDense(len(test), K, nil)
					if err := m.jll(jll, matrix.Matrix{Dense: xte}); err != nil {
						t.Fatal(err)
					}
					for r, c := range Classes(jll) {
						pred[test[r]] = c
					}
					Probabilities(jll, jll)
					for r, i := range test {
						probs[i] = jll.RawRowView(r)
					}
					if k == 0 {
						checkParams(t, m, want.Fold0.Theta, want.Fold0.Var, want.Fold0.Epsilon, want.Fold0.ClassPrior, want.Fold0.FeatureLogProb, want.Fold0.ClassLogPrior)
					}
				}
				diff := 0
				for i, w := range want.Predictions {
					if pred[i] != w {
						diff++
						if diff <= 5 {
							t.Errorf("row %d: predicted %d, sklearn %d (probabilities %v)", i, pred[i], w, probs[i])
						}
					}
				}
				if diff > 0 {
					t.Errorf("%d of %d predictions differ", diff, len(folds))
				}
				for key, w := range want.Proba {
					r, _ := strconv.Atoi(key)
					for c, v := range w {
						if got := probs[r][c]; math.Abs(got-v) > 1e-11 {
							t.Errorf("row %d class %d: probability %.17g, sklearn %.17g", r, c, got, v)
						}
					}
				}
			})
		}
	}
}

// checkParams compares a fold's fitted parameters with scikit-learn's.
func checkParams(t *testing.T, m model, theta, variance [][]float64, epsilon float64, prior []float64, flp [][]float64, logPrior []float64) {
	t.Helper()
	same := func(what string, got *mat.Dense, want [][]float64, tol float64) {
		for c, row := range want {
			for j, v := range row {
				if g := got.At(c, j); math.Abs(g-v) > tol*math.Max(1, math.Abs(v)) {
					t.Errorf("%s[%d][%d] = %.17g, sklearn %.17g", what, c, j, g, v)
				}
			}
		}
	}
	switch m := m.(type) {
	case gaussianModel:
		same("theta", m.Theta, theta, 0)
		same("var", m.Var, variance, 0)
		if m.Epsilon != epsilon {
			t.Errorf("epsilon %.17g, sklearn %.17g", m.Epsilon, epsilon)
		}
		for c, v := range prior {
			if m.ClassPrior[c] != v {
				t.Errorf("class prior %d = %.17g, sklearn %.17g", c, m.ClassPrior[c], v)
			}
		}
	case discreteModel:
		same("feature_log_prob", m.FeatureLogProb, flp, 1e-13)
		for c, v := range logPrior {
			if g := m.ClassLogPrior[c]; math.Abs(g-v) > 1e-13*math.Max(1, math.Abs(v)) {
				t.Errorf("class log prior %d = %.17g, sklearn %.17g", c, g, v)
			}
		}
	}
}
