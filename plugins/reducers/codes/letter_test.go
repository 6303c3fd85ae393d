package codes

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/plugins/reducers/internal/testscores"
)

// letterMatrix is a named code matrix of the letter-sized tests.
type letterMatrix struct {
	name string
	m    *Matrix
}

// letterMatrices returns the code matrices of the letter grid (26 classes:
// one-vs-one, asymmetric one-vs-one, one-vs-all), random dense and sparse
// ECOC codes of 26 classes, the exhaustive codes of 5 and 7 classes, a
// 3-class one-vs-one, a matrix with a zero row and a constant column, and
// one with every defect at once (duplicate, complementary and zero
// columns, identical rows).
func letterMatrices(t testing.TB) []letterMatrix {
	t.Helper()
	ovo := must(t)(OVO(6, false))
	neg := make([]int8, 6)
	for k, v := range ovo.Col(1) {
		neg[k] = -v
	}
	return []letterMatrix{
		{"ovo26", must(t)(OVO(26, false))},
		{"ovo26asym", must(t)(OVO(26, true))},
		{"ova26", must(t)(OVA(26))},
		{"dense26", must(t)(RandomDense(26, DefaultDenseLength(26), 1))},
		{"sparse26", must(t)(RandomSparse(26, DefaultSparseLength(26), 2))},
		{"exhaustive5", must(t)(Exhaustive(5))},
		{"exhaustive7", must(t)(Exhaustive(7))},
		{"ovo3", must(t)(OVO(3, false))},
		{"defective", must(t)(NewMatrix(3, 4, []int8{1, 1, 0, 1, 0, 0, 0, 0, -1, 1, 0, -1}))},
		{"defects", must(t)(ovo.AppendColumns(ovo.Col(0), neg, make([]int8, 6), make([]int8, 6), ovo.Col(0)))},
		{"identicalRows", must(t)(NewMatrix(4, 3, []int8{1, -1, 0, 1, -1, 0, 0, 0, 0, -1, 1, 1}))},
		{"oneRow", must(t)(NewMatrix(1, 3, []int8{1, 0, -1}))},
	}
}

// TestDiagnoseDefinitions: on codes of the letter grid's size and on
// defective ones, Diagnose reports what its documentation defines: the
// distance of two rows d(a, b) = Σᵢ (1 − c_ai·c_bi)/2 (its minimum, its
// mean over the K(K−1)/2 pairs, and the errors it corrects,
// ⌊(d_min − 1)/2⌋), the columns without both signs, the pairs of equal and
// of opposite columns, the all-zero rows, the equal rows and the pairs of
// rows no column separates (no column with +1 in one and −1 in the other).
func TestDiagnoseDefinitions(t *testing.T) {
	for _, lm := range letterMatrices(t) {
		t.Run(lm.name, func(t *testing.T) {
			m := lm.m
			K, L := m.Dims()
			want := Diagnostics{K: K, L: L}
			for i := range L {
				pos, neg := false, false
				for k := range K {
					pos, neg = pos || m.At(k, i) > 0, neg || m.At(k, i) < 0
				}
				if !pos || !neg {
					want.ConstantColumns = append(want.ConstantColumns, i)
				}
				for j := i + 1; j < L; j++ {
					if reflect.DeepEqual(m.Col(i), m.Col(j)) {
						want.DuplicateColumns = append(want.DuplicateColumns, Pair{i, j})
					}
					opposite := true
					for k := range K {
						opposite = opposite && m.At(k, i) == -m.At(k, j)
					}
					if opposite {
						want.ComplementaryColumns = append(want.ComplementaryColumns, Pair{i, j})
					}
				}
			}
			want.MinDistance = math.Inf(1)
			var sum float64
			for a := range K {
				if reflect.DeepEqual(m.Row(a), make([]int8, L)) {
					want.ZeroRows = append(want.ZeroRows, a)
				}
				for b := a + 1; b < K; b++ {
					var d float64
					separated := false
					for i := range L {
						p := float64(m.At(a, i)) * float64(m.At(b, i))
						d += (1 - p) / 2
						separated = separated || p < 0
					}
					sum += d
					want.MinDistance = min(want.MinDistance, d)
					if reflect.DeepEqual(m.Row(a), m.Row(b)) {
						want.IdenticalRows = append(want.IdenticalRows, Pair{a, b})
					}
					if !separated {
						want.Unseparated = append(want.Unseparated, Pair{a, b})
					}
				}
			}
			if K < 2 {
				want.MinDistance = 0
			} else {
				want.MeanDistance = sum / float64(K*(K-1)/2)
			}
			want.Correcting = max(0, int(math.Floor((want.MinDistance-1)/2)))
			got := Diagnose(m)
			if math.Abs(got.MeanDistance-want.MeanDistance) <= 1e-12*want.MeanDistance {
				got.MeanDistance = want.MeanDistance // summed in another order
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Diagnose =\n%+v\nby the definitions\n%+v", got, want)
			}
		})
	}
}

