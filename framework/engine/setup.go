package engine

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/problem"
	"github.com/polyclass/polyclass/framework/setup"
)

// PlanInfo is what a reduction's plan on a dataset says of itself, as
// the grid's dry run found it (see Grid.Plans).
type PlanInfo struct {
	Dataset, Reduction string
	Description        plugin.PlanDescription
}

// Setup describes every row of the grid's comparison tables, in the
// order of the cells that first name them (see setup.Row): what the
// tables show for it, the pipeline's steps, the learner's and the
// reduction's parameters with their defaults, the reducer's words for its
// code and decoder on each dataset, calibration, class weights and tuning.
func (g *Grid) Setup() []setup.Row {
	type words struct{ code, decoder map[string]string }
	plans := map[string]words{} // by reduction label
	for _, p := range g.Plans {
		w, ok := plans[p.Reduction]
		if !ok {
			w = words{map[string]string{}, map[string]string{}}
			plans[p.Reduction] = w
		}
		w.code[p.Dataset], w.decoder[p.Dataset] = p.Description.Code, p.Description.Decoder
	}
	var rows []setup.Row
	index := map[setup.Key]int{}
	datasets := map[setup.Key][]string{}
	for _, c := range g.Cells {
		id := c.ID()
		key := setup.Key{Encoder: id.Encoder, Learner: id.Learner, Params: id.Params, Reduction: id.Reduction}
		datasets[key] = append(datasets[key], id.Dataset)
		if _, ok := index[key]; ok {
			continue
		}
		index[key] = len(rows)
		rows = append(rows, g.setupRow(c, key))
	}
	for i := range rows {
		r := &rows[i]
		w := plans[r.Key.Reduction]
		r.Code = phrases(datasets[r.Key], w.code)
		r.Decoder = phrases(datasets[r.Key], w.decoder)
	}
	return rows
}

// setupRow describes the row of cell c, whose coordinates are key.
func (g *Grid) setupRow(c *Cell, key setup.Key) setup.Row {
	l, red := c.Learner, c.Reduction
	r := setup.Row{
		Key:           key,
		Show:          shownKey(c, key),
		LearnerPlugin: l.Config.Plugin, ReductionPlugin: red.Config.Plugin, Scheme: red.Scheme.Name,
		Calibration: red.Config.Calibrate, ClassWeight: classWeight(l, red).String(),
	}
	if red.Plugin != nil {
		r.ReductionPlugin = red.Plugin.Name
	}
	var specs []param.ParamSpec
	if l.Info != nil {
		specs = l.Info.Params
	}
	sets := []param.Params{c.Params}
	if l.Candidates != nil {
		sets = l.Candidates // a tuned parameter applies when it applies to some candidate
	}
	r.LearnerParams = applicable(specs, c.Params, sets, red.learnerProblems())
	r.ReductionParams = applicable(red.Scheme.Params, c.RedParams, []param.Params{c.RedParams}, 0)
	if l.Candidates != nil {
		r.Tuning = l.tuning()
	}
	encoders := map[string]*config.Encoder{}
	for _, e := range g.Experiment.Encoders {
		encoders[e.Name] = e
	}
	for _, name := range c.Pipeline.Config.Steps {
		e := encoders[name]
		if e == nil {
			continue
		}
		opts := param.Params{}
		for n, p := range e.Options {
			opts[n] = p.Value
		}
		r.Pipeline = append(r.Pipeline, setup.Step{Name: name, Type: e.Type, Options: withDefaults(encode.Kinds()[e.Type].Options, opts)})
	}
	return r
}

// shownKey is what the tables show for the row of cell c, whose
// coordinates are key: the blocks' labels for their names.
func shownKey(c *Cell, key setup.Key) setup.Key {
	l, red := c.Learner, c.Reduction
	show := setup.Key{Encoder: c.Pipeline.Config.Display(), Learner: l.Config.Display(), Params: key.Params, Reduction: red.shownLabel(c.RedParams)}
	if l.Config.Label != "" {
		show.Params = l.shownParams(c.Params)
	}
	return show
}

