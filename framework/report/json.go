package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
)

// jnum is a float written as a JSON number when finite, as null when NaN
// and as the strings "+Inf" / "-Inf" when infinite (JSON has no such
// numbers).
type jnum float64

// MarshalJSON implements json.Marshaler.
func (x jnum) MarshalJSON() ([]byte, error) {
	f := float64(x)
	switch {
	case math.IsNaN(f):
		return []byte("null"), nil
	case math.IsInf(f, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-Inf"`), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

type jsonMetric struct {
	Metric         string     `json:"metric"`
	HigherIsBetter bool       `json:"higher_is_better"`
	Datasets       []string   `json:"datasets"`
	Baseline       string     `json:"baseline,omitempty"`
	Ranked         bool       `json:"ranked"`
	Rows           []jsonRow  `json:"rows"`
	Across         *jsonCross `json:"across,omitempty"`
	Bayes          *jsonBayes `json:"bayes,omitempty"`
	Notes          []string   `json:"notes,omitempty"`
}

type jsonRow struct {
	Row
	AvgRank jnum        `json:"avg_rank"`
	WTL     *WTL        `json:"wtl,omitempty"`
	Cells   []jsonEntry `json:"cells"`
}

type jsonEntry struct {
	Dataset string `json:"dataset"`
	Status  string `json:"status"` // "ok", "failed" or "missing"
	Mean    *jnum  `json:"mean,omitempty"`
	Std     *jnum  `json:"std,omitempty"`
	N       int    `json:"n"`
	Rank    *jnum  `json:"rank,omitempty"`
	Best    bool   `json:"best"`
	// Softmax: a log_loss or brier from a softmax of the decoder's class
	// scores, not probabilities.
	Softmax bool `json:"softmax_scores,omitempty"`
	// TiedFolds: the folds whose class scores were all tied (a constant
	// model).
	TiedFolds int `json:"tied_folds,omitempty"`
	// OneClassFolds: the other folds that predicted one class for every
	// test row of several classes (a constant model too).
	OneClassFolds int `json:"one_class_folds,omitempty"`
	// NotConverged: the fits that did not converge, of Fits, the fits of
	// the folds where some did not.
	NotConverged *jsonNotConverged `json:"not_converged,omitempty"`
	Test         *jsonTest         `json:"baseline_test,omitempty"`
	// NoTest says why there is no baseline test when its preconditions
	// fail.
	NoTest string `json:"no_test,omitempty"`
}

// jsonNotConverged counts an entry's fits that did not converge (fits) of
// the fits (of) of the folds where some did not (folds).
type jsonNotConverged struct {
	Fits  int `json:"fits"`
	Of    int `json:"of"`
	Folds int `json:"folds"`
}

// jsonTest is the corrected resampled t-test of a row against the baseline
// on one dataset, with its effect size: the mean difference of the fold
// scores (row − baseline) and its 95% interval.
type jsonTest struct {
	T        jnum    `json:"t"`
	P        jnum    `json:"p"`
	Verdict  string  `json:"verdict"` // "better", "worse" or "tie", against the baseline
	MeanDiff jnum    `json:"mean_diff"`
	CI95     [2]jnum `json:"ci95"`
}

type jsonCross struct {
	Datasets []string `json:"datasets"`
	N        int      `json:"n"`
	K        int      `json:"k"`
	// Rows are the labels of the rows tested; LeftOut of those left out.
	Rows     []string      `json:"rows"`
	LeftOut  []string      `json:"left_out,omitempty"`
	NoTest   string        `json:"no_test,omitempty"`
	Friedman *jsonFriedman `json:"friedman,omitempty"`
	Control  *jsonControl  `json:"control,omitempty"`
	Wilcoxon *jsonWilcoxon `json:"wilcoxon,omitempty"`
}

type jsonFriedman struct {
	AvgRanks  []jnum `json:"avg_ranks"` // in the order of the rows tested
	ChiSq     jnum   `json:"chi2"`
	PChiSq    jnum   `json:"p_chi2"`
	FF        jnum   `json:"ff"` // null when the ranks agree on every dataset
	PFF       jnum   `json:"p_ff"`
	NemenyiCD jnum   `json:"nemenyi_cd"`
}

type jsonControl struct {
	Baseline         string            `json:"baseline"`
	BonferroniDunnCD jnum              `json:"bonferroni_dunn_cd"`
	Comparisons      []jsonControlComp `json:"comparisons"` // in Holm's order
}

type jsonControlComp struct {
	Row            string `json:"row"`
	RankDiff       jnum   `json:"rank_diff"` // R_row − R_baseline; negative: ranks better
	Z              jnum   `json:"z"`
	P              jnum   `json:"p"`
	HolmP          jnum   `json:"holm_p"`
	Holm           bool   `json:"holm_rejects"`
	BonferroniDunn bool   `json:"bonferroni_dunn_rejects"`
}

type jsonWilcoxon struct {
	N      int  `json:"n"`
	RPlus  jnum `json:"r_plus"`
	RMinus jnum `json:"r_minus"`
	T      jnum `json:"t"`
	Z      jnum `json:"z"`
	P      jnum `json:"p"`
	Exact  bool `json:"exact"`
}

func jp(x float64) *jnum { v := jnum(x); return &v }

// WriteJSON writes the comparison tables of t as indented JSON: per metric,
// per row, per dataset the mean, std, number of folds, rank and the test
// against the baseline with its effect size (mean difference of the fold
// scores and its 95% interval by the corrected resampled t-test); across
// datasets the rows tested and left out, the Friedman test with the
// Nemenyi CD, Holm's and the Bonferroni–Dunn tests against the baseline
// and the Wilcoxon test; the notes; and the tuned cells' choices
// (selected_parameters). Non-finite numbers are written as
// null (NaN) or "+Inf" / "-Inf"; an Iman–Davenport F_F that is infinite
// (the ranks agree on every dataset) as null.
func WriteJSON(w io.Writer, t *Tables) error {
	fields := []jsonField{{"experiment", t.Experiment}, {"alpha", jnum(t.Alpha)}, {"metrics", jsonMetrics(t)}}
	if t.Baseline != "" {
		fields = append(fields, jsonField{"baseline", t.Baseline})
	}
	secs, err := reportSections(reportInput{Tables: t})
	if err != nil {
		return err
	}
	fields = append(fields, sectionFields(append([]section{headSection(t, nil)}, secs...))...)
	if err := writeJSONObject(w, fields); err != nil {
		return fmt.Errorf("json tables: %w", err)
	}
	return nil
}

// jsonMetrics lays out the comparison table of every metric.
func jsonMetrics(t *Tables) []jsonMetric {
	out := []jsonMetric{}
	for _, c := range t.Metrics {
		m := jsonMetric{Metric: c.Metric, HigherIsBetter: c.HigherIsBetter, Datasets: c.Datasets, Ranked: c.Ranked, Notes: c.Notes}
		if c.Baseline >= 0 {
			m.Baseline = c.Rows[c.Baseline].Label
		}
		for r, row := range c.Rows {
			jr := jsonRow{Row: row, AvgRank: jnum(c.AvgRank[r])}
			if c.Baseline >= 0 && r != c.Baseline {
				wtl := c.WTL[r]
				jr.WTL = &wtl
			}
			for d, ds := range c.Datasets {
				jr.Cells = append(jr.Cells, jsonEntryOf(c.Entries[r][d], ds))
			}
			m.Rows = append(m.Rows, jr)
		}
		if a := c.Across; a != nil {
			m.Across = jsonAcross(c, a)
		}
		m.Bayes = jsonBayesOf(c)
		out = append(out, m)
	}
	return out
}

// jsonEntryOf lays out entry e of dataset ds.
func jsonEntryOf(e Entry, ds string) jsonEntry {
	je := jsonEntry{Dataset: ds, Status: "missing"}
	switch {
	case e.Failed:
		je.Status = "failed"
	case e.ok():
		je.Status = "ok"
		je.Mean, je.Std, je.N, je.Rank, je.Best, je.Softmax = jp(e.Mean), jp(e.Std), e.N, jp(e.Rank), e.Best, e.Softmax
		je.TiedFolds = e.TiedFolds
		je.OneClassFolds = e.OneClassFolds
		if e.NotConverged > 0 {
			je.NotConverged = &jsonNotConverged{Fits: e.NotConverged, Of: e.Fits, Folds: e.NotConvergedFolds}
		}
	}
	je.NoTest = e.NoTest
	if e.Tested {
		je.Test = &jsonTest{T: jnum(e.T), P: jnum(e.P), Verdict: map[string]string{"v": "better", "*": "worse", "": "tie"}[e.Mark],
			MeanDiff: jnum(e.Diff), CI95: [2]jnum{jnum(e.Lo), jnum(e.Hi)}}
	}
	return je
}

// jsonAcross lays out the tests across datasets.
func jsonAcross(c *Comparison, a *Across) *jsonCross {
	label := func(i int) string { return c.Rows[i].Label }
	jc := &jsonCross{Datasets: a.Datasets, N: len(a.Datasets), K: len(a.Rows), NoTest: a.NoTest, Rows: []string{}}
	for _, r := range a.Rows {
		jc.Rows = append(jc.Rows, label(r))
	}
	for _, r := range a.LeftOut {
		jc.LeftOut = append(jc.LeftOut, label(r))
	}
	if fr := a.Friedman; fr != nil {
		jf := &jsonFriedman{ChiSq: jnum(fr.ChiSq), PChiSq: jnum(fr.PChiSq), FF: jnum(fr.FF), PFF: jnum(fr.PFF), NemenyiCD: jnum(a.CD)}
		if math.IsInf(fr.FF, 0) {
			jf.FF = jnum(math.NaN())
		}
		for _, r := range fr.AvgRanks {
			jf.AvgRanks = append(jf.AvgRanks, jnum(r))
		}
		jc.Friedman = jf
	}
	if ctl := a.Control; ctl != nil {
		jctl := &jsonControl{Baseline: label(a.Rows[ctl.Control]), BonferroniDunnCD: jnum(ctl.CD)}
		for _, x := range ctl.Comparisons {
			jctl.Comparisons = append(jctl.Comparisons, jsonControlComp{Row: label(a.Rows[x.Method]), RankDiff: jnum(x.RankDiff),
				Z: jnum(x.Z), P: jnum(x.P), HolmP: jnum(x.HolmP), Holm: x.Holm, BonferroniDunn: x.BonferroniDunn})
		}
		jc.Control = jctl
	}
	if w := a.Wilcoxon; w != nil {
		jc.Wilcoxon = &jsonWilcoxon{w.N, jnum(w.RPlus), jnum(w.RMinus), jnum(w.T), jnum(w.Z), jnum(w.P), w.Exact}
	}
	return jc
}
