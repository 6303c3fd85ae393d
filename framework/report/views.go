package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/curves"
	"github.com/polyclass/polyclass/framework/metrics"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/plots"
)

// ClassReport is the per-class report of one row on one dataset:
// scikit-learn's classification_report of the row's out-of-fold
// predictions, every fold and repeat pooled (the confusion matrices
// summed; for multi-label data the labels' counts).
type ClassReport struct {
	Dataset string
	// Row is the row's index in the tables' rows.
	Row        int
	Classes    []string
	MultiLabel bool
	Report     metrics.Report
}

// ViewSummary is what the threshold views of one row on one dataset come
// to: the areas under its ROC and precision–recall curves, macro- and
// micro-averaged, and the expected calibration error of its probabilities
// (NaN without probabilities). See package curves.
type ViewSummary struct {
	Dataset string
	Row     int
	// Rows is the number of scored rows pooled (once per repeat).
	Rows                                 int
	MacroAUC, MicroAUC, MacroAP, MicroAP float64
	ECE, MCE                             float64
	// Probabilities tells that the scores are probabilities (ECE set).
	Probabilities bool
	curves        *curves.Set
	classes       []string
}

// classReport returns the per-class report of a cell, false when it has
// none (a failed cell, or one without confusion matrices or label counts).
func classReport(c *outcome.CellResult) (metrics.Report, bool) {
	if c.Failed() {
		return metrics.Report{}, false
	}
	if counts, ok := sumConfusion(c); ok {
		k := len(counts)
		m := mat.NewDense(k, k, nil)
		for i, row := range counts {
			for j, v := range row {
				m.Set(i, j, float64(v))
			}
		}
		return metrics.NewMulticlassReport(metrics.PerClass(nil, m)), true
	}
	if c.Curves != nil && len(c.Curves.Labels) == len(c.Classes) && len(c.Classes) > 0 {
		scores := make([]metrics.ClassScore, len(c.Classes))
		for i, l := range c.Curves.Labels {
			scores[i] = metrics.NewClassScore(float64(l.TP), float64(l.FP), float64(l.FN))
		}
		return metrics.NewReport(scores), true
	}
	return metrics.Report{}, false
}

// perClassAndViews computes the per-class reports and the threshold
// views' summaries of every cell, by dataset then row.
func perClassAndViews(cells []*outcome.CellResult, rows []Row, datasets []string, rowOf []int) ([]ClassReport, []ViewSummary) {
	var reports []ClassReport
	var views []ViewSummary
	for _, ds := range datasets {
		for r := range rows {
			for i, c := range cells {
				if c.Dataset != ds || rowOf[i] != r || c.Failed() {
					continue
				}
				if rep, ok := classReport(c); ok {
					reports = append(reports, ClassReport{Dataset: ds, Row: r, Classes: c.Classes,
						MultiLabel: c.Curves != nil && c.Curves.Labels != nil, Report: rep})
				}
				if v := c.Curves; v != nil {
					s := ViewSummary{Dataset: ds, Row: r, Rows: v.Rows, MacroAUC: float64(v.ROC.Macro.Area), MicroAUC: float64(v.ROC.Micro.Area),
						MacroAP: float64(v.PR.Macro.Area), MicroAP: float64(v.PR.Micro.Area), ECE: math.NaN(), MCE: math.NaN(), curves: v, classes: c.Classes}
					if rel := v.Reliability; rel != nil {
						s.ECE, s.MCE, s.Probabilities = float64(rel.ECE), float64(rel.MCE), true
					}
					views = append(views, s)
				}
			}
		}
	}
	return reports, views
}

