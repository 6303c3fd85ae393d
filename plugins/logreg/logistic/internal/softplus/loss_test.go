package softplus

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/bitstest"
)

// lossInputs returns n margins (before the offset), labels ±1 and weights
// in [0, 2), some 0.
func lossInputs(n int) (z, y, s []float64) {
	rng := rand.New(rand.NewPCG(uint64(n), 3))
	ts := margins(n)
	z, y, s = make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		z[i] = ts[i%len(ts)]
		y[i] = 1
		if rng.IntN(2) == 0 {
			y[i] = -1
		}
		if rng.IntN(5) > 0 {
			s[i] = 2 * rng.Float64()
		}
	}
	return z, y, s
}

// TestLossAsmMatchesGo and TestGradAsmMatchesGo: the assembly parts give
// the bits of the Go ones, weighted and not.
func TestLossAsmMatchesGo(t *testing.T) {
	if !useAsm {
		t.Skip("no assembly kernels in this build (the noasm tag, or a processor without AVX2 and FMA): nothing to compare")
	}
	type kernel struct {
		name string
		run  func(z *float64, b float64, y, s, e *float64, n int, part *[4]float64)
	}
	kernels := []kernel{{"lossAsm", lossAsm}}
	if useAsm512 {
		kernels = append(kernels, kernel{"lossAsm8", lossAsm8})
	}
	for _, k := range kernels {
		for _, weighted := range []bool{false, true} {
			z, y, s := lossInputs(4096)
			if !weighted {
				s = nil
			}
			z2 := append([]float64(nil), z...)
			e, e2 := make([]float64, len(z)), make([]float64, len(z))
			var got, want [4]float64
			k.run(&z[0], 0.25, &y[0], first(s), &e[0], len(z), &got)
			lossGo(z2, 0.25, y, s, e2, &want)
			for i := range z {
				if !bitstest.Same(z[i], z2[i]) || !bitstest.Same(e[i], e2[i]) {
					t.Fatalf("%s, weighted %v, row %d: z %v, e %v; Go %v, %v", k.name, weighted, i, z[i], e[i], z2[i], e2[i])
				}
			}
			for j := range got {
				if !bitstest.Same(got[j], want[j]) {
					t.Errorf("%s, weighted %v: running sum %d = %v, Go %v", k.name, weighted, j, got[j], want[j])
				}
			}
		}
	}
}

// TestLossMatchesGo: Loss, whichever kernels it picks for the groups of
// eight and four and the rows left over, gives the bits of lossGo and the
// scalar tail, for lengths around multiples of 8.
func TestLossMatchesGo(t *testing.T) {
	for _, n := range []int{1, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 20, 1001, 1004, 1008} {
		for _, weighted := range []bool{false, true} {
			z, y, s := lossInputs(n)
			if !weighted {
				s = nil
			}
			z2 := append([]float64(nil), z...)
			e, e2 := make([]float64, n), make([]float64, n)
			got := Loss(z, -0.5, y, s, e)
			var part [4]float64
			n4 := n &^ 3
			lossGo(z2[:n4], -0.5, y, s, e2, &part)
			want := (part[0] + part[2]) + (part[1] + part[3])
			for i := n4; i < n; i++ {
				z2[i] += -0.5
				l, ei := eval(y[i] * z2[i])
				e2[i] = ei
				if s != nil {
					l = float64(s[i] * l)
				}
				want += l
			}
			if !bitstest.Same(got, want) {
				t.Errorf("n %d, weighted %v: Loss = %v, Go %v", n, weighted, got, want)
			}
			for i := range n {
				if !bitstest.Same(z[i], z2[i]) || !bitstest.Same(e[i], e2[i]) {
					t.Fatalf("n %d, weighted %v, row %d: z %v, e %v; Go %v, %v", n, weighted, i, z[i], e[i], z2[i], e2[i])
				}
			}
		}
	}
}

func TestGradAsmMatchesGo(t *testing.T) {
	if !useAsm {
		t.Skip("no assembly kernels in this build (the noasm tag, or a processor without AVX2 and FMA): nothing to compare")
	}
	for _, weighted := range []bool{false, true} {
		z, y, s := lossInputs(4096)
		if !weighted {
			s = nil
		}
		e := make([]float64, len(z))
		Loss(z, 0, y, s, e)
		dd, r, dd2, r2 := make([]float64, len(z)), make([]float64, len(z)), make([]float64, len(z)), make([]float64, len(z))
		var got, want [4]float64
		gradAsm(&dd[0], &r[0], &z[0], &y[0], first(s), &e[0], 0.7, len(z), &got)
		for i := range z {
			want[i%4] += grad1(dd2, r2, z, y, s, e, 0.7, i)
		}
		for i := range z {
			if !bitstest.Same(dd[i], dd2[i]) || !bitstest.Same(r[i], r2[i]) {
				t.Fatalf("weighted %v, row %d (t = %v): dd %v, r %v; Go %v, %v", weighted, i, y[i]*z[i], dd[i], r[i], dd2[i], r2[i])
			}
		}
		for k := range got {
			if !bitstest.Same(got[k], want[k]) {
				t.Errorf("weighted %v: running sum %d = %v, Go %v", weighted, k, got[k], want[k])
			}
		}
	}
}

