package client

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestCheckPredictions: a Predict response reaches the reducers only with
// rows × Σ outputs scores (and probabilities), finite scores (−∞ aside for
// a multiclass model's impossible class) and every probability in [0, 1];
// the error names the model, row and column.
func TestCheckPredictions(t *testing.T) {
	models := []ModelRef{{Handle: "a", Outputs: 1}, {Handle: "b", Outputs: 2}}
	ok := func() *mat.Dense { return mat.NewDense(2, 3, []float64{0.1, 0.2, 0.7, 0.3, 0.3, 0.4}) }
	with := func(i, j int, v float64) *mat.Dense { m := ok(); m.Set(i, j, v); return m }
	tests := []struct {
		name          string
		scores, probs *mat.Dense
		want          string // "" for no error
	}{
		{"fine", ok(), ok(), ""},
		{"fine without probabilities", ok(), nil, ""},
		// +Inf for every row tied every class (accuracy 1/K) where NaN was
		// refused: a score is a finite number, but for −∞ in a multiclass
		// model's column of a class it cannot predict (prior 0).
		{"+Inf score", with(0, 0, math.Inf(1)), nil, "model 0 (of 2): score 0 of row 0 of the request (matrix row 10) is +Inf: scores must be finite numbers"},
		{"-Inf binary score", with(1, 0, math.Inf(-1)), nil, "model 0 (of 2): score 0 of row 1 of the request (matrix row 11) is -Inf"},
		{"+Inf class score", with(1, 2, math.Inf(1)), nil, "model 1 (of 2): score 1 of row 1 of the request (matrix row 11) is +Inf"},
		{"-Inf for a class the model cannot predict", with(0, 1, math.Inf(-1)), nil, ""},
		{"-Inf for every class", func() *mat.Dense { m := with(1, 1, math.Inf(-1)); m.Set(1, 2, math.Inf(-1)); return m }(), nil, "model 1 (of 2): every score of row 1 of the request (matrix row 11) is -Inf"},
		{"a probability off by rounding", ok(), with(0, 1, 1+1e-15), ""},
		{"no scores", nil, nil, "no scores"},
		{"a row short", mat.NewDense(1, 3, nil), nil, "scores come as 1 rows × 3 columns, want 2 × 3"},
		{"probabilities too wide", ok(), mat.NewDense(2, 4, nil), "probabilities come as 2 rows × 4 columns, want 2 × 3 (the rows asked for × the outputs of 2 models)"},
		{"NaN score", with(1, 2, math.NaN()), nil, "model 1 (of 2): score 1 of row 1 of the request (matrix row 11) is NaN"},
		{"probability above 1", ok(), with(0, 1, 1.5), "model 1 (of 2): probability 0 of row 0 of the request (matrix row 10) is 1.5, not in [0, 1]"},
		{"negative probability", ok(), with(1, 0, -0.1), "model 0 (of 2): probability 0 of row 1 of the request (matrix row 11) is -0.1"},
		{"NaN probability", ok(), with(1, 0, math.NaN()), "model 0 (of 2): probability 0 of row 1 of the request (matrix row 11) is NaN"},
	}
	for _, tc := range tests {
		err := checkPredictions(tc.scores, tc.probs, []int{10, 11}, models)
		if tc.name == "no scores" {
			if err0 := checkPredictions(nil, nil, nil, models); err0 != nil {
				t.Errorf("no rows, no scores: %v", err0)
			}
		}
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestAllFinite: the one-pass test of a row of scores is false exactly
// when some value is NaN or ±Inf, wherever it is and whatever the others
// (the largest finite values included: MaxFloat64 − MaxFloat64 is 0).
func TestAllFinite(t *testing.T) {
	for _, tc := range []struct {
		v    []float64
		want bool
	}{
		{nil, true},
		{[]float64{0, -1, 1e308, -math.MaxFloat64, math.SmallestNonzeroFloat64}, true},
		{[]float64{1, math.NaN()}, false},
		{[]float64{math.Inf(1), 2, 3}, false},
		{[]float64{1, 2, math.Inf(-1)}, false},
		{[]float64{math.Inf(1), math.Inf(-1)}, false},
	} {
		if got := allFinite(tc.v); got != tc.want {
			t.Errorf("allFinite(%v) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

// BenchmarkCheckPredictions: the check of a one-vs-one answer of 200
// classes (19,900 binary models) for 1,000 rows, all finite, by the
// one-pass test (fast) and model by model (each row through finiteRow,
// as before it).
func BenchmarkCheckPredictions(b *testing.B) {
	const rows, models = 1000, 19900
	refs := make([]ModelRef, models)
	for j := range refs {
		refs[j] = ModelRef{Outputs: 1}
	}
	scores := mat.NewDense(rows, models, nil)
	for i, raw := 0, scores.RawMatrix().Data; i < len(raw); i++ {
		raw[i] = float64(i%7) - 3
	}
	index := make([]int, rows)
	for i := range index {
		index[i] = i
	}
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(8 * rows * models)
		for b.Loop() {
			if err := checkPredictions(scores, nil, index, refs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("model by model", func(b *testing.B) {
		b.SetBytes(8 * rows * models)
		for b.Loop() {
			for i := range rows {
				if err := finiteRow(scores.RawRowView(i), i, i, refs); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
