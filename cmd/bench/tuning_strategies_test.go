package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestTuningStrategiesExample runs the shipped experiments/tuning_strategies.hcl
// (the grid, random search and successive halving on wine) with one worker
// and with three: the report is byte for byte the same (the same draws,
// subsamples and eliminations), halving plays scikit-learn's rounds for
// wine's outer training parts (142 or 143 rows, 3 classes, 3 inner folds:
// 25 candidates on 18 rows, then 9 on 54), and random search scores the
// same 10 drawn candidates in every outer fold.
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
				Rounds []struct{ Candidates []string }
			}
		} `json:"tuning_searches"`
	}
	if err := json.Unmarshal([]byte(jsons[0]), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Searches) != 2 || rep.Searches[1].Strategy != "halving" || len(rep.Searches[1].Folds) != 5 {
		t.Fatalf("tuning_searches %+v, want random then halving with 5 folds", rep.Searches)
	}
	for _, f := range rep.Searches[1].Folds {
		if len(f.Rounds) != 2 || len(f.Rounds[0].Candidates) != 25 || len(f.Rounds[1].Candidates) != 9 {
			t.Errorf("halving rounds %+v, want 25 then 9 candidates", f.Rounds)
		}
	}
}
