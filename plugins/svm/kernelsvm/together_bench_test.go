package kernelsvm

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkTogether trains Crammer–Singer and Weston–Watkins with the
// rbf kernel on letter-like synthetic data (16 features, 26 overlapping
// classes; blobs), beside one-vs-one SMO (Train) on the same rows, at
// C = 16 and γ = 1/16 (Hsu & Lin's scale, features of unit spread), and
// reports the sub-problems solved and the support vectors.
func BenchmarkTogether(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		x, y := blobs(n, 26, 16, 1.2, 11)
		p := seqProblem(y, 26)
		kern := Kernel{Type: RBF, Gamma: 1.0 / 16}
		for _, method := range []string{CrammerSinger, WestonWatkins, "one_vs_one"} {
			b.Run(fmt.Sprintf("%s/n=%d", method, n), func(b *testing.B) {
				for b.Loop() {
					if method == "one_vs_one" {
						if _, err := Train(context.Background(), NewDense(x), []Problem{p}, Options{Kernel: kern, C: 16}, 1); err != nil {
							b.Fatal(err)
						}
						continue
					}
					o := TogetherOptions{Options: Options{Kernel: kern, C: 16}, Method: method, Bias: 1}
					m, err := TrainTogether(context.Background(), NewDense(x), p, o)
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(float64(m.Iterations()), "subproblems/op")
					b.ReportMetric(float64(m.NumSV()), "SVs")
				}
			})
		}
	}
}
