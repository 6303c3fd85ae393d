package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/sdk"
)

// tuneCheckGrid is a bound grid of one dataset of rows rows of three
// classes in five outer folds and one learner (lda, under reduction
// none) tuned by t over cands candidates of params.
func tuneCheckGrid(rows int, t *config.Tune, params map[string]config.Param, tuned map[string]bool, cands int) *Grid {
	d := &Dataset{Config: &config.Dataset{Name: "d"}, Classes: []string{"a", "b", "c"}, Labels: make([]int, rows), Folds: [][]int{make([]int, rows)}, NumFolds: 5}
	for i := range rows {
		d.Labels[i], d.Folds[0][i] = i%3, i%5
	}
	l := &Learner{Config: &config.Learner{Name: "lda", Plugin: "lda", Params: params, Tune: t}, Info: &sdk.LearnerInfo{},
		Tuned: tuned, TuneMetric: "accuracy", Candidates: make([]param.Params, cands)}
	none := &Reduction{Config: &config.Reduction{Name: "none"}, Scheme: sdk.Scheme{Name: "none"}}
	exp := &config.Experiment{Metrics: []string{"accuracy"}, MetricRanges: []hcl.Range{at(1)}, MetricsRange: at(1), CV: config.CV{Stratified: true}}
	return &Grid{Experiment: exp, Metrics: exp.Metrics, Datasets: []*Dataset{d}, Learners: []*Learner{l}, Reductions: []*Reduction{none}}
}

// tuneDiags runs the grid's checks and returns the diagnostics located
// on line 7 (the tune setting under test) as "severity: summary: detail".
func tuneDiags(g *Grid) []string {
	var got []string
	for _, d := range check(g) {
		if d.Subject != nil && d.Subject.Start.Line == 7 {
			got = append(got, fmt.Sprintf("%s: %s: %s", map[hcl.DiagnosticSeverity]string{hcl.DiagError: "error", hcl.DiagWarning: "warning"}[d.Severity], d.Summary, d.Detail))
		}
	}
	return got
}

// TestHalvingInnerRows: a halving or hyperband round too small to leave
// every inner fold a test row is an error at min_resources naming the
// least value that works (campaign case t16: 30 rows, 3 classes,
// min_resources = 1 passed validate and failed every fold at run time).
// 30 rows in 5 folds leave training parts of 24 rows, 5 tune folds inner
// test parts of 4: a round needs int(r/24 × 4) ≥ 1 rows, r ≥ 6.
func TestHalvingInnerRows(t *testing.T) {
	for _, tc := range []struct {
		name     string
		strategy string
		minRes   int
		want     []string
	}{
		{"halving from 1 row (t16)", config.StrategyHalving, 1, []string{
			`error: Too few rows per round: Learner "lda": on dataset "d" (fold 0) round 1's 1 row(s) of the 24 rows of the outer training part leave the smallest of the 5 inner test parts (4 rows) no row: the fold would fail; set min_resources = 6 or more.`}},
		{"halving from 5 rows", config.StrategyHalving, 5, []string{
			`error: Too few rows per round: Learner "lda": on dataset "d" (fold 0) round 1's 5 row(s) of the 24 rows of the outer training part leave the smallest of the 5 inner test parts (4 rows) no row: the fold would fail; set min_resources = 6 or more.`}},
		{"halving from 6 rows", config.StrategyHalving, 6, nil},
		// Hyperband's smallest round is rows / eta^s_max: 24/9 = 2 rows
		// from min_resources 2, 24/3 = 8 from 3.
		{"hyperband from 2 rows", config.StrategyHyperband, 2, []string{
			`error: Too few rows per round: Learner "lda": on dataset "d" (fold 0) round 1's 2 row(s) of the 24 rows of the outer training part leave the smallest of the 5 inner test parts (4 rows) no row: the fold would fail; set min_resources = 3 or more.`}},
		{"hyperband from 3 rows", config.StrategyHyperband, 3, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tune := &config.Tune{Folds: 5, Strategy: tc.strategy, Factor: 3, MinResources: tc.minRes, MinResourcesRange: at(7), DeclRange: at(5)}
			g := tuneCheckGrid(30, tune, map[string]config.Param{"C": {Value: param.List(param.Number(1))}}, map[string]bool{"C": true}, 9)
			if got := tuneDiags(g); !slices.Equal(got, tc.want) {
				t.Errorf("diagnostics\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestNIterChecks: n_iter beyond a finite search space, and a random
// search with more candidates than rows (campaign case t23: n_iter =
// 10000 with loguniform on 20 rows ran until the cell timeout), are
// warned about at n_iter.
func TestNIterChecks(t *testing.T) {
	logC := map[string]config.Param{"C": {Dist: &config.Distribution{Kind: config.LogUniform, Low: 1e-3, High: 1e3}}}
	finite := map[string]config.Param{
		"kernel": {Dist: &config.Distribution{Kind: config.Choice, Choices: []param.Value{param.String("rbf"), param.String("linear")}}},
		"degree": {Dist: &config.Distribution{Kind: config.RandInt, Low: 1, High: 4}},
	}
	lists := map[string]config.Param{"C": {Value: param.List(param.Number(1), param.Number(2), param.Number(3))}, "tol": {Value: param.Number(1e-6)}}
	for _, tc := range []struct {
		name        string
		rows, nIter int
		strategy    string
		params      map[string]config.Param
		tuned       map[string]bool
		cands       int
		want        []string
	}{
		{"t23: 10000 on 20 rows", 20, 10000, config.StrategyRandom, logC, map[string]bool{"C": true}, 10000, []string{
			`warning: More candidates than rows: Learner "lda": n_iter = 10000 is more than the 16 rows of the outer training part of fold 0 of dataset "d", which the inner scores of so many candidates cannot tell apart; the search fits each of the 10000 candidates on 5 inner folds of each of the 5 outer folds (250000 candidate fits); lower n_iter.`}},
		{"16 on 20 rows", 20, 16, config.StrategyRandom, logC, map[string]bool{"C": true}, 16, nil},
		{"halving over 100 on 20 rows", 20, 100, config.StrategyHalving, logC, map[string]bool{"C": true}, 100, nil},
		{"lists of 3", 300, 10, config.StrategyRandom, lists, map[string]bool{"C": true}, 3, []string{
			`warning: More candidates than the search space holds: Learner "lda": n_iter = 10 is more than the 3 distinct candidates of its search space: the search scores each of them once, as scikit-learn's ParameterSampler; lower n_iter.`}},
		{"choice × randint of 6", 300, 7, config.StrategyRandom, finite, map[string]bool{"kernel": true, "degree": true}, 7, []string{
			`warning: More candidates than the search space holds: Learner "lda": n_iter = 7 is more than the 6 distinct candidates of its search space: some candidates are drawn more than once; lower n_iter.`}},
		{"choice × randint, 6 of 6", 300, 6, config.StrategyRandom, finite, map[string]bool{"kernel": true, "degree": true}, 6, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tune := &config.Tune{Folds: 5, Strategy: tc.strategy, Factor: 3, NIter: tc.nIter, MinResources: 12, NIterRange: at(7), DeclRange: at(5), MinResourcesRange: at(6)}
			g := tuneCheckGrid(tc.rows, tune, tc.params, tc.tuned, tc.cands)
			var got []string
			for _, d := range tuneDiags(g) {
				if !strings.Contains(d, "Too few rows") {
					got = append(got, d)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("diagnostics\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}
