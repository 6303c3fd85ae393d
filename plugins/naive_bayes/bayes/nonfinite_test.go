package bayes

import (
	"errors"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// TestExtremeValuesEnd is issue 55's property for naive Bayes, whose fits
// have no iterations: on iris with extreme feature values
// (reftest.ExtremeIris) a fit whose parameters overflow ends with an
// error wrapping ErrNonFinite, naming the parameter; before, it returned
// a model whose every score was NaN. A fit that does not overflow gives
// finite joint log-likelihoods.
func TestExtremeValuesEnd(t *testing.T) {
	for _, tt := range []struct {
		kind, model, want string
	}{
		{"1e160", "gaussian", "bayes: non-finite value: the variance of class 0, feature 0, is +Inf"},
		{"1e308", "gaussian", "bayes: non-finite value: the variance of class 0, feature 0, is +Inf"},
		{"-1e308", "gaussian", "bayes: non-finite value: the variance of class 0, feature 0, is +Inf"},
		{"minmax1e308", "gaussian", "bayes: non-finite value: the mean of class 0, feature 0, is +Inf"},
		{"1e160", "multinomial", ""},
		{"1e308", "multinomial", ""},
		{"-1e308", "multinomial", "bayes: multinomial naive Bayes needs non-negative values (counts); row 3 column 0 is -1e+308"},
		{"minmax1e308", "multinomial", "bayes: non-finite value: the log probability of class 0, feature 0, is NaN"},
		{"minmax1e308", "bernoulli", ""},
	} {
		t.Run(tt.kind+"/"+tt.model, func(t *testing.T) {
			x, y := reftest.ExtremeIris(t, tt.kind)
			jll := mat.NewDense(len(y), 3, nil)
			var err error
			switch tt.model {
			case "gaussian":
				var g *Gaussian
				if g, err = FitGaussian(x, y, 3, nil, 1e-9); err == nil {
					err = g.JointLogLikelihood(jll, x)
				}
			default:
				fit := FitMultinomial
				if tt.model == "bernoulli" {
					fit = FitBernoulli
				}
				var m *Discrete
				if m, err = fit(matrix.Matrix{Dense: x}, y, 3, nil, DiscreteOptions{Alpha: 1, FitPrior: true}); err == nil {
					err = m.JointLogLikelihood(jll, matrix.Matrix{Dense: x})
				}
			}
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("error %v, want none", err)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Fatalf("error %v, want %q", err, tt.want)
			case tt.want != "" && errors.Is(err, ErrNonFinite) == (tt.model == "multinomial" && tt.kind == "-1e308"):
				t.Errorf("error %v: errors.Is(ErrNonFinite) is %v", err, errors.Is(err, ErrNonFinite))
			case tt.want == "":
				for i, v := range jll.RawMatrix().Data {
					if v != v || v > 0 {
						t.Fatalf("joint log-likelihood %d is %v, want a finite value ≤ 0", i, v)
					}
				}
			}
		})
	}
}
