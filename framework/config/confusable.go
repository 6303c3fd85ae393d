package config

import (
	"strconv"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/safetext"
)

// shown is a name as the tables show it: the kind of its block
// ("dataset"), the name, and where it is written.
type shown struct {
	kind, name string
	rng        hcl.Range
}

// confusableNames warns of two names of one kind that a reader may take
// for one (safetext.Skeleton: they differ only by letters of other
// scripts that look Latin, such as the Cyrillic і, or by Unicode
// normalisation): datasets by name; pipelines, learners and reductions
// and encoders by the name the tables show. The warning is at the second
// name and names both, in ASCII quoting so that the difference shows.
func (d *decoder) confusableNames(exp *Experiment) {
	var datasets, encoders, pipelines, learners, reductions []shown
	for _, ds := range exp.Datasets {
		datasets = append(datasets, shown{"dataset", ds.Name, ds.DeclRange})
	}
	for _, e := range exp.Encoders {
		encoders = append(encoders, shown{"encoder", e.Name, e.DeclRange})
	}
	for _, p := range exp.Pipelines {
		pipelines = append(pipelines, shown{"pipeline", p.Display(), rangeOr(p.LabelRange, p.DeclRange)})
	}
	for _, l := range exp.Learners {
		learners = append(learners, shown{"learner", l.Display(), rangeOr(l.LabelRange, l.DeclRange)})
	}
	for _, r := range exp.Reductions {
		reductions = append(reductions, shown{"reduction", r.Display(), rangeOr(r.LabelRange, r.DeclRange)})
	}
	for _, names := range [][]shown{datasets, encoders, pipelines, learners, reductions} {
		d.confusable(names)
	}
}

// confusable warns of each name of names whose safetext.Skeleton is that
// of an earlier, different name.
func (d *decoder) confusable(names []shown) {
	first := map[string]shown{}
	for _, n := range names {
		key := safetext.Skeleton(n.name)
		prev, ok := first[key]
		switch {
		case !ok:
			first[key] = n
		case prev.name != n.name:
			d.warnf(n.rng, "Confusable names",
				"The %s %s (shown as %q) looks like the %s %s (shown as %q) declared at %s, but they differ in letters of other scripts, in quotes, in blanks or in Unicode normalisation: tables and figures would show two %ss that read alike. Rename one.",
				n.kind, strconv.QuoteToASCII(n.name), n.name, prev.kind, strconv.QuoteToASCII(prev.name), prev.name, at(prev.rng), n.kind)
		}
	}
}

// rangeOr returns r, or def when r is empty.
func rangeOr(r, def hcl.Range) hcl.Range {
	if r == (hcl.Range{}) {
		return def
	}
	return r
}
