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

var tuneSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "folds"}, {Name: "metric"}, {Name: "inner_seed"}}}

// tune decodes a learner's tune block.
func (d *decoder) tune(b *hcl.Block) *Tune {
	t := &Tune{Folds: DefaultTuneFolds, InnerSeed: -1, DeclRange: b.DefRange}
	c, diags := b.Body.Content(tuneSchema)
	d.diags = append(d.diags, diags...)
	if a, ok := c.Attributes["folds"]; ok {
		if n, ok := d.integer(a, 2); ok {
			t.Folds = n
		}
	}
	if a, ok := c.Attributes["metric"]; ok {
		t.Metric, t.MetricRange = d.str(a), a.Expr.Range()
	}
	if a, ok := c.Attributes["inner_seed"]; ok {
		if n, ok := d.integer(a, 0); ok {
			t.InnerSeed = int64(n)
		}
	}
	return t
}
