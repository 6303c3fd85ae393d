package curves

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCountTies: tied scores are one threshold, whatever the rows' order
// (scikit-learn's example: y = [0, 0, 1, 1], scores [0.1, 0.4, 0.35, 0.8]
// gives fpr [0, 0, 0.5, 0.5, 1], tpr [0, 0.5, 0.5, 1, 1], AUC 0.75).
func TestCountTies(t *testing.T) {
	c := Count([]float64{0.1, 0.4, 0.35, 0.8}, []bool{false, false, true, true})
	fpr, tpr, thr := c.ROC()
	if !equal(fpr, []float64{0, 0, 0.5, 0.5, 1}) || !equal(tpr, []float64{0, 0.5, 0.5, 1, 1}) ||
		!equal(thr[1:], []float64{0.8, 0.4, 0.35, 0.1}) || !math.IsInf(thr[0], 1) {
		t.Errorf("roc %v %v %v", fpr, tpr, thr)
	}
	if a := c.AUC(); a != 0.75 {
		t.Errorf("AUC %v, want 0.75", a)
	}
	// precision_recall_curve's docstring: precision [0.5, 0.667, 0.5, 1, 1],
	// recall [1, 1, 0.5, 0.5, 0], thresholds [0.1, 0.35, 0.4, 0.8];
	// average precision 0.8333.
	p, r, pt := c.PrecisionRecall()
	if !equal(p, []float64{0.5, 2.0 / 3, 0.5, 1, 1}) || !equal(r, []float64{1, 1, 0.5, 0.5, 0}) || !equal(pt, []float64{0.1, 0.35, 0.4, 0.8}) {
		t.Errorf("pr %v %v %v", p, r, pt)
	}
	if ap := c.AveragePrecision(); math.Abs(ap-0.8333333333333333) > 1e-15 {
		t.Errorf("average precision %v", ap)
	}
	// Ties: two rows at 0.5, one of each class, are one step of the curve.
	tied := Count([]float64{0.5, 0.9, 0.5}, []bool{true, true, false})
	if !equal(tied.Thresholds, []float64{0.9, 0.5}) || !equalInts(tied.TP, []int{1, 2}) || !equalInts(tied.FP, []int{0, 1}) {
		t.Errorf("tied counts %+v", tied)
	}
}

// TestReliabilityWorkedExample: six rows of three classes. Confidences
// 0.9, 0.9, 0.6, 0.6, 0.4 and 1: bins 13 (0.9 ∈ (13/15, 14/15]), 8
// (0.6 ∈ (8/15, 9/15]), 5 (0.4 ∈ (5/15, 6/15]) and 14. Bin 13 is right
// once of twice (accuracy 0.5, gap 0.4), bin 8 twice (gap 0.4), bin 5
// never (gap 0.4), bin 14 once (gap 0): ECE = (2·0.4 + 2·0.4 + 0.4)/6 =
// 1/3, MCE 0.4.
func TestReliabilityWorkedExample(t *testing.T) {
	f := Fold{
		Scores: []float64{
			0.9, 0.05, 0.05, // true 0: right
			0.05, 0.9, 0.05, // true 0: wrong
			0.6, 0.3, 0.1, // true 0: right
			0.2, 0.2, 0.6, // true 2: right
			0.4, 0.3, 0.3, // true 1: wrong
			0, 0, 1, // true 2: right
		},
		True: []int{0, 0, 0, 2, 1, 2},
	}
	s := Compute(3, []Fold{f}, true)
	r := s.Reliability
	want := map[int][3]float64{13: {2, 0.9, 0.5}, 8: {2, 0.6, 1}, 5: {1, 0.4, 0}, 14: {1, 1, 1}}
	for b := range Bins {
		w, ok := want[b]
		if !ok {
			if r.Count[b] != 0 {
				t.Errorf("bin %d: %d rows", b, r.Count[b])
			}
			continue
		}
		if float64(r.Count[b]) != w[0] || math.Abs(float64(r.Confidence[b])-w[1]) > 1e-15 || float64(r.Accuracy[b]) != w[2] {
			t.Errorf("bin %d: %d rows, confidence %v, accuracy %v; want %v", b, r.Count[b], r.Confidence[b], r.Accuracy[b], w)
		}
	}
	if math.Abs(float64(r.ECE)-1.0/3) > 1e-15 || math.Abs(float64(r.MCE)-0.4) > 1e-15 {
		t.Errorf("ECE %v MCE %v, want 1/3 and 0.4", r.ECE, r.MCE)
	}
	if s.Rows != 6 {
		t.Errorf("%d rows", s.Rows)
	}
	if Compute(3, []Fold{f}, false).Reliability != nil {
		t.Error("a reliability diagram of scores that are not probabilities")
	}
}

