package stats

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// bayesRef mirrors testdata/bayes_reference.json
// (testdata/gen_bayes_reference.py: baycomp's definitions in numpy/scipy).
type bayesRef struct {
	Correlated []struct {
		X, Y            []float64
		NTrain          int `json:"n_train"`
		NTest           int `json:"n_test"`
		Rope            float64
		Mean, Scale, DF float64
		PLeft           float64 `json:"p_left"`
		PRope           float64 `json:"p_rope"`
		PRight          float64 `json:"p_right"`
		At, PDF         []float64
		Q025            float64 `json:"q025"`
	} `json:"correlated"`
	SignedRank []struct {
		X, Y        []float64
		Rope, Prior float64
		Draws       [][]float64
		Samples     [][3]float64
		PLeft       float64 `json:"p_left"`
		PRope       float64 `json:"p_rope"`
		PRight      float64 `json:"p_right"`
	} `json:"signed_rank"`
}

func loadBayesRef(t *testing.T) bayesRef {
	t.Helper()
	b, err := os.ReadFile("testdata/bayes_reference.json")
	if err != nil {
		t.Fatalf("reading the Bayesian reference: %v", err)
	}
	var r bayesRef
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("decoding the Bayesian reference: %v", err)
	}
	if len(r.Correlated) == 0 || len(r.SignedRank) == 0 {
		t.Fatal("the Bayesian reference has empty sections")
	}
	return r
}

// TestBayesCorrelatedTTestScipy: the posterior's location, scale and
// degrees of freedom, the three probabilities, its density and a quantile
// against scipy's Student t on the same definitions (4 cases: 10-fold,
// 3 × 10-fold, rope 0, a difference well inside the rope).
func TestBayesCorrelatedTTestScipy(t *testing.T) {
	for i, c := range loadBayesRef(t).Correlated {
		p, err := BayesCorrelatedTTest(c.X, c.Y, c.NTrain, c.NTest, c.Rope)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		// Tolerances: the mean and scale are the same few operations
		// (1e-14); the probabilities go through gonum's and scipy's
		// incomplete beta functions (1e-12).
		for _, v := range []struct {
			name      string
			got, want float64
			tol       float64
		}{
			{"mean", p.Mean, c.Mean, 1e-14}, {"scale", p.Scale, c.Scale, 1e-14}, {"df", p.DF, c.DF, 0},
			{"p_left", p.PLeft, c.PLeft, 1e-12}, {"p_rope", p.PRope, c.PRope, 1e-12}, {"p_right", p.PRight, c.PRight, 1e-12},
			{"q025", p.Quantile(0.025), c.Q025, 1e-12},
		} {
			if !scalar.EqualWithinAbsOrRel(v.got, v.want, v.tol, v.tol) {
				t.Errorf("case %d: %s = %.17g, scipy %.17g", i, v.name, v.got, v.want)
			}
		}
		for j, at := range c.At {
			if got := p.Density(at); !scalar.EqualWithinRel(got, c.PDF[j], 1e-12) {
				t.Errorf("case %d: density at %g = %.17g, scipy %.17g", i, at, got, c.PDF[j])
			}
		}
	}
}

