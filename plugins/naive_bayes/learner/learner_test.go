package learner

import (
	"context"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/framework/sdk/conformance"
)

// TestProtocol trains binary and multiclass problems with the Gaussian
// model through the protocol. (The conformance blobs take negative
// values, which the multinomial model refuses and the Bernoulli model,
// seeing only signs, cannot separate: TestDiscrete trains them.)
func TestProtocol(t *testing.T) {
	c := conformance.Connect(t, learner{})
	conformance.CheckSchema(t, c)
	for _, p := range []sdk.Params{
		nil,
		{"var_smoothing": sdk.Number(0.1)},
	} {
		conformance.CheckBinary(t, c, p)
		conformance.CheckMulticlass(t, c, p)
	}
}

// TestConformance runs the protocol conformance suite in-process.
func TestConformance(t *testing.T) { conformance.Test(t, learner{}, nil) }

// TestBorrowedRowsStayUnchanged: naive_bayes borrows its input, so no
// distribution may write into the rows it is given.
func TestBorrowedRowsStayUnchanged(t *testing.T) {
	conformance.CheckBorrowedRows(t, learner{}, nil,
		sdk.Params{"distribution": sdk.String("bernoulli")},
		sdk.Params{"distribution": sdk.String("bernoulli"), "binarize": sdk.String("none")},
		sdk.Params{"distribution": sdk.String("multinomial")})
}

// TestDiscrete trains the discrete models on word counts of two topics and
// checks each model's answers: a multiclass model's scores are joint
// log-likelihoods whose largest is the class, its probabilities sum to 1;
// a binary model's score is the difference of the two classes' joint
// log-likelihoods and its probability P(+1) as the multiclass model's.
func TestDiscrete(t *testing.T) {
	x := mat.NewDense(6, 4, []float64{
		3, 1, 0, 0,
		2, 0, 1, 0,
		4, 2, 0, 1,
		0, 0, 3, 2,
		0, 1, 2, 4,
		1, 0, 4, 3,
	})
	y := []int{0, 0, 0, 1, 1, 1}
	targets := []float64{-1, -1, -1, 1, 1, 1}
	for _, p := range []sdk.Params{
		{"distribution": sdk.String("multinomial")},
		{"distribution": sdk.String("multinomial"), "alpha": sdk.Number(0.1), "fit_prior": sdk.Bool(false)},
		{"distribution": sdk.String("bernoulli")},
		{"distribution": sdk.String("bernoulli"), "binarize": sdk.Number(1.5)},
		{"distribution": sdk.String("gaussian")},
	} {
		t.Run(p.String(), func(t *testing.T) {
			params := sdk.WithDefaults(learner{}.Info().Params, p)
			multi, err := learner{}.Fit(context.Background(), sdk.FitInput{Kind: sdk.Multiclass, X: sdk.Matrix{Dense: x}, Classes: y, NumClasses: 2}, params)
			if err != nil {
				t.Fatal(err)
			}
			bin, err := learner{}.Fit(context.Background(), sdk.FitInput{Kind: sdk.Binary, X: sdk.Matrix{Dense: x}, Targets: targets}, params)
			if err != nil {
				t.Fatal(err)
			}
			ms, mp := mat.NewDense(6, 2, nil), mat.NewDense(6, 2, nil)
			bs, bp := mat.NewDense(6, 1, nil), mat.NewDense(6, 1, nil)
			if err := multi.Predict(context.Background(), sdk.Matrix{Dense: x}, ms, mp); err != nil {
				t.Fatal(err)
			}
			if err := bin.Predict(context.Background(), sdk.Matrix{Dense: x}, bs, bp); err != nil {
				t.Fatal(err)
			}
			for i, c := range y {
				if got := ms.At(i, 1) > ms.At(i, 0); got != (c == 1) {
					t.Errorf("row %d: joint log-likelihoods %v, class %d", i, ms.RawRowView(i), c)
				}
				if s := mp.At(i, 0) + mp.At(i, 1); math.Abs(s-1) > 1e-15 {
					t.Errorf("row %d: probabilities sum to %v", i, s)
				}
				if got, want := bs.At(i, 0), ms.At(i, 1)-ms.At(i, 0); got != want {
					t.Errorf("row %d: binary score %v, want %v", i, got, want)
				}
				if got, want := bp.At(i, 0), mp.At(i, 1); got != want {
					t.Errorf("row %d: binary probability %v, want %v", i, got, want)
				}
			}
		})
	}
}

// TestRefusals: the multinomial model refuses negative values and a
// binary problem needs both classes (its log-odds would be infinite).
func TestRefusals(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, -1, 0, 2, 3, 1})
	for _, tt := range []struct {
		in   sdk.FitInput
		p    sdk.Params
		want string
	}{
		{sdk.FitInput{Kind: sdk.Multiclass, X: sdk.Matrix{Dense: x}, Classes: []int{0, 1, 1}, NumClasses: 2},
			sdk.Params{"distribution": sdk.String("multinomial")}, "row 0 column 1 is -1"},
		{sdk.FitInput{Kind: sdk.Binary, X: sdk.Matrix{Dense: x}, Targets: []float64{1, 1, 1}}, nil, "rows of both classes"},
	} {
		_, err := learner{}.Fit(context.Background(), tt.in, sdk.WithDefaults(learner{}.Info().Params, tt.p))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want %q", tt.p, err, tt.want)
		}
	}
}