// TestLossAndGrad checks Loss and Grad against the definitions evaluated
// with math, for lengths around multiples of 4.
func TestLossAndGrad(t *testing.T) {
	for _, n := range []int{0, 1, 3, 4, 5, 7, 8, 61} {
		for _, weighted := range []bool{false, true} {
			name := fmt.Sprintf("n %d weighted %v", n, weighted)
			z, y, s := lossInputs(n)
			for i := range z { // finite margins of moderate size
				z[i] = math.Mod(z[i], 30)
				if math.IsNaN(z[i]) || math.IsInf(z[i], 0) {
					z[i] = 0.5
				}
			}
			if !weighted {
				s = nil
			}
			orig := append([]float64(nil), z...)
			e := make([]float64, n)
			loss := Loss(z, -0.5, y, s, e)
			var want, abs float64
			for i := range z {
				if z[i] != orig[i]-0.5 {
					t.Fatalf("%s: z[%d] = %v, want %v", name, i, z[i], orig[i]-0.5)
				}
				m := y[i] * z[i]
				l := math.Log1p(math.Exp(-math.Abs(m))) + math.Max(-m, 0)
				w := 1.0
				if s != nil {
					w = s[i]
				}
				want += w * l
				abs += math.Abs(w * l)
				if d := math.Abs(e[i] - math.Exp(-math.Abs(m))); d > 2e-16*e[i] {
					t.Fatalf("%s: e[%d] = %v, want %v", name, i, e[i], math.Exp(-math.Abs(m)))
				}
			}
			if math.Abs(loss-want) > 1e-14*abs {
				t.Errorf("%s: loss %v, want %v", name, loss, want)
			}
			dd, r := make([]float64, n), make([]float64, n)
			gsum := Grad(dd, r, z, y, s, e, 2)
			var wantSum, absSum float64
			for i := range z {
				m := y[i] * z[i]
				sg := 1 / (1 + math.Exp(-m))
				cs := 2.0
				if s != nil {
					cs *= s[i]
				}
				if math.Abs(dd[i]-cs*sg*(1-sg)) > 1e-15*(cs+1) || math.Abs(r[i]+cs*y[i]*(1-sg)) > 1e-15*(cs+1) {
					t.Fatalf("%s: row %d: dd %v, r %v; want %v, %v", name, i, dd[i], r[i], cs*sg*(1-sg), -cs*y[i]*(1-sg))
				}
				wantSum += r[i]
				absSum += math.Abs(r[i])
			}
			if math.Abs(gsum-wantSum) > 1e-14*absSum {
				t.Errorf("%s: Σ r = %v, want %v", name, gsum, wantSum)
			}
		}
	}
}

func BenchmarkLoss(b *testing.B) {
	z, y, _ := lossInputs(18000)
	for i := range z {
		z[i] = math.Mod(z[i], 30)
	}
	e := make([]float64, len(z))
	for b.Loop() {
		Loss(z, 0, y, nil, e)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(z)), "ns/row")
}

func BenchmarkGrad(b *testing.B) {
	z, y, _ := lossInputs(18000)
	e, dd, r := make([]float64, len(z)), make([]float64, len(z)), make([]float64, len(z))
	Loss(z, 0, y, nil, e)
	for b.Loop() {
		Grad(dd, r, z, y, nil, e, 1)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(z)), "ns/row")
}

func TestSum(t *testing.T) {
	for _, c := range []struct {
		v    []float64
		want float64
	}{
		{nil, 0},
		{[]float64{1}, 1},
		{[]float64{1, 2, 3, 4, 5}, 15},
		// (1e16 + -1e16) + (1 + 1): the order of the running sums keeps
		// the ones that a left-to-right sum would lose.
		{[]float64{1e16, 1, -1e16, 1}, 2},
	} {
		if got := Sum(c.v); got != c.want {
			t.Errorf("Sum(%v) = %v, want %v", c.v, got, c.want)
		}
	}
}