// TestBayesCorrelatedTTestDegenerate: equal differences (baycomp's point
// mass) are no test, a PreconditionError, whatever the rope or the
// difference; bad input is refused.
func TestBayesCorrelatedTTestDegenerate(t *testing.T) {
	x := []float64{0.5, 0.25, 0.75} // shifts by powers of 2 stay exact
	shift := func(d float64) []float64 {
		y := slices.Clone(x)
		for i := range y {
			y[i] += d
		}
		return y
	}
	for _, tc := range []struct {
		name string
		y    []float64
		rope float64
	}{
		{"zero, no rope", x, 0},
		{"zero, rope", x, 0.01},
		{"right beyond rope", shift(0.25), 0.01},
		{"left beyond rope", shift(-0.25), 0.01},
		{"within rope", shift(0.00390625), 0.01},
		{"right, no rope", shift(0.25), 0},
	} {
		_, err := BayesCorrelatedTTest(x, tc.y, 90, 10, tc.rope)
		if why, ok := Unmet(err); !ok || why != "zero variance (all 3 differences equal)" {
			t.Errorf("%s: error %v, want the precondition zero variance", tc.name, err)
		}
	}
	for _, tc := range []struct {
		name     string
		x, y     []float64
		ntr, nte int
		rope     float64
	}{
		{"lengths", x, x[:2], 90, 10, 0},
		{"one split", x[:1], x[:1], 90, 10, 0},
		{"sizes", x, x, 0, 10, 0},
		{"negative rope", x, x, 90, 10, -0.01},
		{"NaN rope", x, x, 90, 10, math.NaN()},
		{"NaN score", x, []float64{0.5, math.NaN(), 0.75}, 90, 10, 0},
	} {
		if _, err := BayesCorrelatedTTest(tc.x, tc.y, tc.ntr, tc.nte, tc.rope); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}

// TestBayesCorrelatedTTestMatchesInterval: the posterior's central 95%
// interval is the corrected resampled t-test's 95% confidence interval
// (same location, scale and degrees of freedom), with the sign of y − x.
func TestBayesCorrelatedTTestMatchesInterval(t *testing.T) {
	x := []float64{0.81, 0.79, 0.84, 0.80, 0.83, 0.78, 0.82, 0.85, 0.80, 0.81}
	y := []float64{0.83, 0.80, 0.84, 0.83, 0.85, 0.80, 0.81, 0.88, 0.83, 0.82}
	p, err := BayesCorrelatedTTest(x, y, 900, 100, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	mean, lo, hi, err := CorrectedInterval(y, x, 900, 100, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if !scalar.EqualWithinAbs(p.Mean, mean, 1e-15) || !scalar.EqualWithinAbs(p.Quantile(0.025), lo, 1e-12) ||
		!scalar.EqualWithinAbs(p.Quantile(0.975), hi, 1e-12) {
		t.Errorf("posterior %g [%g, %g], corrected interval %g [%g, %g]", p.Mean, p.Quantile(0.025), p.Quantile(0.975), mean, lo, hi)
	}
}

// replay returns a DirichletSource that hands out recorded draws.
func replay(t *testing.T, draws [][]float64) DirichletSource {
	i := 0
	return func(dst []float64) {
		if i >= len(draws) || len(draws[i]) != len(dst) {
			t.Fatalf("draw %d: the test asks for more draws or other sizes than recorded", i)
		}
		copy(dst, draws[i])
		i++
	}
}

// TestBayesSignedRankReplay: fed numpy's Dirichlet draws (as baycomp draws
// them), the test gives each sample the masses baycomp's matrix
// computation gives (1e-12: sums in another order) and exactly its
// probabilities (the same winners in every sample). Four cases: mixed
// differences, no rope, differences exactly on the rope's boundaries (the
// Heaviside step's ½), a clear winner with prior weight 1.
func TestBayesSignedRankReplay(t *testing.T) {
	for i, c := range loadBayesRef(t).SignedRank {
		p, err := BayesSignedRank(c.X, c.Y, c.Rope, c.Prior, len(c.Draws), replay(t, c.Draws))
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		for s, want := range c.Samples {
			for k := range 3 {
				if !scalar.EqualWithinAbs(p.Samples[s][k], want[k], 1e-12) {
					t.Errorf("case %d sample %d: masses %v, reference %v", i, s, p.Samples[s], want)
					break
				}
			}
		}
		if p.PLeft != c.PLeft || p.PRope != c.PRope || p.PRight != c.PRight {
			t.Errorf("case %d: probabilities %g %g %g, reference %g %g %g", i, p.PLeft, p.PRope, p.PRight, c.PLeft, c.PRope, c.PRight)
		}
	}
}

// TestBayesSignedRankQuadratic: the O(n) masses equal the direct double
// sum over every pair, on differences with many exact ties.
func TestBayesSignedRankQuadratic(t *testing.T) {
	z := []float64{0, 0.02, -0.01, 0.01, 0.01, -0.02, 0, 0.03, -0.01}
	w := []float64{0.05, 0.2, 0.1, 0.07, 0.13, 0.08, 0.11, 0.15, 0.11}
	h := func(v float64) float64 {
		switch {
		case v > 0:
			return 1
		case v == 0:
			return 0.5
		}
		return 0
	}
	for _, th := range []float64{0, 0.01, 0.02, 0.04} {
		var below, above float64
		for i := range z {
			for j := range z {
				below += w[i] * w[j] * h(-(z[i]+z[j])-th)
				above += w[i] * w[j] * h(z[i]+z[j]-th)
			}
		}
		b, a := newPairMasses(z, th).masses(w)
		if !scalar.EqualWithinAbs(b, below, 1e-15) || !scalar.EqualWithinAbs(a, above, 1e-15) {
			t.Errorf("threshold %g: masses %g %g, double sum %g %g", th, b, a, below, above)
		}
	}
}

// TestDirichletSource: the seeded sampler draws Dirichlet(0.5, 1, 1, 1, 1)
// vectors (the signed-rank test's weights for 4 data sets): each
// component's mean and variance within 4 standard errors of αᵢ/α₀ and
// αᵢ(α₀ − αᵢ)/(α₀²(α₀ + 1)) over 20000 draws, the first component's
// marginal Beta(0.5, 4) by a Kolmogorov–Smirnov distance below the 1%
// critical value 1.628/√n, every vector on the simplex; the same seed
// draws the same vectors, another seed others.
func TestDirichletSource(t *testing.T) {
	alpha := []float64{0.5, 1, 1, 1, 1}
	a0 := 4.5
	const n = 20000
	draw := NewDirichletSource(alpha, 42)
	comps := make([][]float64, len(alpha))
	w := make([]float64, len(alpha))
	for range n {
		draw(w)
		sum := 0.0
		for k, v := range w {
			if v < 0 {
				t.Fatalf("negative weight %g", v)
			}
			sum += v
			comps[k] = append(comps[k], v)
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("weights sum to %g", sum)
		}
	}
	for k, a := range alpha {
		mean, variance := stat.MeanVariance(comps[k], nil)
		wantMean := a / a0
		wantVar := a * (a0 - a) / (a0 * a0 * (a0 + 1))
		if se := math.Sqrt(wantVar / n); math.Abs(mean-wantMean) > 4*se {
			t.Errorf("component %d: mean %g, want %g ± %g", k, mean, wantMean, 4*se)
		}
		// The sample variance's standard error is √((μ₄ − σ⁴)/n) ≤ √(σ²/n):
		// weights lie in [0, 1], so (w − μ)⁴ ≤ (w − μ)² and μ₄ ≤ σ².
		if se := math.Sqrt(wantVar / n); math.Abs(variance-wantVar) > 4*se {
			t.Errorf("component %d: variance %g, want %g ± %g", k, variance, wantVar, 4*se)
		}
	}
	x := slices.Clone(comps[0])
	slices.Sort(x)
	beta := distuv.Beta{Alpha: 0.5, Beta: a0 - 0.5}
	d := 0.0
	for i, v := range x {
		f := beta.CDF(v)
		d = math.Max(d, math.Max(float64(i+1)/n-f, f-float64(i)/n))
	}
	if crit := 1.628 / math.Sqrt(n); d > crit {
		t.Errorf("first component: KS distance %g from Beta(0.5, 4), 1%% critical value %g", d, crit)
	}
	a, b, c := make([]float64, 5), make([]float64, 5), make([]float64, 5)
	NewDirichletSource(alpha, 42)(a)
	NewDirichletSource(alpha, 42)(b)
	NewDirichletSource(alpha, 43)(c)
	if !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Errorf("seed 42 drew %v and %v, seed 43 %v", a, b, c)
	}
}

// TestBayesSignedRankSeeded: with the seeded sampler and 50000 samples the
// probabilities agree with the replayed reference's within Monte Carlo
// error (the reference's 200 samples dominate: 4·√(p(1−p)/200) + 0.01),
// and the same seed gives the same numbers.
func TestBayesSignedRankSeeded(t *testing.T) {
	c := loadBayesRef(t).SignedRank[0]
	alpha := make([]float64, len(c.X)+1)
	for i := range alpha {
		alpha[i] = 1
	}
	alpha[0] = c.Prior
	p, err := BayesSignedRank(c.X, c.Y, c.Rope, c.Prior, DefaultSignedRankSamples, NewDirichletSource(alpha, 7))
	if err != nil {
		t.Fatal(err)
	}
	q, _ := BayesSignedRank(c.X, c.Y, c.Rope, c.Prior, DefaultSignedRankSamples, NewDirichletSource(alpha, 7))
	if p.Posterior3 != q.Posterior3 {
		t.Errorf("same seed: %v then %v", p.Posterior3, q.Posterior3)
	}
	for _, v := range [][2]float64{{p.PLeft, c.PLeft}, {p.PRope, c.PRope}, {p.PRight, c.PRight}} {
		if tol := 4*math.Sqrt(v[1]*(1-v[1])/200) + 0.01; math.Abs(v[0]-v[1]) > tol {
			t.Errorf("probabilities %v, reference %g %g %g (tolerance %g)", p.Posterior3, c.PLeft, c.PRope, c.PRight, tol)
		}
	}
	if _, err := BayesSignedRank(c.X, c.Y, -1, 0.5, 10, NewDirichletSource(alpha, 7)); err == nil {
		t.Error("negative rope accepted")
	}
	if _, err := BayesSignedRank(c.X, c.Y[:2], 0.01, 0.5, 10, NewDirichletSource(alpha, 7)); err == nil {
		t.Error("unequal lengths accepted")
	}
	if _, err := BayesSignedRank(c.X, c.Y, 0.01, 0, 10, NewDirichletSource(alpha, 7)); err == nil {
		t.Error("zero prior accepted")
	}
}
