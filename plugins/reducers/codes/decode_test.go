package codes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// refLoss is L(z) written out independently of the package.
func refLoss(name string, z float64) float64 {
	switch name {
	case LossExp:
		return math.Exp(-z)
	case LossHinge:
		if z < 1 {
			return 1 - z
		}
		return 0
	case LossLogit:
		return math.Log(1 + math.Exp(-z))
	case LossSquared:
		return (1 - z) * (1 - z)
	case LossZeroOne:
		switch {
		case z > 0:
			return 0
		case z < 0:
			return 1
		}
		return 0.5
	case LossLinear:
		return -z
	}
	panic(name)
}

func refSign(s float64) float64 {
	switch {
	case s > 0:
		return 1
	case s < 0:
		return -1
	}
	return 0
}

// refObjective returns the decoder's objective for every class as stated in
// doc.go and whether it is maximised (votes, coverage) or minimised
// (distances).
func refObjective(name string, m *Matrix, P *mat.Dense, s []float64) ([]float64, bool) {
	K, L := m.Dims()
	out := make([]float64, K)
	for k := 0; k < K; k++ {
		for i := 0; i < L; i++ {
			c := float64(m.At(k, i))
			switch name {
			case Hamming:
				out[k] += (1 - refSign(s[i])*c) / 2
			case Vote:
				out[k] += (1 + refSign(s[i])*c) / 2
				if c == 0 {
					out[k] -= 0.5
				}
			case Coverage:
				if s[i] > 0 {
					out[k] += P.At(i, k)
				}
			default:
				out[k] += refLoss(name, s[i]*c)
			}
		}
	}
	return out, name == Vote || name == Coverage
}

// randomTernary is an arbitrary (possibly degenerate) ternary matrix.
func randomTernary(rng *rand.Rand, K, L int) *Matrix {
	e := make([]int8, K*L)
	for i := range e {
		e[i] = int8(rng.IntN(3)) - 1
	}
	m, err := NewMatrix(K, L, e)
	if err != nil {
		panic(err)
	}
	return m
}

// testMatrices returns a varied set of code matrices.
func testMatrices(t *testing.T, rng *rand.Rand) []*Matrix {
	var ms []*Matrix
	for K := 2; K <= 7; K++ {
		ms = append(ms, must(t)(OVA(K)), must(t)(OVO(K, false)), must(t)(OVO(K, true)), must(t)(Exhaustive(K)),
			must(t)(RandomDense(K, DefaultDenseLength(K), uint64(K))),
			must(t)(RandomSparse(K, DefaultSparseLength(K), uint64(K))))
		for range 5 {
			ms = append(ms, randomTernary(rng, K, 1+rng.IntN(12)))
		}
	}
	return ms
}

// randomScores draws L scores: small integers (many exact zeros and ties)
// when discrete, else continuous.
func randomScores(rng *rand.Rand, L int, discrete bool) []float64 {
	s := make([]float64, L)
	for i := range s {
		if discrete {
			s[i] = float64(rng.IntN(5) - 2)
		} else {
			s[i] = 3 * rng.NormFloat64()
		}
	}
	return s
}

