package client

import (
	"context"
	"math/rand/v2"
	"net"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"

	"github.com/polyclass/polyclass/framework/internal/convert"
	"github.com/polyclass/polyclass/framework/internal/plugintest"
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/internal/wire"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/logreg/learner"
)

// serverCalls counts the unary calls a server receives, by method.
type serverCalls struct {
	mu    sync.Mutex
	calls map[string]int
}

// intercept counts each unary call the client makes (a client
// interceptor: the SDK's servers take none).
func (c *serverCalls) intercept(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoke grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	c.mu.Lock()
	c.calls[method]++
	c.mu.Unlock()
	return invoke(ctx, method, req, reply, cc, opts...)
}

// take returns and resets the number of calls of a learner method.
func (c *serverCalls) take(method string) int { return c.takeService("LearnerService", method) }

// takeService returns and resets the number of calls of a method of a
// service.
func (c *serverCalls) takeService(service, method string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	full := "/polyclass.plugin.v1." + service + "/" + method
	n := c.calls[full]
	delete(c.calls, full)
	return n
}

// serveLogreg serves the logreg learner in-process and returns a client and
// the server's call counter.
func serveLogreg(t *testing.T) (*LearnerClient, *serverCalls) {
	conn, calls := servePlugin(t, sdk.WithLearner(learner.New()))
	return NewLearnerClient(conn), calls
}

// servePlugin serves what opts give with sdk.Serve in-process and returns
// a connection to it, dialled as the host dials plugins, and the server's
// call counter.
func servePlugin(t *testing.T, opts ...sdk.ServeOption) (*grpc.ClientConn, *serverCalls) {
	t.Helper()
	calls := &serverCalls{calls: map[string]int{}}
	conn := plugintest.Dial(t, []grpc.DialOption{grpc.WithUnaryInterceptor(calls.intercept)}, opts...)
	return conn, calls
}

