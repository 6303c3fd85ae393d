package metrics

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// benchInput is a random multiclass fold of n rows and K classes.
func benchInput(n, K int) *Input {
	rng := rand.New(rand.NewPCG(7, 11))
	in := &Input{K: K, True: make([]int, n), Pred: make([]int, n), Prob: mat.NewDense(n, K, nil)}
	for i := 0; i < n; i++ {
		in.True[i] = rng.IntN(K)
		in.Pred[i] = rng.IntN(K)
		var s float64
		for k := 0; k < K; k++ {
			v := rng.Float64()
			in.Prob.Set(i, k, v)
			s += v
		}
		for k := 0; k < K; k++ {
			in.Prob.Set(i, k, in.Prob.At(i, k)/s)
		}
	}
	return in
}

func BenchmarkEval(b *testing.B) {
	in := benchInput(10000, 10)
	for _, name := range []string{"macro_f1", "kappa", "log_loss", "auc_ovr", "auc_ovo"} {
		m, err := Lookup(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := m.Eval(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLookup looks up a metric, as every fold of a run does for each
// of its metrics.
func BenchmarkLookup(b *testing.B) {
	for range b.N {
		if _, err := Lookup("accuracy"); err != nil {
			b.Fatal(err)
		}
	}
}
