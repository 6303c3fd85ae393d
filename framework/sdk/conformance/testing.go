package conformance

import (
	"context"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/internal/client"
	"github.com/polyclass/polyclass/framework/internal/plugintest"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/sdk"
)

// Test serves l in-process and runs every check of the suite on it, each
// as a subtest: a Go plugin's own test is
//
//	func TestConformance(t *testing.T) { conformance.Test(t, myLearner{}, nil) }
//
// params go to every Fit. The cancellation check cannot measure the CPU of
// the test's own process: it checks that the learner answers after a
// cancelled Fit (bench plugin check measures the process).
func Test(t *testing.T, l sdk.Learner, params sdk.Params) {
	t.Helper()
	target := &Target{Client: Connect(t, l), Params: params}
	for _, r := range Run(context.Background(), target) {
		t.Run(r.Check, func(t *testing.T) {
			switch r.Status {
			case Fail:
				t.Error(r.Detail)
			case Skip:
				// Not a skipped test: the check does not apply, which is
				// the answer (the learner lacks the capability).
				t.Log("does not apply: " + r.Detail)
			}
		})
	}
}

// Connect serves l in-process, as host.Register does (the SDK's server on
// an in-memory gRPC connection), and returns the host's client after its
// Info, as the host probes a plugin; the plugin stops when the test ends.
func Connect(t testing.TB, l sdk.Learner) *client.LearnerClient {
	t.Helper()
	c := client.NewLearner(plugintest.Conn(t, sdk.WithLearner(l)), nil)
	if _, err := c.Info(context.Background()); err != nil {
		t.Fatalf("learner %s: %v", l.Info().Name, err)
	}
	return c
}

// ConnectReducer serves r in-process as Connect serves a learner and
// returns the host's client.
func ConnectReducer(t testing.TB, r sdk.Reducer) *client.ReducerClient {
	t.Helper()
	c := client.NewReducer(plugintest.Conn(t, sdk.WithReducer(r)), nil)
	if _, err := c.Info(context.Background()); err != nil {
		t.Fatalf("reducer %s: %v", r.Info().Name, err)
	}
	return c
}

// Blobs uploads the blobs of BlobsMatrix to c and returns the upload and
// the classes.
func Blobs(t *testing.T, c *client.LearnerClient) (*matrix.EncodedMatrix, []int) {
	t.Helper()
	x, y := BlobsMatrix()
	enc := matrix.EncodeMatrix(sdk.Matrix{Dense: x})
	if _, err := c.Ensure(context.Background(), enc); err != nil {
		t.Fatal(err)
	}
	return enc, y
}

