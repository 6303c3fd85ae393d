package softplus

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/bitstest"
)

// margins returns n margins: a sweep of [-40, 40], the edges of the
// method (the branch of log1p at e = √2 − 1, the subnormal range and the
// clamp of exp, halfway points of the rounding of k), special values and
// random ones on a log scale.
func margins(n int) []float64 {
	var t []float64
	for i := range 4001 {
		t = append(t, -40+float64(i)*0.02)
	}
	branch := -math.Log(sqrt2M1)
	for _, c := range []float64{branch, 708.3964185322641, 709.782712893384, 744.4400719213812, 745.1332191019411, 746, 0.5 * math.Ln2, 1.5 * math.Ln2} {
		for d := -3; d <= 3; d++ {
			v := c + float64(d)*1e-13*c
			t = append(t, v, -v, math.Nextafter(v, 0), math.Nextafter(v, 1000))
		}
	}
	t = append(t, 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, -5e-324,
		math.MaxFloat64, -math.MaxFloat64, 1e-300, -1e-300, 37, -37, 1e6, -1e6)
	rng := rand.New(rand.NewPCG(1, 2))
	for len(t) < n {
		v := math.Exp(rng.Float64()*30 - 20)
		if rng.IntN(2) == 0 {
			v = -v
		}
		t = append(t, v)
	}
	return t
}

// TestAsmMatchesGo: the assembly kernel gives the bits of the Go version
// on every margin.
func TestAsmMatchesGo(t *testing.T) {
	if !useAsm {
		t.Skip("no assembly kernel in this build (the noasm tag, or a processor without AVX2 and FMA): nothing to compare")
	}
	ts := margins(20000)
	ts = ts[:len(ts)&^3]
	l, e := make([]float64, len(ts)), make([]float64, len(ts))
	evalAsm(&l[0], &e[0], &ts[0], len(ts))
	for i, v := range ts {
		wl, we := eval(v)
		if !bitstest.Same(l[i], wl) || !bitstest.Same(e[i], we) {
			t.Fatalf("t = %v (%#x): assembly (%v, %v), Go (%v, %v)", v, math.Float64bits(v), l[i], e[i], wl, we)
		}
	}
}

// ulps returns the distance between a and b in units in the last place
// of b.
func ulps(a, b float64) float64 {
	if a == b || math.IsNaN(a) && math.IsNaN(b) {
		return 0
	}
	if math.IsInf(b, 0) || math.IsNaN(a) || math.IsNaN(b) {
		return math.Inf(1)
	}
	u := math.Nextafter(math.Abs(b), math.Inf(1)) - math.Abs(b)
	return math.Abs(a-b) / u
}

// TestAccuracy compares Eval with the same quantities from math.Exp and
// math.Log1p: within 1 ulp for e and, where the loss is not a difference
// of nearly equal terms, within 2 ulp for l (the reference itself is
// rounded twice).
func TestAccuracy(t *testing.T) {
	ts := margins(200000)
	l, e := make([]float64, len(ts)), make([]float64, len(ts))
	Eval(l, e, ts)
	var worstE, worstL float64
	var atE, atL float64
	for i, v := range ts {
		if math.IsNaN(v) {
			if !math.IsNaN(l[i]) || !math.IsNaN(e[i]) {
				t.Errorf("t = NaN: (%v, %v), want NaN", l[i], e[i])
			}
			continue
		}
		we := math.Exp(-math.Abs(v))
		wl := math.Log1p(we)
		if v < 0 {
			wl = -v + wl
		}
		if u := ulps(e[i], we); u > worstE {
			worstE, atE = u, v
		}
		if u := ulps(l[i], wl); u > worstL {
			worstL, atL = u, v
		}
	}
	t.Logf("largest errors: e %.2f ulp (t = %v), l %.2f ulp (t = %v)", worstE, atE, worstL, atL)
	if worstE > 1 {
		t.Errorf("e is %.2f ulp off at t = %v", worstE, atE)
	}
	if worstL > 2 {
		t.Errorf("l is %.2f ulp off at t = %v", worstL, atL)
	}
}

// TestValues checks exact and limiting values.
func TestValues(t *testing.T) {
	for _, c := range []struct{ t, l, e float64 }{
		{0, math.Ln2, 1},
		{math.Copysign(0, -1), math.Ln2, 1},
		{math.Inf(1), 0, 0},
		{math.Inf(-1), math.Inf(1), 0},
		{800, 0, 0},
		{-800, 800, 0},
		{1e-300, math.Ln2, 1},
		{math.MaxFloat64, 0, 0},
		{-math.MaxFloat64, math.MaxFloat64, 0},
	} {
		for _, n := range []int{1, 4} { // Go and assembly
			ts := make([]float64, n)
			for i := range ts {
				ts[i] = c.t
			}
			l, e := make([]float64, n), make([]float64, n)
			Eval(l, e, ts)
			if l[0] != c.l || e[0] != c.e {
				t.Errorf("Eval(%v) in a run of %d = (%v, %v), want (%v, %v)", c.t, n, l[0], e[0], c.l, c.e)
			}
		}
	}
}

// TestInPlace: l may be t.
func TestInPlace(t *testing.T) {
	ts := margins(1001)
	want, e := make([]float64, len(ts)), make([]float64, len(ts))
	Eval(want, e, ts)
	Eval(ts, e, ts)
	for i := range ts {
		if !bitstest.Same(ts[i], want[i]) {
			t.Fatalf("in place: l[%d] = %v, want %v", i, ts[i], want[i])
		}
	}
}

func BenchmarkEval(b *testing.B) {
	ts := margins(18000)[:18000]
	l, e := make([]float64, len(ts)), make([]float64, len(ts))
	for b.Loop() {
		Eval(l, e, ts)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ts)), "ns/margin")
}

// BenchmarkMath is what Eval replaces: math.Exp and math.Log1p, one
// margin at a time.
func BenchmarkMath(b *testing.B) {
	ts := margins(18000)[:18000]
	l, e := make([]float64, len(ts)), make([]float64, len(ts))
	for b.Loop() {
		for i, v := range ts {
			e[i] = math.Exp(-math.Abs(v))
			l[i] = math.Log1p(e[i])
			if v < 0 {
				l[i] += -v
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ts)), "ns/margin")
}

func ExampleEval() {
	t := []float64{-2, 0, 2}
	l, e := make([]float64, 3), make([]float64, 3)
	Eval(l, e, t)
	for i := range t {
		fmt.Printf("t = %2v: log(1+exp(-t)) = %.6f, exp(-|t|) = %.6f\n", t[i], l[i], e[i])
	}
	// Output:
	// t = -2: log(1+exp(-t)) = 2.126928, exp(-|t|) = 0.135335
	// t =  0: log(1+exp(-t)) = 0.693147, exp(-|t|) = 1.000000
	// t =  2: log(1+exp(-t)) = 0.126928, exp(-|t|) = 0.135335
}