// viewFigures draws the threshold figures of one cell: its ROC and
// precision–recall curves (curves_NAME) and, for probabilities, its
// reliability diagram (reliability_NAME); none without views. key tells
// the cell apart (figureKey); ff gets the figures that cannot be drawn.
func viewFigures(c *outcome.CellResult, title, name, key string, ff *figureFailures) []Figure {
	v := c.Curves
	if v == nil {
		return nil
	}
	var figs []Figure
	roc, pr, undefined := curveLines(c.Classes, v)
	caption := fmt.Sprintf("%s: ROC and precision–recall curves of the %d out-of-fold scores pooled over folds and repeats; areas: ROC AUC and average precision", title, v.Rows)
	if len(undefined) > 0 {
		caption += "; left out, undefined: " + strings.Join(undefined, "; ")
	}
	if f, err := plots.ThresholdCurves(title, roc, pr); err != nil {
		ff.add("curves_"+name, err)
	} else {
		figs = append(figs, Figure{Name: "curves_" + name, Kind: "curves", Fig: f, key: figureKey("curves", key), Caption: caption})
	}
	if rel := v.Reliability; rel != nil {
		// As the cell file gives them: lengths that differ from the bins'
		// are the diagram's error, not an index out of range.
		conf, acc := make([]float64, len(rel.Confidence)), make([]float64, len(rel.Accuracy))
		for b := range conf {
			conf[b] = float64(rel.Confidence[b])
		}
		for b := range acc {
			acc[b] = float64(rel.Accuracy[b])
		}
		t := fmt.Sprintf("%s (ECE %s)", title, fixed(float64(rel.ECE), 3))
		f, err := plots.ReliabilityDiagram(t, rel.Count, conf, acc)
		if err != nil {
			ff.add("reliability_"+name, err)
			return figs
		}
		figs = append(figs, Figure{Name: "reliability_" + name, Kind: "reliability", Fig: f, key: figureKey("reliability", key),
			Caption: fmt.Sprintf("%s: reliability diagram of the largest class probability in %d equal-width bins; expected calibration error %s, maximum %s",
				title, curves.Bins, fixed(float64(rel.ECE), 4), fixed(float64(rel.MCE), 4))})
	}
	return figs
}

// curveLines names the lines of a cell's curves with their areas. A curve
// with a point that is not a number is undefined (the macro average of a
// split whose test rows hold one class: no class has both positive and
// negative rows, and its AUC is shown "–"): it is left out, and undefined
// says which and why, for the figure's caption.
func curveLines(classes []string, v *curves.Set) (roc, pr []plots.Line, undefined []string) {
	keep := func(lines *[]plots.Line, l plots.Line, what, why string) {
		if !finitePoints(l.X) || !finitePoints(l.Y) {
			undefined = append(undefined, what+" ("+why+")")
			return
		}
		*lines = append(*lines, l)
	}
	for i, c := range v.ROC.Classes {
		name := classNameOr(classes, i)
		keep(&roc, plots.Line{Name: name + " (AUC " + fixed(float64(c.Area), 3) + ")", X: c.X, Y: c.Y},
			"the ROC curve of "+name, "its rates are not numbers")
	}
	for i, c := range v.PR.Classes {
		name := classNameOr(classes, i)
		keep(&pr, plots.Line{Name: name + " (AP " + fixed(float64(c.Area), 3) + ")", X: c.X, Y: c.Y},
			"the precision–recall curve of "+name, "its precision or recall is not a number")
	}
	keep(&roc, plots.Line{Name: "micro-average (AUC " + fixed(float64(v.ROC.Micro.Area), 3) + ")", X: v.ROC.Micro.X, Y: v.ROC.Micro.Y, Average: "micro"},
		"the micro-average ROC curve", "the pooled decisions lack positive or negative rows")
	keep(&roc, plots.Line{Name: "macro-average (AUC " + fixed(float64(v.ROC.Macro.Area), 3) + ")", X: v.ROC.Macro.X, Y: v.ROC.Macro.Y, Average: "macro"},
		"the macro-average ROC curve", "no class has both positive and negative rows")
	keep(&pr, plots.Line{Name: "micro-average", X: v.PR.Micro.X, Y: v.PR.Micro.Y, Average: "micro"},
		"the micro-average precision–recall curve", "the pooled decisions lack positive rows")
	keep(&pr, plots.Line{Name: "macro-average", X: v.PR.Macro.X, Y: v.PR.Macro.Y, Average: "macro"},
		"the macro-average precision–recall curve", "no class has positive rows")
	return roc, pr, undefined
}

