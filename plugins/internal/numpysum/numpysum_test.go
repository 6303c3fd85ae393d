package numpysum

import "testing"

// TestPairwise: Pairwise gives NumPy's np.sum bit for bit where the plain
// left-to-right sum differs (300 and 1000 values). Expected values from
// NumPy 1.24.2 (Debian's python3-numpy):
//
//	a = np.array([((i*7919) % 1000)/3.0 - 100.0 + 1e-3*i for i in range(n)])
//	repr(float(a.sum())), repr(float(sum(a.tolist())))
func TestPairwise(t *testing.T) {
	tests := []struct {
		n            int
		numpy, plain float64
	}{
		{5, 563.3433333333334, 563.3433333333334},
		{8, 777.3613333333334, 777.3613333333334},
		{13, 594.0780000000001, 594.0780000000001},
		{128, 8418.794666666667, 8418.794666666667},
		{129, 8529.589333333333, 8529.589333333333},
		{300, 20094.85, 20094.850000000006},
		{1000, 66999.5, 66999.49999999999},
	}
	for _, tc := range tests {
		a := make([]float64, tc.n)
		var plain float64
		for i := range a {
			a[i] = float64((i*7919)%1000)/3.0 - 100.0 + 1e-3*float64(i)
			plain += a[i]
		}
		if got := Pairwise(a); got != tc.numpy {
			t.Errorf("n = %d: Pairwise = %v, NumPy's sum %v", tc.n, got, tc.numpy)
		}
		if plain != tc.plain {
			t.Errorf("n = %d: the plain sum %v, Python's %v (the data differ)", tc.n, plain, tc.plain)
		}
	}
}
