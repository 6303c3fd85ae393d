package logistic

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// sameResult fails unless a and b are equal bit for bit.
func sameResult(t *testing.T, name string, a, b *Result) {
	t.Helper()
	bits := math.Float64bits
	if a.Iterations != b.Iterations || a.Converged != b.Converged ||
		bits(a.B) != bits(b.B) || bits(a.Objective) != bits(b.Objective) || bits(a.GradNorm) != bits(b.GradNorm) {
		t.Errorf("%s: batch (iters %d, f %.17g, b %.17g) ≠ alone (iters %d, f %.17g, b %.17g)",
			name, a.Iterations, a.Objective, a.B, b.Iterations, b.Objective, b.B)
		return
	}
	for j := range a.W {
		if bits(a.W[j]) != bits(b.W[j]) {
			t.Errorf("%s: w[%d] batch %.17g ≠ alone %.17g", name, j, a.W[j], b.W[j])
			return
		}
	}
}

// checkBatch fits probs together and one by one and compares the results.
func checkBatch(t *testing.T, name string, x Design, probs []BatchProblem, opt Options) {
	t.Helper()
	got, err := FitBatch(context.Background(), x, probs, opt)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(got) != len(probs) {
		t.Fatalf("%s: %d results for %d problems", name, len(got), len(probs))
	}
	for k, p := range probs {
		want, err := Fit(x, p.Y, p.S, opt)
		if err != nil {
			t.Fatalf("%s problem %d: %v", name, k, err)
		}
		sameResult(t, name, got[k], want)
	}
}

// randomProblems returns k labelings of n rows, with row weights in
// (0, 2) when weighted.
func randomProblems(rng *rand.Rand, n, k int, weighted bool) []BatchProblem {
	probs := make([]BatchProblem, k)
	for c := range probs {
		probs[c].Y = make([]float64, n)
		for i := range probs[c].Y {
			probs[c].Y[i] = -1
			if rng.IntN(k) == c {
				probs[c].Y[i] = 1
			}
		}
		if weighted {
			probs[c].S = make([]float64, n)
			for i := range probs[c].S {
				probs[c].S[i] = 2 * rng.Float64()
			}
		}
	}
	return probs
}

// randomDense returns an n×d matrix of normal entries, a fraction of them
// zero, as a view with stride d+3 of a larger matrix.
func randomDense(rng *rand.Rand, n, d int) *mat.Dense {
	big := mat.NewDense(n, d+3, nil)
	for i := range n {
		for j := range d + 3 {
			if rng.Float64() < 0.8 {
				big.Set(i, j, rng.NormFloat64()+float64(j%3))
			}
		}
	}
	return big.Slice(0, n, 0, d).(*mat.Dense)
}

// TestFitBatchEqualsFit: a batch gives every problem the iterates of the
// one-by-one solver, dense and CSR, weighted or not, with dimensions that
// exercise every remainder of the blocked products (odd rows and columns,
// blocks that do not divide the rows, a strided view).
func TestFitBatchEqualsFit(t *testing.T) {
	x, y, _ := breastCancer(t)
	bc := []BatchProblem{{Y: y}, {Y: negate(y)}, {Y: y, S: ramp(len(y))}}
	for _, c := range []float64{0.1, 1, 10} {
		checkBatch(t, "breast cancer dense", NewDense(x), bc, Options{C: c, Tol: 1e-7})
		checkBatch(t, "breast cancer csr", NewCSR(reftest.CSR(x)), bc, Options{C: c, Tol: 1e-7})
	}
	rng := rand.New(rand.NewPCG(14, 26))
	for _, dim := range []struct{ n, d int }{{1001, 7}, {777, 16}, {603, 33}, {2050, 5}, {31, 1}} {
		xd := randomDense(rng, dim.n, dim.d)
		for _, weighted := range []bool{false, true} {
			probs := randomProblems(rng, dim.n, 5, weighted)
			checkBatch(t, "random dense", NewDense(xd), probs, Options{C: 0.5})
			checkBatch(t, "random csr", NewCSR(reftest.CSR(xd)), probs, Options{C: 2, Tol: 1e-4})
			checkBatch(t, "random other design", plainDesign{NewDense(xd)}, probs, Options{})
		}
	}
}

// TestFitBatchLetter: the 26 one-vs-rest problems of letter, dense and CSR.
func TestFitBatchLetter(t *testing.T) {
	if testing.Short() {
		t.Skip("letter is large")
	}
	ds := reftest.Load(t, "letter")
	x := ds.Standardized()
	labels := reftest.OneVsRest(ds.Y, len(ds.Classes))
	probs := make([]BatchProblem, len(labels))
	for c, l := range labels {
		probs[c].Y = l
	}
	checkBatch(t, "letter dense", NewDense(x), probs, Options{C: 1})
	checkBatch(t, "letter csr", NewCSR(reftest.CSR(x)), probs[:6], Options{C: 1})
}

// plainDesign hides the concrete type of a design, so the batch computes
// its products one by one.
type plainDesign struct{ Design }

func negate(y []float64) []float64 {
	out := make([]float64, len(y))
	for i, v := range y {
		out[i] = -v
	}
	return out
}

func ramp(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 0.5 + float64(i%7)/4
	}
	return s
}

