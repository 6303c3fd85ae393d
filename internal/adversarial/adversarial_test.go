package adversarial

import (
	"os"
	"path/filepath"
	"testing"
)

// runners names, for each kind of the corpus, the test that runs it.
var runners = map[string]string{
	"experiments": "cmd/bench TestAdversarialExperiments",
	"data":        "framework/data TestAdversarialDataFiles",
	"folds":       "framework/cv TestAdversarialFoldsFiles",
	"results":     "framework/results TestAdversarialResultsDirs",
	"shards":      "framework/shard TestAdversarialShardSpecs",
	"runs":        "cmd/bench TestAdversarialRuns",
}

// TestCorpus: every kind of the corpus has its runner, and the corpus
// holds at least 150 cases, each with its comment and want file.
func TestCorpus(t *testing.T) {
	kinds, err := os.ReadDir(filepath.Dir(Dir("x")))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, k := range kinds {
		if _, ok := runners[k.Name()]; !ok {
			t.Errorf("testdata/adversarial/%s: no test runs it", k.Name())
			continue
		}
		n := len(Load(t, k.Name()))
		t.Logf("%-12s %3d cases (%s)", k.Name(), n, runners[k.Name()])
		total += n
	}
	if total < 150 {
		t.Errorf("%d cases, want at least 150", total)
	}
}