func TestDecodersOptimiseTheirObjective(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ms := testMatrices(t, rng)
	names := []string{Hamming, Vote, LossExp, LossHinge, LossLogit, LossSquared, LossZeroOne, LossLinear, Coverage}
	// Losses that are exact on integer scores, so that ties are exact.
	exact := map[string]bool{Hamming: true, Vote: true, LossHinge: true, LossSquared: true,
		LossZeroOne: true, LossLinear: true, Coverage: true}
	ties := map[string]int{}
	for mi, m := range ms {
		K, L := m.Dims()
		P := mat.NewDense(L, K, nil)
		for i := range L {
			for k := range K {
				P.Set(i, k, float64(rng.IntN(4)))
			}
		}
		for _, name := range names {
			dec, err := NewDecoder(name, m, P)
			if err != nil {
				t.Fatal(err)
			}
			if dk, dl := dec.Dims(); dk != K || dl != L || dec.Name() != name {
				t.Fatalf("%s: Dims %d×%d name %s", name, dk, dl, dec.Name())
			}
			dst := make([]float64, K)
			for trial := range 20 {
				discrete := exact[name] && trial%2 == 0
				s := randomScores(rng, L, discrete)
				class, tie := dec.Decode(dst, s)
				obj, maximise := refObjective(name, m, P, s)
				if !maximise {
					obj = neg(obj) // class score = −distance
				}
				tol := 1e-9 * (1 + math.Abs(obj[class]))
				if !exact[name] || discrete {
					assertClose(t, fmt.Sprintf("%s on matrix %d scores", name, mi), dst, obj, tol)
				}
				best := math.Inf(-1)
				for _, v := range obj {
					best = math.Max(best, v)
				}
				var optima []int
				for k, v := range obj {
					if v >= best-tol {
						optima = append(optima, k)
					}
				}
				if class != optima[0] || tie != (len(optima) > 1) {
					t.Errorf("%s, matrix %d\n%vs=%v: class %d tie %v; objective %v has optima %v",
						name, mi, m, s, class, tie, obj, optima)
				}
				if tie {
					ties[name]++
				}
			}
		}
	}
	// The discrete trials must have exercised the tie rule.
	for name := range exact {
		if ties[name] == 0 {
			t.Errorf("%s: no tie met in the property test", name)
		}
	}
}

// TestVotePlusHamming: votes + distance = L − z_k/2 for every class, and
// zero-one loss decoding equals Hamming decoding.
func TestVotePlusHamming(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, m := range testMatrices(t, rng) {
		K, L := m.Dims()
		for range 10 {
			s := randomScores(rng, L, true)
			v, vc, _ := decode(t, Vote, m, s)
			h, hc, htie := decode(t, Hamming, m, s)
			z, zc, ztie := decode(t, LossZeroOne, m, s)
			for k := range K {
				zeros := 0
				for _, c := range m.Row(k) {
					if c == 0 {
						zeros++
					}
				}
				if got, want := v[k]-h[k], float64(L)-float64(zeros)/2; got != want {
					t.Fatalf("class %d: votes %v + (−distance %v) = %v, want %v", k, v[k], h[k], got, want)
				}
			}
			assertClose(t, "zero-one vs hamming", z, h, 0)
			if zc != hc || ztie != htie {
				t.Fatalf("zero-one → %d/%v, hamming → %d/%v", zc, ztie, hc, htie)
			}
			// For OvO (equal zero counts) vote and Hamming agree.
			if m.Equal(must(t)(OVO(K, false))) && vc != hc {
				t.Fatalf("OvO: vote → %d, hamming → %d", vc, hc)
			}
		}
	}
}

