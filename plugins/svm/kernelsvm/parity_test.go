package kernelsvm

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// libsvmRef is testdata/libsvm_ref.json, written by gen_libsvm.py.
type libsvmRef struct {
	Cases []libsvmCase `json:"cases"`
}

type libsvmCase struct {
	Name   string `json:"name"`
	Data   string `json:"data"`
	Params struct {
		Kernel      string             `json:"kernel"`
		Degree      int                `json:"degree"`
		Gamma       float64            `json:"gamma"`
		Coef0       float64            `json:"coef0"`
		C           float64            `json:"C"`
		Eps         float64            `json:"eps"`
		Shrinking   bool               `json:"shrinking"`
		Probability bool               `json:"probability"`
		Weights     map[string]float64 `json:"weights"`
	} `json:"params"`
	Labels      []int        `json:"labels"`
	Pairs       []libsvmPair `json:"pairs"`
	Predicted   []int        `json:"predicted"`
	Decision    [][]float64  `json:"decision"`
	Probability [][]float64  `json:"probability"`
}

type libsvmPair struct {
	Labels [2]int       `json:"labels"`
	Rho    float64      `json:"rho"`
	SV     [][2]float64 `json:"sv"` // training row, coefficient
	Obj    *float64     `json:"obj"`
	Iter   *int         `json:"iter"`
	ProbA  float64      `json:"probA"`
	ProbB  float64      `json:"probB"`
}

