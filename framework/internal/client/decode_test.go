package client

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"google.golang.org/protobuf/proto"

	"github.com/polyclass/polyclass/framework/internal/convert"
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
)

// takeReducer returns and resets the number of calls of a reducer method.
func (c *serverCalls) takeReducer(method string) int { return c.takeService("ReducerService", method) }

// serveReducers serves the shipped reducers in-process and returns a
// client and the server's call counter.
func serveReducers(t *testing.T) (*ReducerClient, *serverCalls) {
	conn, calls := servePlugin(t, sdk.WithReducer(reducer.New()))
	return NewReducerClient(conn), calls
}

// randomDense is an r × c matrix of standard normal values.
func randomDense(rng *rand.Rand, r, c int) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := range r {
		for j := range c {
			m.Set(i, j, rng.NormFloat64())
		}
	}
	return m
}

// sameDecoding fails unless a and b are identical bit for bit.
func sameDecoding(t *testing.T, a, b sdk.Decoding) {
	t.Helper()
	if !slices.Equal(a.Predicted, b.Predicted) || a.Ties != b.Ties {
		t.Fatalf("predictions or ties (%d, %d) differ", a.Ties, b.Ties)
	}
	if a.ClassScoresAreProbabilities != b.ClassScoresAreProbabilities {
		t.Fatalf("class scores are probabilities: %v vs %v", a.ClassScoresAreProbabilities, b.ClassScoresAreProbabilities)
	}
	for _, m := range [][2]*mat.Dense{{a.ClassScores, b.ClassScores}, {a.LabelMatrix, b.LabelMatrix}} {
		if (m[0] == nil) != (m[1] == nil) {
			t.Fatal("a matrix is missing on one side")
		}
		if m[0] == nil {
			continue
		}
		x, y := m[0].RawMatrix(), m[1].RawMatrix()
		if x.Rows != y.Rows || x.Cols != y.Cols {
			t.Fatalf("%d×%d vs %d×%d", x.Rows, x.Cols, y.Rows, y.Cols)
		}
		for i := range x.Rows {
			for j := range x.Cols {
				if math.Float64bits(m[0].At(i, j)) != math.Float64bits(m[1].At(i, j)) {
					t.Fatalf("entry (%d,%d): %v vs %v", i, j, m[0].At(i, j), m[1].At(i, j))
				}
			}
		}
	}
}

