package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestTuningStrategiesExample runs the shipped experiments/tuning_strategies.hcl
// (the grid, random search, successive halving, hyperband and a random
// search under max_evals on wine) with one worker and with three: the
// report is byte for byte the same (the same draws, subsamples,
// eliminations and brackets), halving plays scikit-learn's rounds for
// wine's outer training parts (142 or 143 rows, 3 classes, 3 inner folds:
// 25 candidates on 18 rows, then 9 on 54), hyperband (min_resources 9:
// R = 15) its brackets s = 2, 1, 0 of 9, 3, 1 then 5, 1 then 3
// candidates, random search scores the same 10 drawn candidates in every
// outer fold, and max_evals = 6 stops it after 6.
func TestTuningStrategiesExample(t *testing.T) {
	var reports [2]string
	var jsons [2]string
	for i, j := range []string{"1", "3"} {
		out := filepath.Join(t.TempDir(), "out")
		if _, stderr, err := bench(t, "run", "-j", j, "-o", out, "../../experiments/tuning_strategies.hcl"); err != nil {
			t.Fatalf("-j %s: %v\n%s", j, err, stderr)
		}
		reports[i] = readFile(t, filepath.Join(out, "tuning_strategies.md"))
		jsons[i] = readFile(t, filepath.Join(out, "tuning_strategies.json"))
	}
	if reports[0] != reports[1] || jsons[0] != jsons[1] {
		t.Errorf("-j 1 and -j 3 wrote different reports:\n%s\n---\n%s", reports[0], reports[1])
	}
	md := reports[0]
	for _, want := range []string{
		"## Tuning searches\n\n",
		"**wine · random · ovo**: random search over 10 candidates, each scored by 3 inner folds on accuracy; 150 inner fits",
		"**wine · halving · ovo**: halving search over 25 candidates, each scored by 3 inner folds on accuracy; 510 inner fits",
		"against 375 fits on 53400 rows to score every candidate on every row (26.3 % of the rows)",
		"**wine · hyperband · ovo**: hyperband search over 25 candidates, each scored by 3 inner folds on accuracy; 330 inner fits",
		"**wine · random_budget · ovo**: random search over 10 candidates, each scored by 3 inner folds on accuracy; 90 inner fits",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	for f := range 5 {
		for round, want := range []string{"| 1 | 25 | 18 |", "| 2 | 9 | 54 |"} {
			if !strings.Contains(md, "| 0 | "+string(rune('0'+f))+" "+want) {
				t.Errorf("fold %d round %d: no row %q in\n%s", f, round+1, want, md)
			}
		}
	}
	var rep struct {
		Searches []struct {
			Strategy string
			Folds    []struct {
				Rounds []struct {
					Candidates []string
					Bracket    *int
				}
			}
		} `json:"tuning_searches"`
	}
	if err := json.Unmarshal([]byte(jsons[0]), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Searches) != 4 || rep.Searches[1].Strategy != "halving" || len(rep.Searches[1].Folds) != 5 ||
		rep.Searches[2].Strategy != "hyperband" || len(rep.Searches[2].Folds) != 5 {
		t.Fatalf("tuning_searches %+v, want random, halving and hyperband with 5 folds, random", rep.Searches)
	}
	for _, f := range rep.Searches[2].Folds {
		var got []string
		for _, r := range f.Rounds {
			got = append(got, fmt.Sprintf("s=%d: %d", *r.Bracket, len(r.Candidates)))
		}
		if want := "[s=2: 9 s=2: 3 s=2: 1 s=1: 5 s=1: 1 s=0: 3]"; fmt.Sprint(got) != want {
			t.Errorf("hyperband rounds %v, want %s", got, want)
		}
	}
	for _, f := range rep.Searches[1].Folds {
		if len(f.Rounds) != 2 || len(f.Rounds[0].Candidates) != 25 || len(f.Rounds[1].Candidates) != 9 {
			t.Errorf("halving rounds %+v, want 25 then 9 candidates", f.Rounds)
		}
	}
}
