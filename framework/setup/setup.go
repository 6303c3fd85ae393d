// Package setup describes what each row of a run's comparison tables is:
// the names the tables show for it, the pipeline's steps with their
// options, the learner's and the reduction's plugins with every parameter
// (defaults included), the reduction's code and decoder in the reducer's
// own words, calibration, class weights and tuning. The engine fills it
// from the resolved grid, the results directory keeps it in the run's
// manifest, and the report renders it as the set-up table.
package setup

import "strings"

// Row is one row of a run's comparison tables: a pipeline, a learner with
// one setting of its parameters and a reduction with one setting of its
// own.
type Row struct {
	// Key is the row's coordinates as the cells name them.
	Key Key `json:"key"`
	// Show is what the tables show for it: the blocks' labels (label =
	// "..."), else their names, and for a labelled learner only the
	// parameters its block varies (its fixed ones are part of its label).
	Show Key `json:"show"`
	// Pipeline is the encoding steps in order.
	Pipeline []Step `json:"pipeline"`
	// LearnerPlugin names the learner's plugin; LearnerParams are its
	// parameters that apply to the model that ran (param.Applies under
	// the problems the reduction hands the learner), every such one the
	// plugin declares a default for included.
	LearnerPlugin string  `json:"learner_plugin"`
	LearnerParams []Param `json:"learner_params"`
	// Tuning says how a tuned learner chooses its parameters on each
	// training part ("C ∈ {0.1, 1, 10} by 5-fold inner cross-validation
	// on accuracy"); empty for a learner that is not tuned.
	Tuning string `json:"tuning,omitempty"`
	// ReductionPlugin, Scheme and ReductionParams are the reduction's
	// plugin, scheme and parameters that apply (defaults included).
	ReductionPlugin string  `json:"reduction_plugin"`
	Scheme          string  `json:"scheme"`
	ReductionParams []Param `json:"reduction_params"`
	// Code and Decoder are the reducer's own words for its plan (empty
	// when it gives none), per dataset where they differ.
	Code    []Phrase `json:"code,omitempty"`
	Decoder []Phrase `json:"decoder,omitempty"`
	// Calibration is "platt", "isotonic" or empty; ClassWeight the
	// class_weight that applies ("balanced", "{a=2}") or empty.
	Calibration string `json:"calibration,omitempty"`
	ClassWeight string `json:"class_weight,omitempty"`
}

// Key names a row by its pipeline (encoder), learner, learner parameters
// and reduction, as the cells' coordinates do without the dataset.
type Key struct {
	Encoder   string `json:"encoder"`
	Learner   string `json:"learner"`
	Params    string `json:"params"`
	Reduction string `json:"reduction"`
}

// Step is one encoding step of a pipeline: the encoder block's name, its
// type and its options (defaults included).
type Step struct {
	Name    string  `json:"name"`
	Type    string  `json:"type"`
	Options []Param `json:"options,omitempty"`
}

// Param is one parameter and its value as the experiment file would write
// it; Default tells that the file left it to its default. Means is what
// the value stands for when it is the plugin's placeholder default
// (gamma = 0 for "1/features": param.ParamSpec's DefaultMeans), else empty.
type Param struct {
	Name    string `json:"name"`
	Value   string `json:"value"`
	Default bool   `json:"default,omitempty"`
	Means   string `json:"means,omitempty"`
}

// Phrase is a description and the datasets it holds for; no datasets
// means every dataset of the row.
type Phrase struct {
	Text     string   `json:"text"`
	Datasets []string `json:"datasets,omitempty"`
}

// Label is the row's label in the tables: the shown encoder (when
// withEncoder), learner, parameters and reduction, joined by single
// spaces, empty parts left out.
func (k Key) Label(withEncoder bool) string {
	var parts []string
	if withEncoder {
		parts = append(parts, k.Encoder)
	}
	for _, p := range []string{k.Learner, k.Params, k.Reduction} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " ")
}

// Params formats parameters as "name=value" (the value's meaning in
// place of the value when it has one: "gamma=1/features"), defaults
// marked with a trailing " (default)", joined by ", "; "–" for none.
func Params(ps []Param) string {
	if len(ps) == 0 {
		return "–"
	}
	parts := make([]string, len(ps))
	for i, p := range ps {
		v := p.Value
		if p.Means != "" {
			v = p.Means
		}
		parts[i] = p.Name + "=" + v
		if p.Default {
			parts[i] += " (default)"
		}
	}
	return strings.Join(parts, ", ")
}

// Phrases joins phrases: their texts alone when there is one, else each
// after its datasets ("iris, wine: …; letter: …"); "–" for none.
func Phrases(ps []Phrase) string {
	switch len(ps) {
	case 0:
		return "–"
	case 1:
		return ps[0].Text
	}
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = strings.Join(p.Datasets, ", ") + ": " + p.Text
	}
	return strings.Join(parts, "; ")
}
