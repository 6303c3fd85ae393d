package codes

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The worked examples of the package brief, with the numbers derived by hand
// from the formulas in doc.go.

func TestExampleOVO3Hamming(t *testing.T) {
	m := must(t)(OVO(3, false))
	want := mustRows(t, [][]float64{{1, 1, 0}, {-1, 0, 1}, {0, -1, -1}})
	if !m.Equal(want) {
		t.Fatalf("OVO(3) =\n%vwant\n%v", m, want)
	}
	// w = (0,+1,0): only the 1v3 classifier speaks, for class 1.
	// d_1 = ½+0+½ = 1; d_2 = ½+½+½ = 1.5; d_3 = ½+1+½ = 2 (the c_{3,2} = −1
	// entry disagrees with w₂ = +1 and costs a full 1).
	scores, class, tie := decode(t, Hamming, m, []float64{0, 1, 0})
	assertClose(t, "hamming distances", neg(scores), []float64{1, 1.5, 2}, 0)
	if class != 0 || tie {
		t.Errorf("class %d tie %v, want class 0 (class 1 of the example) without tie", class, tie)
	}
}

func TestExampleOVA4(t *testing.T) {
	m := must(t)(OVA(4))
	scores, class, tie := decode(t, Hamming, m, []float64{1, 1, 0, 0})
	assertClose(t, "hamming distances", neg(scores), []float64{2, 2, 3, 3}, 0)
	if class != 0 || !tie {
		t.Errorf("class %d tie %v, want the tie between classes 1 and 2 resolved to class 1 (index 0)", class, tie)
	}
	if d := Diagnose(m); d.MinDistance != 2 || d.Correcting != 0 {
		t.Errorf("OVA(4): min distance %v correcting %d, want 2 and 0", d.MinDistance, d.Correcting)
	}
	ext, err := m.AppendColumns([]int8{1, 1, -1, -1}, []int8{1, -1, 1, -1}, []int8{1, -1, -1, 1})
	if err != nil {
		t.Fatal(err)
	}
	d := Diagnose(ext)
	if d.MinDistance != 4 || d.MeanDistance != 4 || d.Correcting != 1 {
		t.Errorf("extended OVA(4): min %v mean %v correcting %d, want 4, 4, 1", d.MinDistance, d.MeanDistance, d.Correcting)
	}
	if d.Degenerate() {
		t.Errorf("extended OVA(4) reported degenerate: %v", d.Warnings(nil))
	}
	if K, L := ext.Dims(); K != 4 || L != 7 {
		t.Errorf("extended dims %d×%d, want 4×7", K, L)
	}
}

// ovo4 is the 4-class one-vs-one matrix of the examples with columns
// (1v2, 1v3, 1v4, 2v3, 2v4, 3v4).
func ovo4(t *testing.T) *Matrix {
	t.Helper()
	m := must(t)(OVO(4, false))
	want := mustRows(t, [][]float64{
		{1, 1, 1, 0, 0, 0},
		{-1, 0, 0, 1, 1, 0},
		{0, -1, 0, -1, 0, 1},
		{0, 0, -1, 0, -1, -1},
	})
	if !m.Equal(want) {
		t.Fatalf("OVO(4) =\n%vwant\n%v", m, want)
	}
	return m
}

func TestExampleOVO4VotesAndHamming(t *testing.T) {
	m := ovo4(t)
	w := []float64{1, -1, 1, -1, 1, 1}
	votes, vc, vtie := decode(t, Vote, m, w)
	assertClose(t, "votes", votes, []float64{2, 1, 3, 0}, 0)
	ham, hc, htie := decode(t, Hamming, m, w)
	// Class 3's row (0,−1,0,−1,0,+1) agrees with w on its three non-zero
	// entries, so its distance is 3·½ = 1.5 (the brief's "2.5" contradicts
	// its own identity votes + distance = 4.5).
	assertClose(t, "hamming distances", neg(ham), []float64{2.5, 3.5, 1.5, 4.5}, 0)
	if vc != 2 || hc != 2 || vtie || htie {
		t.Errorf("vote → %d (tie %v), hamming → %d (tie %v); want class 3 (index 2) for both", vc, vtie, hc, htie)
	}
	K := 4.0
	for k := range votes {
		if got, want := votes[k]-ham[k], (K-1)*(K+2)/4; got != want {
			t.Errorf("class %d: votes + distance = %v, want (K−1)(K+2)/4 = %v", k+1, got, want)
		}
	}
}

