package stats

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distmv"
	"gonum.org/v1/gonum/stat/distuv"
)

// The Bayesian comparisons of Benavoli, Corani, Demšar & Zaffalon ("Time
// for a change: a tutorial for comparing multiple classifiers through
// Bayesian analysis", JMLR 18, 2017), as the Python package baycomp
// computes them. Both compare a left learner x with a right learner y
// whose scores are better when higher, through the difference y − x, and
// a region of practical equivalence (rope) of half-width rope ≥ 0 around
// zero: P(left) is the posterior probability that x is better than y by
// more than rope (y − x < −rope), P(right) that y is better by more than
// rope, and P(rope) that they lie within rope of each other. For scores
// that are better when lower, negate both.

// Posterior3 holds the posterior probabilities of the three regions.
type Posterior3 struct {
	// PLeft: the left learner is better by more than the rope; PRope:
	// the difference lies within the rope; PRight: the right learner is
	// better by more than the rope. They sum to 1; with rope 0, PRope is 0.
	PLeft, PRope, PRight float64
}

// CorrelatedPosterior is the posterior of the Bayesian correlated t-test
// on one data set: a Student t distribution of the mean difference y − x
// with DF degrees of freedom, location Mean and scale Scale, and the
// probabilities it gives the three regions of a rope of half-width Rope.
type CorrelatedPosterior struct {
	Posterior3
	Mean, Scale, DF, Rope float64
}

// Density returns the posterior density of the mean difference at d (a
// point mass, +Inf at Mean, when Scale is 0).
func (p CorrelatedPosterior) Density(d float64) float64 {
	if p.Scale == 0 {
		if d == p.Mean {
			return math.Inf(1)
		}
		return 0
	}
	return distuv.StudentsT{Mu: p.Mean, Sigma: p.Scale, Nu: p.DF}.Prob(d)
}

// Quantile returns the posterior's q-quantile, 0 < q < 1 (Mean when
// Scale is 0).
func (p CorrelatedPosterior) Quantile(q float64) float64 {
	if p.Scale == 0 {
		return p.Mean
	}
	return distuv.StudentsT{Mu: p.Mean, Sigma: p.Scale, Nu: p.DF}.Quantile(q)
}

// BayesCorrelatedTTest is the Bayesian correlated t-test (Corani &
// Benavoli 2015; Benavoli et al. 2017, section 4) of the paired scores x
// and y of two learners on the same J train/test splits of one data set,
// nTrain and nTest rows in total over the splits. With d = y − x, mean d̄
// and sample variance s² (J − 1 in the denominator), and the correlation
// of the scores ρ = nTest/(nTrain + nTest) (1/k for k-fold
// cross-validation, repeated or not), the posterior of the mean
// difference is Student's t with J − 1 degrees of freedom, location d̄ and
// scale
//
//	√((1/J + ρ/(1 − ρ)) · s²),
//
// the variance Nadeau & Bengio's correction gives (CorrectedTTest), as
// baycomp's CorrelatedTTest. P(left) = F(−rope), P(right) = 1 − F(rope) and
// P(rope) the rest, F the posterior's distribution function; with rope 0
// P(rope) is 0. nTrain, nTest ≥ 1 and rope ≥ 0 are required; fewer than
// MinFolds splits, or differences that are all equal (s = 0: baycomp's
// point mass, probabilities of 1 the data cannot support), are a
// PreconditionError.
func BayesCorrelatedTTest(x, y []float64, nTrain, nTest int, rope float64) (CorrelatedPosterior, error) {
	J := len(x)
	switch {
	case len(y) != J:
		return CorrelatedPosterior{}, fmt.Errorf("correlated t-test: %d scores for x but %d for y", J, len(y))
	case J < MinFolds:
		return CorrelatedPosterior{}, CheckFolds("correlated t-test", J)
	case nTrain < 1 || nTest < 1:
		return CorrelatedPosterior{}, fmt.Errorf("correlated t-test: training (%d) and test (%d) sizes must be positive", nTrain, nTest)
	case !(rope >= 0) || math.IsInf(rope, 0):
		return CorrelatedPosterior{}, fmt.Errorf("correlated t-test: rope %v is not a finite number ≥ 0", rope)
	}
	d := make([]float64, J)
	for i := range d {
		d[i] = y[i] - x[i]
		if math.IsNaN(d[i]) || math.IsInf(d[i], 0) {
			return CorrelatedPosterior{}, fmt.Errorf("correlated t-test: score pair %d (%v, %v) is not finite", i, x[i], y[i])
		}
	}
	if err := checkSpread("correlated t-test", d); err != nil {
		return CorrelatedPosterior{}, err
	}
	mean, variance := stat.MeanVariance(d, nil)
	rho := float64(nTest) / float64(nTrain+nTest)
	p := CorrelatedPosterior{Mean: mean, Scale: math.Sqrt((1/float64(J) + rho/(1-rho)) * variance), DF: float64(J - 1), Rope: rope}
	t := distuv.StudentsT{Mu: mean, Sigma: p.Scale, Nu: p.DF}
	p.PRight = 1 - t.CDF(rope)
	p.PLeft = t.CDF(-rope)
	if rope == 0 {
		p.PLeft = 1 - p.PRight
	} else {
		p.PRope = 1 - p.PLeft - p.PRight
	}
	return p, nil
}