// rowsAlike refuses two rows of g's tables that would be shown alike,
// pipeline, learner, parameters and reduction together: a label that
// reads as another block's generated row name (learner "a" with label =
// "b k=15" beside learner "b" with k = [15, 16]) gave two rows "b k=15",
// told apart only by a number. The error is at the label of one of the
// two rows' blocks (a learner's first, then a reduction's, then a
// pipeline's), once per label.
func (ck *checker) rowsAlike(g *Grid) {
	type row struct {
		key setup.Key
		c   *Cell
	}
	first := map[string]row{}
	reported := map[hcl.Range]bool{}
	for _, c := range g.Cells {
		id := c.ID()
		key := setup.Key{Encoder: id.Encoder, Learner: id.Learner, Params: id.Params, Reduction: id.Reduction}
		show := shownKey(c, key)
		shown := show.Label(true)
		prev, seen := first[shown]
		if !seen {
			first[shown] = row{key, c}
			continue
		}
		if prev.key == key {
			continue
		}
		kind, name, other, rng := labelOfPair(prev.c, c)
		if rng == (hcl.Range{}) || reported[rng] {
			continue
		}
		reported[rng] = true
		short := setup.Key{Learner: show.Learner, Params: show.Params}.Label(false)
		ck.errorf(rng, "Duplicate label", "%s %q and %s would both be shown as %q in the tables (in full, %q); give them different labels.",
			capitalized(kind), name, other, short, shown)
	}
}

// labelOfPair returns, for the cells a and b of two rows shown alike, a
// block of theirs that carries a label (a learner's first, then a
// reduction's, then a pipeline's): its kind, name, the other row's
// description and the label's range; an empty range when neither row has
// a labelled block that differs.
func labelOfPair(a, b *Cell) (kind, name, other string, rng hcl.Range) {
	describe := func(c *Cell) string {
		s := fmt.Sprintf("learner %q", c.Learner.Config.Name)
		if p := c.ID().Params; p != "" {
			s += " with " + p
		}
		return s
	}
	for _, pair := range [][2]*Cell{{a, b}, {b, a}} {
		x, y := pair[0], pair[1]
		if l := x.Learner.Config; l.Label != "" && x.Learner != y.Learner {
			return "learner", l.Name, describe(y), l.LabelRange
		}
	}
	for _, pair := range [][2]*Cell{{a, b}, {b, a}} {
		x, y := pair[0], pair[1]
		if r := x.Reduction.Config; r.Label != "" && x.Reduction != y.Reduction {
			return "reduction", r.Name, fmt.Sprintf("reduction %q", y.Reduction.Config.Name), r.LabelRange
		}
	}
	for _, pair := range [][2]*Cell{{a, b}, {b, a}} {
		x, y := pair[0], pair[1]
		if p := x.Pipeline.Config; p.Label != "" && x.Pipeline != y.Pipeline {
			return "pipeline", p.Name, fmt.Sprintf("pipeline %q", y.Pipeline.Config.Name), p.LabelRange
		}
	}
	return "", "", "", hcl.Range{}
}

// capitalized returns s with its first letter in upper case.
func capitalized(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// labelShadows warns when a reduction's label = "..." names a parameter
// of its plugin's scheme too: the attribute labels the row in the tables
// and does not set the parameter, which params = { label = ... } sets.
func (ck *checker) labelShadows(red *Reduction) {
	if red.Config.Label == "" {
		return
	}
	if _, ok := param.LookupSpec(red.Scheme.Params, "label"); !ok {
		return
	}
	if _, set := red.Config.Params["label"]; set {
		return
	}
	rng := red.Config.LabelRange
	ck.diags = append(ck.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Label is not a parameter",
		Detail: fmt.Sprintf("Reduction %q: label = %q names its rows in the tables; scheme %s of plugin %s also has a parameter called label, which it does not set (params = { label = ... } sets it).",
			red.Config.Name, red.Config.Label, red.Scheme.Name, red.Plugin.Name), Subject: &rng})
}

// shownLabel is Label with the reduction's label (label = "...") for its
// name.
func (red *Reduction) shownLabel(params param.Params) string {
	l := red.Label(params)
	return red.Config.Display() + strings.TrimPrefix(l, red.Config.Name)
}

// shownParams are the parameters a labelled learner's row shows: those
// its block varies (its fixed ones are part of its label), or "(tuned)"
// for a tuned learner, whose tuned parameters vary by fold.
func (l *Learner) shownParams(p param.Params) string {
	if l.Candidates != nil {
		return "(tuned)"
	}
	varied := param.Params{}
	for n, v := range p {
		if l.Tuned[n] {
			varied[n] = v
		}
	}
	return varied.String()
}

