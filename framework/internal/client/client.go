package client

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyclass/polyclass/framework/internal/convert"
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/internal/wire"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/problem"
	"github.com/polyclass/polyclass/framework/sharedmem"
)

// LearnerClient is the host's handle on a learner plugin. Every method
// passes the caller's context to the RPC.
type LearnerClient struct {
	rpc pb.LearnerServiceClient
	// MaxMessageBytes bounds the requests and responses of Fit and Predict,
	// which split their work to stay within it; 0 means wire.MaxMessageSize.
	MaxMessageBytes int
	// codeTargets: the plugin reads compact targets (Info said so), and
	// Fit sends them when the problems have that form.
	codeTargets atomic.Bool
	// shared is the segment the host shares with the plugin (nil: none),
	// which Predict offers for its answer once Info said the plugin uses
	// it (useShared).
	shared    *sharedmem.Segment
	useShared atomic.Bool
}

// Info asks the plugin to describe itself.
func (c *LearnerClient) Info(ctx context.Context) (plugin.LearnerInfo, error) {
	r, err := c.rpc.Info(ctx, &pb.InfoRequest{}, grpc.MaxCallRecvMsgSize(MaxInfoSize))
	if err != nil {
		return plugin.LearnerInfo{}, infoErr("learner info", err)
	}
	c.codeTargets.Store(r.GetCodeTargets())
	c.useShared.Store(r.GetSharedMemory() && c.shared != nil)
	return convert.LearnerInfoFromPB(r), nil
}

// Missing returns the digests the plugin does not hold.
func (c *LearnerClient) Missing(ctx context.Context, digests ...string) ([]string, error) {
	r, err := c.rpc.Has(ctx, &pb.HasRequest{Digests: digests})
	if err != nil {
		return nil, rpcErr("learner has", err)
	}
	return r.GetMissing(), nil
}

// Upload streams m to the plugin in chunks of at most matrix.ChunkSize bytes.
func (c *LearnerClient) Upload(ctx context.Context, m *matrix.EncodedMatrix) error {
	stream, err := c.rpc.Upload(ctx)
	if err != nil {
		return fmt.Errorf("upload %s: %w", m.Digest, err)
	}
	// The first message carries the header, even for an empty matrix.
	first := true
	send := func(p []byte) error {
		msg := &pb.UploadChunk{Data: p}
		if first {
			msg.Header, first = convert.Header(m), false
		}
		return stream.Send(msg)
	}
	err = m.EachChunk(send)
	if err == nil && first {
		err = send(nil)
	}
	if err != nil {
		// The server's status says why; CloseAndRecv returns it.
		if _, rerr := stream.CloseAndRecv(); rerr != nil {
			err = rerr
		}
		return rpcErr("upload "+m.Digest, err)
	}
	if _, err := stream.CloseAndRecv(); err != nil {
		return rpcErr("upload "+m.Digest, err)
	}
	return nil
}

// Ensure uploads m unless the plugin already holds it, and reports whether
// it uploaded.
func (c *LearnerClient) Ensure(ctx context.Context, m *matrix.EncodedMatrix) (bool, error) {
	missing, err := c.Missing(ctx, m.Digest)
	if err != nil {
		return false, err
	}
	if len(missing) == 0 {
		return false, nil
	}
	return true, c.Upload(ctx, m)
}

// ModelRef names a model trained in a plugin.
type ModelRef struct {
	Handle  string
	Outputs int
	// NotConverged: the plugin says the fit stopped at its iteration
	// bound before its stopping rule was met.
	NotConverged bool
}

// fitOnce trains problems on the given rows of dataset digest in one call.
func (c *LearnerClient) fitOnce(ctx context.Context, digest string, rows []int, params plugin.Params, problems []plugin.Problem, threads uint32) ([]ModelRef, error) {
	req := &pb.FitRequest{Digest: digest, Rows: convert.Ints[int64](rows), Params: convert.ParamsToPB(params), Threads: threads}
	req.Problems, req.RowGroups = convert.ProblemsToPB(problems, c.codeTargets.Load())
	return c.fitRequest(ctx, req, len(problems))
}

// fitRequest sends a Fit request of n problems.
func (c *LearnerClient) fitRequest(ctx context.Context, req *pb.FitRequest, n int) ([]ModelRef, error) {
	r, err := c.rpc.Fit(ctx, req)
	if err != nil {
		return nil, rpcErr("fit", err)
	}
	if len(r.GetModels()) != n {
		return nil, fmt.Errorf("fit: %d models for %d problems", len(r.GetModels()), n)
	}
	out := make([]ModelRef, len(r.GetModels()))
	for i, m := range r.GetModels() {
		out[i] = ModelRef{Handle: m.GetHandle(), Outputs: int(m.GetOutputs()), NotConverged: m.GetNotConverged()}
	}
	return out, nil
}