// TestSignDecodersOnLetterCodes: the Hamming and vote decoders give each
// class the objective doc.go states (refObjective; class score −distance
// for Hamming) and pick its first optimum, reporting a tie when another
// class attains it, on 400 rows of scores for the codes of the letter
// grid, with Gaussian scores, scores that tie
// (±0 among them) and infinite ones.
func TestSignDecodersOnLetterCodes(t *testing.T) {
	for _, lm := range letterMatrices(t) {
		for _, name := range []string{Hamming, Vote} {
			for _, kind := range []string{"normal", "ties", "inf"} {
				t.Run(fmt.Sprintf("%s/%s/%s", lm.name, name, kind), func(t *testing.T) {
					K, L := lm.m.Dims()
					const n = 400
					s := testscores.New(kind, n, L, 3)
					dec, err := NewDecoder(name, lm.m, nil)
					if err != nil {
						t.Fatal(err)
					}
					got := &mat.Dense{}
					pred, ties, err := DecodeAll(dec, got, s)
					if err != nil {
						t.Fatal(err)
					}
					var wantTies int
					for i := range n {
						obj, maximise := refObjective(name, lm.m, nil, s.RawRowView(i))
						if !maximise {
							obj = neg(obj)
						}
						// Sums of halves: exact, whatever the order.
						for j, v := range obj {
							if got.At(i, j) != v {
								t.Fatalf("row %d class %d: score %v, by the definition %v", i, j, got.At(i, j), v)
							}
						}
						best, tie := argmax(obj)
						if tie {
							wantTies++
						}
						if pred[i] != best {
							t.Fatalf("row %d: class %d, the first optimum is %d (of %d)", i, pred[i], best, K)
						}
					}
					if ties != wantTies {
						t.Errorf("%d ties, by the definition %d", ties, wantTies)
					}
				})
			}
		}
	}
}

// BenchmarkSignDecoders: a letter test fold (2000 rows) decoded by vote
// under one-vs-one (26 classes, 325 problems) and by Hamming distance under
// a random dense code (26 classes, 47 problems).
func BenchmarkSignDecoders(b *testing.B) {
	for _, c := range []struct {
		name, decoder string
		m             *Matrix
	}{
		{"vote/ovo26", Vote, must(b)(OVO(26, false))},
		{"hamming/dense26", Hamming, must(b)(RandomDense(26, DefaultDenseLength(26), 1))},
	} {
		K, L := c.m.Dims()
		s := testscores.New("normal", 2000, L, 3)
		dst := mat.NewDense(2000, K, nil)
		dec, err := NewDecoder(c.decoder, c.m, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := DecodeAll(dec, dst, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDiagnose: the diagnostics of the letter codes (26 classes),
// one-vs-one (325 columns) and a random dense code (47 columns).
func BenchmarkDiagnose(b *testing.B) {
	for _, c := range []letterMatrix{
		{"ovo26", must(b)(OVO(26, false))},
		{"dense26", must(b)(RandomDense(26, DefaultDenseLength(26), 1))},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Diagnose(c.m)
			}
		})
	}
}
