package neighbors

import "fmt"

// Metric is the distance between two rows.
type Metric int

const (
	// Euclidean is ‖x − y‖₂, scikit-learn's default (minkowski, p = 2).
	Euclidean Metric = iota
	// Manhattan is ‖x − y‖₁ = Σⱼ |xⱼ − yⱼ|.
	Manhattan
	// Cosine is 1 − x·y/(‖x‖‖y‖), clipped to [0, 2]; a row of zeros has
	// norm 1 for it, as in scikit-learn's cosine_distances.
	Cosine
)

// String returns the metric's name as scikit-learn spells it.
func (m Metric) String() string {
	switch m {
	case Euclidean:
		return "euclidean"
	case Manhattan:
		return "manhattan"
	case Cosine:
		return "cosine"
	}
	return fmt.Sprintf("Metric(%d)", int(m))
}

// ParseMetric returns the metric named s (euclidean, manhattan, cosine).
func ParseMetric(s string) (Metric, error) {
	for _, m := range []Metric{Euclidean, Manhattan, Cosine} {
		if m.String() == s {
			return m, nil
		}
	}
	return 0, fmt.Errorf("unknown metric %q (euclidean, manhattan or cosine)", s)
}

// Weighting says how the k neighbours vote.
type Weighting int

const (
	// Uniform gives every neighbour one vote (scikit-learn's default).
	Uniform Weighting = iota
	// Distance gives a neighbour the weight 1/distance; when some
	// neighbours are at distance 0, they alone vote, one vote each.
	Distance
)

// String returns the weighting's name as scikit-learn spells it.
func (w Weighting) String() string {
	switch w {
	case Uniform:
		return "uniform"
	case Distance:
		return "distance"
	}
	return fmt.Sprintf("Weighting(%d)", int(w))
}

// ParseWeighting returns the weighting named s (uniform, distance).
func ParseWeighting(s string) (Weighting, error) {
	for _, w := range []Weighting{Uniform, Distance} {
		if w.String() == s {
			return w, nil
		}
	}
	return 0, fmt.Errorf("unknown weights %q (uniform or distance)", s)
}

// Algorithm is how the neighbours are found. Every algorithm finds the k
// nearest rows exactly; they differ in speed and in which of several rows
// at the same distance as the k-th they keep, each as its scikit-learn
// namesake does.
type Algorithm int

const (
	// Auto picks as scikit-learn's algorithm="auto": Brute for sparse
	// input, the cosine metric, more than 15 columns or k at least half
	// the training rows; KDTree otherwise.
	Auto Algorithm = iota
	// Brute computes the distance to every training row, offered to each
	// test row's heap in row order.
	Brute
	// KDTree searches scikit-learn's KD tree (Euclidean and Manhattan
	// metrics, dense input).
	KDTree
)

// String returns the algorithm's name as scikit-learn spells it.
func (a Algorithm) String() string {
	switch a {
	case Auto:
		return "auto"
	case Brute:
		return "brute"
	case KDTree:
		return "kd_tree"
	}
	return fmt.Sprintf("Algorithm(%d)", int(a))
}

// ParseAlgorithm returns the algorithm named s (auto, brute, kd_tree).
func ParseAlgorithm(s string) (Algorithm, error) {
	for _, a := range []Algorithm{Auto, Brute, KDTree} {
		if a.String() == s {
			return a, nil
		}
	}
	return 0, fmt.Errorf("unknown algorithm %q (auto, brute or kd_tree)", s)
}

// DefaultK is scikit-learn's n_neighbors.
const DefaultK = 5

// Options configures Fit. The zero value (but for K, where 0 means
// DefaultK) is scikit-learn's KNeighborsClassifier(): 5 neighbours,
// uniform weights, Euclidean distance, algorithm auto, leaf size 30.
type Options struct {
	// K is the number of neighbours, 1 ≤ K ≤ training rows (0: DefaultK).
	K         int
	Weights   Weighting
	Metric    Metric
	Algorithm Algorithm
	// LeafSize is the KD tree's leaf size (0: DefaultLeafSize).
	LeafSize int
}

// withDefaults fills in K and LeafSize.
func (o Options) withDefaults() Options {
	if o.K == 0 {
		o.K = DefaultK
	}
	if o.LeafSize == 0 {
		o.LeafSize = DefaultLeafSize
	}
	return o
}