// FitBlobs fits the blobs of Blobs with params as one problem of kind:
// sdk.Binary (blob 0 against the two others) or sdk.Multiclass (the three
// blobs as classes 0, 1 and 2), and returns its model; an error fails t.
func FitBlobs(t *testing.T, c *client.LearnerClient, params sdk.Params, kind sdk.ProblemKind) client.ModelRef {
	t.Helper()
	enc, y := Blobs(t, c)
	rows := make([]int, len(y))
	binary, classes := make([]float64, len(y)), make([]float64, len(y))
	for i, k := range y {
		rows[i], classes[i] = i, float64(k)
		if k == 0 {
			binary[i] = 1
		}
	}
	p := sdk.Problem{Kind: kind, Targets: binary}
	if kind == sdk.Multiclass {
		p = sdk.Problem{Kind: kind, Targets: classes, NumClasses: 3}
	}
	models, err := c.Fit(context.Background(), enc.Digest, rows, params, []sdk.Problem{p}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return models[0]
}

// CheckSchema checks that every declared default passes its own spec.
func CheckSchema(t *testing.T, c *client.LearnerClient) sdk.LearnerInfo {
	t.Helper()
	info, err := c.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := checkInfo(info); err != nil {
		t.Error(err)
	}
	return info
}

// CheckBinary trains "class 2 against the rest" of the blobs with params
// and checks that the score's sign separates the training rows.
func CheckBinary(t *testing.T, c *client.LearnerClient, params sdk.Params) {
	t.Helper()
	enc, y := Blobs(t, c)
	scores := fitPredict(t, c, enc, params, binaryProblem(y, 1))
	for i, k := range y {
		if (scores.At(i, 0) > 0) != (k == 1) {
			t.Errorf("binary: row %d score %v, class %d", i, scores.At(i, 0), k)
		}
	}
}

// CheckMulticlass trains the blobs as one native multiclass problem with
// params and checks that the largest score is each row's class.
func CheckMulticlass(t *testing.T, c *client.LearnerClient, params sdk.Params) {
	t.Helper()
	enc, y := Blobs(t, c)
	scores := fitPredict(t, c, enc, params, multiclassProblem(y, 3))
	for i, k := range y {
		if best := argmax(scores.RawRowView(i)); best != k {
			t.Errorf("multiclass: row %d scores %v, class %d", i, scores.RawRowView(i), k)
		}
	}
}

func fitPredict(t *testing.T, c *client.LearnerClient, enc *matrix.EncodedMatrix, params sdk.Params, p sdk.Problem) *mat.Dense {
	t.Helper()
	ctx := context.Background()
	rows := seq(p.Rows())
	models, err := c.Fit(ctx, enc.Digest, rows, params, []sdk.Problem{p}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release(ctx, models)
	scores, _, err := c.Predict(ctx, enc.Digest, rows, models, true)
	if err != nil {
		t.Fatal(err)
	}
	return scores
}

// CheckBorrowedRows checks a learner that borrows its input
// (sdk.InputBorrower): Fit, called in-process with each of params (nil:
// the defaults) on every problem kind the learner declares, binary,
// multiclass and regression, on the blobs of BlobsMatrix (and on them as
// CSR when it declares Sparse), must leave the rows it is given as they
// were, bit for bit, whether it trains or refuses the problem. The SDK
// hands one gather of the rows to every problem that uses them all.
func CheckBorrowedRows(t testing.TB, l sdk.Learner, params ...sdk.Params) {
	t.Helper()
	if b, ok := l.(sdk.InputBorrower); !ok || !b.BorrowsInput() {
		t.Fatalf("%T does not borrow its input", l)
	}
	info := l.Info()
	if len(params) == 0 {
		params = []sdk.Params{nil}
	}
	x, y := BlobsMatrix()
	inputs := map[string]func() sdk.Matrix{"dense": func() sdk.Matrix { return sdk.Matrix{Dense: mat.DenseCopyOf(x)} }}
	if info.Capabilities.Sparse {
		_, csr, _ := wideBlobs()
		inputs["csr"] = func() sdk.Matrix {
			c := *csr // its first 12 rows: BlobsMatrix spread over 5 columns
			c.Rows, c.Indptr, c.Indices, c.Values = len(y), slices.Clone(c.Indptr[:len(y)+1]), slices.Clone(c.Indices), slices.Clone(c.Values)
			return sdk.Matrix{CSR: &c}
		}
	}
	binary, values := make([]float64, len(y)), make([]float64, len(y))
	for i, c := range y {
		binary[i], values[i] = float64(2*min(c, 1)-1), float64(c)
	}
	var problems []sdk.FitInput
	if info.Capabilities.Binary {
		problems = append(problems, sdk.FitInput{Kind: sdk.Binary, Targets: binary, Seed: 1})
	}
	if info.Capabilities.Multiclass {
		problems = append(problems, sdk.FitInput{Kind: sdk.Multiclass, Classes: y, NumClasses: 3, Seed: 1})
	}
	if info.Capabilities.Regression {
		problems = append(problems, sdk.FitInput{Kind: sdk.Regression, Targets: values, Seed: 1})
	}
	for name, input := range inputs {
		for _, p := range params {
			for _, in := range problems {
				in.X = input()
				if _, err := l.Fit(context.Background(), in, sdk.WithDefaults(info.Params, p)); err != nil {
					t.Logf("%s, %v, %s: %v (a refusal; the rows are checked all the same)", name, p, in.Kind, err)
				}
				if want := input(); !sameMatrix(in.X, want) {
					t.Errorf("%s, params %v, %s problem: Fit changed the rows it borrowed", name, p, in.Kind)
				}
			}
		}
	}
}

// sameMatrix reports whether a and b hold the same layout, shape and bits.
func sameMatrix(a, b sdk.Matrix) bool {
	if a.CSR != nil || b.CSR != nil {
		if a.CSR == nil || b.CSR == nil {
			return false
		}
		ac, bc := a.CSR, b.CSR
		return ac.Rows == bc.Rows && ac.Cols == bc.Cols && slices.Equal(ac.Indptr, bc.Indptr) && slices.Equal(ac.Indices, bc.Indices) &&
			slices.EqualFunc(ac.Values, bc.Values, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
	}
	return sameBits(a.Dense, b.Dense)
}