// finitePoints reports whether every coordinate of x is a number a plot
// can place.
func finitePoints(x []float64) bool {
	for _, v := range x {
		if !finite(v) {
			return false
		}
	}
	return true
}

// className returns the name of class i, or "class i" when the cell does
// not name it.
func classNameOr(classes []string, i int) string {
	if i < len(classes) {
		return classes[i]
	}
	return "class " + strconv.Itoa(i)
}

// prf formats a share with four decimals.
func prf(x float64) string { return fixed(x, meanDigits) }

// reportLines are the lines of a per-class report: one per class, then
// the averages (accuracy for multiclass data, the micro average for
// multi-label), as classification_report prints them.
func reportLines(cr ClassReport) [][5]string {
	var out [][5]string
	for i, s := range cr.Report.Classes {
		out = append(out, [5]string{classNameOr(cr.Classes, i), prf(s.Precision), prf(s.Recall), prf(s.F1), strconv.FormatFloat(s.Support, 'f', -1, 64)})
	}
	sup := strconv.FormatFloat(cr.Report.Support, 'f', -1, 64)
	r := cr.Report
	if cr.MultiLabel {
		out = append(out, [5]string{metrics.MicroRow, prf(r.Micro.Precision), prf(r.Micro.Recall), prf(r.Micro.F1), sup})
	} else {
		out = append(out, [5]string{metrics.AccuracyRow, "", "", prf(r.Micro.F1), sup})
	}
	return append(out,
		[5]string{metrics.MacroRow, prf(r.Macro.Precision), prf(r.Macro.Recall), prf(r.Macro.F1), sup},
		[5]string{metrics.WeightedRow, prf(r.Weighted.Precision), prf(r.Weighted.Recall), prf(r.Weighted.F1), sup})
}

// viewsHead names the columns of the threshold views' table.
var viewsHead = []string{"ROC AUC (macro)", "ROC AUC (micro)", "AP (macro)", "AP (micro)", "ECE"}

// viewsFields are a summary's values in viewsHead's order; the ECE of
// scores that are not probabilities is "–".
func viewsFields(v ViewSummary) []string {
	ece := "–"
	if v.Probabilities {
		ece = fixed(v.ECE, meanDigits)
	}
	return []string{prf(v.MacroAUC), prf(v.MicroAUC), prf(v.MacroAP), prf(v.MicroAP), ece}
}

// viewsNote explains the per-class and threshold tables.
const viewsNote = "From each row's out-of-fold predictions, every fold and repeat pooled (a data row counts once per repeat). " +
	"Per class: scikit-learn's classification_report (precision, recall, F1, support); its macro avg, of the pooled predictions, may differ from the tables' macro_f1, macro_precision and macro_recall, which are means of the folds' values (the same definition, applied per fold). " +
	"ROC AUC and average precision (AP): each class against the rest, macro-averaged over the classes (scikit-learn's average=\"macro\") and micro-averaged over every class's decisions pooled. " +
	"ECE: expected calibration error of the largest class probability in 15 equal-width bins (Guo et al. 2017), for rows whose scores are probabilities."

