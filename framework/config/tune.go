package config

import (
	"github.com/hashicorp/hcl/v2"
)

// Tune declares that a learner's list-valued parameters are tuned by an
// inner cross-validation on each outer training part instead of crossed
// into the grid: one cell, refitted with the best combination per fold.
type Tune struct {
	// Folds is the number of inner folds (default 5).
	Folds int
	// Metric picks the best combination by its mean over the inner folds
	// (default: the experiment's first metric); ties go to the first
	// combination in grid order, as scikit-learn's GridSearchCV.
	Metric      string
	MetricRange hcl.Range
	// InnerSeed, when set (≥ 0), makes the inner split scikit-learn's
	// StratifiedKFold(Folds, shuffle=True, random_state=InnerSeed) (KFold
	// for unstratified or multi-label data); otherwise the inner split is
	// seeded from the cell and the outer fold. -1 means not set.
	InnerSeed int64

	DeclRange hcl.Range
}

// DefaultTuneFolds is the number of inner folds of a tune block.
const DefaultTuneFolds = 5

// tuneBlock is a tune block as written.
type tuneBlock struct {
	DefRange   hcl.Range `hcl:",def_range"`
	Folds      *float64  `hcl:"folds,optional"`
	FoldsR     hcl.Range `hcl:"folds,attr_value_range"`
	Metric     *string   `hcl:"metric,optional"`
	MetricR    hcl.Range `hcl:"metric,attr_value_range"`
	InnerSeed  *float64  `hcl:"inner_seed,optional"`
	InnerSeedR hcl.Range `hcl:"inner_seed,attr_value_range"`
}

// tune checks a learner's tune block.
func (d *decoder) tune(b *tuneBlock) *Tune {
	t := &Tune{Folds: DefaultTuneFolds, InnerSeed: -1, DeclRange: b.DefRange}
	integer(d, &t.Folds, "folds", b.Folds, b.FoldsR, 2)
	if b.Metric != nil {
		t.Metric, t.MetricRange = *b.Metric, b.MetricR
	}
	integer(d, &t.InnerSeed, "inner_seed", b.InnerSeed, b.InnerSeedR, 0)
	return t
}