// TestComputeBoundedAndOrderFree: the stored curves keep at most
// MaxPoints points each, start and end where the exact curves do, and the
// set is byte-identical whatever the order of the folds (workers finish
// them in any order; the cell puts them in order, but the views depend on
// the rows alone).
func TestComputeBoundedAndOrderFree(t *testing.T) {
	const k, rows = 5, 4000
	var folds []Fold
	for fi := range 4 {
		var f Fold
		for r := range rows / 4 {
			y := (r*7 + fi) % k
			f.True = append(f.True, y)
			sum := 0.0
			row := make([]float64, k)
			for c := range k {
				v := math.Abs(math.Sin(float64(r*k+c+fi*31))) + 0.01
				if c == y {
					v += 0.7
				}
				row[c] = v
				sum += v
			}
			for c := range row {
				row[c] /= sum
			}
			f.Scores = append(f.Scores, row...)
		}
		folds = append(folds, f)
	}
	s := Compute(k, folds, true)
	for _, fam := range []Family{s.ROC, s.PR} {
		for _, c := range append(append([]Curve{}, fam.Classes...), fam.Micro, fam.Macro) {
			if len(c.X) > MaxPoints || len(c.X) < 2 || len(c.X) != len(c.Y) {
				t.Fatalf("a curve of %d points (%d y), want 2..%d", len(c.X), len(c.Y), MaxPoints)
			}
		}
	}
	if r := s.ROC.Classes[0]; r.X[0] != 0 || r.Y[0] != 0 || r.X[len(r.X)-1] != 1 || r.Y[len(r.Y)-1] != 1 {
		t.Errorf("ROC curve from (%v, %v) to (%v, %v)", r.X[0], r.Y[0], r.X[len(r.X)-1], r.Y[len(r.Y)-1])
	}
	b1, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	reversed := []Fold{folds[3], folds[1], folds[2], folds[0]}
	b2, _ := json.Marshal(Compute(k, reversed, true))
	if string(b1) != string(b2) {
		t.Error("the views depend on the order of the folds")
	}
	if len(b1) > 40000 {
		t.Errorf("%d bytes of JSON for %d rows of %d classes: not bounded", len(b1), rows, k)
	}
	var back Set
	if err := json.Unmarshal(b1, &back); err != nil {
		t.Fatal(err)
	}
	if b3, _ := json.Marshal(back); string(b3) != string(b1) {
		t.Error("the JSON does not read back to the same set")
	}
}

// TestClassWithoutPositives: a class no row has gets no curve and a NaN
// area (null in JSON); the macro averages leave it out.
func TestClassWithoutPositives(t *testing.T) {
	f := Fold{Scores: []float64{0.8, 0.1, 0.1, 0.3, 0.6, 0.1, 0.6, 0.3, 0.1, 0.2, 0.7, 0.1}, True: []int{0, 1, 0, 1}}
	s := Compute(3, []Fold{f}, true)
	if c := s.ROC.Classes[2]; len(c.X) != 0 || !math.IsNaN(float64(c.Area)) {
		t.Errorf("class without rows: ROC %+v", c)
	}
	if a := float64(s.ROC.Macro.Area); a != 1 {
		t.Errorf("macro AUC %v, want 1 (the two classes with rows are separated)", a)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(b) {
		t.Error("invalid JSON")
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-15 {
			return false
		}
	}
	return true
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// BenchmarkComputeLetter: the views of a letter-sized cell (20,000 rows
// of 26 classes, 10 folds), as a cell computes them when it finishes.
func BenchmarkComputeLetter(b *testing.B) { benchmarkCompute(b, 26, 20000, 10) }

// BenchmarkCompute200Classes: the views of the 200-class one-vs-one cell
// of docs/performance.md (20,000 rows of 200 classes, 3 folds), whose
// last fold's Prepare and the cell's Compute are the run's tail: run it
// with -cpu 1,2 to see them spread over the processors.
func BenchmarkCompute200Classes(b *testing.B) { benchmarkCompute(b, 200, 20000, 3) }

// benchmarkCompute times Prepare of one fold and Compute of a cell of
// rows rows of k classes in nfolds folds, raw and prepared.
func benchmarkCompute(b *testing.B, k, rows, nfolds int) {
	folds := make([]Fold, nfolds)
	for i := range rows {
		f := &folds[i%nfolds]
		y := (i * 7) % k
		f.True = append(f.True, y)
		for c := range k {
			v := math.Abs(math.Sin(float64(i*k + c)))
			if c == y {
				v += 1
			}
			f.Scores = append(f.Scores, v/float64(k))
		}
	}
	b.Run("raw", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Compute(k, folds, true)
		}
	})
	b.Run("prepare", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Prepare(k, folds[0])
		}
	})
	// As a run computes them: each fold prepared when it finished.
	prepared := make([]Fold, len(folds))
	for i, f := range folds {
		prepared[i] = Prepare(k, f)
	}
	b.Run("prepared", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Compute(k, prepared, true)
		}
	})
}

