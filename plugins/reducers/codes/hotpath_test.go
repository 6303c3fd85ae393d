package codes

// Reference implementations of the package's hot paths as they were before
// their optimisation, the tests that hold the optimised code to them bit
// for bit (math.Float64bits) on inputs shaped like the letter grid's (26
// classes, one-vs-one and one-vs-all, random ECOC codes, a test fold of
// 2000 rows), and benchmarks of both.

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/plugins/reducers/internal/testscores"
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
			dot += int(refSign(s[i])) * int(c)
		}
		if d.vote {
			dst[k] = (float64(L+dot) - d.zeros[k]) / 2
		} else {
			dst[k] = -float64(L-dot) / 2
		}
	}
	return argmax(dst)
}

// TestSignMatchesReference: sign agrees with refSign on the special
// values and on random ones.
func TestSignMatchesReference(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(),
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		vals = append(vals, rng.NormFloat64())
	}
	for _, v := range vals {
		if sign(v) != int(refSign(v)) {
			t.Errorf("sign(%v) = %d, reference %d", v, sign(v), int(refSign(v)))
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

func TestSignDecodersMatchReference(t *testing.T) {
	for _, hm := range hotMatrices(t) {
		for _, name := range []string{Hamming, Vote} {
			for _, kind := range []string{"normal", "ties", "inf"} {
				t.Run(hm.name+"/"+name+"/"+kind, func(t *testing.T) {
					_, L := hm.m.Dims()
					s := testscores.New(kind, 2000, L, 3)
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
					if i, ok := testscores.SameBits(got.RawMatrix().Data, want.RawMatrix().Data); !ok {
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
		s := testscores.New("normal", 2000, L, 3)
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

// refDiagnose is Diagnose before its optimisation: a copied column per
// constant-column check, every pair of columns compared entry by entry.
func refDiagnose(m *Matrix) Diagnostics {
	K, L := m.k, m.l
	d := Diagnostics{K: K, L: L}
	for i := 0; i < L; i++ {
		if !hasBothSigns(m.Col(i)) {
			d.ConstantColumns = append(d.ConstantColumns, i)
		}
	}
	for a := 0; a < L; a++ {
		for b := a + 1; b < L; b++ {
			same, comp := true, true
			for k := 0; k < K; k++ {
				x, y := m.data[k*L+a], m.data[k*L+b]
				same = same && x == y
				comp = comp && x == -y
			}
			if same {
				d.DuplicateColumns = append(d.DuplicateColumns, Pair{a, b})
			}
			if comp {
				d.ComplementaryColumns = append(d.ComplementaryColumns, Pair{a, b})
			}
		}
	}
	for k := 0; k < K; k++ {
		zero := true
		for _, v := range m.data[k*L : (k+1)*L] {
			zero = zero && v == 0
		}
		if zero {
			d.ZeroRows = append(d.ZeroRows, k)
		}
	}
	d.MinDistance = math.Inf(1)
	var sum float64
	for a := 0; a < K; a++ {
		for b := a + 1; b < K; b++ {
			dot, sep, same := 0, false, true
			for i := 0; i < L; i++ {
				x, y := m.data[a*L+i], m.data[b*L+i]
				dot += int(x) * int(y)
				sep = sep || int(x)*int(y) < 0
				same = same && x == y
			}
			dist := float64(L-dot) / 2
			sum += dist
			d.MinDistance = min(d.MinDistance, dist)
			if same {
				d.IdenticalRows = append(d.IdenticalRows, Pair{a, b})
			}
			if !sep {
				d.Unseparated = append(d.Unseparated, Pair{a, b})
			}
		}
	}
	if K < 2 {
		d.MinDistance = 0
	} else {
		d.MeanDistance = sum / float64(K*(K-1)/2)
	}
	d.Correcting = max(0, int(math.Floor((d.MinDistance-1)/2)))
	return d
}

func TestDiagnoseMatchesReference(t *testing.T) {
	ms := hotMatrices(t)
	// Every defect at once: duplicate, complementary and zero columns
	// (two zero columns are both), identical rows, a zero row.
	ovo := must(t)(OVO(6, false))
	dup := must(t)(ovo.AppendColumns(ovo.Col(0), neg8(ovo.Col(1)), make([]int8, 6), make([]int8, 6), ovo.Col(0)))
	ms = append(ms,
		hotMatrix{"defects", dup},
		hotMatrix{"identicalRows", must(t)(NewMatrix(4, 3, []int8{1, -1, 0, 1, -1, 0, 0, 0, 0, -1, 1, 1}))},
		hotMatrix{"oneRow", must(t)(NewMatrix(1, 3, []int8{1, 0, -1}))},
		hotMatrix{"exhaustive7", must(t)(Exhaustive(7))},
	)
	for _, hm := range ms {
		t.Run(hm.name, func(t *testing.T) {
			got, want := Diagnose(hm.m), refDiagnose(hm.m)
			if math.Float64bits(got.MinDistance) != math.Float64bits(want.MinDistance) ||
				math.Float64bits(got.MeanDistance) != math.Float64bits(want.MeanDistance) {
				t.Errorf("distances min %v mean %v, reference %v %v", got.MinDistance, got.MeanDistance, want.MinDistance, want.MeanDistance)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Diagnose = %+v\nreference %+v", got, want)
			}
		})
	}
}

// neg8 returns −v.
func neg8(v []int8) []int8 {
	out := make([]int8, len(v))
	for i, x := range v {
		out[i] = -x
	}
	return out
}

// BenchmarkDiagnose: the diagnostics of the letter codes (26 classes),
// one-vs-one (325 columns) and a random dense code (47 columns), the
// reference and the optimised code.
func BenchmarkDiagnose(b *testing.B) {
	for _, c := range []hotMatrix{
		{"ovo26", must(b)(OVO(26, false))},
		{"dense26", must(b)(RandomDense(26, DefaultDenseLength(26), 1))},
	} {
		for _, impl := range []struct {
			name string
			f    func(*Matrix) Diagnostics
		}{{"reference", refDiagnose}, {"optimised", Diagnose}} {
			b.Run(c.name+"/"+impl.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					impl.f(c.m)
				}
			})
		}
	}
}