// predictOnce returns the rows × Σ outputs score matrix of the models on
// rows of dataset digest, and the probabilities when asked for and
// available, from one call.
func (c *LearnerClient) predictOnce(ctx context.Context, digest string, rows []int, models []ModelRef, probabilities bool) (scores, probs *mat.Dense, err error) {
	handles := make([]string, len(models))
	for i, m := range models {
		handles[i] = m.Handle
	}
	req := &pb.PredictRequest{Digest: digest, Rows: convert.Ints[int64](rows), Handles: handles, Probabilities: probabilities}
	out, ok := c.offerRegion(len(rows), models, probabilities)
	if ok {
		req.Output = convert.RegionToPB(out)
	}
	r, err := c.rpc.Predict(ctx, req)
	if ok {
		// After a failed call the plugin may still be writing the answer.
		defer endRegion(c.shared, out, err)
	}
	if err != nil {
		return nil, nil, rpcErr("predict", err)
	}
	if scores, err = c.answer(r.GetScores(), out, ok); err != nil {
		return nil, nil, fmt.Errorf("predict: scores: %w", err)
	}
	if probs, err = c.answer(r.GetProbabilities(), out, ok); err != nil {
		return nil, nil, fmt.Errorf("predict: probabilities: %w", err)
	}
	if err := checkPredictions(scores, probs, rows, models); err != nil {
		return nil, nil, fmt.Errorf("predict: %w", err)
	}
	return scores, probs, nil
}

// offerRegion allocates the region of the shared segment a Predict call
// offers for its answer: room for the rows × Σ outputs scores and, when
// asked for, as many probabilities; ok is false when the plugin does not
// use the segment or it has no such room (the answer then comes inline).
func (c *LearnerClient) offerRegion(rows int, models []ModelRef, probabilities bool) (sharedmem.Region, bool) {
	if !c.useShared.Load() {
		return sharedmem.Region{}, false
	}
	outputs := 0
	for _, m := range models {
		outputs += m.Outputs
	}
	n := 8 * rows * outputs
	if probabilities {
		n *= 2
	}
	return c.shared.Alloc(n)
}

// endRegion ends the use of a region a call placed matrices in: freed
// when the call succeeded, forfeited when it failed (its plugin may still
// be using it; see sharedmem.Segment.Forfeit).
func endRegion(seg *sharedmem.Segment, r sharedmem.Region, callErr error) {
	if callErr != nil {
		seg.Forfeit(r)
		return
	}
	seg.Free(r)
}

// answer decodes a matrix of a Predict response: inline, or (a copy of)
// the values the plugin wrote into the region the call offered, out,
// which must hold them; the region is freed when the call returns.
func (c *LearnerClient) answer(d *pb.Dense, out sharedmem.Region, offered bool) (*mat.Dense, error) {
	if d.GetShared() == nil {
		return convert.DenseFromPB(d)
	}
	if !offered {
		return nil, errors.New("the answer names a shared memory region, and the call offered none")
	}
	r, err := convert.RegionFromPB(d.GetShared())
	if err != nil {
		return nil, err
	}
	if !r.Within(out) {
		return nil, fmt.Errorf("the answer's shared region [%d, +%d) is outside the region [%d, +%d) the call offered", r.Offset, r.Length, out.Offset, out.Length)
	}
	view, err := convert.DenseFromShared(c.shared, d)
	if err != nil || view == nil {
		return view, err
	}
	return mat.DenseCopyOf(view), nil
}

// probSlack is how far outside [0, 1] a probability may stray by rounding
// (a softmax summing to 1 + 2⁻⁵² in one entry) and still be taken.
const probSlack = 1e-9

// finiteScores checks the scores of one model on row i of the request,
// row of the dataset's matrix matrixRow, scores: finite, but for −∞ in a
// multiclass model's class column (a class without training rows, whose
// prior is 0), as long as some class of the row is finite. A NaN or +∞
// score (a model answering +∞ for every row would tie every class) is an
// error naming the row (in the request and in the matrix) and the column.
func finiteScores(scores []float64, i, matrixRow int) error {
	finite := false
	for col, v := range scores {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 1) || (math.IsInf(v, -1) && len(scores) == 1):
			return fmt.Errorf("score %d of row %d of the request (matrix row %d) is %v: scores must be finite numbers", col, i, matrixRow, v)
		case !math.IsInf(v, -1):
			finite = true
		}
	}
	if !finite && len(scores) > 0 {
		return fmt.Errorf("every score of row %d of the request (matrix row %d) is -Inf: a multiclass model scores −∞ only for classes it cannot predict, not for all", i, matrixRow)
	}
	return nil
}

