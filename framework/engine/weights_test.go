package engine

import (
	"math"
	"slices"
	"testing"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/sdk"
)

func TestClassWeights(t *testing.T) {
	// Six training rows of classes 0,0,0,0,1,2 (n = 6, K = 3).
	labels := []int{0, 0, 0, 0, 1, 2}
	ova1 := sdk.Problem{Kind: sdk.Binary, Targets: []float64{-1, -1, -1, -1, 1, -1}}
	ovo01 := sdk.Problem{Kind: sdk.Binary, Targets: []float64{1, 1, 1, 1, -1, 0}, Weights: []float64{1, 1, 1, 1, 2, 1}}
	// The same problem with compact targets over the rows' classes.
	ovo01c := sdk.Problem{Kind: sdk.Binary, Compact: &sdk.CompactTargets{Groups: []int32{0, 0, 0, 0, 1, 2}, Code: []int8{1, -1, 0}}, Weights: ovo01.Weights}
	native := sdk.Problem{Kind: sdk.Multiclass, NumClasses: 3, Targets: []float64{0, 0, 0, 0, 1, 2}}
	reg := sdk.Problem{Kind: sdk.Regression, Targets: []float64{0.5, 0, 1, -2, 3, 0}}
	bal := &ClassWeights{Balanced: true}
	byClass := newClassWeights(&config.ClassWeight{ByClass: map[string]float64{"b": 3, "c": 0.5}}, []string{"a", "b", "c"})
	for _, tc := range []struct {
		name   string
		w      *ClassWeights
		p      sdk.Problem
		labels []int
		want   []float64
	}{
		// One positive, five negatives: 6/(2·1) and 6/(2·5).
		{"balanced ova", bal, ova1, labels, []float64{0.6, 0.6, 0.6, 0.6, 3, 0.6}},
		// Rows used: 4 positives, 1 negative (n = 5); the reducer's weight 2
		// multiplies; the unused row keeps its weight.
		{"balanced ovo", bal, ovo01, labels, []float64{5.0 / 8, 5.0 / 8, 5.0 / 8, 5.0 / 8, 2 * 2.5, 1}},
		{"balanced ovo, compact", bal, ovo01c, labels, []float64{5.0 / 8, 5.0 / 8, 5.0 / 8, 5.0 / 8, 2 * 2.5, 1}},
		// scikit-learn's n/(K n_k) with K = 3: 6/12, 6/3, 6/3.
		{"balanced native", bal, native, labels, []float64{0.5, 0.5, 0.5, 0.5, 2, 2}},
		{"balanced regression", bal, reg, labels, []float64{0.5, 0.5, 0.5, 0.5, 2, 2}},
		{"balanced regression, multi-label", bal, reg, nil, nil},
		{"map", byClass, ovo01, labels, []float64{1, 1, 1, 1, 6, 0.5}},
		{"map, multi-label", byClass, ova1, nil, nil},
		{"none", nil, ova1, labels, nil},
	} {
		got := tc.w.Weigh(tc.p, tc.labels)
		if len(got.Weights) != len(tc.want) && !(tc.want == nil && sameSlice(got.Weights, tc.p.Weights)) {
			t.Errorf("%s: weights %v, want %v", tc.name, got.Weights, tc.want)
			continue
		}
		for i := range tc.want {
			if math.Abs(got.Weights[i]-tc.want[i]) > 1e-15 {
				t.Errorf("%s: weights %v, want %v", tc.name, got.Weights, tc.want)
				break
			}
		}
		if !sameSlice(got.Targets, tc.p.Targets) || got.Compact != tc.p.Compact {
			t.Errorf("%s: targets copied", tc.name)
		}
	}
	if ovo01.Weights[4] != 2 {
		t.Error("Weigh modified the reducer's weights")
	}
	if byClass.ByClass[0] != 1 {
		t.Errorf("class a left out of the map weighs %v, want 1", byClass.ByClass[0])
	}
	if newClassWeights(nil, []string{"a"}) != nil {
		t.Error("no class_weight: weights set")
	}
}

func sameSlice(a, b []float64) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// TestNewClassWeightsNumeric: a class_weight key weighs the class it
// equals as a decimal number ("1.0" weighs class 1), the others 1.
func TestNewClassWeightsNumeric(t *testing.T) {
	cw := newClassWeights(&config.ClassWeight{ByClass: map[string]float64{"1.0": 2, "+3": 4}}, []string{"1", "2", "3"})
	if want := []float64{2, 1, 4}; !slices.Equal(cw.ByClass, want) {
		t.Errorf("class weights %v, want %v", cw.ByClass, want)
	}
}
