package report

import (
	"fmt"
	"slices"
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
	// Resource is the budget parameter the rounds grew (empty: rows);
	// Rows and FullRows then weigh each fit by its value of it.
	Resource string `json:"resource,omitempty"`
	// FitSeconds is the inner fits' seconds over every outer fold (the
	// cells' tune_seconds), set only when the experiment asks for a
	// timing metric (fit_seconds): without one the report is the same
	// from run to run.
	FitSeconds *float64     `json:"fit_seconds,omitempty"`
	Folds      []SearchFold `json:"folds,omitempty"`
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
//
// Under hyperband, Bracket is the round's bracket s and Reused the
// candidates whose scores on these rows came from an earlier bracket
// (not fitted again).
type SearchRound struct {
	Resources  int      `json:"resources"`
	Candidates []string `json:"candidates"`
	Scores     []jnum   `json:"scores"`
	Best       string   `json:"best"`
	BestScore  jnum     `json:"best_score"`
	Survivors  []string `json:"survivors,omitempty"`
	Bracket    *int     `json:"bracket,omitempty"`
	Reused     int      `json:"reused,omitempty"`
}

// searches returns the searches of the cells tuned by a strategy other
// than the grid, in cell order; failed cells are left out. timed adds
// their fit seconds.
func searches(cells []*outcome.CellResult, shown shownNames, timed bool) []Search {
	var out []Search
	for _, c := range cells {
		if c.TuneStrategy == "" || c.Failed() {
			continue
		}
		_, sh := shown.of(c.ID)
		s := Search{Dataset: c.Dataset, Encoder: sh.Encoder, Learner: sh.Learner, Reduction: sh.Reduction,
			Strategy: c.TuneStrategy, Metric: c.TuneMetric, Candidates: len(c.TuneCandidates), InnerFolds: c.TuneFolds}
		s.Resource = c.TuneResource
		if timed {
			sec := 0.0
			for _, f := range c.Folds {
				sec += f.TuneSeconds
			}
			s.FitSeconds = &sec
		}
		for _, f := range c.Folds {
			full := len(c.TuneCandidates) * c.TuneFolds
			most := f.TuneRows
			if c.TuneResource != "" {
				most = c.TuneMaxResource
			}
			s.FullFits, s.FullRows = s.FullFits+full, s.FullRows+full*most
			if len(f.TuneRounds) == 0 {
				// A random search scores every candidate, or under a
				// budget the first len(TuneScores).
				n := min(len(f.TuneScores), len(c.TuneCandidates)) * c.TuneFolds
				s.Fits, s.Rows = s.Fits+n, s.Rows+n*most
				continue
			}
			s.Folds = append(s.Folds, searchFold(c, f))
			for i, r := range f.TuneRounds {
				if i > 0 && r.Bracket == nil && r.Resources == f.TuneRounds[i-1].Resources {
					continue // a replay of the round before fits nothing (aggressive elimination)
				}
				s.Fits += (len(r.Candidates) - r.Reused) * c.TuneFolds
				s.Rows += (len(r.Candidates) - r.Reused) * c.TuneFolds * r.Resources
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
		sr := SearchRound{Resources: r.Resources, Bracket: r.Bracket, Reused: r.Reused}
		for j, ci := range r.Candidates {
			sr.Candidates = append(sr.Candidates, name(ci))
			sr.Scores = append(sr.Scores, jnum(r.Scores[j]))
			if j == 0 || betterScore(c.TuneMetric, r.Scores[j], float64(sr.BestScore)) {
				sr.Best, sr.BestScore = name(ci), jnum(r.Scores[j])
			}
		}
		if i+1 < len(f.TuneRounds) && sameBracket(r.Bracket, f.TuneRounds[i+1].Bracket) {
			for _, ci := range f.TuneRounds[i+1].Candidates {
				sr.Survivors = append(sr.Survivors, name(ci))
			}
		}
		sf.Rounds = append(sf.Rounds, sr)
	}
	return sf
}

// sameBracket reports whether two rounds are of the same hyperband
// bracket (always, for successive halving's rounds).
func sameBracket(a, b *int) bool { return a == nil || b == nil || *a == *b }

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
func searchSection(ss []Search, figs []Figure) []section {
	if len(ss) == 0 {
		return nil
	}
	sec := section{ID: "searches", Title: "Tuning searches", In: only(mdFormat, htmlFormat, texFormat, jsonFormat),
		JSON: []jsonField{{"tuning_searches", ss}}}
	rounds := only(mdFormat, htmlFormat)
	showEnc := searchEncodersDiffer(ss)
	for _, s := range ss {
		sec.Blocks = append(sec.Blocks, para{Text: s.summary(showEnc), In: rounds})
		if len(s.Folds) == 0 {
			continue
		}
		t := table{In: rounds}
		for i, h := range []string{"repeat", "fold", "round", "candidates", s.unit(), "best", "inner mean", "survivors"} {
			t.Columns = append(t.Columns, column{Head: txt(h), Num: i != 5 && i != 7})
		}
		for _, f := range s.Folds {
			for i, r := range f.Rounds {
				t.Rows = append(t.Rows, tableRow{Cells: cellsOf(roundCells(f, i, r)...)})
			}
		}
		sec.Blocks = append(sec.Blocks, t)
	}
	var grid figureGrid
	grid.Class = "figs"
	for _, f := range figs {
		if f.Kind == "search" {
			grid.Figs = append(grid.Figs, f)
		}
	}
	if len(grid.Figs) > 0 {
		sec.Blocks = append(sec.Blocks, grid)
	}
	sec.Blocks = append(sec.Blocks, searchCostTable(ss, showEnc))
	return []section{sec}
}

// searchCostTable is the LaTeX table of the searches (labelled
// tab:EXPERIMENT-searches): per searched cell its strategy, candidates
// and inner folds, the inner fits it made and what scoring every
// candidate on every row would make, and the rows (or budget) the fits
// weighed against that (with the fit seconds when reported). The rounds
// stay in the Markdown, HTML and JSON reports.
func searchCostTable(ss []Search, showEnc bool) table {
	t := table{In: only(texFormat), Label: "searches",
		Caption: text{{S: "the tuning searches' cost over every outer fold: inner fits made, against scoring every candidate by every inner fold with all the rows (the exhaustive grid's cost when the candidates are a grid), and the rows the fits trained on (fits "}, {S: `$\times$`, Style: raw}, {S: " their rows; of the budget parameter for a search that grows one) as a share of that."}}}
	head := []string{"dataset", "learner", "reduction", "strategy", "candidates", "inner fits", "all candidates", "share of the rows"}
	if showEnc {
		head = slices.Insert(head, 1, "pipeline")
	}
	timed := ss[0].FitSeconds != nil
	if timed {
		head = append(head, "fit seconds")
	}
	for i, h := range head {
		t.Columns = append(t.Columns, column{Head: txt(h), Num: i >= len(head)-4-b2i(timed)})
	}
	for _, s := range ss {
		share := percent(s.Rows, s.FullRows)
		if s.Resource != "" {
			share += " (" + s.Resource + ")"
		}
		fields := []string{s.Dataset, s.Learner, s.Reduction, s.Strategy,
			strconv.Itoa(s.Candidates), strconv.Itoa(s.Fits), strconv.Itoa(s.FullFits), share}
		if showEnc {
			fields = slices.Insert(fields, 1, s.Encoder)
		}
		if timed {
			fields = append(fields, strconv.FormatFloat(*s.FitSeconds, 'f', 1, 64))
		}
		t.Rows = append(t.Rows, tableRow{Cells: cellsOf(fields...)})
	}
	return t
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
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
// when showEnc), strategy, candidates, inner folds, metric and cost (in
// the budget parameter it grows, if any; with the fit seconds when
// reported).
func (s Search) summary(showEnc bool) text {
	enc := ""
	if showEnc {
		enc = " · " + s.Encoder
	}
	cell := fmt.Sprintf("%s%s · %s · %s", s.Dataset, enc, s.Learner, s.Reduction)
	if s.Resource != "" {
		u := s.Resource
		return text{strong(cell), {S: fmt.Sprintf(": %s search over %d candidates, each scored by %d inner folds on %s, growing %s; %d inner fits on %d %s in all (fits × their %s), against %d fits on %d %s to score every candidate with the largest %s (%s of the %s)%s.",
			s.Strategy, s.Candidates, s.InnerFolds, s.Metric, u, s.Fits, s.Rows, u, u, s.FullFits, s.FullRows, u, u, percent(s.Rows, s.FullRows), u, s.secondsText())}}
	}
	return text{strong(cell), {S: fmt.Sprintf(": %s search over %d candidates, each scored by %d inner folds on %s; %d inner fits on %d rows in all (fits × their rows), against %d fits on %d rows to score every candidate on every row (%s of the rows)%s.",
		s.Strategy, s.Candidates, s.InnerFolds, s.Metric, s.Fits, s.Rows, s.FullFits, s.FullRows, percent(s.Rows, s.FullRows), s.secondsText())}}
}

// secondsText is "; 12.3 s of inner fits" when the search's seconds are
// reported, else "".
func (s Search) secondsText() string {
	if s.FitSeconds == nil {
		return ""
	}
	return fmt.Sprintf("; %s s of inner fits", strconv.FormatFloat(*s.FitSeconds, 'f', 1, 64))
}

// unit is what a round's resources count: rows, or the budget parameter.
func (s Search) unit() string {
	if s.Resource != "" {
		return s.Resource
	}
	return "rows"
}

// roundCells are the cells of round i of fold f's row.
func roundCells(f SearchFold, i int, r SearchRound) []string {
	return []string{strconv.Itoa(f.Repeat), strconv.Itoa(f.Fold), roundLabel(f.Rounds, i), strconv.Itoa(len(r.Candidates)), strconv.Itoa(r.Resources),
		r.Best, strconv.FormatFloat(float64(r.BestScore), 'f', 4, 64), survivorsText(r, f.Chosen, i == len(f.Rounds)-1)}
}

// roundLabel numbers round i of rounds from 1: within its bracket under
// hyperband ("s=2: 1"), else among the fold's rounds.
func roundLabel(rounds []SearchRound, i int) string {
	b := rounds[i].Bracket
	if b == nil {
		return strconv.Itoa(i + 1)
	}
	n := 1
	for j := i - 1; j >= 0 && sameBracket(rounds[j].Bracket, b); j-- {
		n++
	}
	return fmt.Sprintf("s=%d: %d", *b, n)
}

// survivorsText lists a round's survivors: their names when three or
// fewer, else their number; after the last round, the choice; after a
// hyperband bracket's last round, that it ends it.
func survivorsText(r SearchRound, chosen string, last bool) string {
	switch {
	case len(r.Survivors) == 0 && !last:
		return "end of bracket"
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
