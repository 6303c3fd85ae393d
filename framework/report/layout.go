package report

import (
	"slices"

	"github.com/polyclass/polyclass/framework/outcome"
)

// reportInput is what the views are built from: the tables, and what
// only some formats have (the cells, the figures, the set-up and the rows
// whose heat maps were asked for; nil where a format has none).
type reportInput struct {
	Tables        *Tables
	Cells         []*outcome.CellResult
	Figures       []Figure
	Setup         *Setup
	ConfusionRows []string
}

// reportSections returns the sections of every view in the report's
// order; each format writes those it shows (section.In), JSON in its
// keys' order (jsonKeys). A new view is a file with its section builder
// and its line here.
func reportSections(in reportInput) ([]section, error) {
	t := in.Tables
	perClass, err := perClassSection(t, in.Figures)
	if err != nil {
		return nil, err
	}
	return slices.Concat(
		metricSections(t, in.Figures),
		setupTableSection(t),
		selectedSection(t.Selected, t.Edges),
		searchSection(t.Searches, in.Figures),
		codeSection(codeRows(in.Cells, t.shown)),
		conventionsSection(t.conventions),
		perClass,
		confusionSection(t, in.Figures, in.ConfusionRows),
		setupSection(t, in.Setup),
		sourceSection(in.Setup),
		computedBySection(t.ComputedBy),
	), nil
}
