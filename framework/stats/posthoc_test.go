package stats

import (
	"math"
	"testing"
)

// TestCompareWithControlDemsar checks the post-hoc tests against a control
// on Demšar's (2006) worked example, section 3.2.2: Table 6 (AUC of four
// C4.5 variants on 14 data sets) with C4.5 as the control. The paper gives
// SE = sqrt(4·5/(6·14)) = 0.488 and, in Holm's order,
//
//	C4.5+m+cf  z = (3.143 − 1.964)/0.488 = 2.416  p = 0.016  α/3 = 0.017
//	C4.5+m     z = (3.143 − 2.000)/0.488 = 2.342  p = 0.019  α/2 = 0.025
//	C4.5+cf    z = (3.143 − 2.893)/0.488 = 0.512  p = 0.607  α/1 = 0.050
//
// Holm rejects the first two hypotheses and keeps the third. Two of the
// paper's numbers are off in the last digit: z = 0.512 gives p = 0.608
// (2·(1 − Φ(0.5123)) = 0.6084), and the Bonferroni–Dunn CD, printed as
// 2.394·0.488 = 1.16, is 1.168 (so 1.17). Neither changes a conclusion:
// the Bonferroni–Dunn test finds C4.5+m+cf better than C4.5 (1.179 ≥
// 1.168) and C4.5+m not (1.143 < 1.168). The column the paper heads α/i
// holds α/(k − i). With the unrounded ranks (44/14, 28/14, 40.5/14,
// 27.5/14) z is 2.4154, 2.3422 and 0.5123.
func TestCompareWithControlDemsar(t *testing.T) {
	fr, err := Friedman(demsar, true)
	if err != nil {
		t.Fatal(err)
	}
	res, err := CompareWithControl(fr.AvgRanks, 0, fr.N, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if res.Control != 0 || math.Abs(res.CD-1.168) > 5e-4 {
		t.Errorf("control %d, Bonferroni–Dunn CD %.4f; want 0 and 2.394·0.488 = 1.168", res.Control, res.CD)
	}
	for i, want := range []struct {
		method      int
		zPaper      float64 // from ranks rounded to three decimals
		zExact      float64
		p           float64 // the paper's, but 0.608 where it prints 0.607
		holmP       float64
		holm, bdunn bool
	}{
		{3, 2.416, 2.4154, 0.016, 3 * 0.015720, true, true},
		{1, 2.342, 2.3422, 0.019, 3 * 0.015720, true, false},
		{2, 0.512, 0.5123, 0.608, 0.6084, false, false},
	} {
		c := res.Comparisons[i]
		if c.Method != want.method {
			t.Fatalf("Holm's order position %d: method %d, want %d", i, c.Method, want.method)
		}
		// The paper's z is (R_0 − R_i)/SE; ours is R_i − R_0, negative for
		// a method better than the control.
		if math.Abs(-c.Z-want.zExact) > 5e-5 || math.Abs(-c.Z-want.zPaper) > 2e-3 {
			t.Errorf("method %d: z = %.5f, want −%.4f (paper −%.3f)", c.Method, c.Z, want.zExact, want.zPaper)
		}
		if math.Abs(c.P-want.p) > 5e-4 {
			t.Errorf("method %d: p = %.5f, want %.3f", c.Method, c.P, want.p)
		}
		if math.Abs(c.HolmP-want.holmP) > 5e-5 || c.Holm != want.holm || c.BonferroniDunn != want.bdunn {
			t.Errorf("method %d: Holm p %.5f rejects %v, Bonferroni–Dunn %v; want %.5f, %v, %v",
				c.Method, c.HolmP, c.Holm, c.BonferroniDunn, want.holmP, want.holm, want.bdunn)
		}
	}
	// The paper's step-down thresholds: the i-th smallest p against α/(k−i).
	for i, bound := range []float64{0.05 / 3, 0.05 / 2, 0.05} {
		if c := res.Comparisons[i]; (c.P < bound) != c.Holm {
			t.Errorf("position %d: p %.4f against α/(k−i) = %.4f, Holm says %v", i, c.P, bound, c.Holm)
		}
	}
	if _, err := CompareWithControl(fr.AvgRanks, 4, fr.N, 0.05); err == nil {
		t.Error("control 4 of 4 methods accepted")
	}
}

func TestHolm(t *testing.T) {
	for _, tc := range []struct {
		name   string
		p      []float64
		alpha  float64
		adj    []float64
		reject []bool
	}{
		// Sorted 0.01, 0.02, 0.04: 3·0.01 = 0.03, 2·0.02 = 0.04, 1·0.04.
		{"all rejected", []float64{0.04, 0.01, 0.02}, 0.05, []float64{0.04, 0.03, 0.04}, []bool{true, true, true}},
		// 0.01·4 = 0.04 < 0.05; 0.03·3 = 0.09 stops; later ones stay at least 0.09.
		{"step-down stops", []float64{0.01, 0.03, 0.035, 0.5}, 0.05, []float64{0.04, 0.09, 0.09, 0.5}, []bool{true, false, false, false}},
		// A later smaller product is lifted to the running maximum; capped at 1.
		{"monotone and capped", []float64{0.2, 0.6, 0.3}, 0.05, []float64{0.6, 0.6, 0.6}, []bool{false, false, false}},
		{"one hypothesis", []float64{0.049}, 0.05, []float64{0.049}, []bool{true}},
	} {
		adj, rej := Holm(tc.p, tc.alpha)
		for i := range tc.p {
			if math.Abs(adj[i]-tc.adj[i]) > 1e-12 || rej[i] != tc.reject[i] {
				t.Errorf("%s: adjusted %v reject %v; want %v %v", tc.name, adj, rej, tc.adj, tc.reject)
				break
			}
		}
	}
}

func TestCorrectedIntervalScipy(t *testing.T) {
	ref := loadRef(t)
	if len(ref.Interval) == 0 {
		t.Fatal("scipy reference has no interval cases")
	}
	for i, c := range ref.Interval {
		m, lo, hi, err := CorrectedInterval(c.A, c.B, c.NTrain, c.NTest, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if !near(m, c.Mean, 1e-12) || !near(lo, c.Lo, 1e-10) || !near(hi, c.Hi, 1e-10) {
			t.Errorf("case %d: %v [%v, %v]; scipy %v [%v, %v]", i, m, lo, hi, c.Mean, c.Lo, c.Hi)
		}
		// The interval excludes 0 exactly when the test rejects at 0.05.
		_, p, _ := CorrectedTTest(c.A, c.B, c.NTrain, c.NTest)
		if (lo > 0 || hi < 0) != (p < 0.05) {
			t.Errorf("case %d: interval [%v, %v] and p = %v disagree", i, lo, hi, p)
		}
	}
	// The hand case of TestCorrectedTTestHand: mean 0.022, se
	// sqrt(4.7e-4·14/45), t_{0.975, 4} = 2.776445.
	a := []float64{0.80, 0.82, 0.78, 0.85, 0.81}
	b := []float64{0.78, 0.80, 0.79, 0.80, 0.78}
	m, lo, hi, err := CorrectedInterval(a, b, 90, 10, 0.95)
	se := math.Sqrt(4.7e-4 * 14 / 45)
	if err != nil || !near(m, 0.022, 1e-12) || math.Abs(lo-(0.022-2.776445*se)) > 1e-6 || math.Abs(hi-(0.022+2.776445*se)) > 1e-6 {
		t.Errorf("hand case: %v [%v, %v] (%v); want 0.022 ± 2.776445·%v", m, lo, hi, err, se)
	}
	if _, _, _, err := CorrectedInterval([]float64{2, 3}, []float64{1, 2}, 9, 1, 0.95); err == nil || err.Error() != "corrected interval: corrected t-test: zero variance (all 2 differences equal)" {
		t.Errorf("constant difference: %v, want no interval (zero variance)", err)
	}
	for _, level := range []float64{0, 1, -0.5} {
		if _, _, _, err := CorrectedInterval(a, b, 90, 10, level); err == nil {
			t.Errorf("level %v accepted", level)
		}
	}
	if _, _, _, err := CorrectedInterval(a[:1], b[:1], 90, 10, 0.95); err == nil {
		t.Error("one pair accepted")
	}
}

func TestWilcoxonMinP(t *testing.T) {
	// The exact two-sided p-value of T = 0 is 2/2^N (checked against the
	// exact distribution): N = 5 cannot reach 0.05, N = 6 can.
	for _, tc := range []struct {
		n    int
		want float64
	}{{1, 1}, {2, 0.5}, {5, 0.0625}, {6, 0.03125}} {
		if got := WilcoxonMinP(tc.n); got != tc.want {
			t.Errorf("WilcoxonMinP(%d) = %v, want %v", tc.n, got, tc.want)
		}
		a, b := make([]float64, tc.n), make([]float64, tc.n)
		for i := range a {
			a[i], b[i] = float64(i+1), 0
		}
		r, err := Wilcoxon(a, b)
		if err != nil || !r.Exact || r.P != tc.want {
			t.Errorf("N = %d: Wilcoxon p %v exact %v (%v), want %v", tc.n, r.P, r.Exact, err, tc.want)
		}
	}
}