// TestCountAgainstDefinition: on scores with many ties, each threshold's
// counts are the positive and negative rows scored at or above it,
// counted one by one, and the thresholds are the distinct scores,
// decreasing.
func TestCountAgainstDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 7, 100, 1000} {
		scores, positive := make([]float64, n), make([]bool, n)
		for i := range scores {
			scores[i] = math.Round(rng.NormFloat64()*4) / 4
			positive[i] = rng.IntN(3) == 0
		}
		c := Count(scores, positive)
		distinct := map[float64]bool{}
		for _, v := range scores {
			distinct[v] = true
		}
		if len(c.Thresholds) != len(distinct) {
			t.Fatalf("n = %d: %d thresholds for %d distinct scores", n, len(c.Thresholds), len(distinct))
		}
		for i, th := range c.Thresholds {
			if i > 0 && th >= c.Thresholds[i-1] {
				t.Fatalf("n = %d: thresholds not decreasing at %d: %v", n, i, c.Thresholds[:i+1])
			}
			tp, fp := 0, 0
			for r, v := range scores {
				if v >= th && positive[r] {
					tp++
				} else if v >= th {
					fp++
				}
			}
			if c.TP[i] != tp || c.FP[i] != fp {
				t.Fatalf("n = %d, threshold %v: TP %d FP %d, want %d %d", n, th, c.TP[i], c.FP[i], tp, fp)
			}
		}
	}
}

// TestCountNaNLast: NaN scores count after every number, each its own
// threshold.
func TestCountNaNLast(t *testing.T) {
	c := Count([]float64{math.NaN(), 0.5, math.NaN(), 0.7}, []bool{true, false, false, true})
	if !equalInts(c.TP, []int{1, 1, 2, 2}) && !equalInts(c.TP, []int{1, 1, 1, 2}) {
		t.Fatalf("TP %v", c.TP)
	}
	if c.TP[1] != 1 || c.FP[1] != 1 || c.TP[3] != 2 || c.FP[3] != 2 || !math.IsNaN(c.Thresholds[2]) {
		t.Fatalf("counts %+v", c)
	}
}

// TestMergeRuns: sorted runs (ties, NaN, empty runs, an odd number of
// runs) merged give what slices.Sort gives.
func TestMergeRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, runs := range []int{0, 1, 2, 3, 5, 26} {
		var x []float64
		var ends []int
		for r := range runs {
			run := make([]float64, rng.IntN(40)*(r%3))
			for i := range run {
				switch rng.IntN(10) {
				case 0:
					run[i] = math.NaN()
				default:
					run[i] = float64(rng.IntN(20)) / 4
				}
			}
			slices.Sort(run)
			x = append(x, run...)
			ends = append(ends, len(x))
		}
		want := slices.Clone(x)
		slices.Sort(want)
		mergeRuns(x, make([]float64, len(x)), ends)
		for i := range want {
			if !(x[i] == want[i] || math.IsNaN(x[i]) && math.IsNaN(want[i])) {
				t.Fatalf("%d runs: merged %v, want %v", runs, x, want)
			}
		}
	}
}