// DefaultSignedRankPrior is the weight of the Dirichlet process's prior
// pseudo-observation at zero difference (baycomp's default).
const DefaultSignedRankPrior = 0.5

// DefaultSignedRankSamples is the number of Monte Carlo samples of the
// Bayesian signed-rank test (baycomp's default): the probabilities then
// have a Monte Carlo standard error of at most √(¼/50000) ≈ 0.0022.
const DefaultSignedRankSamples = 50000

// SignedRankPosterior is the Monte Carlo posterior of the Bayesian
// signed-rank test: the probabilities of the three regions, each the share
// of the samples in which that region has the largest posterior mass, and
// the samples themselves, each the masses (left, rope, right) it gives the
// regions.
type SignedRankPosterior struct {
	Posterior3
	Rope    float64
	Samples [][3]float64
}

// DirichletSource draws weight vectors of a Dirichlet distribution into
// dst (len(dst) components).
type DirichletSource func(dst []float64)

// NewDirichletSource returns a source of Dirichlet(alpha) vectors from a
// PCG generator seeded with seed (gonum's distmv.Dirichlet: normalised
// gamma variates).
func NewDirichletSource(alpha []float64, seed uint64) DirichletSource {
	d := distmv.NewDirichlet(alpha, rand.NewPCG(seed, 0x6261796573))
	return func(dst []float64) { d.Rand(dst) }
}

// BayesSignedRank is the Bayesian signed-rank test (Benavoli, Mangili,
// Corani, Zaffalon & Ruggeri, "A Bayesian Wilcoxon signed-rank test based
// on the Dirichlet process", ICML 2014; Benavoli et al. 2017, section 5)
// of two learners' mean scores x and y on n data sets, as baycomp's
// SignedRankTest. The differences z = (0, y₁ − x₁, …, yₙ − xₙ), the first
// the prior pseudo-observation, get Dirichlet(prior, 1, …, 1) weights w;
// each of nsamples weight vectors drawn from draw gives the regions the
// masses
//
//	left  = Σᵢⱼ wᵢwⱼ H(−(zᵢ + zⱼ) − 2·rope),
//	right = Σᵢⱼ wᵢwⱼ H(zᵢ + zⱼ − 2·rope),   rope = 1 − left − right,
//
// H the Heaviside step with H(0) = ½ (with rope 0: right as above and
// left = 1 − right, rope 0). The probability of a region is the share of
// samples in which it has the largest mass (the first of equal masses).
// draw must fill n + 1 components; NewDirichletSource with alpha (prior,
// 1, …, 1) draws as baycomp does, and a test may replay recorded draws.
// prior > 0, rope ≥ 0 and nsamples ≥ 1 are required; fewer than
// MinDatasets data sets, or differences that are all zero (every sample
// the same masses, the first of equal masses winning: a degenerate
// posterior), are a PreconditionError.
func BayesSignedRank(x, y []float64, rope, prior float64, nsamples int, draw DirichletSource) (SignedRankPosterior, error) {
	n := len(x)
	switch {
	case len(y) != n:
		return SignedRankPosterior{}, fmt.Errorf("signed-rank test: %d scores for x but %d for y", n, len(y))
	case n < MinDatasets:
		return SignedRankPosterior{}, CheckDatasets("signed-rank test", n)
	case !(rope >= 0) || math.IsInf(rope, 0):
		return SignedRankPosterior{}, fmt.Errorf("signed-rank test: rope %v is not a finite number ≥ 0", rope)
	case !(prior > 0) || math.IsInf(prior, 0):
		return SignedRankPosterior{}, fmt.Errorf("signed-rank test: prior weight %v is not a finite number > 0", prior)
	case nsamples < 1:
		return SignedRankPosterior{}, fmt.Errorf("signed-rank test: %d samples", nsamples)
	}
	z := make([]float64, n+1)
	for i := range x {
		z[i+1] = y[i] - x[i]
		if math.IsNaN(z[i+1]) || math.IsInf(z[i+1], 0) {
			return SignedRankPosterior{}, fmt.Errorf("signed-rank test: score pair %d (%v, %v) is not finite", i, x[i], y[i])
		}
	}
	if err := checkNonZero("signed-rank test", z[1:]); err != nil {
		return SignedRankPosterior{}, err
	}
	m := newPairMasses(z, 2*rope)
	post := SignedRankPosterior{Rope: rope, Samples: make([][3]float64, nsamples)}
	w := make([]float64, n+1)
	var counts [3]int
	for s := range post.Samples {
		draw(w)
		left, right := m.masses(w)
		var smp [3]float64
		if rope > 0 {
			smp = [3]float64{left, -left - right + 1, right}
		} else {
			smp = [3]float64{-right + 1, 0, right}
		}
		post.Samples[s] = smp
		best := 0
		for k := 1; k < 3; k++ {
			if smp[k] > smp[best] {
				best = k
			}
		}
		counts[best]++
	}
	post.PLeft = float64(counts[0]) / float64(nsamples)
	post.PRope = float64(counts[1]) / float64(nsamples)
	post.PRight = float64(counts[2]) / float64(nsamples)
	return post, nil
}