// allFinite reports whether every value of v is finite: v − v is 0 for a
// finite v and NaN for ±Inf and NaN, and a NaN sum stays NaN.
func allFinite(v []float64) bool {
	var s float64
	for _, x := range v {
		s += x - x
	}
	return s == 0
}

// finiteRow checks row i of the request's scores model by model (see
// finiteScores), naming the model at fault.
func finiteRow(row []float64, i, matrixRow int, models []ModelRef) error {
	for j, first := 0, 0; j < len(models); first, j = first+models[j].Outputs, j+1 {
		if err := finiteScores(row[first:first+models[j].Outputs], i, matrixRow); err != nil {
			return fmt.Errorf("model %d (of %d): %w", j, len(models), err)
		}
	}
	return nil
}

// checkPredictions checks a Predict response before any reducer sees it:
// scores (and probabilities, when present) of rows × Σ outputs, with
// finite scores (see finiteScores) and every probability a number in
// [0, 1]. A learner in any language can break these; the errors name the
// model (its index in the call), the row (its index in the call and in
// the dataset's matrix, rows[i]) and the column of the model at fault.
func checkPredictions(scores, probs *mat.Dense, rowIndex []int, models []ModelRef) error {
	rows := len(rowIndex)
	outputs := 0
	for _, m := range models {
		outputs += m.Outputs
	}
	if scores == nil {
		if rows == 0 {
			return nil // nothing to score: an empty response
		}
		return errors.New("no scores in the response")
	}
	for _, m := range []struct {
		name string
		x    *mat.Dense
	}{{"scores", scores}, {"probabilities", probs}} {
		if m.x == nil {
			continue
		}
		if r, c := m.x.Dims(); r != rows || c != outputs {
			return fmt.Errorf("%s come as %d rows × %d columns, want %d × %d (the rows asked for × the outputs of %d models)", m.name, r, c, rows, outputs, len(models))
		}
	}
	// Scan in memory order (a one-vs-one answer has thousands of columns,
	// one per model); a bad probability is then placed in its model.
	cols := scores.RawMatrix().Cols
	for i, matrixRow := range rowIndex {
		row := scores.RawRowView(i)[:cols]
		// A row of finite scores, the common case, passes finiteScores
		// for every model; one pass tells, without its branches.
		if !allFinite(row) {
			if err := finiteRow(row, i, matrixRow, models); err != nil {
				return err
			}
		}
		if probs == nil {
			continue
		}
		for col, v := range probs.RawRowView(i)[:cols] {
			if !(v >= -probSlack && v <= 1+probSlack) {
				j, c := modelOf(models, col)
				return fmt.Errorf("model %d (of %d): probability %d of row %d of the request (matrix row %d) is %v, not in [0, 1]", j, len(models), c, i, matrixRow, v)
			}
		}
	}
	return nil
}

// modelOf returns the model of output column col among the models'
// outputs, and the column's index among that model's outputs.
func modelOf(models []ModelRef, col int) (model, output int) {
	for j, m := range models {
		if col < m.Outputs {
			return j, col
		}
		col -= m.Outputs
	}
	return len(models), col
}

// Release frees models.
func (c *LearnerClient) Release(ctx context.Context, models []ModelRef) error {
	handles := make([]string, len(models))
	for i, m := range models {
		handles[i] = m.Handle
	}
	if _, err := c.rpc.Release(ctx, &pb.ReleaseRequest{Handles: handles}); err != nil {
		return rpcErr("release", err)
	}
	return nil
}

// Forget tells the plugin it may drop datasets; plugins that predate the
// call are fine (their cache evicts on its own).
func (c *LearnerClient) Forget(ctx context.Context, digests ...string) error {
	if _, err := c.rpc.Forget(ctx, &pb.ForgetRequest{Digests: digests}); err != nil && status.Code(err) != codes.Unimplemented {
		return rpcErr("forget", err)
	}
	return nil
}

// ReducerClient is the host's handle on a reducer plugin. Every method
// passes the caller's context to the RPC.
type ReducerClient struct {
	rpc pb.ReducerServiceClient
	// MaxMessageBytes bounds the requests and responses of Decode, which
	// splits the test rows of a row-wise scheme to stay within it; 0 means
	// wire.MaxMessageSize.
	MaxMessageBytes int

	mu sync.Mutex
	// rowWise holds each scheme's RowWiseDecode, from the last Info.
	rowWise map[string]bool

	// shared is the segment the host shares with the plugin (nil: none),
	// in which Decode places the score matrices once Info said the plugin
	// reads them there (useShared).
	shared    *sharedmem.Segment
	useShared atomic.Bool
}