func TestSequentialDecoder(t *testing.T) {
	// K = 3, natural order: rows [+1,0], [−1,+1], [−1,−1].
	m := must(t)(Ordered([]int{0, 1, 2}))
	for _, tc := range []struct {
		s      []float64
		class  int
		tie    bool
		scores []float64
	}{
		{[]float64{2, -5}, 0, false, []float64{2, -5, -2}},
		{[]float64{-1, 3}, 1, false, []float64{-1, 1, -3}},
		{[]float64{-1, -0.5}, 2, false, []float64{-1, -0.5, 0.5}},
		{[]float64{0, 1}, 1, true, []float64{0, 0, -1}},   // 0 abstains: not positive
		{[]float64{0, 0}, 2, true, []float64{0, 0, 0}},    // walked to the end
		{[]float64{1, 0}, 0, false, []float64{1, -1, -1}}, // later zeros are not walked
	} {
		dst, class, tie := decode(t, Sequential, m, tc.s)
		if class != tc.class || tie != tc.tie {
			t.Errorf("s=%v: class %d tie %v, want %d %v", tc.s, class, tie, tc.class, tc.tie)
		}
		assertClose(t, fmt.Sprintf("s=%v scores", tc.s), dst, tc.scores, 0)
	}

	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 2000 {
		K := 2 + rng.IntN(7)
		order := rng.Perm(K)
		m := must(t)(Ordered(order))
		s := randomScores(rng, K-1, trial%2 == 0)
		dst, class, tie := decode(t, Sequential, m, s)
		// Reference walk.
		want, wantTie := order[K-1], false
		for i := range K - 1 {
			if s[i] > 0 {
				want = order[i]
				break
			}
			wantTie = wantTie || s[i] == 0
		}
		if class != want || tie != wantTie {
			t.Fatalf("order %v s %v: class %d tie %v, want %d %v", order, s, class, tie, want, wantTie)
		}
		for k, v := range dst {
			if v > dst[class] || (!tie && k != class && v >= dst[class]) {
				t.Fatalf("order %v s %v: scores %v, predicted %d is not the (strict when untied) maximum", order, s, dst, class)
			}
		}
		if !tie && dst[class] <= 0 {
			t.Fatalf("order %v s %v: untied prediction has margin %v ≤ 0", order, s, dst[class])
		}
	}
}

func TestNewDecoderErrors(t *testing.T) {
	m := must(t)(OVA(3))
	_, err := NewDecoder("loss:cubic", m, nil)
	if err == nil {
		t.Fatal("unknown decoder accepted")
	}
	for _, name := range DecoderNames() {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not list %s", err, name)
		}
		if name == Coverage || name == Sequential || name == DAG {
			continue
		}
		if _, err := NewDecoder(name, m, nil); err != nil {
			t.Errorf("NewDecoder(%s): %v", name, err)
		}
	}
	if _, err := NewDecoder(Coverage, m, nil); err == nil {
		t.Error("coverage without counts accepted")
	}
	if _, err := NewDecoder(Coverage, m, mat.NewDense(3, 2, nil)); err == nil {
		t.Error("coverage with 3×2 counts for a 3×3 code accepted")
	}
	if _, err := NewDecoder(Sequential, m, nil); err == nil {
		t.Error("sequential on OVA(3) accepted")
	}
	if _, err := NewDecoder(DAG, m, nil); err == nil || !strings.Contains(err.Error(), "one-vs-one") {
		t.Errorf("dag on OVA(3): %v, want an error asking for a one-vs-one matrix", err)
	}
	if _, err := NewDecoder(Hamming, &Matrix{}, nil); err == nil {
		t.Error("empty matrix accepted")
	}
}