// tuning says how a tuned learner chooses: its tuned parameters' values,
// the inner folds and the metric.
func (l *Learner) tuning() string {
	names := make([]string, 0, len(l.Tuned))
	for n := range l.Tuned {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		if d := l.Config.Params[n].Dist; d != nil {
			parts[i] = fmt.Sprintf("%s ~ %s", n, d)
			continue
		}
		var vals []string
		for _, e := range l.Config.Params[n].Value.Elems() {
			vals = append(vals, e.String())
		}
		parts[i] = fmt.Sprintf("%s ∈ {%s}", n, strings.Join(vals, ", "))
	}
	return fmt.Sprintf("%s%s by %d-fold inner cross-validation on %s", strings.Join(parts, ", "), l.searchText(), l.Config.Tune.Folds, l.TuneMetric)
}

// searchText says how a tuned learner's search differs from the grid's:
// its drawn candidates, its successive halving or hyperband and its
// budgets; "" for the grid.
func (l *Learner) searchText() string {
	t := l.Config.Tune
	var s string
	if t.Sampled() {
		s = fmt.Sprintf(", %d candidates drawn", len(l.Candidates))
	}
	if t.Halves() {
		minRes := map[int]string{config.MinExhaust: "exhaust", config.MinSmallest: "smallest"}[t.MinResources]
		if minRes == "" {
			minRes = strconv.Itoa(t.MinResources)
		}
		name := map[string]string{config.StrategyHalving: "successive halving", config.StrategyHyperband: "hyperband"}[t.Strategy]
		s += fmt.Sprintf(", %s (factor %d, min_resources %s", name, t.Factor, minRes)
		if t.AggressiveElimination {
			s += ", aggressive elimination"
		}
		s += ")"
	}
	if t.MaxEvals > 0 {
		s += fmt.Sprintf(", at most %d evaluations", t.MaxEvals)
	}
	if t.MaxTime > 0 {
		s += fmt.Sprintf(", %s per outer fold", t.MaxTime)
	}
	return s
}

// applicable is withDefaults without the parameters that apply (see
// param.Applies) under none of sets, the parameter sets a row's folds
// fit with, for a learner fitting problems of kind (0 for a reducer's
// parameters): a row lists the parameters of the model that ran.
func applicable(specs []param.ParamSpec, given param.Params, sets []param.Params, kind problem.ProblemKind) []setup.Param {
	all := withDefaults(specs, given)
	out := all[:0]
	for _, p := range all {
		if slices.ContainsFunc(sets, func(set param.Params) bool {
			return param.Applies(specs, p.Name, param.WithDefaults(specs, set), kind)
		}) {
			out = append(out, p)
		}
	}
	return out
}

// learnerProblems is the kind of problems red hands its learner: the
// whole multiclass task (scheme none), real-valued targets, or binary
// problems.
func (red *Reduction) learnerProblems() problem.ProblemKind {
	switch {
	case red.Scheme.NeedsMulticlass:
		return problem.Multiclass
	case red.Scheme.NeedsRegression:
		return problem.Regression
	}
	return problem.Binary
}

// withDefaults lists the parameters given with those the specs give
// defaults for, by name, the latter marked Default; a value equal to a
// default that stands for something else carries that meaning (Means).
func withDefaults(specs []param.ParamSpec, given param.Params) []setup.Param {
	all := param.WithDefaults(specs, given)
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]setup.Param, len(names))
	for i, n := range names {
		_, set := given[n]
		out[i] = setup.Param{Name: n, Value: all[n].String(), Default: !set, Means: defaultMeans(specs, n, all[n])}
	}
	return out
}

// defaultMeans is what v stands for when it is the default of the
// parameter name whose spec says what its default means; "" otherwise.
func defaultMeans(specs []param.ParamSpec, name string, v param.Value) string {
	spec, ok := param.LookupSpec(specs, name)
	if !ok || !spec.Default.Equal(v) {
		return ""
	}
	return spec.DefaultMeans
}

// phrases groups the datasets of a row by the words they have (in
// dataset order); one group for every dataset names none. Datasets
// without words are left out.
func phrases(datasets []string, words map[string]string) []setup.Phrase {
	var out []setup.Phrase
	for _, d := range datasets {
		w := words[d]
		if w == "" {
			continue
		}
		i := slices.IndexFunc(out, func(p setup.Phrase) bool { return p.Text == w })
		if i < 0 {
			out = append(out, setup.Phrase{Text: w})
			i = len(out) - 1
		}
		out[i].Datasets = append(out[i].Datasets, d)
	}
	if len(out) == 1 && len(out[0].Datasets) == len(datasets) {
		out[0].Datasets = nil
	}
	return out
}