// TestPreparedFoldsSameSet: folds prepared (Prepare) give Compute the set
// the raw folds give, bit for bit, multiclass and multi-label.
func TestPreparedFoldsSameSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const k = 4
	for _, multi := range []bool{false, true} {
		var raw, prepared []Fold
		for range 3 {
			rows := 20 + rng.IntN(20)
			f := Fold{Scores: make([]float64, rows*k)}
			for i := range f.Scores {
				f.Scores[i] = float64(rng.IntN(12)) / 11 // ties
			}
			if multi {
				f.TrueSet, f.PredSet = make([]float64, rows*k), make([]float64, rows*k)
				for i := range f.TrueSet {
					f.TrueSet[i], f.PredSet[i] = float64(rng.IntN(2)), float64(rng.IntN(2))
				}
			} else {
				f.True = make([]int, rows)
				for r := range f.True {
					f.True[r] = rng.IntN(k)
				}
			}
			raw, prepared = append(raw, f), append(prepared, Prepare(k, f))
		}
		a, err := json.Marshal(Compute(k, raw, !multi))
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(Compute(k, prepared, !multi))
		if err != nil {
			t.Fatal(err)
		}
		if string(a) != string(b) {
			t.Errorf("multi-label %v: prepared folds give\n%s\nraw folds\n%s", multi, b, a)
		}
	}
}

// TestCountSortedAllocatesItsPointsOnce: counting n distinct scores, as
// the micro average of a many-class cell does (200 classes × 20,000 rows,
// 4,000,000 points), allocates its three slices once, at their size,
// where growing them by append made dozens of allocations and copies.
func TestCountSortedAllocatesItsPointsOnce(t *testing.T) {
	for _, tc := range []struct {
		name     string
		pos, neg int
		ties     int // scores per distinct value
		points   int
	}{
		{"distinct", 40000, 160000, 1, 200000},
		{"ties", 40000, 160000, 50, 6400},
		{"negatives only", 0, 5000, 1, 5000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pos, neg := make([]float64, tc.pos), make([]float64, tc.neg)
			for i := range pos {
				pos[i] = float64((2 * i) / tc.ties)
			}
			for i := range neg {
				neg[i] = float64((2*i + 1) / tc.ties)
			}
			slices.Sort(pos)
			slices.Sort(neg)
			var c Binary
			allocs := testing.AllocsPerRun(3, func() { c = countSorted(pos, neg) })
			if len(c.Thresholds) != tc.points || cap(c.Thresholds) != tc.points || cap(c.TP) != tc.points || cap(c.FP) != tc.points {
				t.Errorf("%d points in slices of capacity %d, %d, %d; want %d", len(c.Thresholds), cap(c.Thresholds), cap(c.TP), cap(c.FP), tc.points)
			}
			if allocs != 3 {
				t.Errorf("%v allocations, want 3 (one a slice)", allocs)
			}
			if c.Positives() != tc.pos || c.Negatives() != tc.neg {
				t.Errorf("%d positives and %d negatives counted, want %d and %d", c.Positives(), c.Negatives(), tc.pos, tc.neg)
			}
		})
	}
}

// TestMergeRunsInParallel: from parallelMerge values on, the rounds of
// merges run on several goroutines and still sort as slices.Sort does
// (NaN first, ties, an odd run left over), whatever the processors.
func TestMergeRunsInParallel(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, tc := range []struct {
		n, runs int
	}{
		{parallelMerge, 200},
		{parallelMerge + 3, 3},
		{2 * parallelMerge, 7},
	} {
		x := make([]float64, tc.n)
		for i := range x {
			x[i] = float64(rng.IntN(1000)) / 7
			if rng.IntN(5000) == 0 {
				x[i] = math.NaN()
			}
		}
		ends := make([]int, tc.runs)
		for r := range ends {
			ends[r] = (r + 1) * tc.n / tc.runs
			slices.Sort(x[r*tc.n/tc.runs : ends[r]])
		}
		want := slices.Clone(x)
		slices.Sort(want)
		mergeRuns(x, make([]float64, tc.n), ends)
		for i := range want {
			if math.Float64bits(x[i]) != math.Float64bits(want[i]) && !(math.IsNaN(x[i]) && math.IsNaN(want[i])) {
				t.Fatalf("%d values in %d runs: value %d merged %v, want %v", tc.n, tc.runs, i, x[i], want[i])
			}
		}
	}
}
