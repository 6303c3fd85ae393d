package calibrate

import (
	"math"
	"testing"
)

// The expected values come from scikit-learn 1.2.1:
//
//	f = [-2, -1.5, -1, -0.5, 0, 0.3, 0.5, 1, 1.5, 2.5, -0.2, 0.8]
//	y = [0, 0, 1, 0, 0, 1, 0, 1, 1, 1, 1, 1]
//	sklearn.calibration._sigmoid_calibration(f, y)
//	IsotonicRegression(y_min=0, y_max=1, out_of_bounds="clip").fit(f, y)
var (
	scores = []float64{-2, -1.5, -1, -0.5, 0, 0.3, 0.5, 1, 1.5, 2.5, -0.2, 0.8}
	labels = []bool{false, false, true, false, false, true, false, true, true, true, true, true}
)

func TestSigmoid(t *testing.T) {
	s := FitSigmoid(scores, labels)
	// scikit-learn minimises the same loss with BFGS; the optimum agrees
	// to its tolerance.
	if math.Abs(s.A-(-0.8343936338411791)) > 1e-5 || math.Abs(s.B-(-0.2911796149176679)) > 1e-5 {
		t.Errorf("A, B = %v, %v; scikit-learn -0.83439363, -0.29117961", s.A, s.B)
	}
	if p := s.Predict(0); math.Abs(p-1/(1+math.Exp(s.B))) > 1e-15 {
		t.Errorf("P(0) = %v", p)
	}
	if s.Predict(-50) > 1e-15 || s.Predict(50) < 1-1e-15 {
		t.Errorf("tails %v, %v", s.Predict(-50), s.Predict(50))
	}
}

func TestIsotonic(t *testing.T) {
	m := FitIsotonic(scores, labels)
	for _, tc := range []struct{ f, want float64 }{
		{-3, 0}, {-1.2, 0.3}, {0.1, 0.5}, {0.4, 0.5}, {0.9, 1}, {3, 1},
	} {
		if got := m.Predict(tc.f); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("P(%v) = %v, scikit-learn %v", tc.f, got, tc.want)
		}
	}
	for i := 1; i < len(m.Y); i++ {
		if m.Y[i] < m.Y[i-1] {
			t.Fatalf("not non-decreasing: %v", m.Y)
		}
	}
}