// perClassSection is the per-class and threshold view (Markdown, HTML,
// JSON): for each dataset the threshold views' table and each row's
// per-class report (folded in HTML), then in HTML the curve panel and the
// curves and reliability figures of the rows drawn (figs' of those
// kinds); JSON holds the reports and summaries in full. No section when
// no cell has either.
func perClassSection(t *Tables, figs []Figure) ([]section, error) {
	if len(t.PerClass) == 0 && len(t.Views) == 0 {
		return nil, nil
	}
	sec := section{ID: "per-class", Title: "Per class and per threshold", Nav: "Per class", In: only(mdFormat, htmlFormat, jsonFormat),
		Blocks: []block{para{Text: txt(viewsNote), Class: "stats"}}}
	rows := tableRows(t)
	for d, ds := range datasetsOf(t) {
		sec.Blocks = append(sec.Blocks, heading{Level: 3, Text: txt(ds)})
		if v := viewsTable(t.Views, rows, ds, d); len(v.Rows) > 0 {
			sec.Blocks = append(sec.Blocks, v)
		}
		for _, cr := range t.PerClass {
			if cr.Dataset == ds {
				sec.Blocks = append(sec.Blocks, heading{Level: 4, Text: txt(ds + ": " + rows[cr.Row].Label), In: only(mdFormat)}, classTable(cr, rows[cr.Row].Label))
			}
		}
	}
	var panel strings.Builder
	if err := writeHTMLCurvePanel(&panel, t); err != nil {
		return nil, err
	}
	if panel.Len() > 0 {
		sec.Blocks = append(sec.Blocks, htmlBlock(panel.String()))
	}
	var drawn []Figure
	for _, f := range figs {
		if f.Kind == "curves" || f.Kind == "reliability" {
			drawn = append(drawn, f)
		}
	}
	if len(drawn) > 0 {
		sec.Blocks = append(sec.Blocks, heading{Level: 3, Text: txt("Curves and reliability diagrams"), In: only(htmlFormat)},
			para{Text: text{{S: "Drawn for the rows of the confusion heat maps; the JSON output and the cell files hold every row&rsquo;s curves.", Style: raw}},
				Class: "stats", In: only(htmlFormat)},
			figureGrid{Class: "figs", Figs: drawn})
	}
	reports, views := jsonViews(t)
	if len(reports) > 0 {
		sec.JSON = append(sec.JSON, jsonField{"per_class", reports})
	}
	if len(views) > 0 {
		sec.JSON = append(sec.JSON, jsonField{"threshold_views", views})
	}
	return []section{sec}, nil
}

// viewsTable is the threshold views' table of dataset ds (the d-th): a
// line per row with views.
func viewsTable(vs []ViewSummary, rows []Row, ds string, d int) table {
	t := table{Class: "views", ID: fmt.Sprintf("views-%d", d), Columns: []column{{Head: txt("row")}}}
	for _, h := range viewsHead {
		t.Columns = append(t.Columns, column{Head: txt(h), Num: true})
	}
	for _, v := range vs {
		if v.Dataset == ds {
			label := rows[v.Row].Label
			t.Rows = append(t.Rows, tableRow{Label: label, Cells: cellsOf(append([]string{label}, viewsFields(v)...)...)})
		}
	}
	return t
}

// classTable is the per-class report of a row (label) on a dataset: a
// line per class, then the averages (of class avg in HTML).
func classTable(cr ClassReport, label string) table {
	t := table{Fold: txt(cr.Dataset + ": " + label + ", per class"), Data: []dataAttr{{"dataset", cr.Dataset}, {"label", label}},
		Columns: []column{{Head: txt("class")}, {Head: txt("precision"), Num: true}, {Head: txt("recall"), Num: true},
			{Head: txt("F1"), Num: true}, {Head: txt("support"), Num: true}}}
	for i, l := range reportLines(cr) {
		r := tableRow{Cells: cellsOf(l[:]...)}
		if i >= len(cr.Report.Classes) {
			r.Class = "avg"
		}
		t.Rows = append(t.Rows, r)
	}
	return t
}

// tableRows returns the rows of the tables (the same for every metric).
func tableRows(t *Tables) []Row {
	if len(t.Metrics) == 0 {
		return t.rows
	}
	return t.Metrics[0].Rows
}