// serveConn serves the services register adds to a gRPC server (with the
// plugins' server options and opts) on an in-memory connection, and
// returns a connection to it, dialled as the host dials plugins.
func serveConn(t *testing.T, name string, register func(*grpc.Server) error, opts ...grpc.ServerOption) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer(append(wire.ServerOptions(), opts...)...)
	if err := register(srv); err != nil {
		t.Fatal(err)
	}
	go srv.Serve(lis) //nolint:errcheck // ends with Stop
	t.Cleanup(srv.Stop)
	dial := func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }
	conn, err := grpc.NewClient("passthrough:///"+name, append(dialOptions(),
		grpc.WithContextDialer(dial), grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// A batch of problems and a Predict over many rows that exceed a tiny
// message bound go in several calls, and give the scores of one call bit
// for bit.
func TestFitAndPredictSplitUnderMessageBound(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	const n, d, nProblems = 200, 4, 12
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	rows := make([]int, 150)
	for i := range rows {
		rows[i] = i
	}
	test := make([]int, n)
	for i := range test {
		test[i] = n - 1 - i
	}
	problems := make([]sdk.Problem, nProblems)
	for k := range problems {
		t := make([]float64, len(rows))
		for i, r := range rows {
			t[i] = -1
			if x.At(r, k%d)+0.1*float64(k) > 0 {
				t[i] = 1
			}
		}
		problems[k] = sdk.Problem{Kind: sdk.Binary, Targets: t, Seed: uint64(k)}
	}
	enc := matrix.EncodeMatrix(sdk.Matrix{Dense: x})

	c, calls := serveLogreg(t)
	if _, err := c.Ensure(ctx, enc); err != nil {
		t.Fatal(err)
	}
	fit := func() ([]ModelRef, *mat.Dense, *mat.Dense) {
		models, err := c.Fit(ctx, enc.Digest, rows, sdk.Params{"C": sdk.Number(1)}, problems, 0)
		if err != nil {
			t.Fatal(err)
		}
		scores, probs, err := c.Predict(ctx, enc.Digest, test, models, true)
		if err != nil {
			t.Fatal(err)
		}
		return models, scores, probs
	}
	models, scores, probs := fit()
	if f, p := calls.take("Fit"), calls.take("Predict"); f != 1 || p != 1 {
		t.Fatalf("under the default bound: %d Fit and %d Predict calls, want 1 and 1", f, p)
	}
	// A problem's request is about 150 × 8 bytes of targets; 4 KiB holds
	// three of them, and 40 rows × 12 models × 16 bytes of scores and
	// probabilities overflow it too.
	c.MaxMessageBytes = 4 << 10
	split, sScores, sProbs := fit()
	if f, p := calls.take("Fit"), calls.take("Predict"); f != 4 || p != 10 {
		t.Errorf("under a 4 KiB bound: %d Fit and %d Predict calls, want 4 and 10", f, p)
	}
	if len(split) != len(models) {
		t.Fatalf("%d models, want %d", len(split), len(models))
	}
	for _, pair := range [][2]*mat.Dense{{scores, sScores}, {probs, sProbs}} {
		if !mat.Equal(pair[0], pair[1]) {
			t.Fatalf("split calls changed the scores:\n%v\nwant\n%v", mat.Formatted(pair[1]), mat.Formatted(pair[0]))
		}
	}
	if r, cols := sScores.Dims(); r != n || cols != nProblems {
		t.Fatalf("scores %d×%d, want %d×%d", r, cols, n, nProblems)
	}
	c.MaxMessageBytes = 512
	if _, err := c.Fit(ctx, enc.Digest, rows, nil, problems, 0); err == nil {
		t.Error("a problem larger than the bound was sent")
	}
}

// fitParts sizes a Fit request exactly as it goes on the wire in dense
// form (compact targets as the dense ones they stand for), its threads
// included: a bound of the request's size keeps it whole, one byte less
// splits it.
func TestFitPartsSizesTheRequest(t *testing.T) {
	rows := []int{0, 5, 300, 1 << 20}
	problems := []sdk.Problem{
		{Kind: sdk.Multiclass, NumClasses: 3, Targets: []float64{0, sdk.NotUsed, 2, 1}, Seed: 7},
		{Kind: sdk.Binary, Targets: []float64{1, -1, 0, 1}, Weights: []float64{1, 2, 3, 4}},
		{Kind: sdk.Binary, Compact: &sdk.CompactTargets{Groups: []int32{0, 1, 1, 2}, Code: []int8{1, -1, 0}}},
	}
	params := sdk.Params{"C": sdk.Number(2)}
	const threads = 300 // a 2-byte varint
	req := &pb.FitRequest{Digest: "abc", Rows: convert.Ints[int64](rows), Params: convert.ParamsToPB(params), Threads: threads}
	for _, p := range problems {
		req.Problems = append(req.Problems, convert.ProblemToPB(p))
	}
	size := proto.Size(req)
	if len(req.Problems[2].GetTargets()) != 4 {
		t.Fatalf("compact problem's dense message: targets %v", req.Problems[2].GetTargets())
	}
	for _, tc := range []struct{ limit, parts int }{{size, 1}, {size - 1, 2}} {
		parts, err := fitParts("abc", rows, params, problems, threads, tc.limit)
		if err != nil || len(parts) != tc.parts {
			t.Errorf("bound %d (request %d bytes): %d parts, %v; want %d", tc.limit, size, len(parts), err, tc.parts)
		}
	}
}

// A batch whose dense form exceeds the bound but whose compact form does
// not goes in one call to a learner that reads compact targets, and gives
// the scores of the dense batch split in three.
func TestCompactBatchGoesWhole(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	const n, d, K = 150, 3, 3
	x := mat.NewDense(n, d, nil)
	labels := make([]int, n)
	for i := range n {
		labels[i] = i % K
		for j := range d {
			x.Set(i, j, rng.NormFloat64()+float64(labels[i]*j))
		}
	}
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	problems := make([]sdk.Problem, K)
	for k := range problems {
		t := make([]float64, n)
		for i, y := range labels {
			t[i] = -1
			if y == k {
				t[i] = 1
			}
		}
		problems[k] = sdk.Problem{Kind: sdk.Binary, Targets: t, Seed: uint64(k)}
	}
	enc := matrix.EncodeMatrix(sdk.Matrix{Dense: x})
	fit := func(info bool) (*mat.Dense, int) {
		c, calls := serveLogreg(t)
		if info {
			if _, err := c.Info(ctx); err != nil {
				t.Fatal(err)
			}
		}
		// 150 rows × 8 bytes of targets per problem: at most one
		// problem per call in dense form, the whole batch in compact form.
		c.MaxMessageBytes = 1600
		if _, err := c.Ensure(ctx, enc); err != nil {
			t.Fatal(err)
		}
		models, err := c.Fit(ctx, enc.Digest, rows, sdk.Params{"C": sdk.Number(1)}, problems, 0)
		if err != nil {
			t.Fatal(err)
		}
		scores, _, err := c.Predict(ctx, enc.Digest, rows[:20], models, false)
		if err != nil {
			t.Fatal(err)
		}
		return scores, calls.take("Fit")
	}
	dense, denseCalls := fit(false)
	compact, compactCalls := fit(true)
	if denseCalls != K || compactCalls != 1 {
		t.Errorf("%d Fit calls dense, %d compact; want %d and 1", denseCalls, compactCalls, K)
	}
	if !mat.Equal(dense, compact) {
		t.Errorf("compact scores\n%v\nwant\n%v", mat.Formatted(compact), mat.Formatted(dense))
	}
}
