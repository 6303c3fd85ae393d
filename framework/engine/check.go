package engine

import (
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/suggest"
)

// metricRange returns the location of the experiment's i-th metric name.
func metricRange(exp *config.Experiment, i int) hcl.Range {
	if i < len(exp.MetricRanges) && exp.MetricRanges[i].Filename != "" {
		return exp.MetricRanges[i]
	}
	return exp.MetricsRange
}

// targetRange returns where dataset c's target is set, or the dataset
// block when the target is the default "class".
func targetRange(c *config.Dataset) hcl.Range {
	if c.TargetRange.Filename != "" {
		return c.TargetRange
	}
	return c.DeclRange
}

// unknownTarget reports that dataset c has no column named by its target,
// at the target attribute (or the dataset block when target is defaulted).
func (r *resolver) unknownTarget(c *config.Dataset, columns []string) {
	hint := suggest.DidYouMean(c.Target, columns)
	if c.TargetDefaulted {
		r.errorf(targetRange(c), "Unknown column",
			"Dataset %q has no column %q, the default target%s; set target = \"COLUMN\" in the dataset block. Its columns are: %s.",
			c.Name, c.Target, hint, strings.Join(columns, ", "))
		return
	}
	r.errorf(targetRange(c), "Unknown column", "Dataset %q has no column %q%s; its columns are: %s.", c.Name, c.Target, hint, strings.Join(columns, ", "))
}
