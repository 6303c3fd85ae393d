package learner

import (
	"context"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/framework/sdk/conformance"
	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// TestProtocol trains every method through the protocol: the binary ones
// on a binary problem, Crammer–Singer on a native multiclass one.
func TestProtocol(t *testing.T) {
	c := conformance.Connect(t, learner{})
	conformance.CheckSchema(t, c)
	for _, p := range []sdk.Params{
		{"C": sdk.Number(10)},
		{"loss": sdk.String("squared_hinge")},
		{"method": sdk.String("perceptron")},
		{"method": sdk.String("pocket")},
	} {
		conformance.CheckBinary(t, c, p)
	}
	conformance.CheckMulticlass(t, c, sdk.Params{"method": sdk.String("crammer_singer"), "C": sdk.Number(10)})
	// The default method hands native multiclass problems to Crammer–Singer.
	conformance.CheckMulticlass(t, c, sdk.Params{"C": sdk.Number(10)})

	// The perceptron is binary only: a native multiclass problem is refused.
	enc, y := conformance.Blobs(t, c)
	rows := make([]int, len(y))
	classes := make([]float64, len(y))
	for i, k := range y {
		rows[i], classes[i] = i, float64(k)
	}
	params := sdk.Params{"method": sdk.String("perceptron")}
	if _, err := c.Fit(context.Background(), enc.Digest, rows, params, []sdk.Problem{{Kind: sdk.Multiclass, Targets: classes, NumClasses: 3}}, 0); err == nil {
		t.Error("the perceptron accepted a multiclass problem")
	}
}

// TestConformance runs the protocol conformance suite in-process.
func TestConformance(t *testing.T) { conformance.Test(t, learner{}, nil) }

// TestBorrowedRowsStayUnchanged: svm borrows its input (BorrowsInput), so
// no method may write into the rows it is given.
func TestBorrowedRowsStayUnchanged(t *testing.T) {
	conformance.CheckBorrowedRows(t, learner{}, nil, sdk.Params{"method": sdk.String("crammer_singer")}, sdk.Params{"method": sdk.String("perceptron")}, sdk.Params{"method": sdk.String("pocket")}, sdk.Params{"loss": sdk.String("hinge")})
}

// kernelParams are parameters of each kernel, and of Platt scaling.
var kernelParams = []sdk.Params{
	{"kernel": sdk.String("rbf"), "C": sdk.Number(10)},
	{"kernel": sdk.String("poly"), "degree": sdk.Number(2), "gamma": sdk.Number(0.5), "coef0": sdk.Number(1)},
	{"kernel": sdk.String("sigmoid"), "gamma": sdk.Number(0.05)},
	{"kernel": sdk.String("linear"), "method": sdk.String("smo")},
	{"kernel": sdk.String("rbf"), "probability": sdk.Bool(true), "shrinking": sdk.Bool(false)},
}

// TestKernelProtocol trains the kernels through the protocol on binary
// and native multiclass problems; a linear method with another kernel is
// refused, blaming the method.
func TestKernelProtocol(t *testing.T) {
	c := conformance.Connect(t, learner{})
	for _, p := range kernelParams {
		conformance.CheckBinary(t, c, p)
		conformance.CheckMulticlass(t, c, p)
	}
	enc, y := conformance.Blobs(t, c)
	rows := make([]int, len(y))
	targets := make([]float64, len(y))
	for i, k := range y {
		rows[i], targets[i] = i, float64(min(k, 1)*2-1)
	}
	p := sdk.Params{"kernel": sdk.String("rbf"), "method": sdk.String("pocket")}
	_, err := c.Fit(context.Background(), enc.Digest, rows, p, []sdk.Problem{{Kind: sdk.Binary, Targets: targets}}, 0)
	if err == nil || !strings.Contains(err.Error(), "method") {
		t.Errorf("method pocket under kernel rbf: %v, want an error naming the method", err)
	}
}

// TestKernelConformance runs the conformance suite with the rbf kernel,
// with and without probabilities.
func TestKernelConformance(t *testing.T) {
	conformance.Test(t, learner{}, kernelParams[0])
	conformance.Test(t, learner{}, kernelParams[4])
}

// TestKernelBatchIsFit: a model of a shared fit is the model Fit gives for
// its problem alone, and a batch prediction gives each model's scores and
// probabilities bit for bit as the model alone.
func TestKernelBatchIsFit(t *testing.T) {
	ctx := context.Background()
	ds := reftest.Load(t, "iris")
	x := ds.Standardized()
	n, _ := x.Dims()
	var ins []sdk.FitInput
	var rows [][]int
	for a := range 3 {
		for b := a + 1; b < 3; b++ {
			in := sdk.FitInput{Kind: sdk.Binary}
			var r []int
			for i, c := range ds.Y {
				if c == a || c == b {
					r = append(r, i)
					in.Targets = append(in.Targets, map[bool]float64{true: 1, false: -1}[c == a])
				}
			}
			ins, rows = append(ins, in), append(rows, r)
		}
	}
	p := sdk.WithDefaults(learner{}.Info().Params, sdk.Params{"kernel": sdk.String("rbf"), "probability": sdk.Bool(true)})
	l := learner{}
	all := sdk.Matrix{Dense: x}
	shared, err := l.FitShared(ctx, all, ins, rows, p, 2)
	if err != nil {
		t.Fatal(err)
	}
	batch, bprobs := mat.NewDense(n, len(shared), nil), mat.NewDense(n, len(shared), nil)
	if err := l.PredictBatch(ctx, shared, all, batch, bprobs); err != nil {
		t.Fatal(err)
	}
	for j, in := range ins {
		sub := mat.NewDense(len(rows[j]), 4, nil)
		for k, i := range rows[j] {
			sub.SetRow(k, x.RawRowView(i))
		}
		in.X = sdk.Matrix{Dense: sub}
		alone, err := l.Fit(ctx, in, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []sdk.Model{alone, shared[j]} {
			s, pr := mat.NewDense(n, 1, nil), mat.NewDense(n, 1, nil)
			if err := m.Predict(ctx, all, s, pr); err != nil {
				t.Fatal(err)
			}
			for i := range n {
				if s.At(i, 0) != batch.At(i, j) || pr.At(i, 0) != bprobs.At(i, j) {
					t.Fatalf("problem %d row %d: score %v probability %v, batch %v %v", j, i, s.At(i, 0), pr.At(i, 0), batch.At(i, j), bprobs.At(i, j))
				}
			}
		}
	}
}
