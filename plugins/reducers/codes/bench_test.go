package codes

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func benchDecode(b *testing.B, name string, m *Matrix) {
	K, L := m.Dims()
	rng := rand.New(rand.NewPCG(1, 1))
	n := 1000
	S := mat.NewDense(n, L, nil)
	for r := range n {
		for i := range L {
			S.Set(r, i, rng.NormFloat64())
		}
	}
	dec, err := NewDecoder(name, m, nil)
	if err != nil {
		b.Fatal(err)
	}
	dst := mat.NewDense(n, K, nil)
	b.ResetTimer()
	for range b.N {
		if _, _, err := DecodeAll(dec, dst, S); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeHammingOVO10x1000(b *testing.B) {
	benchDecode(b, Hamming, must(b)(OVO(10, false)))
}

func BenchmarkDecodeExpOVO10x1000(b *testing.B) {
	benchDecode(b, LossExp, must(b)(OVO(10, false)))
}

func BenchmarkRandomDense26(b *testing.B) {
	for range b.N {
		if _, err := RandomDense(26, DefaultDenseLength(26), 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRandomSparse26(b *testing.B) {
	for range b.N {
		if _, err := RandomSparse(26, DefaultSparseLength(26), 1); err != nil {
			b.Fatal(err)
		}
	}
}
