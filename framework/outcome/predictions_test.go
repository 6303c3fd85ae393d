package outcome

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestPredictionsJSONRoundTrip: predictions written to a cell file read
// back bit for bit, NaN and infinite scores included, for classes and
// for label sets.
func TestPredictionsJSONRoundTrip(t *testing.T) {
	third := 1.0 / 3
	for _, p := range []*Predictions{
		{Rows: []int{4, 0, 9}, True: []int{0, 2, 1}, Predicted: []int{2, 2, 0},
			Scores: mat.NewDense(3, 3, []float64{third, 2 * third, 0, 1e-300, math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 5e-324})},
		{Rows: []int{1, 2}, True: []int{1, 0}, Predicted: []int{1, 1}},
		{Rows: []int{7, 3}, TrueSet: mat.NewDense(2, 3, []float64{1, 0, 1, 0, 0, 0}),
			PredSet: mat.NewDense(2, 3, []float64{1, 1, 0, 0, 0, 1}), Scores: mat.NewDense(2, 3, []float64{0.25, 0.5, 0.125, 0, 1, third})},
	} {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var got Predictions
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if !slices.Equal(got.Rows, p.Rows) || !slices.Equal(got.True, p.True) || !slices.Equal(got.Predicted, p.Predicted) {
			t.Errorf("%s: rows or classes differ: %+v", b, got)
		}
		for _, m := range [][2]*mat.Dense{{got.TrueSet, p.TrueSet}, {got.PredSet, p.PredSet}, {got.Scores, p.Scores}} {
			if (m[0] == nil) != (m[1] == nil) {
				t.Fatalf("%s: matrix %v, want %v", b, m[0], m[1])
			}
			if m[0] == nil {
				continue
			}
			g, w := m[0].RawMatrix().Data, m[1].RawMatrix().Data
			for i := range w {
				if math.Float64bits(g[i]) != math.Float64bits(w[i]) && !(math.IsNaN(g[i]) && math.IsNaN(w[i])) {
					t.Errorf("%s: entry %d is %v, want %v", b, i, g[i], w[i])
				}
			}
		}
		if err := got.Check(len(p.Rows), 3); err != nil {
			t.Errorf("%s: Check: %v", b, err)
		}
	}
}

// TestPredictionsJSONRejects: entries that are not numbers and matrices
// whose data do not fill their shape are errors.
func TestPredictionsJSONRejects(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"rows":[0],"scores":{"rows":1,"cols":2,"data":[1]}}`, "scores: 1 entries for a 1×2 matrix"},
		{`{"rows":[0],"scores":{"rows":1,"cols":1,"data":["inf"]}}`, `entry 0: "inf" is not a number, NaN, +Inf or -Inf`},
		{`{"rows":[0],"true_set":{"rows":0,"cols":0,"data":[]}}`, "true_set: 0 entries for a 0×0 matrix"},
		{`{"rows":[0],"scores":{"rows":1,"cols":1,"data":[true]}}`, "entry 0: json: cannot unmarshal bool"},
	} {
		var p Predictions
		if err := json.Unmarshal([]byte(tc.in), &p); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.in, err, tc.want)
		}
	}
}

// TestPredictionsCheck: the shapes a fold of n test rows and k classes
// allows.
func TestPredictionsCheck(t *testing.T) {
	sets := func(r, c int) *mat.Dense { return mat.NewDense(r, c, nil) }
	for _, tc := range []struct {
		name string
		p    Predictions
		want string
	}{
		{"classes", Predictions{Rows: []int{0, 1}, True: []int{0, 1}, Predicted: []int{1, 1}, Scores: sets(2, 2)}, ""},
		{"label sets", Predictions{Rows: []int{0, 1}, TrueSet: sets(2, 2), PredSet: sets(2, 2)}, ""},
		{"rows short", Predictions{Rows: []int{0}, True: []int{0, 1}, Predicted: []int{1, 1}}, "1 prediction rows for 2 test rows"},
		{"negative row", Predictions{Rows: []int{0, -1}, True: []int{0, 1}, Predicted: []int{1, 1}}, "negative row index -1"},
		{"predicted short", Predictions{Rows: []int{0, 1}, True: []int{0, 1}, Predicted: []int{1}}, "2 true and 1 predicted classes for 2 test rows"},
		{"true negative", Predictions{Rows: []int{0, 1}, True: []int{0, -1}, Predicted: []int{1, 1}}, "row 1: true class -1, predicted 1, not in [0, 2)"},
		{"one set", Predictions{Rows: []int{0, 1}, TrueSet: sets(2, 2)}, "true_set and pred_set must come together"},
		{"sets and classes", Predictions{Rows: []int{0, 1}, True: []int{0, 1}, TrueSet: sets(2, 2), PredSet: sets(2, 2)}, "both classes and label sets"},
		{"set of another shape", Predictions{Rows: []int{0, 1}, TrueSet: sets(2, 3), PredSet: sets(2, 2)}, "true_set is 2×3, not 2×2"},
		{"scores of another shape", Predictions{Rows: []int{0, 1}, True: []int{0, 1}, Predicted: []int{1, 1}, Scores: sets(3, 2)}, "scores is 3×2, not 2×2"},
	} {
		err := tc.p.Check(2, 2)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
