package codes

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestDecodersSafeForConcurrentUse: one decoder decodes the same scores
// from many goroutines at once with the answers of one goroutine alone.
// The folds that share a plan share its decoders; the DAG decoder kept
// its class list in itself, and concurrent walks overwrote each other's.
func TestDecodersSafeForConcurrentUse(t *testing.T) {
	const K, n, workers = 7, 400, 8
	m := must(t)(OVO(K, false))
	_, L := m.Dims()
	rng := rand.New(rand.NewPCG(1, 2))
	scores := mat.NewDense(n, L, nil)
	for r := range n {
		for c := range L {
			scores.Set(r, c, rng.NormFloat64())
		}
	}
	for _, name := range []string{DAG, Hamming, LossExp, Vote} {
		t.Run(name, func(t *testing.T) {
			dec, err := NewDecoder(name, m, nil)
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := DecodeAll(dec, &mat.Dense{}, scores)
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			got := make([][]int, workers)
			for w := range workers {
				wg.Go(func() {
					for range 20 {
						p, _, err := DecodeAll(dec, &mat.Dense{}, scores)
						if err != nil || !slices.Equal(p, want) {
							got[w] = p
							return
						}
					}
				})
			}
			wg.Wait()
			for w, p := range got {
				if p != nil {
					t.Errorf("goroutine %d decoded %v…, alone %v…", w, p[:10], want[:10])
				}
			}
		})
	}
}
