package report

import (
	"encoding/json"
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

type jsonTables struct {
	Experiment string       `json:"experiment"`
	Partial    string       `json:"partial,omitempty"`
	Baseline   string       `json:"baseline,omitempty"`
	Alpha      jnum         `json:"alpha"`
	Metrics    []jsonMetric `json:"metrics"`
}

type jsonMetric struct {
	Metric         string     `json:"metric"`
	HigherIsBetter bool       `json:"higher_is_better"`
	Datasets       []string   `json:"datasets"`
	Baseline       string     `json:"baseline,omitempty"`
	Rows           []jsonRow  `json:"rows"`
	Across         *jsonCross `json:"across,omitempty"`
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
	Test    *struct {
		T       jnum   `json:"t"`
		P       jnum   `json:"p"`
		Verdict string `json:"verdict"` // "better", "worse" or "tie", against the baseline
	} `json:"baseline_test,omitempty"`
}

type jsonCross struct {
	Datasets []string `json:"datasets"`
	N        int      `json:"n"`
	K        int      `json:"k"`
	Friedman struct {
		AvgRanks []jnum `json:"avg_ranks"`
		ChiSq    jnum   `json:"chi2"`
		PChiSq   jnum   `json:"p_chi2"`
		FF       jnum   `json:"ff"`
		PFF      jnum   `json:"p_ff"`
	} `json:"friedman"`
	NemenyiCD jnum `json:"nemenyi_cd"`
	Wilcoxon  *struct {
		N      int  `json:"n"`
		RPlus  jnum `json:"r_plus"`
		RMinus jnum `json:"r_minus"`
		T      jnum `json:"t"`
		Z      jnum `json:"z"`
		P      jnum `json:"p"`
		Exact  bool `json:"exact"`
	} `json:"wilcoxon,omitempty"`
}

func jp(x float64) *jnum { v := jnum(x); return &v }

// WriteJSON writes the comparison tables of t as indented JSON: per metric,
// per row, per dataset the mean, std, number of folds, rank and the test
// against the baseline; the Friedman, Nemenyi and Wilcoxon results across
// datasets; and the notes. Non-finite numbers are written as null (NaN) or
// "+Inf" / "-Inf".
func WriteJSON(w io.Writer, t *Tables) error {
	out := jsonTables{Experiment: t.Experiment, Partial: t.Partial, Baseline: t.Baseline, Alpha: jnum(t.Alpha), Metrics: []jsonMetric{}}
	for _, c := range t.Metrics {
		m := jsonMetric{Metric: c.Metric, HigherIsBetter: c.HigherIsBetter, Datasets: c.Datasets, Notes: c.Notes}
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
				e := c.Entries[r][d]
				je := jsonEntry{Dataset: ds, Status: "missing"}
				switch {
				case e.Failed:
					je.Status = "failed"
				case e.ok():
					je.Status = "ok"
					je.Mean, je.Std, je.N, je.Rank, je.Best = jp(e.Mean), jp(e.Std), e.N, jp(e.Rank), e.Best
				}
				if e.Tested {
					je.Test = &struct {
						T       jnum   `json:"t"`
						P       jnum   `json:"p"`
						Verdict string `json:"verdict"`
					}{T: jnum(e.T), P: jnum(e.P), Verdict: map[string]string{"v": "better", "*": "worse", "": "tie"}[e.Mark]}
				}
				jr.Cells = append(jr.Cells, je)
			}
			m.Rows = append(m.Rows, jr)
		}
		if a := c.Across; a != nil {
			jc := &jsonCross{Datasets: a.Datasets, N: a.Friedman.N, K: a.Friedman.K, NemenyiCD: jnum(a.CD)}
			for _, r := range a.Friedman.AvgRanks {
				jc.Friedman.AvgRanks = append(jc.Friedman.AvgRanks, jnum(r))
			}
			jc.Friedman.ChiSq, jc.Friedman.PChiSq = jnum(a.Friedman.ChiSq), jnum(a.Friedman.PChiSq)
			jc.Friedman.FF, jc.Friedman.PFF = jnum(a.Friedman.FF), jnum(a.Friedman.PFF)
			if wr := a.Wilcoxon; wr != nil {
				jc.Wilcoxon = &struct {
					N      int  `json:"n"`
					RPlus  jnum `json:"r_plus"`
					RMinus jnum `json:"r_minus"`
					T      jnum `json:"t"`
					Z      jnum `json:"z"`
					P      jnum `json:"p"`
					Exact  bool `json:"exact"`
				}{wr.N, jnum(wr.RPlus), jnum(wr.RMinus), jnum(wr.T), jnum(wr.Z), jnum(wr.P), wr.Exact}
			}
			m.Across = jc
		}
		out.Metrics = append(out.Metrics, m)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("json tables: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
