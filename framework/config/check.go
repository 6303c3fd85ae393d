package config

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/safetext"
)

// Checks that make validate reject what a run would otherwise accept and
// then fail on, or silently misread. They are kept apart from the
// decoding of the schema so that either can change alone.

// repeatedExperiment reports, at the second experiment block, that a file
// holds one experiment; first is the first block seen (nil before it).
// It returns true for a block that must be skipped.
func (d *decoder) repeatedExperiment(b *hcl.Block, first **hcl.Block) bool {
	if *first == nil {
		*first = b
		return false
	}
	d.errorf(b.DefRange, "Duplicate experiment block",
		"A file declares one experiment; experiment %q is already declared at %s. Put the second experiment in a file of its own.",
		(*first).Labels[0], at((*first).DefRange))
	return true
}

// metricList checks the metrics attribute: at least one metric, each named
// once (the error of an empty list names the default for datasets). It returns the range of each element (the whole list's range when
// the expression is not a literal list).
func (d *decoder) metricList(a *hcl.Attribute, names []string, datasets []*Dataset) []hcl.Range {
	ranges := slices.Repeat([]hcl.Range{a.Expr.Range()}, len(names))
	if exprs, diags := hcl.ExprList(a.Expr); !diags.HasErrors() && len(exprs) == len(names) {
		for i, e := range exprs {
			ranges[i] = e.Range()
		}
	}
	if v, diags := a.Expr.Value(d.ctx); len(names) == 0 && !diags.HasErrors() && v.IsWhollyKnown() && !v.IsNull() && v.CanIterateElements() && v.LengthInt() == 0 {
		d.errorf(a.Expr.Range(), "No metrics", "metrics is an empty list, so the tables would have no column; name at least one metric (bench list metrics), or leave metrics out for the default (%s).", strings.Join(DefaultMetrics(datasets), ", "))
	}
	first := map[string]int{}
	for i, n := range names {
		if j, dup := first[n]; dup {
			d.wholef(ranges[i], "Duplicate metric", "Metric %q is listed twice (first at %s).", n, at(ranges[j]))
			continue
		}
		first[n] = i
	}
	return ranges
}

// at formats the start of r as file:line:col.
func at(r hcl.Range) string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}

// gate reports, at rng, a path of attribute name that holds a character
// no generated file may hold (safetext): the results directory reaches
// the job scripts of bench submit and the commands bench prints, and no
// path of the file may carry a line break into them, nor a bidi control
// that shows it as another path (safetext.CheckVisible).
func (d *decoder) gate(rng hcl.Range, name, value string) {
	if err := safetext.CheckVisible(value); err != nil {
		d.errorf(rng, "Invalid character", "%s %s %v; %s.", name, safetext.Show(value), err, safetext.Rule)
	}
}

// pathGate is gate for a path, which also must not read as a shell's
// expansion (Unexpanded): bench expands none, so that "~/results" would
// name a directory "~" beside the experiment file, not the home directory
// it reads as. Nor may it be a URL (IsURL): bench reads and writes local
// files only, and a URL cleaned as a path ("https:/example.com/x.csv")
// was refused as a file that does not exist.
func (d *decoder) pathGate(rng hcl.Range, name, value string) {
	d.gate(rng, name, value)
	if kind, what := Unexpanded(value); kind != "" {
		d.errorf(rng, "Unexpanded "+string(kind), "%s %s %s, which bench does not expand (a shell expands it in a command line, before bench sees it): write the path out, or give a path relative to the experiment file.", name, safetext.Show(value), what)
	}
	if IsURL(value) {
		how := "download the file first (curl -O URL, say) and give its path, relative to the experiment file or absolute"
		if name == "dir" {
			how = "results are written into a local directory: give its path, relative to the experiment file or absolute"
		}
		d.errorf(rng, "Path is a URL", "%s %s is a URL, but bench's paths name local files and directories only, and it downloads nothing: %s.", name, safetext.Show(value), how)
	}
}

// urlScheme is the start of a URL: a scheme (RFC 3986: a letter, then
// letters, digits, +, - and .) and "://".
var urlScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// IsURL reports whether path is a URL ("https://host/x.csv",
// "s3://bucket/x", "file:///x") rather than a path: it starts with a
// scheme and "://", which no path a user means to write does.
func IsURL(path string) bool {
	return urlScheme.MatchString(path)
}

// shellVariable is a shell's variable reference, $NAME or ${NAME}, at
// the start of a path's element, where a path is built from one
// ("$HOME/res", "data/${USER}"); a "$" inside a name ("my$file.csv") is
// taken as written.
var shellVariable = regexp.MustCompile(`(^|/)\$(\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)`)

// Unexpanded says what path holds that a shell would expand and bench
// does not: kind HomeDirectory when it starts with "~" ("~", "~/x",
// "~user/x"), kind ShellVariable when it holds $NAME or ${NAME}
// at the start of one of its elements ("$HOME/res", "d/${X}.csv"), with
// what, the words that say so ("starts with ~", "holds $HOME"); "", ""
// for neither. A "~" or "$" elsewhere ("./~/x", "my$file.csv", "a$(b)",
// "x$") is a name like any.
func Unexpanded(path string) (kind Expansion, what string) {
	first, _, _ := strings.Cut(path, "/")
	if strings.HasPrefix(first, "~") {
		return HomeDirectory, "starts with ~"
	}
	if m := shellVariable.FindStringSubmatch(path); m != nil {
		return ShellVariable, "holds $" + m[2]
	}
	return "", ""
}

// Expansion is the kind of shell expansion a path reads as (Unexpanded).
type Expansion string

// The expansions Unexpanded finds.
const (
	HomeDirectory Expansion = "home directory" // ~, ~/x, ~user/x
	ShellVariable Expansion = "variable"       // $NAME or ${NAME} starting an element
)

// unusedEncoders warns of each encoder that no pipeline of exp lists (when
// the file declares pipelines): it encodes nothing, perhaps a step left
// out of the pipeline meant to hold it.
func (d *decoder) unusedEncoders(exp *Experiment) {
	used := map[string]bool{}
	for _, p := range exp.Pipelines {
		for _, s := range p.Steps {
			used[s] = true
		}
	}
	for _, e := range exp.Encoders {
		if !used[e.Name] {
			d.warnf(e.DeclRange, "Encoder in no pipeline", "Encoder %q is in no pipeline's steps, so it encodes nothing. Add it to a pipeline, or remove it.", e.Name)
		}
	}
}

// uncovered warns of each dataset that no reduction covers and each
// learner that no reduction takes (their datasets and learners lists
// leave them out): they have no cell, so they are missing from the tables.
func (d *decoder) uncovered(exp *Experiment) {
	for _, ds := range exp.Datasets {
		if !slices.ContainsFunc(exp.Reductions, func(r *Reduction) bool { return r.Datasets == nil || slices.Contains(r.Datasets, ds.Name) }) {
			d.warnf(ds.DeclRange, "Dataset in no reduction", "Dataset %q is in no reduction's datasets list, so it has no cell and is missing from the tables. Add it to a reduction's datasets, or remove it.", ds.Name)
		}
	}
	for _, l := range exp.Learners {
		if !slices.ContainsFunc(exp.Reductions, func(r *Reduction) bool { return r.Learners == nil || slices.Contains(r.Learners, l.Name) }) {
			d.warnf(l.DeclRange, "Learner in no reduction", "Learner %q is in no reduction's learners list, so it has no cell and is missing from the tables. Add it to a reduction's learners, or remove it.", l.Name)
		}
	}
}
