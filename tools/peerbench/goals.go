package main

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// goalCount is the number of performance targets (targetNames).
const goalCount = 16

// targetNames names the performance targets the summary table numbers
// 1 to goalCount, in order.
var targetNames = [goalCount]string{
	"our linear solvers against LIBLINEAR's training time on letter",
	"the speed-up of the one-vs-rest fits on 2 goroutines",
	"the plugin tax: the letter grid through the plugin processes against the same plugins linked in, in CPU time",
	"the peak memory of diabetes130 one-hot end to end",
	"end to end against scikit-learn's `cross_validate(n_jobs=2)`",
	"linear scaling in the number of rows",
	"the cost of `bench run --profile`",
	"the kernel SVM against LIBSVM on letter (RBF one-vs-one, train + predict)",
	"knn and naive Bayes against scikit-learn's on covertype_50k, 10 folds",
	"one-vs-one on 200 classes: memory, and time against scikit-learn's",
	"one fit per distinct problem: Hsu & Lin's letter block, fits made and wall time shared against `bench run --no-share`",
	"tuning by successive halving against the full grid: Hsu & Lin's letter, 225 (C, γ), test accuracy within 0.5 points at most 20 % of the CPU time",
	"every core busy: both cores against one (every process pinned to it), the letter grid with 3 repeats and one-vs-one on 200 classes",
	"16 workers: the speed-up Amdahl's law gives from the serial fraction of `bench run --profile` (an estimate, not a measurement)",
	"small cells nearly free: Hsu & Lin's iris grid on 2 cores, and against LIBSVM's own grid search over the same 225 (C, γ)",
	"the all-together kernel SVMs (Crammer–Singer, Weston–Watkins) on Hsu & Lin's letter at (C, γ) = (16, 4): train + predict in minutes, not hours",
}

// The targets of the cores, irisgrid and together sections.
const (
	coresGoal    = 13
	amdahlGoal   = 14
	irisGridGoal = 15
	togetherGoal = 16
)

// unit says how the two sides of a goalResult print.
type unit int

const (
	unitSeconds unit = iota // durations, in seconds
	unitBytes               // memory, in bytes
	unitPlain               // a bare number
)

// goalResult is one line of the summary table: a measurement of one
// performance target (targetNames), both sides from the same run. A section appends its lines
// with options.addGoal; run prints them, by goal, above the report.
//
// The ratio is ours/peer and must be ≤ target (≥ target when atLeast, for
// speed-ups). When peer is 0 the target is absolute: ours itself must be
// ≤ target (≥ with atLeast), in ours' unit.
type goalResult struct {
	goal    int    // 1–goalCount
	what    string // what is compared, e.g. "letter OvR hinge SVM: ours vs LIBLINEAR -s 3 training"
	ours    float64
	peer    float64
	unit    unit
	target  float64
	atLeast bool
	// paired, when > 0, is what value compares with the target instead of
	// ours/peer (the medians of each side): the median of the ratios of
	// runs made one after the other, one of each side. A drift of the
	// machine's speed between pairs moves each side's median; it moves the
	// ratios of pairs much less.
	paired float64
}

// addGoal records a line of the summary table.
func (o *options) addGoal(g goalResult) { o.goals = append(o.goals, g) }

// value is what is compared with the target: the median of paired
// ratios, else the ratio, or ours alone.
func (g goalResult) value() float64 {
	if g.paired > 0 {
		return g.paired
	}
	if g.peer == 0 {
		return g.ours
	}
	return g.ours / g.peer
}

// met says whether the goal's target is reached.
func (g goalResult) met() bool {
	v := g.value()
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return false
	}
	if g.atLeast {
		return v >= g.target
	}
	return v <= g.target
}

// format prints a value of the result's unit.
func (g goalResult) format(v float64) string {
	switch g.unit {
	case unitSeconds:
		return fmtSeconds(v)
	case unitBytes:
		return fmtBytes(int64(v))
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

// writeGoals prints the summary table: one line per result, by goal, and
// a line for each goal no section measured.
func writeGoals(w io.Writer, goals []goalResult) {
	fmt.Fprintf(w, "| target | what | ours | peer | ratio | bound | met? |\n| --- | --- | ---: | ---: | ---: | ---: | --- |\n")
	for n := 1; n <= goalCount; n++ {
		seen := false
		for _, g := range goals {
			if g.goal != n {
				continue
			}
			seen = true
			op := "≤"
			if g.atLeast {
				op = "≥"
			}
			ratio, target := fmtRatio(g.value(), g.target), fmt.Sprintf("%s %.2f", op, g.target)
			peer := g.format(g.peer)
			if g.peer == 0 {
				ratio, peer, target = "–", "–", op+" "+g.format(g.target)
			}
			met := "no"
			if g.met() {
				met = "**yes**"
			}
			fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s | %s |\n", n, g.what, g.format(g.ours), peer, ratio, target, met)
		}
		if !seen {
			fmt.Fprintf(w, "| %d | not measured in this run | – | – | – | – | – |\n", n)
		}
	}
	fmt.Fprintln(w)
}

// fmtRatio prints ratio v with two decimals, or with as many more (up to
// four) as it takes to tell it from target when the two would print the
// same: a table saying "1.05, ≤ 1.05, no" would not show why.
func fmtRatio(v, target float64) string {
	for digits := 2; ; digits++ {
		s := fmt.Sprintf("%.*f", digits, v)
		if digits == 4 || v == target || s != fmt.Sprintf("%.*f", digits, target) {
			return s
		}
	}
}

// fmtSeconds prints seconds as fmtDur does.
func fmtSeconds(s float64) string {
	switch {
	case s >= 10:
		return fmt.Sprintf("%.1f s", s)
	case s >= 1:
		return fmt.Sprintf("%.2f s", s)
	default:
		return fmt.Sprintf("%.0f ms", s*1000)
	}
}

// letterGoals records targets 1 and 2 from the letter section's solvers:
// every SVM row (LIBLINEAR -s 1, 2, 3 or 4) against LIBLINEAR's training
// time (≤ 0.8×, Crammer–Singer ≤ 1.0×), and every row's speed-up on
// workers goroutines (≥ 1.7×).
func letterGoals(o *options, rows []*solverRow, par []*parallelRow, problems, workers int, haveLL bool) {
	for _, r := range par {
		o.addGoal(goalResult{goal: 2, what: fmt.Sprintf("letter, %d OvR problems, %s: sequential vs %d goroutines (speed-up)", problems, r.name, workers),
			ours: r.seq.wall.Seconds(), peer: r.par.wall.Seconds(), unit: unitSeconds, target: 1.7, atLeast: true})
	}
	for _, r := range rows {
		if !haveLL || len(r.flags) < 2 || r.flags[0] != "-s" || r.flags[1] == "0" {
			continue
		}
		target := 0.8
		if r.flags[1] == "4" {
			target = 1.0
		}
		o.addGoal(goalResult{goal: 1, what: fmt.Sprintf("letter OvR, %s: ours (sequential) vs LIBLINEAR `%s` training (raw − `-e 1e9`)", r.name, strings.Join(r.flags[:2], " ")),
			ours: r.ours.wall.Seconds(), peer: (r.llRaw.wall - r.llBase.wall).Seconds(), unit: unitSeconds, target: target})
	}
}