// A Decode request over a small message bound goes in runs of test rows,
// each with the state and the training scores (coverage decoding needs
// them), and gives the answer of one call bit for bit.
func TestDecodeSplitUnderMessageBound(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6))
	const K, nTrain, nTest = 5, 60, 500
	labels := make([]int, nTrain)
	for i := range labels {
		labels[i] = i % K
	}
	c, calls := serveReducers(t)
	for _, tt := range []struct {
		scheme, decode string
		probs          bool
	}{
		{"ova", "argmax", true},
		{"ovo", "vote", false},
		{"ecoc", "coverage", false},
	} {
		t.Run(tt.scheme+"/"+tt.decode, func(t *testing.T) {
			params := sdk.Params{"decode": sdk.String(tt.decode)}
			if tt.scheme == "ecoc" {
				params["code"] = sdk.String("random_dense")
			}
			plan, err := c.Plan(ctx, sdk.PlanRequest{Scheme: tt.scheme, Params: params, NumClasses: K, Labels: labels, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			L := len(plan.Problems)
			req := sdk.DecodeRequest{Scheme: tt.scheme, Params: params, State: plan.State, Scores: randomDense(rng, nTest, L)}
			if tt.probs {
				req.Probabilities = mat.NewDense(nTest, L, nil)
				req.Probabilities.Apply(func(_, _ int, v float64) float64 { return 1 / (1 + math.Exp(-v)) }, req.Scores)
			}
			if plan.NeedsTrainingScores {
				req.TrainingScores = randomDense(rng, nTrain, L)
			}
			c.MaxMessageBytes = 0
			whole, err := c.Decode(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if n := calls.takeReducer("Decode"); n != 1 {
				t.Fatalf("under the default bound: %d Decode calls, want 1", n)
			}
			// A bound that holds the request of 100 test rows: 5 calls.
			c.MaxMessageBytes = newDecodeSizer(req).size(100)
			parts, err := c.Decode(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if n := calls.takeReducer("Decode"); n != 5 {
				t.Fatalf("under a %d-byte bound: %d Decode calls, want 5", c.MaxMessageBytes, n)
			}
			sameDecoding(t, whole, parts)
			// argmax passes the learner's probabilities on, and says so
			// through the protocol and the joined parts.
			if whole.ClassScoresAreProbabilities != tt.probs {
				t.Errorf("class scores are probabilities: %v, want %v", whole.ClassScoresAreProbabilities, tt.probs)
			}
			if whole.Ties == 0 && tt.scheme != "ova" {
				t.Fatal("no ties: the test does not see them summed")
			}
		})
	}
	// The client asked for Info once, to learn that the schemes are row-wise.
	if n := calls.takeReducer("Info"); n != 1 {
		t.Errorf("%d Info calls, want 1", n)
	}
}

// An answer over the bound (br's class scores and label matrix take twice
// the bytes of its scores) is decoded again in halves.
func TestDecodeSplitsAnswerOverBound(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 8))
	const K, nTrain, nTest = 6, 40, 400
	y := mat.NewDense(nTrain, K, nil)
	for i := range nTrain {
		y.Set(i, i%K, 1)
		y.Set(i, (i+1)%K, 1)
	}
	c, calls := serveReducers(t)
	plan, err := c.Plan(ctx, sdk.PlanRequest{Scheme: "br", NumClasses: K, LabelMatrix: y})
	if err != nil {
		t.Fatal(err)
	}
	req := sdk.DecodeRequest{Scheme: "br", State: plan.State, Scores: randomDense(rng, nTest, K)}
	whole, err := c.Decode(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	calls.takeReducer("Decode")
	c.MaxMessageBytes = newDecodeSizer(req).size(nTest) // the request fits, its answer does not
	halves, err := c.Decode(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	// The whole (its answer too big), then two halves.
	if n := calls.takeReducer("Decode"); n != 3 {
		t.Errorf("%d Decode calls, want 3", n)
	}
	sameDecoding(t, whole, halves)
}

// A scheme that does not declare row-wise decoding, and a single row too
// big for the bound, fail with errors naming the scheme and the sizes,
// without a Decode call.
func TestDecodeOverBoundErrors(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(9, 10))
	const K, nTrain, nTest = 6, 40, 300
	y := mat.NewDense(nTrain, K, nil)
	for i := range nTrain {
		y.Set(i, i%K, 1)
		y.Set(i, (i*7)%K, 1)
	}
	c, calls := serveReducers(t)
	params := sdk.Params{"components": sdk.Number(3)}
	plan, err := c.Plan(ctx, sdk.PlanRequest{Scheme: "plst", Params: params, NumClasses: K, LabelMatrix: y})
	if err != nil {
		t.Fatal(err)
	}
	req := sdk.DecodeRequest{Scheme: "plst", Params: params, State: plan.State, Scores: randomDense(rng, nTest, 3)}
	c.MaxMessageBytes = 2000
	_, err = c.Decode(ctx, req)
	if err == nil || !strings.Contains(err.Error(), "decode plst") || !strings.Contains(err.Error(), "row-wise") ||
		!strings.Contains(err.Error(), "300 test rows × 3 problems") || !strings.Contains(err.Error(), "2000-byte") {
		t.Errorf("plst over the bound: error %v", err)
	}

	labels := make([]int, nTrain)
	for i := range labels {
		labels[i] = i % K
	}
	plan, err = c.Plan(ctx, sdk.PlanRequest{Scheme: "ovo", NumClasses: K, Labels: labels})
	if err != nil {
		t.Fatal(err)
	}
	req = sdk.DecodeRequest{Scheme: "ovo", State: plan.State, Scores: randomDense(rng, nTest, len(plan.Problems))}
	c.MaxMessageBytes = 100 // 15 problems: 120 bytes of scores a row
	_, err = c.Decode(ctx, req)
	if err == nil || !strings.Contains(err.Error(), "decode ovo: one test row of 15 problems") || !strings.Contains(err.Error(), "100-byte") {
		t.Errorf("one row over the bound: error %v", err)
	}
	if n := calls.takeReducer("Decode"); n != 0 {
		t.Errorf("%d Decode calls, want 0", n)
	}
}

// decodeSizer sizes a request exactly as proto.Size does the message.
func TestDecodeSizerExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, tt := range []struct {
		n, l, train  int
		probs, state bool
	}{
		{1, 1, 0, false, false}, {17, 3, 0, true, true}, {300, 45, 1000, true, true}, {20000, 26, 0, false, true}, {5, 200, 7, false, false},
	} {
		req := sdk.DecodeRequest{Scheme: "ecoc", Params: sdk.Params{"decode": sdk.String("hamming"), "length": sdk.Number(30)}, Scores: mat.NewDense(tt.n, tt.l, nil)}
		if tt.probs {
			req.Probabilities = mat.NewDense(tt.n, tt.l, nil)
		}
		if tt.state {
			req.State = make([]byte, rng.IntN(5000))
		}
		if tt.train > 0 {
			req.TrainingScores = mat.NewDense(tt.train, tt.l, nil)
		}
		for _, k := range []int{1, tt.n / 2, tt.n} {
			if k == 0 {
				continue
			}
			msg := &pb.DecodeRequest{
				Scheme: req.Scheme, Params: convert.ParamsToPB(req.Params), State: req.State,
				Scores: convert.DenseToPB(rowRange(req.Scores, 0, k)), Probabilities: convert.DenseToPB(rowRange(req.Probabilities, 0, k)),
				TrainingScores: convert.DenseToPB(req.TrainingScores),
			}
			if got, want := newDecodeSizer(req).size(k), proto.Size(msg); got != want {
				t.Errorf("%+v, %d rows: sized %d bytes, proto.Size %d", tt, k, got, want)
			}
		}
	}
}
