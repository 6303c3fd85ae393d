package main

import (
	"io"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/host"
)

// TestFoldWeightsCountModels: the progress bar counts the models each
// fold fits. On car (4 classes) a one-vs-all fold fits 4 models, a
// one-vs-one fold 4·3/2 = 6, a native multiclass fold 1, and a
// calibrated one-vs-all fold 4 on each of the 5 calibration folds, 20.
func TestFoldWeightsCountModels(t *testing.T) {
	file := writeExperiment(t, `experiment "weights" { seed = 1 }
dataset "car" {
  path        = "%REPO%/experiments/data/car.csv"
  categorical = ["buying", "maint", "doors", "persons", "lug_boot", "safety"]
}
encoder "onehot" { type = "onehot" }
learner "logreg" {}
reduction "ova" { scheme = "ova" }
reduction "ovo" { scheme = "ovo" }
reduction "native" { scheme = "none" }
reduction "calibrated" {
  scheme    = "ova"
  calibrate = "platt"
}
cv { folds = 3 }
`)
	h := host.New(pluginsDir, io.Discard)
	defer h.Close()
	var diags strings.Builder
	g, _, err := prepare(commandContext(t), h, file, "", nil, engine.ResolveOptions{}, &diags)
	if err != nil {
		t.Fatalf("%v\n%s", err, diags.String())
	}
	want := map[string]int{"ova": 4, "ovo": 6, "native": 1, "calibrated": 20}
	weights := foldWeights(commandContext(t), g)
	if len(weights) != len(want) {
		t.Fatalf("weights %v for %d cells", weights, len(g.Cells))
	}
	for _, c := range g.Cells {
		if got := weights[c.Index]; got != want[c.ID().Reduction] {
			t.Errorf("%s: %d models per fold, want %d", c.ID().Reduction, got, want[c.ID().Reduction])
		}
	}
}
