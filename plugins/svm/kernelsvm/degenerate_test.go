package kernelsvm

import (
	"context"
	"testing"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// TestDegenerateKernel is the campaign's case: a kernel svm on iris with
// rbf gamma = 1e308 (every off-diagonal kernel value underflows to 0) or
// sigmoid coef0 = ±1e308 (tanh saturates to ±1), or poly of degree 0,
// predicted one class for every test row and said nothing. Train now
// marks such models Degenerate, for a binary and a multiclass problem and
// for the all-together methods; the kernels of ordinary parameters are
// not.
func TestDegenerateKernel(t *testing.T) {
	ds := reftest.Load(t, "iris")
	rows := reftest.Seq(len(ds.Y))
	for _, tt := range []struct {
		name string
		k    Kernel
		want bool
	}{
		{"rbf gamma=1e308", Kernel{Type: RBF, Gamma: 1e308}, true},
		{"sigmoid coef0=1e308", Kernel{Type: Sigmoid, Gamma: 0.25, Coef0: 1e308}, true},
		{"sigmoid coef0=-1e308", Kernel{Type: Sigmoid, Gamma: 0.25, Coef0: -1e308}, true},
		{"poly degree=0", Kernel{Type: Poly, Gamma: 1, Degree: 0, Coef0: 1}, true},
		{"rbf gamma=0.25", Kernel{Type: RBF, Gamma: 0.25}, false},
		{"rbf gamma=100", Kernel{Type: RBF, Gamma: 100}, false},
		{"sigmoid coef0=0", Kernel{Type: Sigmoid, Gamma: 0.01}, false},
		{"poly degree=3", Kernel{Type: Poly, Gamma: 1, Degree: 3, Coef0: 1}, false},
		{"linear", Kernel{Type: Linear}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			probs := []Problem{
				{Rows: rows, Targets: reftest.BinaryLabels(ds.Y, 0)},
				{Rows: rows, Classes: ds.Y, NumClasses: 3},
			}
			ms, err := Train(context.Background(), NewDense(ds.X), probs, Options{Kernel: tt.k, C: 1}, 1)
			if err != nil {
				t.Fatal(err)
			}
			for i, m := range ms {
				if m.Degenerate() != tt.want {
					t.Errorf("problem %d: degenerate %v, want %v", i, m.Degenerate(), tt.want)
				}
			}
			// The all-together methods on the same kernel (campaign 11f:
			// Crammer–Singer and Weston–Watkins on iris ×1e100 with rbf
			// predicted one class and said nothing).
			for _, method := range []string{CrammerSinger, WestonWatkins} {
				m, err := TrainTogether(context.Background(), NewDense(ds.X), probs[1],
					TogetherOptions{Options: Options{Kernel: tt.k, C: 1}, Method: method, Bias: 1})
				if err != nil {
					t.Fatal(err)
				}
				if m.Degenerate() != tt.want {
					t.Errorf("%s: degenerate %v, want %v", method, m.Degenerate(), tt.want)
				}
			}
		})
	}
}

// TestDegenerateRows: with rbf gamma = 1e308, fewer than three pairs of
// distinct rows never make a degenerate matrix (one value says nothing
// of the kernel), and duplicated rows (iris rows 102 and 143 are equal;
// their value is 1 beside the 0s) are left out of the comparison.
func TestDegenerateRows(t *testing.T) {
	ds := reftest.Load(t, "iris")
	x := NewDense(ds.X).forKernels()
	rbf := Kernel{Type: RBF, Gamma: 1e308}
	for _, tt := range []struct {
		name string
		rows []int
		want bool
	}{
		{"one row", []int{0}, false},
		{"two rows", []int{0, 50}, false},
		{"three rows", []int{0, 50, 100}, true},
		{"a row, its duplicate and a third", []int{101, 142, 0}, false},
		{"a duplicate pair and two rows", []int{101, 142, 0, 50}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := degenerate(&rbf, x, tt.rows); got != tt.want {
				t.Errorf("degenerate %v, want %v", got, tt.want)
			}
		})
	}
}