func TestFitBatchErrors(t *testing.T) {
	x := NewDense(mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6}))
	good := BatchProblem{Y: []float64{1, -1, 1}}
	if _, err := FitBatch(context.Background(), x, []BatchProblem{good}, Options{Solver: SolverLBFGS}); !errors.Is(err, ErrInput) {
		t.Errorf("lbfgs batch: err = %v, want ErrInput", err)
	}
	bad := BatchProblem{Y: []float64{1, 0, 1}}
	if _, err := FitBatch(context.Background(), x, []BatchProblem{good, bad}, Options{}); !errors.Is(err, ErrInput) {
		t.Errorf("label 0: err = %v, want ErrInput", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := FitBatch(ctx, x, []BatchProblem{good, good}, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v, want context.Canceled", err)
	}
	res, err := FitBatch(context.Background(), x, nil, Options{})
	if err != nil || len(res) != 0 {
		t.Errorf("no problems: %v, %v", res, err)
	}
}

// TestFitBatchStopsMidway cancels a batch between rounds: the problems'
// coroutines unwind and FitBatch reports the cancellation.
func TestFitBatchStopsMidway(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	xd := randomDense(rng, 500, 6)
	probs := randomProblems(rng, 500, 3, false)
	ctx, cancel := context.WithCancel(context.Background())
	rounds := 0
	x := countingDesign{Design: NewDense(xd), onProduct: func() {
		if rounds++; rounds == 10 {
			cancel()
		}
	}}
	if _, err := FitBatch(ctx, x, probs, Options{Tol: 1e-12}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// countingDesign calls onProduct before each MulVec.
type countingDesign struct {
	Design
	onProduct func()
}

func (c countingDesign) MulVec(dst, x []float64) {
	c.onProduct()
	c.Design.MulVec(dst, x)
}

// TestFitBatchWorkers: the products on 1, 2 or 3 goroutines give every
// problem the same iterates, alone (Fit) and in a batch, dense and CSR, on
// a design of several chunks of rows.
func TestFitBatchWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	xd := randomDense(rng, 5000, 12)
	probs := randomProblems(rng, 5000, 5, true)
	for name, x := range map[string]Design{"dense": NewDense(xd), "csr": NewCSR(reftest.CSR(xd))} {
		want, err := FitBatch(context.Background(), x, probs, Options{C: 2, Tol: 1e-6})
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{2, 3} {
			opt := Options{C: 2, Tol: 1e-6, Workers: workers}
			got, err := FitBatch(context.Background(), x, probs, opt)
			if err != nil {
				t.Fatal(err)
			}
			for k := range probs {
				sameResult(t, fmt.Sprintf("%s batch, %d goroutines, problem %d", name, workers, k), got[k], want[k])
				alone, err := Fit(x, probs[k].Y, probs[k].S, opt)
				if err != nil {
					t.Fatal(err)
				}
				sameResult(t, fmt.Sprintf("%s alone, %d goroutines, problem %d", name, workers, k), alone, want[k])
			}
		}
	}
}

// TestPanelRunnerMixedRound: a round that holds products of every kind,
// several of each, gives every product the bits it gets in a round of its
// own (one problem, no panel), dense and CSR, on 1 and 2 goroutines, on a
// design of several chunks whose last block is short.
func TestPanelRunnerMixedRound(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 11))
	const n, d = 3001, 9
	xd := randomDense(rng, n, d)
	vec := func(m int) []float64 {
		v := make([]float64, m)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		return v
	}
	// counts of X·v, Xᵀ·v, (X∘X)ᵀ·v and Hessian products in the round.
	counts := [4]int{2, 3, 1, 6}
	newRound := func() []*product {
		var reqs []*product
		for op, c := range counts {
			for range c {
				r := &product{op: productOp(op + 1)}
				switch r.op {
				case opMulVec:
					r.src, r.dst = vec(d), make([]float64, n)
				case opMulVecTrans, opMulVecTransSq:
					r.src, r.dst = vec(n), make([]float64, d)
				case opHessVec:
					r.src, r.dst, r.tmp, r.dd, r.vb = vec(d), make([]float64, d), make([]float64, n), vec(n), rng.NormFloat64()
				}
				reqs = append(reqs, r)
			}
		}
		rng.Shuffle(len(reqs), func(i, j int) { reqs[i], reqs[j] = reqs[j], reqs[i] })
		return reqs
	}
	for name, x := range map[string]Design{"dense": NewDense(xd), "csr": NewCSR(reftest.CSR(xd))} {
		reqs := newRound()
		for _, workers := range []int{1, 2} {
			run := productRunner(x, workers)
			alone := make([]product, len(reqs))
			for i, r := range reqs {
				alone[i] = *r
				alone[i].dst = make([]float64, len(r.dst))
				run([]*product{&alone[i]})
			}
			run(reqs)
			for i, r := range reqs {
				if math.Float64bits(r.hb) != math.Float64bits(alone[i].hb) {
					t.Errorf("%s, %d goroutines, product %d (op %d): hb %.17g in the round, %.17g alone", name, workers, i, r.op, r.hb, alone[i].hb)
				}
				for j := range r.dst {
					if math.Float64bits(r.dst[j]) != math.Float64bits(alone[i].dst[j]) {
						t.Errorf("%s, %d goroutines, product %d (op %d): dst[%d] %.17g in the round, %.17g alone", name, workers, i, r.op, j, r.dst[j], alone[i].dst[j])
						break
					}
				}
			}
		}
	}
}
