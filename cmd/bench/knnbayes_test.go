package main

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/internal/refdata"
)

// sklearnFoldAccuracy returns, for each fold of data set name, the
// accuracy of the predictions that configuration config of a reference
// file in a plugin's testdata (sklearn_knn.json, sklearn_nb.json: one
// predicted class per row of the file, made on the reference folds) gets.
func sklearnFoldAccuracy(t *testing.T, file, name, config string) []float64 {
	t.Helper()
	var ref struct {
		Datasets map[string]map[string]struct {
			Predictions []int `json:"predictions"`
		} `json:"datasets"`
	}
	if err := json.Unmarshal([]byte(readFile(t, file)), &ref); err != nil {
		t.Fatal(err)
	}
	pred := ref.Datasets[name][config].Predictions
	if pred == nil {
		t.Fatalf("%s: no %s/%s", file, name, config)
	}
	folds := strings.Fields(strings.TrimPrefix(readFile(t, refdata.Reference(t, "folds", name+".folds.csv")), "fold"))
	data := strings.Split(strings.TrimSpace(string(refdata.ReadFile(t, refdata.Data(t, name+".csv")))), "\n")[1:]
	var classes []string
	for _, line := range data {
		classes = append(classes, line[strings.LastIndexByte(line, ',')+1:])
	}
	sorted := slices.Compact(slices.Sorted(slices.Values(classes)))
	right, total := make([]float64, 10), make([]float64, 10)
	for i, f := range folds {
		k, _ := strconv.Atoi(f)
		total[k]++
		if sorted[pred[i]] == classes[i] {
			right[k]++
		}
	}
	for k := range right {
		right[k] /= total[k]
	}
	return right
}

// TestParityKNNAndNaiveBayes runs the knn and naive_bayes plugin binaries
// through bench (standardize, no reduction) on the reference folds and
// compares every fold's accuracy with scikit-learn 1.2.1's
// KNeighborsClassifier and GaussianNB on the same folds (the predictions
// the plugins' own parity tests compare row by row): equal.
func TestParityKNNAndNaiveBayes(t *testing.T) {
	skipUnderRace(t, "a parity check of the plugins' numbers")
	names := []string{"iris", "wine", "vehicle", "segment"}
	src := `experiment "knn_nb" { seed = 0 }
` + datasets(names...) + `
encoder "std" { type = "standardize" }
learner "knn" {}
learner "knn_distance" {
  plugin = "knn"
  params = { weights = "distance" }
}
learner "knn_manhattan" {
  plugin = "knn"
  params = { metric = "manhattan" }
}
learner "nb" { plugin = "naive_bayes" }
reduction "none" { scheme = "none" }
metrics = ["accuracy"]
`
	file := writeExperiment(t, src)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	cells := readCells(t, out)
	for _, n := range names {
		for learner, ref := range map[string][2]string{
			"knn":           {"../../plugins/knn/neighbors/testdata/sklearn_knn.json", "default"},
			"knn_distance":  {"../../plugins/knn/neighbors/testdata/sklearn_knn.json", "distance"},
			"knn_manhattan": {"../../plugins/knn/neighbors/testdata/sklearn_knn.json", "manhattan"},
			"nb":            {"../../plugins/naive_bayes/bayes/testdata/sklearn_nb.json", "gaussian"},
		} {
			key := n + "|" + learner + "|none"
			c := cells[key]
			if c == nil || c.Failed() {
				t.Errorf("cell %s: %+v", key, c)
				continue
			}
			want := sklearnFoldAccuracy(t, ref[0], n, ref[1])
			for _, f := range c.Folds {
				if got := f.Metrics["accuracy"]; math.Abs(got-want[f.Fold]) > 1e-12 {
					t.Errorf("%s fold %d: accuracy %.6f, scikit-learn %.6f (%d test rows)", key, f.Fold, got, want[f.Fold], f.NTest)
				}
			}
		}
	}
}
