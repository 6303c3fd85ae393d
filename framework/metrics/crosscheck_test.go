package metrics

import (
	"encoding/json"
	"math"
	"os"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// crosscheck mirrors testdata/sklearn_crosscheck.json, produced by
// testdata/gen_sklearn_crosscheck.py with scikit-learn 1.2.1.
type crosscheck struct {
	SklearnVersion string `json:"sklearn_version"`
	Multiclass     []struct {
		Name     string             `json:"name"`
		K        int                `json:"k"`
		True     []int              `json:"true"`
		Pred     []int              `json:"pred"`
		Prob     [][]float64        `json:"prob"`
		Expected map[string]float64 `json:"expected"`
	} `json:"multiclass"`
	Multilabel []struct {
		Name     string             `json:"name"`
		K        int                `json:"k"`
		TrueSet  [][]float64        `json:"true_set"`
		PredSet  [][]float64        `json:"pred_set"`
		Expected map[string]float64 `json:"expected"`
	} `json:"multilabel"`
}

func loadCrosscheck(t *testing.T) crosscheck {
	t.Helper()
	b, err := os.ReadFile("testdata/sklearn_crosscheck.json")
	if err != nil {
		t.Fatalf("reading cross-check data: %v", err)
	}
	var c crosscheck
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("decoding cross-check data: %v", err)
	}
	if len(c.Multiclass) == 0 || len(c.Multilabel) == 0 {
		t.Fatal("cross-check data has no cases")
	}
	return c
}

// rows converts a slice of rows to a dense matrix.
func rows(r [][]float64) *mat.Dense {
	m := mat.NewDense(len(r), len(r[0]), nil)
	for i, row := range r {
		m.SetRow(i, row)
	}
	return m
}

// relClose reports |got−want| ≤ tol·max(1, |want|).
func relClose(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

func sortedKeys(m map[string]float64) []string {
	k := make([]string, 0, len(m))
	for n := range m {
		k = append(k, n)
	}
	sort.Strings(k)
	return k
}

// TestSklearnCrosscheckMulticlass compares every multiclass metric with
// scikit-learn on seeded random folds (classes missing from predictions or
// from the true labels, tied and zero probabilities).
func TestSklearnCrosscheckMulticlass(t *testing.T) {
	c := loadCrosscheck(t)
	const tol = 1e-12
	for _, tc := range c.Multiclass {
		in := &Input{K: tc.K, True: tc.True, Pred: tc.Pred, Prob: rows(tc.Prob)}
		for _, name := range sortedKeys(tc.Expected) {
			want := tc.Expected[name]
			m, err := Lookup(name)
			if err != nil {
				t.Fatalf("%s: %v", tc.Name, err)
			}
			got, _, err := m.Eval(in)
			if err != nil {
				t.Errorf("%s/%s: %v", tc.Name, name, err)
				continue
			}
			if !relClose(got, want, tol) {
				t.Errorf("%s/%s = %.17g, sklearn %.17g (diff %.3g)", tc.Name, name, got, want, got-want)
			}
		}
		if len(tc.Expected) != 19 {
			t.Errorf("%s: %d expected metrics, want all 19 multiclass ones", tc.Name, len(tc.Expected))
		}
	}
}

// TestSklearnCrosscheckMultiLabel compares the multi-label metrics with
// scikit-learn on folds with empty true rows, empty predicted rows, rows
// empty in both, and a label that never occurs.
func TestSklearnCrosscheckMultiLabel(t *testing.T) {
	c := loadCrosscheck(t)
	const tol = 1e-12
	for _, tc := range c.Multilabel {
		in := &Input{K: tc.K, TrueSet: rows(tc.TrueSet), PredSet: rows(tc.PredSet)}
		for _, name := range sortedKeys(tc.Expected) {
			want := tc.Expected[name]
			m, err := Lookup(name)
			if err != nil {
				t.Fatalf("%s: %v", tc.Name, err)
			}
			got, _, err := m.Eval(in)
			if err != nil {
				t.Errorf("%s/%s: %v", tc.Name, name, err)
				continue
			}
			if !relClose(got, want, tol) {
				t.Errorf("%s/%s = %.17g, sklearn %.17g (diff %.3g)", tc.Name, name, got, want, got-want)
			}
		}
	}
}