func TestLoss(t *testing.T) {
	for _, tc := range []struct {
		name string
		z    float64
		want float64
	}{
		{LossExp, 0, 1}, {LossExp, 2, math.Exp(-2)},
		{LossHinge, 2, 0}, {LossHinge, -1, 2}, {LossHinge, 0, 1},
		{LossLogit, 0, math.Ln2}, {LossLogit, -1000, 1000}, {LossLogit, 1000, 0}, {LossLogit, 1, math.Log(1 + math.Exp(-1))},
		{LossSquared, 3, 4}, {LossSquared, 0, 1},
		{LossZeroOne, 0, 0.5}, {LossZeroOne, -0.1, 1}, {LossZeroOne, 7, 0},
		{LossLinear, 2, -2}, {LossLinear, 0, 0},
	} {
		f, err := Loss(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := f(tc.z); math.Abs(got-tc.want) > 1e-15*math.Max(1, math.Abs(tc.want)) {
			t.Errorf("%s(%v) = %v, want %v", tc.name, tc.z, got, tc.want)
		}
	}
	if _, err := Loss(Hamming); err == nil {
		t.Error("Loss(hamming) accepted")
	}
}

// TestLossInfiniteScores: a 0 entry contributes L(0) even for an infinite
// score, and infinite scores decode sensibly.
func TestLossInfiniteScores(t *testing.T) {
	m := must(t)(OVO(3, false)) // rows (1,1,0), (−1,0,1), (0,−1,−1)
	s := []float64{math.Inf(1), -1, 2}
	got, class, _ := decode(t, LossHinge, m, s)
	// class 1: hinge(+∞)=0 + hinge(−1)=2 + hinge(0)=1 → 3
	// class 2: hinge(−∞)=+∞ → +∞; class 3: 1 + hinge(1)=0 + hinge(−2)=3 → 4
	assertClose(t, "hinge distances", neg(got[0:1]), []float64{3}, 0)
	if !math.IsInf(got[1], -1) || got[2] != -4 || class != 0 {
		t.Errorf("scores %v class %d", got, class)
	}
}

func TestDecodeAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	m := must(t)(OVO(5, false))
	_, L := m.Dims()
	n := 50
	S := mat.NewDense(n, L, nil)
	for r := range n {
		S.SetRow(r, randomScores(rng, L, true))
	}
	for _, name := range []string{Hamming, LossExp} {
		dec, err := NewDecoder(name, m, nil)
		if err != nil {
			t.Fatal(err)
		}
		var dst mat.Dense
		pred, ties, err := DecodeAll(dec, &dst, S)
		if err != nil {
			t.Fatal(err)
		}
		wantTies := 0
		row := make([]float64, 5)
		for r := range n {
			c, tie := dec.Decode(row, S.RawRowView(r))
			if c != pred[r] {
				t.Errorf("%s row %d: DecodeAll %d, Decode %d", name, r, pred[r], c)
			}
			assertClose(t, "row scores", dst.RawRowView(r), row, 0)
			if tie {
				wantTies++
			}
		}
		if ties != wantTies || (name == Hamming && ties == 0) {
			t.Errorf("%s: %d ties, want %d (>0 for Hamming on integer scores)", name, ties, wantTies)
		}
		// Reusing a correctly sized dst works; a wrong one fails.
		if _, _, err := DecodeAll(dec, &dst, S); err != nil {
			t.Errorf("reuse: %v", err)
		}
		if _, _, err := DecodeAll(dec, mat.NewDense(n, 4, nil), S); err == nil {
			t.Error("wrong dst accepted")
		}
	}
	dec, _ := NewDecoder(Hamming, m, nil)
	if _, _, err := DecodeAll(dec, &mat.Dense{}, mat.NewDense(2, L-1, nil)); err == nil {
		t.Error("wrong score width accepted")
	}
	S.Set(3, 2, math.NaN())
	if _, _, err := DecodeAll(dec, &mat.Dense{}, S); err == nil || !strings.Contains(err.Error(), "(3,2)") {
		t.Errorf("NaN: %v", err)
	}
}

func TestSoftmax(t *testing.T) {
	inf := math.Inf(1)
	src := mat.NewDense(5, 3, []float64{
		0, 0, 0,
		1, 2, 3,
		-1000, -1001, -1002, // stable for large magnitudes
		-inf, -inf, -inf,
		-inf, inf, inf,
	})
	var dst mat.Dense
	Softmax(&dst, src)
	e1, e2 := math.Exp(1), math.Exp(2)
	z := 1 + e1 + e2
	want := [][]float64{
		{1.0 / 3, 1.0 / 3, 1.0 / 3},
		{1 / z, e1 / z, e2 / z},
		{e2 / z, e1 / z, 1 / z},
		{1.0 / 3, 1.0 / 3, 1.0 / 3},
		{0, 0.5, 0.5},
	}
	for r, w := range want {
		assertClose(t, fmt.Sprintf("softmax row %d", r), dst.RawRowView(r), w, 1e-15)
	}
	// In place.
	Softmax(src, src)
	assertClose(t, "in place", src.RawRowView(1), want[1], 1e-15)
}
