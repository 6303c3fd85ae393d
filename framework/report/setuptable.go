package report

import (
	"fmt"
	"strings"

	"github.com/polyclass/polyclass/framework/setup"
)

// setupRows returns the set-up of each row of rows, in their order, from
// the run's set-up rows; rows the run did not describe are left out.
func setupRows(rows []Row, described []setup.Row) []setup.Row {
	byKey := make(map[setup.Key]setup.Row, len(described))
	for _, r := range described {
		byKey[r.Key] = r
	}
	var out []setup.Row
	for _, r := range rows {
		if d, ok := byKey[r.key]; ok {
			out = append(out, d)
		}
	}
	return out
}

// setupCells are the columns of the set-up table (after the row's label),
// each a function of the row and of an escaping function.
var setupCells = []struct {
	head string
	cell func(setup.Row) string
}{
	{"pipeline", pipelineText},
	{"learner", func(r setup.Row) string {
		s := fmt.Sprintf("%s (plugin %s): %s", r.Key.Learner, r.LearnerPlugin, setup.Params(r.LearnerParams))
		if r.Tuning != "" {
			s += "; tuned: " + r.Tuning
		}
		return s
	}},
	{"reduction", func(r setup.Row) string {
		return fmt.Sprintf("%s (scheme %s, plugin %s): %s", strings.SplitN(r.Key.Reduction, "[", 2)[0], r.Scheme, r.ReductionPlugin, setup.Params(r.ReductionParams))
	}},
	{"code", func(r setup.Row) string { return setup.Phrases(r.Code) }},
	{"decoder", func(r setup.Row) string { return setup.Phrases(r.Decoder) }},
	{"calibration", func(r setup.Row) string { return orDashPlain(r.Calibration) }},
	{"class weights", func(r setup.Row) string { return orDashPlain(r.ClassWeight) }},
}

// pipelineText lists a pipeline's steps in order with their options:
// "std (standardize) → hot (onehot: min_frequency=3, …)", or "none".
func pipelineText(r setup.Row) string {
	if len(r.Pipeline) == 0 {
		return "none (the features as they are)"
	}
	parts := make([]string, len(r.Pipeline))
	for i, s := range r.Pipeline {
		parts[i] = fmt.Sprintf("%s (%s", s.Name, s.Type)
		if len(s.Options) > 0 {
			parts[i] += ": " + setup.Params(s.Options)
		}
		parts[i] += ")"
	}
	return strings.Join(parts, " → ")
}

// setupLabel is the label a set-up row has in the tables.
func setupLabel(t *Tables, r setup.Row) string {
	for _, c := range t.Metrics {
		for _, row := range c.Rows {
			if row.key == r.Key {
				return row.Label
			}
		}
	}
	return r.Show.Label(false)
}

// setupTableSection is the set-up table in Markdown and JSON: what each
// row of the tables is, when the run described its rows; else the rows'
// coordinates (rowsSection).
func setupTableSection(t *Tables) []section {
	if len(t.Setup) == 0 {
		return rowsSection(t)
	}
	return []section{{Title: "Set-up", In: only(mdFormat, jsonFormat), JSON: []jsonField{{"setup", jsonSetup(t)}},
		Blocks: []block{para{Text: txt("What each row of the tables is; parameters marked (default) were left to the plugin's default.")}, setupTable(t)}}}
}

// rowsSection maps each row's short name to the coordinates its cells
// name (pipeline, learner, parameters, reduction), in Markdown and HTML,
// for a run that recorded no set-up table (a results directory of an
// older bench): the tables name their rows by short names only.
func rowsSection(t *Tables) []section {
	rows := tableRows(t)
	if len(rows) == 0 {
		return nil
	}
	rt := table{ID: "rows", Columns: []column{{Head: txt("row")}, {Head: txt("pipeline")}, {Head: txt("learner")}, {Head: txt("params")}, {Head: txt("reduction")}}}
	for _, r := range rows {
		rt.Rows = append(rt.Rows, tableRow{Label: r.Label, Cells: cellsOf(r.Label, r.key.Encoder, r.key.Learner, paramsCell(r.key.Params), r.key.Reduction)})
	}
	return []section{{ID: "rows", Title: "Rows of the tables", In: only(mdFormat, htmlFormat),
		Blocks: []block{para{Text: txt("What each row of the tables is, by the names its cells have (the run recorded no set-up)."), Class: "stats"}, rt}}}
}

// setupSection is the HTML report's set-up section, when the run
// recorded its set-up (s): the run, the programs that computed its cells,
// the datasets' shapes and class counts, the plugins with their versions
// and digests, and the set-up table.
func setupSection(t *Tables, s *Setup) []section {
	if s == nil {
		return nil
	}
	sec := section{ID: "setup", Title: "Set-up", Nav: "Set-up", In: only(htmlFormat), Blocks: []block{htmlBlock(setupList(s, t.ComputedBy))}}
	if len(s.Datasets) > 0 {
		sec.Blocks = append(sec.Blocks, heading{Level: 3, Text: txt("Datasets")}, datasetsTable(s))
	}
	if len(s.Plugins) > 0 {
		sec.Blocks = append(sec.Blocks, heading{Level: 3, Text: txt("Plugins")}, pluginsTable(s))
	}
	if len(t.Setup) > 0 {
		sec.Blocks = append(sec.Blocks, heading{Level: 3, Text: txt("Rows of the tables")},
			para{Text: text{{S: "What each row of the tables is; parameters marked (default) were left to the plugin&rsquo;s default; code and decoder are the reducer&rsquo;s own words.", Style: raw}}, Class: "stats"},
			setupTable(t))
	}
	return []section{sec}
}

// setupTable is the set-up table: one line per row of the comparison
// tables, saying what it is.
func setupTable(t *Tables) table {
	st := table{ID: "setup-rows", Columns: []column{{Head: txt("row")}}}
	for _, c := range setupCells {
		st.Columns = append(st.Columns, column{Head: txt(c.head), Class: "wrap"})
	}
	for _, r := range t.Setup {
		label := setupLabel(t, r)
		cells := []string{label}
		for _, c := range setupCells {
			cells = append(cells, c.cell(r))
		}
		st.Rows = append(st.Rows, tableRow{Label: label, Cells: cellsOf(cells...)})
	}
	return st
}

// sourceSection is the experiment file's text, in the HTML report, when
// the run recorded it.
func sourceSection(s *Setup) []section {
	if s == nil || s.Source == "" {
		return nil
	}
	name := "the experiment file"
	if s.File != "" {
		name = s.File[strings.LastIndexAny(s.File, `/\`)+1:]
	}
	return []section{{ID: "experiment-file", Title: "Experiment file", Nav: "Experiment file", In: only(htmlFormat), Blocks: []block{
		para{Text: text{{S: "<code>" + htmlEscape(name) + "</code>, as run (SHA-256 <span class=\"digest\">" + htmlEscape(s.FileSHA256) + "</span>).", Style: raw}}, Class: "stats"},
		htmlBlock("<pre class=\"source\"><code>" + htmlEscape(s.Source) + "</code></pre>\n")}}}
}

// jsonSetupRow is one row of the set-up table in the JSON output.
type jsonSetupRow struct {
	Label string `json:"label"`
	setup.Row
}

// jsonSetup lays out the set-up table.
func jsonSetup(t *Tables) []jsonSetupRow {
	var out []jsonSetupRow
	for _, r := range t.Setup {
		out = append(out, jsonSetupRow{Label: setupLabel(t, r), Row: r})
	}
	return out
}
