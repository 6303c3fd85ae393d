package kernelsvm

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// liblinearCSRef is testdata/liblinear_cs_<data>.json, written by
// testdata/gen_liblinear_cs.py: wine or vehicle standardised, its 10
// reference folds, and liblinear-train -s 4 -B 1 -e 1e-6's predictions
// per C.
type liblinearCSRef struct {
	X     [][]float64 `json:"x"`
	Y     []int       `json:"y"`
	Folds []int       `json:"folds"`
	K     int         `json:"k"`
	Eps   float64     `json:"eps"`
	Bias  float64     `json:"bias"`
	Runs  []struct {
		C         float64 `json:"C"`
		Predicted []int   `json:"predicted"`
	} `json:"runs"`
}

// TestCrammerSingerLiblinearParity: with the linear kernel and Bias = 1
// (LIBLINEAR's -B 1, a penalised constant feature), C and Eps as
// liblinear-train -s 4's, Crammer–Singer predicts on each of wine's
// and vehicle's reference folds the classes LIBLINEAR predicts, to within
// one test row per fold.
func TestCrammerSingerLiblinearParity(t *testing.T) {
	for _, name := range []string{"wine", "vehicle"} {
		t.Run(name, func(t *testing.T) { liblinearCSParity(t, name) })
	}
}

func liblinearCSParity(t *testing.T, name string) {
	b, err := os.ReadFile("testdata/liblinear_cs_" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var ref liblinearCSRef
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(len(ref.X), len(ref.X[0]), nil)
	for i, r := range ref.X {
		x.SetRow(i, r)
	}
	data := NewDense(x)
	nfolds := floats.Max(intsToFloats(ref.Folds)) + 1
	for _, run := range ref.Runs {
		for fold := range int(nfolds) {
			t.Run(fmt.Sprintf("C=%g/fold=%d", run.C, fold), func(t *testing.T) {
				var p Problem
				var test []int
				for i, f := range ref.Folds {
					if f == fold {
						test = append(test, i)
						continue
					}
					p.Rows, p.Classes = append(p.Rows, i), append(p.Classes, ref.Y[i])
				}
				p.NumClasses = ref.K
				o := TogetherOptions{Options: Options{Kernel: Kernel{Type: Linear}, C: run.C, Eps: ref.Eps}, Method: CrammerSinger, Bias: ref.Bias}
				m, err := TrainTogether(context.Background(), data, p, o)
				if err != nil {
					t.Fatal(err)
				}
				scores := mat.NewDense(len(test), ref.K, nil)
				if err := m.Predict(context.Background(), NewDense(rowsOf(x, test)), scores); err != nil {
					t.Fatal(err)
				}
				var differ []int
				for k, i := range test {
					if got := floats.MaxIdx(scores.RawRowView(k)); got != run.Predicted[i] {
						differ = append(differ, i)
					}
				}
				if len(differ) > 1 {
					t.Errorf("%d of %d test rows predicted unlike LIBLINEAR: rows %v", len(differ), len(test), differ)
				}
				t.Logf("%d sub-problems, converged %v", m.Iterations(), m.Converged())
				if len(differ) > 0 {
					t.Logf("row %v predicted unlike LIBLINEAR", differ)
				}
			})
		}
	}
}

func intsToFloats(v []int) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

func rowsOf(x *mat.Dense, rows []int) *mat.Dense {
	_, d := x.Dims()
	out := mat.NewDense(len(rows), d, nil)
	for k, i := range rows {
		out.SetRow(k, x.RawRowView(i))
	}
	return out
}
