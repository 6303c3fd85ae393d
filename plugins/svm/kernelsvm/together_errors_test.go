package kernelsvm

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestTogetherNonFinite: a feature too large for the kernel's arithmetic
// ends the fit with an error wrapping ErrNonFinite that names the method:
// K(x, x) already non-finite (rbf's ∞ − ∞, the linear kernel's 1e320), or
// finite in float64 but infinite in the float32 kernel cache, so that the
// outputs turn non-finite while the solver runs.
func TestTogetherNonFinite(t *testing.T) {
	cases := []struct {
		method string
		kernel Kernel
		value  float64
		want   string
	}{
		{CrammerSinger, Kernel{Type: RBF, Gamma: 1}, 1e308, "crammer_singer: non-finite value: K(x, x) = NaN at training row 3"},
		{WestonWatkins, Kernel{Type: Linear}, 1e160, "weston_watkins: non-finite value: K(x, x) = +Inf at training row 3"},
		{CrammerSinger, Kernel{Type: Linear}, 1e30, "crammer_singer: non-finite value in the outputs of training row 3"},
		{WestonWatkins, Kernel{Type: Linear}, 1e30, "weston_watkins: non-finite value in the outputs of training row 3"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s/%s/%g", tc.method, tc.kernel.Type, tc.value), func(t *testing.T) {
			x, y := blobs(30, 3, 2, 1, 1)
			x.Set(3, 0, tc.value)
			o := TogetherOptions{Options: Options{Kernel: tc.kernel, C: 1}, Method: tc.method}
			_, err := TrainTogether(context.Background(), NewDense(x), seqProblem(y, 3), o)
			if !errors.Is(err, ErrNonFinite) || err.Error() != tc.want {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func seqProblem(y []int, k int) Problem {
	rows := make([]int, len(y))
	for i := range rows {
		rows[i] = i
	}
	return Problem{Rows: rows, Classes: y, NumClasses: k}
}

// TestTogetherRefuses checks the messages of options and problems that
// TrainTogether cannot fit.
func TestTogetherRefuses(t *testing.T) {
	x, y := blobs(12, 3, 2, 1, 1)
	rbf := Options{Kernel: Kernel{Type: RBF, Gamma: 1}, C: 1}
	cases := []struct {
		name string
		o    TogetherOptions
		p    Problem
		want string
	}{
		{"method", TogetherOptions{Options: rbf, Method: "one_vs_one"}, seqProblem(y, 3), `multiclass method "one_vs_one", want crammer_singer or weston_watkins`},
		{"bias", TogetherOptions{Options: rbf, Method: CrammerSinger, Bias: -1}, seqProblem(y, 3), "crammer_singer: bias = -1, want a finite value ≥ 0"},
		{"probability", TogetherOptions{Options: Options{Kernel: rbf.Kernel, C: 1, Probability: true}, Method: WestonWatkins}, seqProblem(y, 3), "weston_watkins has no probabilities"},
		{"C", TogetherOptions{Options: Options{Kernel: rbf.Kernel, C: 0}, Method: WestonWatkins}, seqProblem(y, 3), "penalty C = 0, want a finite value > 0"},
		{"binary", TogetherOptions{Options: rbf, Method: CrammerSinger}, Problem{Rows: []int{0, 1}, Targets: []float64{1, -1}}, "crammer_singer trains multiclass problems (Classes), not binary ones"},
		{"class", TogetherOptions{Options: rbf, Method: CrammerSinger}, seqProblem(y, 2), "crammer_singer: class 2 of row 1 is not in 0..1"},
		{"weights", TogetherOptions{Options: rbf, Method: CrammerSinger}, Problem{Rows: []int{0, 1}, Classes: []int{0, 1}, NumClasses: 2, Weights: []float64{0, 0}}, "crammer_singer: no training row has a positive weight"},
		{"row", TogetherOptions{Options: rbf, Method: WestonWatkins}, Problem{Rows: []int{0, 12}, Classes: []int{0, 1}, NumClasses: 2}, "weston_watkins: row 12 outside the design's 0..11"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := TrainTogether(context.Background(), NewDense(x), tc.p, tc.o)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestTogetherStopsOnCancel: a cancelled context ends the solve (looked
// at every sweep) with the context's error.
func TestTogetherStopsOnCancel(t *testing.T) {
	x, y := blobs(200, 4, 3, 1, 2)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, method := range []string{CrammerSinger, WestonWatkins} {
		o := TogetherOptions{Options: Options{Kernel: Kernel{Type: RBF, Gamma: 1}, C: 10, Eps: 1e-9}, Method: method}
		if _, err := TrainTogether(ctx, NewDense(x), seqProblem(y, 4), o); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: error %v, want context.Canceled", method, err)
		}
	}
}

// TestTogetherPredict checks that the model's outputs on its training
// rows are the solver's outputs fᵢᵐ (exactDual, from the dual variables),
// intercept included, and that the dual variables of a row of weight 0
// are left out.
func TestTogetherPredict(t *testing.T) {
	for _, method := range []string{CrammerSinger, WestonWatkins} {
		t.Run(method, func(t *testing.T) {
			x, y := blobs(40, 3, 2, 1, 3)
			p := togetherProblem{Method: method, Kernel: RBF, Gamma: 0.5, Bias: 1, C: 2, K: 3, Y: y}
			for i := range 40 {
				p.X = append(p.X, x.RawRowView(i))
			}
			m, err := TrainTogether(context.Background(), NewDense(x), p.problem(), p.options(1e-6))
			if err != nil {
				t.Fatal(err)
			}
			_, alpha := m.Dual()
			f, _ := exactDual(&p, alpha)
			scores := mat.NewDense(40, 3, nil)
			if err := m.Predict(context.Background(), NewDense(x), scores); err != nil {
				t.Fatal(err)
			}
			if !mat.EqualApprox(scores, f, 1e-12) {
				t.Errorf("outputs\n%v\nwant\n%v", mat.Formatted(scores.Slice(0, 3, 0, 3)), mat.Formatted(f.Slice(0, 3, 0, 3)))
			}
			q := p.problem()
			q.Weights = make([]float64, 40)
			for i := range q.Weights {
				q.Weights[i] = float64(i % 2)
			}
			m, err = TrainTogether(context.Background(), NewDense(x), q, p.options(1e-6))
			if err != nil {
				t.Fatal(err)
			}
			if rows, _ := m.Dual(); len(rows) != 20 || rows[0] != 1 || rows[19] != 39 {
				t.Errorf("rows of the dual %v, want the 20 odd rows", rows)
			}
		})
	}
}

// TestTogetherIterationBound: a solve stopped by MaxIter returns its
// model, after exactly MaxIter sub-problems, with Converged false; run to
// eps it converges.
func TestTogetherIterationBound(t *testing.T) {
	x, y := blobs(100, 4, 3, 1, 5)
	for _, method := range []string{CrammerSinger, WestonWatkins} {
		for _, tc := range []struct {
			maxIter   int
			converged bool
		}{{10, false}, {0, true}} {
			o := TogetherOptions{Options: Options{Kernel: Kernel{Type: RBF, Gamma: 1}, C: 10}, Method: method, MaxIter: tc.maxIter}
			m, err := TrainTogether(context.Background(), NewDense(x), seqProblem(y, 4), o)
			if err != nil {
				t.Fatalf("%s, max_iter %d: %v", method, tc.maxIter, err)
			}
			if m.Converged() != tc.converged || (tc.maxIter > 0 && m.Iterations() != tc.maxIter) {
				t.Errorf("%s, max_iter %d: converged %v after %d sub-problems, want %v", method, tc.maxIter, m.Converged(), m.Iterations(), tc.converged)
			}
		}
	}
}