// datasetsOf returns the datasets of the tables, in order.
func datasetsOf(t *Tables) []string {
	if len(t.Metrics) > 0 {
		return t.Metrics[0].Datasets
	}
	return t.datasets
}

// jsonClassReport is a per-class report in the JSON output.
type jsonClassReport struct {
	Dataset    string          `json:"dataset"`
	Row        string          `json:"row"`
	MultiLabel bool            `json:"multi_label,omitempty"`
	Classes    []jsonClassLine `json:"classes"`
	Micro      jsonAverage     `json:"micro_avg"`
	Macro      jsonAverage     `json:"macro_avg"`
	Weighted   jsonAverage     `json:"weighted_avg"`
	Support    jnum            `json:"support"`
}

type jsonClassLine struct {
	Class     string `json:"class"`
	Precision jnum   `json:"precision"`
	Recall    jnum   `json:"recall"`
	F1        jnum   `json:"f1"`
	Support   jnum   `json:"support"`
}

type jsonAverage struct {
	Precision jnum `json:"precision"`
	Recall    jnum `json:"recall"`
	F1        jnum `json:"f1"`
}

// jsonViewSummary is a threshold views' summary in the JSON output.
type jsonViewSummary struct {
	Dataset  string `json:"dataset"`
	Row      string `json:"row"`
	Rows     int    `json:"rows"`
	MacroAUC jnum   `json:"roc_auc_macro"`
	MicroAUC jnum   `json:"roc_auc_micro"`
	MacroAP  jnum   `json:"ap_macro"`
	MicroAP  jnum   `json:"ap_micro"`
	ECE      *jnum  `json:"ece,omitempty"`
	MCE      *jnum  `json:"mce,omitempty"`
}

// jsonViews lays out the per-class reports and the threshold summaries.
func jsonViews(t *Tables) ([]jsonClassReport, []jsonViewSummary) {
	rows := tableRows(t)
	var reports []jsonClassReport
	for _, cr := range t.PerClass {
		avg := func(p metrics.PRF) jsonAverage { return jsonAverage{jnum(p.Precision), jnum(p.Recall), jnum(p.F1)} }
		j := jsonClassReport{Dataset: cr.Dataset, Row: rows[cr.Row].Label, MultiLabel: cr.MultiLabel, Micro: avg(cr.Report.Micro),
			Macro: avg(cr.Report.Macro), Weighted: avg(cr.Report.Weighted), Support: jnum(cr.Report.Support)}
		for i, s := range cr.Report.Classes {
			j.Classes = append(j.Classes, jsonClassLine{classNameOr(cr.Classes, i), jnum(s.Precision), jnum(s.Recall), jnum(s.F1), jnum(s.Support)})
		}
		reports = append(reports, j)
	}
	var views []jsonViewSummary
	for _, v := range t.Views {
		j := jsonViewSummary{Dataset: v.Dataset, Row: rows[v.Row].Label, Rows: v.Rows, MacroAUC: jnum(v.MacroAUC), MicroAUC: jnum(v.MicroAUC),
			MacroAP: jnum(v.MacroAP), MicroAP: jnum(v.MicroAP)}
		if v.Probabilities {
			j.ECE, j.MCE = jp(v.ECE), jp(v.MCE)
		}
		views = append(views, j)
	}
	return reports, views
}

// WritePerClassCSV writes the per-class reports tidily: one line per row
// × dataset × class (and average), with its precision, recall, F1 and
// support.
func WritePerClassCSV(w io.Writer, t *Tables) error {
	cw := newCSV(w)
	cw.Write([]string{"dataset", "row", "class", "precision", "recall", "f1", "support"})
	rows := tableRows(t)
	for _, cr := range t.PerClass {
		for _, l := range reportLines(cr) {
			cw.Write([]string{cr.Dataset, rows[cr.Row].Label, l[0], l[1], l[2], l[3], l[4]})
		}
	}
	cw.Flush()
	return cw.Error()
}
