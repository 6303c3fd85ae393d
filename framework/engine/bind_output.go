package engine

import (
	"math"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/metrics"
)

// bindOutput checks output block o against the experiment's metrics, the
// checks of the block alone being the parser's: the region of practical
// equivalence of the Bayesian comparisons (rope) fits them. It returns the
// diagnostics.
func bindOutput(o *config.Output, metricNames []string) hcl.Diagnostics {
	var ck checker
	ck.rope(o, metricNames)
	return ck.diags
}

// rope checks the region of practical equivalence of the Bayesian
// comparisons of output block o against the experiment's metrics: a rope
// as wide as a metric's whole range (rope = 5 for accuracy, within
// [0, 1]) holds every difference of two of its values, so that every
// comparison would find the rows equivalent. It reports the first such
// metric.
func (ck *checker) rope(o *config.Output, metricNames []string) {
	if o.Rope == nil {
		return
	}
	for _, name := range metricNames {
		m, err := metrics.Lookup(name)
		if err != nil || math.IsInf(m.Max-m.Min, 0) || *o.Rope < m.Max-m.Min {
			continue
		}
		ck.errorf(o.RopeRange, "Rope wider than the metric",
			"rope = %v is at least the whole range of %s ([%v, %v]): no two of its values differ by more than %v, so every Bayesian comparison would find the rows equivalent. rope is in the metrics' units, e.g. 0.01 for one point of accuracy.",
			*o.Rope, m.Name, m.Min, m.Max, m.Max-m.Min)
		return
	}
}
