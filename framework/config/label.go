package config

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/safetext"
)

// Display returns the name the tables, figures and file names give the
// pipeline: its label, else its name.
func (p *Pipeline) Display() string { return labelOr(p.Label, p.Name) }

// Display returns the name the tables, figures and file names give the
// learner: its label, else its name.
func (l *Learner) Display() string { return labelOr(l.Label, l.Name) }

// Display returns the name the tables, figures and file names give the
// reduction: its label, else its name.
func (r *Reduction) Display() string { return labelOr(r.Label, r.Name) }

func labelOr(label, name string) string {
	if label != "" {
		return label
	}
	return name
}

// MaxLabelChars bounds the length of a label = "..." in characters: a
// label is a row or column name of every table, and the LaTeX and HTML
// reports grew slower than linearly with it (a label of 900,000
// characters held a run for hours). The labels in the tests and docs
// are at most 30 characters long.
const MaxLabelChars = 200

// labelled is a block that may carry a label: its kind ("learner"), name,
// label and the label's range.
type labelled struct {
	kind, name, label string
	rng               hcl.Range
}

// checkLabels checks the label = "..." of pipelines, learners and
// reductions: a label is free text (it names the block in tables and
// figures, and file names are made safe from it), but not blank, without
// control characters, and no two blocks of a kind are shown alike (a
// label equal to another block's label or unlabelled name), and at most
// MaxLabelChars characters long.
func (d *decoder) checkLabels(exp *Experiment) {
	var pipelines, learners, reductions []labelled
	for _, p := range exp.Pipelines {
		pipelines = append(pipelines, labelled{"pipeline", p.Name, p.Label, p.LabelRange})
	}
	for _, l := range exp.Learners {
		learners = append(learners, labelled{"learner", l.Name, l.Label, l.LabelRange})
	}
	for _, r := range exp.Reductions {
		reductions = append(reductions, labelled{"reduction", r.Name, r.Label, r.LabelRange})
	}
	for _, blocks := range [][]labelled{pipelines, learners, reductions} {
		shown := map[string]labelled{}
		for _, b := range blocks {
			if b.rng != (hcl.Range{}) && strings.TrimSpace(b.label) == "" {
				d.errorf(b.rng, "Invalid label", "The label of %s %q is blank; give it some text, or drop it to show the name.", b.kind, b.name)
				continue
			}
			if n := utf8.RuneCountInString(b.label); n > MaxLabelChars {
				d.errorf(b.rng, "Invalid label", "The label of %s %q is %d characters long, more than the %d a label may have; it names a row or column of the tables.", b.kind, b.name, n, MaxLabelChars)
				continue
			}
			if strings.ContainsFunc(b.label, unicode.IsControl) {
				d.errorf(b.rng, "Invalid label", "The label of %s %q holds a control character (a line break?); a label is one line of text.", b.kind, b.name)
				continue
			}
			if err := safetext.CheckVisible(b.label); err != nil {
				d.errorf(b.rng, "Invalid label", "The label of %s %q %v; %s.", b.kind, b.name, err, safetext.VisibleRule)
				continue
			}
			show := labelOr(b.label, b.name)
			if prev, ok := shown[show]; ok {
				rng := b.rng
				if rng == (hcl.Range{}) {
					rng = prev.rng
				}
				d.errorf(rng, "Duplicate label", "%s %q and %s %q would both be shown as %q in the tables; give them different labels.",
					capital(prev.kind), prev.name, b.kind, b.name, show)
				continue
			}
			shown[show] = b
		}
	}
}

// capital returns s with its first letter in upper case.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
