package client

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
)

// TestJoinDecodings: parts of a decoding split by test rows join in row
// order, ties summed; the joined class scores are probabilities only when
// every part says its are; parts with different fields, or a part with
// the wrong number of predictions, are errors naming the scheme.
func TestJoinDecodings(t *testing.T) {
	part := func(pred []int, probs bool, ties int) sdk.Decoding {
		s := mat.NewDense(len(pred), 2, nil)
		for i, k := range pred {
			s.Set(i, k, 0.75)
			s.Set(i, 1-k, 0.25)
		}
		return sdk.Decoding{Predicted: pred, ClassScores: s, ClassScoresAreProbabilities: probs, Ties: ties}
	}
	lens := []int{2, 1}
	for _, tt := range []struct {
		name     string
		a, b     bool
		wantProb bool
	}{
		{"both probabilities", true, true, true},
		{"first part scores", false, true, false},
		{"second part scores", true, false, false},
		{"neither", false, false, false},
	} {
		got, err := joinDecodings("ova", []sdk.Decoding{part([]int{0, 1}, tt.a, 1), part([]int{1}, tt.b, 2)}, lens)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got.ClassScoresAreProbabilities != tt.wantProb {
			t.Errorf("%s: class scores are probabilities %v, want %v", tt.name, got.ClassScoresAreProbabilities, tt.wantProb)
		}
		if want := []int{0, 1, 1}; len(got.Predicted) != 3 || got.Predicted[0] != want[0] || got.Predicted[1] != want[1] || got.Predicted[2] != want[2] {
			t.Errorf("%s: predicted %v, want %v", tt.name, got.Predicted, want)
		}
		want := mat.NewDense(3, 2, []float64{0.75, 0.25, 0.25, 0.75, 0.25, 0.75})
		if got.Ties != 3 || !mat.Equal(got.ClassScores, want) {
			t.Errorf("%s: ties %d, class scores %v; want 3 and %v", tt.name, got.Ties, mat.Formatted(got.ClassScores), mat.Formatted(want))
		}
	}

	noScores := part([]int{1}, true, 0)
	noScores.ClassScores = nil
	for _, tt := range []struct {
		name  string
		parts []sdk.Decoding
		want  string
	}{
		{"class scores in one part only", []sdk.Decoding{part([]int{0, 1}, true, 0), noScores}, "decode ova: the parts of the test rows came back with different fields"},
		{"predictions in one part only", []sdk.Decoding{part([]int{0, 1}, true, 0), {ClassScores: mat.NewDense(1, 2, nil)}}, "different fields"},
		{"more predictions than rows", []sdk.Decoding{part([]int{0, 1}, true, 0), part([]int{1, 0}, true, 0)}, "decode ova: 2 predictions for the 1 test rows of part 1"},
	} {
		if _, err := joinDecodings("ova", tt.parts, lens); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}
