package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/plugins/logreg/learner"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
)

// TestNotConvergedRecorded fits logreg on iris one-vs-all (3 binary
// problems a fold, 3 folds) through the in-process plugins, over gRPC as
// a plugin process is: with max_iter = 1 no fit meets its tol rule, and
// every fold records 3 of 3 fits that did not converge; with the default
// max_iter every fit converges and the folds record nothing (the cell
// reads as before).
func TestNotConvergedRecorded(t *testing.T) {
	iris, err := filepath.Abs("../../testdata/data/iris.csv")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := fmt.Sprintf(`
experiment "converge" { seed = 1 }
dataset "iris" { path = %q }
encoder "std" { type = "standardize" }
learner "logreg" { params = { max_iter = [1, 1000] } }
reduction "ova" { scheme = "ova" }
cv { folds = 3 }
metrics = ["accuracy"]
`, iris)
	file := filepath.Join(dir, "converge.hcl")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	exp, diags := config.NewParser(config.DefaultFormats()).ParseFile(file)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	h := host.New("", nil)
	h.Register("logreg", host.InProcess{Learner: learner.New()})
	h.Register("reducers", host.InProcess{Reducer: reducer.New()})
	t.Cleanup(h.Close)
	g, diags := Resolve(context.Background(), exp, h, ResolveOptions{DefaultReducer: "reducers"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	res, _, err := Run(context.Background(), g, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{"max_iter=1": {3, 3}, "max_iter=1000": {0, 0}}
	if len(res) != len(want) {
		t.Fatalf("%d cells, want %d", len(res), len(want))
	}
	for _, r := range res {
		if r.Failed() {
			t.Fatalf("cell %s failed: %s", r.ID.Key(), r.Error)
		}
		w, ok := want[r.ID.Params]
		if !ok {
			t.Fatalf("cell %s: params %q, want one of max_iter=1, max_iter=1000", r.ID.Key(), r.ID.Params)
		}
		if len(r.Folds) != 3 {
			t.Fatalf("cell %s: %d folds, want 3", r.ID.Key(), len(r.Folds))
		}
		for _, f := range r.Folds {
			if f.NotConverged != w[0] || f.Fits != w[1] {
				t.Errorf("%s fold %d: %d of %d fits did not converge, want %d of %d", r.ID.Params, f.Fold, f.NotConverged, f.Fits, w[0], w[1])
			}
		}
	}
}