// Info asks the plugin to describe itself.
func (c *ReducerClient) Info(ctx context.Context) (plugin.ReducerInfo, error) {
	r, err := c.rpc.Info(ctx, &pb.InfoRequest{}, grpc.MaxCallRecvMsgSize(MaxInfoSize))
	if err != nil {
		return plugin.ReducerInfo{}, infoErr("reducer info", err)
	}
	info := convert.ReducerInfoFromPB(r)
	rowWise := map[string]bool{}
	for _, s := range info.Schemes {
		rowWise[s.Name] = s.RowWiseDecode
	}
	c.mu.Lock()
	c.rowWise = rowWise
	c.mu.Unlock()
	c.useShared.Store(r.GetSharedMemory() && c.shared != nil)
	return info, nil
}

// Plan asks for the problems of one fold. An answer whose warnings or
// description hold a character that does not show is refused
// (badPlanText).
func (c *ReducerClient) Plan(ctx context.Context, req plugin.PlanRequest) (plugin.Plan, error) {
	msg := convert.PlanRequestToPB(req)
	msg.AcceptsCodeTargets = true
	r, err := c.rpc.Plan(ctx, msg)
	if err != nil {
		return plugin.Plan{}, rpcErr("plan", err)
	}
	p, err := convert.PlanFromPB(r)
	if err != nil {
		return plugin.Plan{}, fmt.Errorf("plan: %w", err)
	}
	if err := problem.CheckRows(p.Problems, req.Rows()); err != nil {
		return plugin.Plan{}, fmt.Errorf("plan: %w", err)
	}
	if err := badPlanText(p); err != nil {
		return plugin.Plan{}, fmt.Errorf("plan: %w", err)
	}
	return p, nil
}

// RPCError is a failed call to a plugin. It prints the plugin's own message,
// after what went wrong in words when the call itself failed (the plugin
// unreachable, a time limit, a message too large), and keeps the gRPC
// status for errors.As and status.Code.
type RPCError struct {
	Op     string
	Status *status.Status
}

// Error implements error.
func (e *RPCError) Error() string {
	// The SDK's servers name the operation themselves ("fit: …", or
	// "plan ecoc: …" with its scheme): it is said once.
	// A plugin not served by the SDK may send a message of megabytes:
	// its start is enough.
	msg := wire.BoundMessage(strings.TrimPrefix(e.Status.Message(), e.Op+": "))
	switch c := e.Status.Code(); c {
	case codes.InvalidArgument, codes.FailedPrecondition, codes.NotFound, codes.Internal, codes.Unknown:
		if strings.HasPrefix(msg, e.Op+" ") {
			return msg
		}
		return e.Op + ": " + msg
	default:
		return fmt.Sprintf("%s: %s: %s", e.Op, rpcFailure(c), msg)
	}
}

// rpcFailure says in words what a gRPC code other than the plugin's own
// error (Internal, Unknown) or the caller's input means, or gives the
// code's name.
func rpcFailure(c codes.Code) string {
	switch c {
	case codes.Unavailable:
		return "plugin unreachable (its process may have ended)"
	case codes.DeadlineExceeded:
		return "time limit exceeded"
	case codes.Canceled:
		return "canceled"
	case codes.ResourceExhausted:
		return "message too large or out of resources"
	case codes.Unimplemented:
		return "not implemented by the plugin"
	}
	return c.String()
}

// GRPCStatus returns the call's status.
func (e *RPCError) GRPCStatus() *status.Status { return e.Status }

// rpcErr wraps an error returned by a gRPC call.
// MaxInfoSize bounds a plugin's answer to Info (its name, description
// and parameters), in bytes: far above any real description (a few KiB),
// far below what would take the host's memory (a hostile plugin's 64 MiB
// description did, in campaign 4).
const MaxInfoSize = 4 << 20

// infoErr is the error of an Info call (op): an answer over MaxInfoSize
// said as such, any other as rpcErr says it.
func infoErr(op string, err error) error {
	if st, ok := status.FromError(err); ok && st.Code() == codes.ResourceExhausted && strings.Contains(st.Message(), "larger than max") {
		return fmt.Errorf("%s: the plugin's description of itself is larger than the %d MiB bench accepts (%s): a plugin's bug", op, MaxInfoSize>>20, st.Message())
	}
	return rpcErr(op, err)
}

func rpcErr(op string, err error) error {
	if st, ok := status.FromError(err); ok {
		return &RPCError{Op: op, Status: st}
	}
	return fmt.Errorf("%s: %w", op, err)
}