func TestExampleOVO4Losses(t *testing.T) {
	m := ovo4(t)
	s := []float64{5, -0.5, 4, -0.5, 4, 0.5}
	zo, zc, _ := decode(t, LossZeroOne, m, s)
	assertClose(t, "zero-one distances", neg(zo), []float64{2.5, 3.5, 1.5, 4.5}, 1e-12)
	if zc != 2 {
		t.Errorf("zero-one loss picks class %d, want 3", zc+1)
	}
	ex, ec, etie := decode(t, LossExp, m, s)
	assertClose(t, "exp distances (2 d.p.)", neg(ex), []float64{4.67, 153.08, 4.82, 113.85}, 0.005)
	// Exact values: e^{-5}+e^{.5}+e^{-4}+3, e^5+3+e^{.5}+e^{-4}, 3+3e^{-.5}, 3+2e^4+e^{.5}.
	exact := []float64{
		math.Exp(-5) + math.Exp(.5) + math.Exp(-4) + 3,
		math.Exp(5) + 3 + math.Exp(.5) + math.Exp(-4),
		3 + 3*math.Exp(-.5),
		3 + 2*math.Exp(4) + math.Exp(.5),
	}
	assertClose(t, "exp distances", neg(ex), exact, 1e-12)
	if ec != 0 || etie {
		t.Errorf("exp loss picks class %d (tie %v), want class 1", ec+1, etie)
	}
}

func TestExampleCoverage(t *testing.T) {
	P := mat.NewDense(3, 3, []float64{
		8, 0, 2,
		2, 17, 1,
		4, 2, 8,
	})
	m := must(t)(OVA(3)) // any 3×3 code; coverage only uses P
	dec, err := NewDecoder(Coverage, m, P)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		s     []float64
		want  []float64
		class int
	}{
		{[]float64{0.3, -1, 2}, []float64{12, 2, 10}, 0},
		{[]float64{1, 1, 1}, []float64{14, 19, 11}, 1},
		{[]float64{-1, 0, -2}, []float64{0, 0, 0}, 0}, // nothing positive: all tie
	} {
		dst := make([]float64, 3)
		c, tie := dec.Decode(dst, tc.s)
		assertClose(t, "coverage scores", dst, tc.want, 0)
		if c != tc.class || tie != (tc.want[0] == tc.want[1]) {
			t.Errorf("s=%v: class %d tie %v, want %d", tc.s, c, tie, tc.class)
		}
	}

	// CoverageCounts rebuilds P from training scores: class 1 has 8 rows,
	// class 2 has 17, class 3 has 8, with positives arranged to give P.
	var rows [][]float64
	var labels []int
	add := func(y int, n int, s []float64) {
		for range n {
			rows = append(rows, s)
			labels = append(labels, y)
		}
	}
	add(0, 2, []float64{1, 1, 1})   // class 1: (2,2,2)
	add(0, 2, []float64{1, -1, 1})  // class 1: (4,2,4)
	add(0, 4, []float64{1, -1, 0})  // class 1: (8,2,4); a score of 0 is not positive
	add(1, 2, []float64{-1, 1, 1})  // class 2: (0,2,2)
	add(1, 15, []float64{-1, 1, 0}) // class 2: (0,17,2)
	add(2, 1, []float64{1, 1, 1})   // class 3: (1,1,1)
	add(2, 1, []float64{1, -1, 1})  // class 3: (2,1,2)
	add(2, 6, []float64{-1, -1, 1}) // class 3: (2,1,8)
	S := mat.NewDense(len(rows), 3, nil)
	for r, v := range rows {
		S.SetRow(r, v)
	}
	got, err := CoverageCounts(S, labels, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got, P) {
		t.Errorf("CoverageCounts =\n%v\nwant\n%v", mat.Formatted(got), mat.Formatted(P))
	}
}