func loadLibsvmRef(t *testing.T) []libsvmCase {
	t.Helper()
	b, err := os.ReadFile("testdata/libsvm_ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref libsvmRef
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	return ref.Cases
}

// scaledSplit loads a data set as gen_libsvm.py writes it: features scaled
// to [−1, 1] over the whole file (a constant one is 0), rows i with
// i % 5 == 4 the test set; classes are indices into the sorted names
// (LIBSVM label = index + 1).
func scaledSplit(t *testing.T, name string) (xtr *mat.Dense, ytr []int, xte *mat.Dense, yte []int) {
	t.Helper()
	ds := reftest.Load(t, name)
	n, d := ds.X.Dims()
	x := mat.NewDense(n, d, nil)
	for j := range d {
		col := mat.Col(nil, j, ds.X)
		lo, hi := slices.Min(col), slices.Max(col)
		for i, v := range col {
			if hi != lo {
				x.Set(i, j, -1.0+(1.0 - -1.0)*(v-lo)/(hi-lo))
			}
		}
	}
	var tr, te []int
	for i := range n {
		if i%5 == 4 {
			te = append(te, i)
		} else {
			tr = append(tr, i)
		}
	}
	pick := func(rows []int) *mat.Dense {
		m := mat.NewDense(len(rows), d, nil)
		for k, i := range rows {
			m.SetRow(k, x.RawRowView(i))
		}
		return m
	}
	return pick(tr), reftest.Pick(ds.Y, tr), pick(te), reftest.Pick(ds.Y, te)
}

// pairProblems returns the one-vs-one problems of classes a < b (our
// order, +1 for a) over the training labels y, in the order (0,1), (0,2),
// …, with each row weighted by its class weight.
func pairProblems(y []int, k int, classWeight func(c int) float64) (ps []Problem, pairs [][2]int) {
	for a := range k {
		for b := a + 1; b < k; b++ {
			p := Problem{}
			for i, c := range y {
				if c != a && c != b {
					continue
				}
				p.Rows = append(p.Rows, i)
				t := 1.0
				if c == b {
					t = -1
				}
				p.Targets = append(p.Targets, t)
				p.Weights = append(p.Weights, classWeight(c))
			}
			ps, pairs = append(ps, p), append(pairs, [2]int{a, b})
		}
	}
	return ps, pairs
}

// caseOptions returns the options of a reference case.
func caseOptions(c *libsvmCase) Options {
	return Options{
		Kernel: Kernel{Type: c.Params.Kernel, Gamma: c.Params.Gamma, Degree: c.Params.Degree, Coef0: c.Params.Coef0},
		C:      c.Params.C, Eps: c.Params.Eps, NoShrinking: !c.Params.Shrinking, Probability: c.Params.Probability,
	}
}

// caseWeight returns the weight of class cl (LIBSVM label cl+1).
func caseWeight(c *libsvmCase) func(cl int) float64 {
	return func(cl int) float64 {
		if w, ok := c.Params.Weights[itoa(cl+1)]; ok {
			return w
		}
		return 1
	}
}

// checkPair compares the binary SVM b of classes (a, b), a < b, +1 for a,
// with LIBSVM's pair ref and its decision values dec on the test rows:
// the same iterations (the solver takes the same path), objective within
// 1e-6 relative (svm-train prints it with %f), the same support vectors
// with coefficients and ρ within 1e-9, decision values within 1e-9 (the
// issue asks 1e-4) and, when platt, Platt's A and B within 1e-9.
func checkPair(t *testing.T, bin *binary, ref libsvmPair, dec func(i int) float64, refDec [][]float64, p int, platt bool) {
	t.Helper()
	sign := 1.0 // LIBSVM's pair joins labels (li, lj), +1 for li
	if ref.Labels[0] > ref.Labels[1] {
		sign = -1
	}
	rows, coef, rho := bin.dual()
	if ref.Iter != nil && bin.iter != *ref.Iter {
		t.Errorf("pair %v: %d iterations, LIBSVM %d", ref.Labels, bin.iter, *ref.Iter)
	}
	if ref.Obj != nil && math.Abs(bin.obj-*ref.Obj) > 1e-6*math.Abs(*ref.Obj)+5e-7 {
		t.Errorf("pair %v: objective %.9g, LIBSVM %.9g", ref.Labels, bin.obj, *ref.Obj)
	}
	if d := math.Abs(sign*rho - ref.Rho); d > 1e-9 {
		t.Errorf("pair %v: rho %.12g, LIBSVM %.12g", ref.Labels, sign*rho, ref.Rho)
	}
	if len(rows) != len(ref.SV) {
		t.Errorf("pair %v: %d support vectors, LIBSVM %d", ref.Labels, len(rows), len(ref.SV))
	} else {
		for q, sv := range ref.SV {
			if rows[q] != int(sv[0]) || math.Abs(sign*coef[q]-sv[1]) > 1e-9 {
				t.Errorf("pair %v: SV %d is row %d coef %.12g, LIBSVM row %d coef %.12g", ref.Labels, q, rows[q], sign*coef[q], int(sv[0]), sv[1])
				break
			}
		}
	}
	if platt {
		if bin.flip == (sign > 0) {
			// LIBSVM's internal orientation is ours flipped exactly
			// when its first label is our −1.
			t.Errorf("pair %v: orientation differs from LIBSVM's", ref.Labels)
		}
		if math.Abs(bin.probA-ref.ProbA) > 1e-9*math.Max(1, math.Abs(ref.ProbA)) || math.Abs(bin.probB-ref.ProbB) > 1e-9*math.Max(1, math.Abs(ref.ProbB)) {
			t.Errorf("pair %v: Platt A, B = %.12g, %.12g, LIBSVM %.12g, %.12g", ref.Labels, bin.probA, bin.probB, ref.ProbA, ref.ProbB)
		}
	}
	for i := range refDec {
		if d := math.Abs(sign*dec(i) - refDec[i][p]); d > 1e-9 {
			t.Errorf("pair %v test row %d: decision %.12g, LIBSVM %.12g", ref.Labels, i, sign*dec(i), refDec[i][p])
			break
		}
	}
}

// TestLibsvmParity trains every case's one-vs-one pairs as binary
// problems (as our ovo reduction does) and compares each with LIBSVM's
// (checkPair; Platt's fit only for the pair svm-train fits first: each
// binary problem draws a fresh rand() stream, svm-train one stream for
// all its pairs); LIBSVM's vote over our decision values predicts
// svm-predict's labels.
func TestLibsvmParity(t *testing.T) {
	cases := loadLibsvmRef(t)
	for ci := range cases {
		c := &cases[ci]
		t.Run(c.Name, func(t *testing.T) {
			xtr, ytr, xte, _ := scaledSplit(t, c.Data)
			k := len(c.Labels)
			opt := caseOptions(c)
			ps, pairs := pairProblems(ytr, k, caseWeight(c))
			models, err := Train(context.Background(), NewDense(xtr), ps, opt, 2)
			if err != nil {
				t.Fatal(err)
			}
			nte, _ := xte.Dims()
			scores := mat.NewDense(nte, len(models), nil)
			if err := Predict(context.Background(), models, NewDense(xte), scores, nil); err != nil {
				t.Fatal(err)
			}
			for p, ref := range c.Pairs {
				a, b := min(ref.Labels[0], ref.Labels[1])-1, max(ref.Labels[0], ref.Labels[1])-1
				j := slices.Index(pairs, [2]int{a, b})
				checkPair(t, models[j].bin, ref, func(i int) float64 { return scores.At(i, j) }, c.Decision, p, opt.Probability && p == 0)
			}
			if opt.Probability {
				return // svm-predict -b 1 predicts by probability
			}
			// LIBSVM's vote, ties to the first label in its order.
			for i := range nte {
				votes := make([]int, k)
				for _, ref := range c.Pairs {
					a, b := ref.Labels[0]-1, ref.Labels[1]-1
					s := 1.0
					if a > b {
						a, b, s = b, a, -1
					}
					if s*scores.At(i, slices.Index(pairs, [2]int{a, b})) > 0 {
						votes[ref.Labels[0]-1]++
					} else {
						votes[ref.Labels[1]-1]++
					}
				}
				best := c.Labels[0] - 1
				for _, l := range c.Labels[1:] {
					if votes[l-1] > votes[best] {
						best = l - 1
					}
				}
				if best+1 != c.Predicted[i] {
					t.Errorf("test row %d: vote predicts %d, svm-predict %d", i, best+1, c.Predicted[i])
				}
			}
		})
	}
}

// TestLibsvmMulticlassParity trains each case as one multiclass problem,
// which Train splits into pairs as svm-train does: every pair as LIBSVM's
// (checkPair, Platt's fit included: the pairs draw svm-train's one rand()
// stream in its order); the largest output is svm-predict's label and, with
// probabilities, the outputs' probabilities are svm-predict -b 1's within
// 1e-9 and their largest its label.
func TestLibsvmMulticlassParity(t *testing.T) {
	cases := loadLibsvmRef(t)
	for ci := range cases {
		c := &cases[ci]
		t.Run(c.Name, func(t *testing.T) {
			xtr, ytr, xte, _ := scaledSplit(t, c.Data)
			k := len(c.Labels)
			opt := caseOptions(c)
			p := Problem{Rows: reftest.Seq(len(ytr)), Classes: ytr, NumClasses: k}
			if len(c.Params.Weights) > 0 {
				for _, cl := range ytr {
					p.Weights = append(p.Weights, caseWeight(c)(cl))
				}
			}
			models, err := Train(context.Background(), NewDense(xtr), []Problem{p}, opt, 2)
			if err != nil {
				t.Fatal(err)
			}
			m := models[0]
			nte, _ := xte.Dims()
			scores, probs := mat.NewDense(nte, k, nil), mat.NewDense(nte, k, nil)
			if err := Predict(context.Background(), models, NewDense(xte), scores, probs); err != nil {
				t.Fatal(err)
			}
			// The pairs' decision values, as Predict computes them.
			dec := mat.NewDense(nte, len(m.pairs), nil)
			for q, bin := range m.pairs {
				if err := bin.set.decisions(context.Background(), m.pairs, []int{q}, NewDense(xte), dec); err != nil {
					t.Fatal(err)
				}
			}
			for q, ref := range c.Pairs {
				a, b := min(ref.Labels[0], ref.Labels[1])-1, max(ref.Labels[0], ref.Labels[1])-1
				j := slices.Index(m.ab, [2]int{a, b})
				checkPair(t, m.pairs[j], ref, func(i int) float64 { return dec.At(i, j) }, c.Decision, q, opt.Probability)
			}
			for i := range nte {
				out := scores.RawRowView(i)
				if opt.Probability {
					out = probs.RawRowView(i)
					for cl, v := range out {
						want := c.Probability[i][slices.Index(c.Labels, cl+1)]
						if math.Abs(v-want) > 1e-9 {
							t.Errorf("test row %d: probability of class %d %.12g, svm-predict -b 1 %.12g", i, cl, v, want)
						}
					}
				}
				if got := slices.Index(out, slices.Max(out)) + 1; got != c.Predicted[i] {
					t.Errorf("test row %d: predicts %d, svm-predict %d (outputs %v)", i, got, c.Predicted[i], out)
				}
			}
		})
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
