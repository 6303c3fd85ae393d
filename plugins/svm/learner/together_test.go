package learner

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/problem"
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/framework/sdk/conformance"
)

// togetherParams are parameters of the all-together methods: each method
// with the rbf kernel, Crammer–Singer with the linear kernel and no
// shrinking, Weston–Watkins with the poly kernel.
var togetherParams = []sdk.Params{
	{"multiclass": sdk.String(crammerSinger), "kernel": sdk.String("rbf"), "C": sdk.Number(10)},
	{"multiclass": sdk.String(westonWatkins), "kernel": sdk.String("rbf"), "gamma": sdk.Number(0.5)},
	{"multiclass": sdk.String(crammerSinger), "shrinking": sdk.Bool(false), "C": sdk.Number(10)},
	{"multiclass": sdk.String(westonWatkins), "kernel": sdk.String("poly"), "degree": sdk.Number(2), "coef0": sdk.Number(1)},
}

// TestTogetherProtocol trains the all-together methods through the
// protocol on a native multiclass problem; on a binary problem (a binary
// reduction), where multiclass does not apply, the kernel's SMO trains it.
func TestTogetherProtocol(t *testing.T) {
	c := conformance.Connect(t, learner{})
	for _, p := range togetherParams {
		conformance.CheckMulticlass(t, c, p)
		conformance.CheckBinary(t, c, p)
	}
}

// TestTogetherConformance runs the conformance suite with Crammer–Singer
// and the rbf kernel (Weston–Watkins takes the same path through the
// learner; the suite takes some 13 s).
func TestTogetherConformance(t *testing.T) { conformance.Test(t, learner{}, togetherParams[0]) }

// TestTogetherRouting checks which model each parameter set gives a
// native multiclass problem: the all-together model for multiclass =
// crammer_singer or weston_watkins with any kernel, today's models with
// auto (the linear method's Crammer–Singer, the kernel's one-vs-one).
func TestTogetherRouting(t *testing.T) {
	x, y := conformance.BlobsMatrix()
	in := sdk.FitInput{X: sdk.Matrix{Dense: x}, Kind: sdk.Multiclass, Classes: y, NumClasses: 3}
	cases := []struct {
		params sdk.Params
		want   string
	}{
		{sdk.Params{"multiclass": sdk.String(crammerSinger)}, "learner.togetherModel/crammer_singer"},
		{sdk.Params{"multiclass": sdk.String(westonWatkins), "kernel": sdk.String("rbf")}, "learner.togetherModel/weston_watkins"},
		{sdk.Params{}, "learner.csModel"},
		{sdk.Params{"kernel": sdk.String("rbf")}, "learner.kernelModel"},
	}
	l := New()
	for _, tc := range cases {
		p := param.WithDefaults(l.Info().Params, tc.params)
		m, err := l.Fit(context.Background(), in, p)
		if err != nil {
			t.Fatalf("%v: %v", tc.params, err)
		}
		got := fmt.Sprintf("%T", m)
		if tm, ok := m.(togetherModel); ok {
			got += "/" + tm.m.Method()
		}
		if got != tc.want {
			t.Errorf("%v: model %s, want %s", tc.params, got, tc.want)
		}
		scores := mat.NewDense(len(y), m.Outputs(), nil)
		if err := m.Predict(context.Background(), in.X, scores, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTogetherRefusesProbability: the all-together models have no
// probabilities, and the error blames the probability parameter.
func TestTogetherRefusesProbability(t *testing.T) {
	x, y := conformance.BlobsMatrix()
	in := sdk.FitInput{X: sdk.Matrix{Dense: x}, Kind: sdk.Multiclass, Classes: y, NumClasses: 3}
	l := New()
	p := param.WithDefaults(l.Info().Params, sdk.Params{"multiclass": sdk.String(crammerSinger), "kernel": sdk.String("rbf"), "probability": sdk.Bool(true)})
	_, err := l.Fit(context.Background(), in, p)
	want := `multiclass = crammer_singer gives no probabilities; use multiclass = "auto" for Platt-scaled ones`
	if err == nil || err.Error() != want || !slices.Equal(param.Blamed(err), []string{"probability"}) {
		t.Fatalf("error %v (blaming %v), want %q blaming probability", err, param.Blamed(err), want)
	}
}

// TestMulticlassAppliesToMulticlassProblems: the schema says multiclass
// applies to native multiclass problems only (validate warns at it under
// a binary reduction), and the options it brings (cache_size, shrinking,
// tol, bias) apply with it and the linear kernel.
func TestMulticlassAppliesToMulticlassProblems(t *testing.T) {
	specs := New().Info().Params
	cs := param.WithDefaults(specs, sdk.Params{"multiclass": sdk.String(crammerSinger), "method": sdk.String("perceptron")})
	cases := []struct {
		name string
		kind problem.ProblemKind
		want bool
	}{
		{"multiclass", problem.Multiclass, true},
		{"multiclass", problem.Binary, false},
		{"cache_size", problem.Multiclass, true},
		{"shrinking", problem.Multiclass, true},
		{"tol", problem.Multiclass, true},
		{"bias", problem.Multiclass, true},
		{"cache_size", problem.Binary, false},
		{"shrinking", problem.Binary, false},
	}
	for _, tc := range cases {
		if got := param.Applies(specs, tc.name, cs, tc.kind); got != tc.want {
			t.Errorf("%s on %s problems: applies = %v, want %v", tc.name, tc.kind, got, tc.want)
		}
	}
}
