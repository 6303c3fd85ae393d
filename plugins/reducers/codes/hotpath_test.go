package codes

// Reference implementations of the package's hot paths as they were before
// their optimisation, the tests that hold the optimised code to them bit
// for bit (math.Float64bits) on inputs shaped like the letter grid's (26
// classes, one-vs-one and one-vs-all, random ECOC codes, a test fold of
// 2000 rows), and benchmarks of both.

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// oldSignDecoder is the Hamming and vote decoder before its optimisation:
// sign(sᵢ)·c_{ki} over every entry of the code matrix.
type oldSignDecoder struct {
	m     *Matrix
	vote  bool
	zeros []float64
}

func newRefSignDecoder(m *Matrix, vote bool) *oldSignDecoder {
	zeros := make([]float64, m.k)
	for k := 0; k < m.k; k++ {
		for _, v := range m.data[k*m.l : (k+1)*m.l] {
			if v == 0 {
				zeros[k]++
			}
		}
	}
	return &oldSignDecoder{m: m, vote: vote, zeros: zeros}
}

func (d *oldSignDecoder) Name() string {
	if d.vote {
		return Vote
	}
	return Hamming
}

func (d *oldSignDecoder) Dims() (int, int) { return d.m.k, d.m.l }

func (d *oldSignDecoder) Decode(dst, s []float64) (int, bool) {
	K, L := d.m.k, d.m.l
	checkLens(d.Name(), dst, s, K, L)
	for k := 0; k < K; k++ {
		dot := 0
		for i, c := range d.m.data[k*L : (k+1)*L] {
			dot += oldSign(s[i]) * int(c)
		}
		if d.vote {
			dst[k] = (float64(L+dot) - d.zeros[k]) / 2
		} else {
			dst[k] = -float64(L-dot) / 2
		}
	}
	return argmax(dst)
}

// oldSign is sign before its optimisation (branches).
func oldSign(s float64) int {
	switch {
	case s > 0:
		return 1
	case s < 0:
		return -1
	}
	return 0
}

// TestSignMatchesReference: sign agrees with oldSign on the special
// values and on random ones.
func TestSignMatchesReference(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(),
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		vals = append(vals, rng.NormFloat64())
	}
	for _, v := range vals {
		if sign(v) != oldSign(v) {
			t.Errorf("sign(%v) = %d, reference %d", v, sign(v), oldSign(v))
		}
	}
}

// hotMatrix is a named code matrix of the hot-path tests.
type hotMatrix struct {
	name string
	m    *Matrix
}

// hotMatrices returns the code matrices of the letter grid (26 classes:
// one-vs-one, asymmetric one-vs-one, one-vs-all), random dense and sparse
// ECOC codes of 26 classes, the exhaustive code of 5 classes, a 3-class
// one-vs-one and a matrix with a zero row and a constant column.
func hotMatrices(t testing.TB) []hotMatrix {
	t.Helper()
	return []hotMatrix{
		{"ovo26", must(t)(OVO(26, false))},
		{"ovo26asym", must(t)(OVO(26, true))},
		{"ova26", must(t)(OVA(26))},
		{"dense26", must(t)(RandomDense(26, DefaultDenseLength(26), 1))},
		{"sparse26", must(t)(RandomSparse(26, DefaultSparseLength(26), 2))},
		{"exhaustive5", must(t)(Exhaustive(5))},
		{"ovo3", must(t)(OVO(3, false))},
		{"defective", must(t)(NewMatrix(3, 4, []int8{1, 1, 0, 1, 0, 0, 0, 0, -1, 1, 0, -1}))},
	}
}

// hotScores returns n × L scores of a kind: "normal" (Gaussian decision
// values), "ties" (few distinct values, ±0 among them, so that distances
// and votes tie) or "inf" (Gaussian with some ±∞). None is NaN.
func hotScores(kind string, n, L int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 7))
	s := mat.NewDense(n, L, nil)
	few := []float64{-1, -0.5, math.Copysign(0, -1), 0, 0.5, 1}
	for i := 0; i < n; i++ {
		row := s.RawRowView(i)
		for j := range row {
			switch kind {
			case "ties":
				row[j] = few[rng.IntN(len(few))]
			case "inf":
				row[j] = 2 * rng.NormFloat64()
				if rng.IntN(500) == 0 {
					row[j] = math.Inf(1 - 2*rng.IntN(2))
				}
			default:
				row[j] = 2 * rng.NormFloat64()
			}
		}
	}
	return s
}

// sameBits reports the first index where a and b differ bit for bit.
func sameBits(a, b []float64) (int, bool) {
	if len(a) != len(b) {
		return -1, false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i, false
		}
	}
	return 0, true
}

func TestSignDecodersMatchReference(t *testing.T) {
	for _, hm := range hotMatrices(t) {
		for _, name := range []string{Hamming, Vote} {
			for _, kind := range []string{"normal", "ties", "inf"} {
				t.Run(hm.name+"/"+name+"/"+kind, func(t *testing.T) {
					_, L := hm.m.Dims()
					s := hotScores(kind, 2000, L, 3)
					dec, err := NewDecoder(name, hm.m, nil)
					if err != nil {
						t.Fatal(err)
					}
					got, want := &mat.Dense{}, &mat.Dense{}
					pred, ties, err := DecodeAll(dec, got, s)
					if err != nil {
						t.Fatal(err)
					}
					wantPred, wantTies, err := DecodeAll(newRefSignDecoder(hm.m, name == Vote), want, s)
					if err != nil {
						t.Fatal(err)
					}
					if i, ok := sameBits(got.RawMatrix().Data, want.RawMatrix().Data); !ok {
						t.Fatalf("class score %d: %v, reference %v", i, got.RawMatrix().Data[i], want.RawMatrix().Data[i])
					}
					if ties != wantTies {
						t.Errorf("%d ties, reference %d", ties, wantTies)
					}
					for i := range pred {
						if pred[i] != wantPred[i] {
							t.Fatalf("row %d predicted %d, reference %d", i, pred[i], wantPred[i])
						}
					}
				})
			}
		}
	}
}

// BenchmarkSignDecoders: a letter test fold (2000 rows) decoded by vote
// under one-vs-one (26 classes, 325 problems) and by Hamming distance under
// a random dense code (26 classes, 47 problems), the reference and the
// optimised decoder.
func BenchmarkSignDecoders(b *testing.B) {
	for _, c := range []struct {
		name string
		m    *Matrix
	}{
		{"vote/ovo26", must(b)(OVO(26, false))},
		{"hamming/dense26", must(b)(RandomDense(26, DefaultDenseLength(26), 1))},
	} {
		vote := c.name[:4] == Vote
		K, L := c.m.Dims()
		s := hotScores("normal", 2000, L, 3)
		dst := mat.NewDense(2000, K, nil)
		opt, err := NewDecoder(map[bool]string{true: Vote, false: Hamming}[vote], c.m, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, impl := range []struct {
			name string
			dec  Decoder
		}{{"reference", newRefSignDecoder(c.m, vote)}, {"optimised", opt}} {
			b.Run(c.name+"/"+impl.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, _, err := DecodeAll(impl.dec, dst, s); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
