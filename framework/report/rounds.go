package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/polyclass/polyclass/framework/metrics"
	"github.com/polyclass/polyclass/framework/outcome"
)

// Search is how a tuned cell searched when its strategy is not the grid
// (random or successive halving): its candidates, what the search spent
// and what scoring every candidate on every row would have, and, for
// halving, each outer fold's rounds.
type Search struct {
	Dataset   string `json:"dataset"`
	Encoder   string `json:"encoder"`
	Learner   string `json:"learner"`
	Reduction string `json:"reduction"`
	Strategy  string `json:"strategy"`
	Metric    string `json:"metric"`
	// Candidates and InnerFolds: the search space's candidates and the
	// inner folds each is scored by.
	Candidates int `json:"candidates"`
	InnerFolds int `json:"inner_folds"`
	// Fits is the inner fits the search spent over every outer fold
	// (one per candidate, round and inner fold; each trains the
	// reduction's problems), FullFits the fits of scoring every candidate
	// on every inner fold of every outer fold with all the rows (the
	// exhaustive grid's cost when the candidates are a grid).
	Fits     int `json:"fits"`
	FullFits int `json:"full_fits"`
	// Rows and FullRows weigh each of those fits by the rows it had (the
	// round's rows, or the outer training part's): halving's saving.
	Rows     int `json:"rows"`
	FullRows int `json:"full_rows"`
	// The inner fits' seconds are in the cell files (each fold's
	// tune_seconds), not here: the report is the same from run to run.
	Folds []SearchFold `json:"folds,omitempty"`
}

// SearchFold is one outer fold's halving rounds.
type SearchFold struct {
	Repeat int           `json:"repeat"`
	Fold   int           `json:"fold"`
	Chosen string        `json:"chosen"`
	Rounds []SearchRound `json:"rounds"`
}

// SearchRound is one round: the rows each inner fit had, the candidates
// it scored with their mean inner scores, its best, and the candidates
// that went on to the next round (none after the last).
type SearchRound struct {
	Resources  int      `json:"resources"`
	Candidates []string `json:"candidates"`
	Scores     []jnum   `json:"scores"`
	Best       string   `json:"best"`
	BestScore  jnum     `json:"best_score"`
	Survivors  []string `json:"survivors,omitempty"`
}

// searches returns the searches of the cells tuned by a strategy other
// than the grid, in cell order; failed cells are left out.
func searches(cells []*outcome.CellResult, shown shownNames) []Search {
	var out []Search
	for _, c := range cells {
		if c.TuneStrategy == "" || c.Failed() {
			continue
		}
		_, sh := shown.of(c.ID)
		s := Search{Dataset: c.Dataset, Encoder: sh.Encoder, Learner: sh.Learner, Reduction: sh.Reduction,
			Strategy: c.TuneStrategy, Metric: c.TuneMetric, Candidates: len(c.TuneCandidates), InnerFolds: c.TuneFolds}
		for _, f := range c.Folds {
			full := len(c.TuneCandidates) * c.TuneFolds
			s.FullFits, s.FullRows = s.FullFits+full, s.FullRows+full*f.TuneRows
			if len(f.TuneRounds) == 0 {
				s.Fits, s.Rows = s.Fits+full, s.Rows+full*f.TuneRows
				continue
			}
			s.Folds = append(s.Folds, searchFold(c, f))
			for i, r := range f.TuneRounds {
				if i > 0 && r.Resources == f.TuneRounds[i-1].Resources {
					continue // a replay of the round before fits nothing (aggressive elimination)
				}
				s.Fits += len(r.Candidates) * c.TuneFolds
				s.Rows += len(r.Candidates) * c.TuneFolds * r.Resources
			}
		}
		out = append(out, s)
	}
	return out
}

// searchFold names the candidates of fold f's rounds.
func searchFold(c *outcome.CellResult, f outcome.FoldResult) SearchFold {
	name := func(i int) string {
		if i < len(c.TuneCandidates) {
			return c.TuneCandidates[i]
		}
		return fmt.Sprintf("candidate %d", i+1)
	}
	sf := SearchFold{Repeat: f.Repeat, Fold: f.Fold, Chosen: f.Chosen}
	for i, r := range f.TuneRounds {
		sr := SearchRound{Resources: r.Resources}
		for j, ci := range r.Candidates {
			sr.Candidates = append(sr.Candidates, name(ci))
			sr.Scores = append(sr.Scores, jnum(r.Scores[j]))
			if j == 0 || betterScore(c.TuneMetric, r.Scores[j], float64(sr.BestScore)) {
				sr.Best, sr.BestScore = name(ci), jnum(r.Scores[j])
			}
		}
		if i+1 < len(f.TuneRounds) {
			for _, ci := range f.TuneRounds[i+1].Candidates {
				sr.Survivors = append(sr.Survivors, name(ci))
			}
		}
		sf.Rounds = append(sf.Rounds, sr)
	}
	return sf
}