// pairMasses computes Σᵢⱼ wᵢwⱼ H(zᵢ + zⱼ − t) and Σᵢⱼ wᵢwⱼ H(−(zᵢ + zⱼ) − t)
// in O(n) per weight vector: in the order of increasing z, the j with
// zᵢ + zⱼ above (below) a threshold form a suffix (prefix), since rounded
// addition is monotone, so each i needs the prefix sums of the sorted
// weights at four boundaries found once.
type pairMasses struct {
	order []int // indices of z in increasing order
	// For each i: zᵢ + z_order[p] < −t for p < lt[i], ≤ −t for p < le[i],
	// < t for p < ge[i] and ≤ t for p < gt[i].
	lt, le, ge, gt []int
	prefix         []float64
}

func newPairMasses(z []float64, t float64) *pairMasses {
	n := len(z)
	m := &pairMasses{order: make([]int, n), lt: make([]int, n), le: make([]int, n), ge: make([]int, n), gt: make([]int, n),
		prefix: make([]float64, n+1)}
	for i := range m.order {
		m.order[i] = i
	}
	slices.SortStableFunc(m.order, func(a, b int) int { return cmp.Compare(z[a], z[b]) })
	for i, zi := range z {
		first := func(pred func(s float64) bool) int {
			lo, hi := 0, n
			for lo < hi {
				mid := (lo + hi) / 2
				if pred(zi + z[m.order[mid]]) {
					hi = mid
				} else {
					lo = mid + 1
				}
			}
			return lo
		}
		m.lt[i] = first(func(s float64) bool { return s >= -t })
		m.le[i] = first(func(s float64) bool { return s > -t })
		m.ge[i] = first(func(s float64) bool { return s >= t })
		m.gt[i] = first(func(s float64) bool { return s > t })
	}
	return m
}

// masses returns the masses below −t and above t of the weights w.
func (m *pairMasses) masses(w []float64) (below, above float64) {
	for p, i := range m.order {
		m.prefix[p+1] = m.prefix[p] + w[i]
	}
	total := m.prefix[len(w)]
	for i, wi := range w {
		b := m.prefix[m.lt[i]] + 0.5*(m.prefix[m.le[i]]-m.prefix[m.lt[i]])
		a := (total - m.prefix[m.gt[i]]) + 0.5*(m.prefix[m.gt[i]]-m.prefix[m.ge[i]])
		below += wi * b
		above += wi * a
	}
	return below, above
}