// betterScore reports whether a beats b under metric m (ties: no; an
// unknown metric is taken as higher is better).
func betterScore(m string, a, b float64) bool {
	if mm, err := metrics.Lookup(m); err == nil && !mm.HigherIsBetter {
		return a < b
	}
	return a > b
}

// searchSection is the tuning-searches view (Markdown, HTML, JSON): per
// cell a line on its cost against every candidate on every row (naming
// its pipeline when the searches have several), then, for successive
// halving, each outer fold's rounds; no section without searches.
func searchSection(ss []Search) []section {
	if len(ss) == 0 {
		return nil
	}
	sec := section{ID: "searches", Title: "Tuning searches", In: only(mdFormat, htmlFormat, jsonFormat),
		JSON: []jsonField{{"tuning_searches", ss}}}
	showEnc := searchEncodersDiffer(ss)
	for _, s := range ss {
		sec.Blocks = append(sec.Blocks, para{Text: s.summary(showEnc)})
		if len(s.Folds) == 0 {
			continue
		}
		t := table{}
		for i, h := range []string{"repeat", "fold", "round", "candidates", "rows", "best", "inner mean", "survivors"} {
			t.Columns = append(t.Columns, column{Head: txt(h), Num: i != 5 && i != 7})
		}
		for _, f := range s.Folds {
			for i, r := range f.Rounds {
				t.Rows = append(t.Rows, tableRow{Cells: cellsOf(roundCells(f, i, r)...)})
			}
		}
		sec.Blocks = append(sec.Blocks, t)
	}
	return []section{sec}
}

// searchEncodersDiffer reports whether the searches have several
// pipelines: their lines then name it.
func searchEncodersDiffer(ss []Search) bool {
	for _, s := range ss {
		if s.Encoder != ss[0].Encoder {
			return true
		}
	}
	return false
}

// summary is a search's line: its cell (in bold, the pipeline named
// when showEnc), strategy, candidates, inner folds, metric and cost.
func (s Search) summary(showEnc bool) text {
	enc := ""
	if showEnc {
		enc = " · " + s.Encoder
	}
	cell := fmt.Sprintf("%s%s · %s · %s", s.Dataset, enc, s.Learner, s.Reduction)
	return text{strong(cell), {S: fmt.Sprintf(": %s search over %d candidates, each scored by %d inner folds on %s; %d inner fits on %d rows in all (fits × their rows), against %d fits on %d rows to score every candidate on every row (%s of the rows).",
		s.Strategy, s.Candidates, s.InnerFolds, s.Metric, s.Fits, s.Rows, s.FullFits, s.FullRows, percent(s.Rows, s.FullRows))}}
}

// roundCells are the cells of round i of fold f's row.
func roundCells(f SearchFold, i int, r SearchRound) []string {
	return []string{strconv.Itoa(f.Repeat), strconv.Itoa(f.Fold), strconv.Itoa(i + 1), strconv.Itoa(len(r.Candidates)), strconv.Itoa(r.Resources),
		r.Best, strconv.FormatFloat(float64(r.BestScore), 'f', 4, 64), survivorsText(r, f.Chosen)}
}

// survivorsText lists a round's survivors: their names when three or
// fewer, else their number; after the last round, the choice.
func survivorsText(r SearchRound, chosen string) string {
	switch {
	case len(r.Survivors) == 0:
		return "chose " + chosen
	case len(r.Survivors) <= 3:
		return strings.Join(r.Survivors, ", ")
	}
	return strconv.Itoa(len(r.Survivors))
}

// percent is a of b as "12.3 %".
func percent(a, b int) string {
	if b == 0 {
		return absent
	}
	return strconv.FormatFloat(100*float64(a)/float64(b), 'f', 1, 64) + " %"
}
