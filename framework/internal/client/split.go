package client

import (
	"context"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/polyclass/polyclass/framework/internal/convert"
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/internal/wire"
	"github.com/polyclass/polyclass/framework/plugin"
)

// predictOverhead bounds the bytes of a Predict request or response that do
// not grow with its rows (digest, handles and flags are counted apart): the
// field tags and lengths of the rows and of the two matrices.
const predictOverhead = 64

// maxMessage is the bound Fit and Predict keep to: MaxMessageBytes, at
// most the gRPC call limits the host dials with (wire.MaxMessageSize).
func (c *LearnerClient) maxMessage() int {
	if c.MaxMessageBytes > 0 {
		return min(c.MaxMessageBytes, wire.MaxMessageSize)
	}
	return wire.MaxMessageSize
}

// Fit trains problems on the given rows of dataset digest. A batch whose
// request would exceed the message bound goes in several calls, each with
// consecutive problems; the models come back in problem order. Splitting
// changes no model: a learner fits the problems of a batch as it fits
// them one by one. A batch in compact form (see convert.ProblemsToPB)
// goes whole when that form is within the bound.
//
// threads is the most threads of execution each call should keep busy
// (FitRequest.threads: the fit's share of the CPUs); 0 leaves it to the
// plugin.
func (c *LearnerClient) Fit(ctx context.Context, digest string, rows []int, params plugin.Params, problems []plugin.Problem, threads int) ([]ModelRef, error) {
	t := clampThreads(threads)
	if req := c.compactRequest(digest, rows, params, problems, t); req != nil {
		return c.fitRequest(ctx, req, len(problems))
	}
	parts, err := fitParts(digest, rows, params, problems, t, c.maxMessage())
	if err != nil {
		return nil, err
	}
	if len(parts) == 1 {
		return c.fitOnce(ctx, digest, rows, params, problems, t)
	}
	var out []ModelRef
	for _, part := range parts {
		refs, err := c.fitOnce(ctx, digest, rows, params, part, t)
		if err != nil {
			if len(out) > 0 {
				// Best effort, also after a cancellation: the fit's error
				// is the one to report.
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
				_ = c.Release(rctx, out)
				cancel()
			}
			return nil, err
		}
		out = append(out, refs...)
	}
	return out, nil
}

// compactRequest returns the Fit request of the whole batch with compact
// targets, or nil when the learner does not read them, the problems do
// not have that form, or the request exceeds the message bound.
func (c *LearnerClient) compactRequest(digest string, rows []int, params plugin.Params, problems []plugin.Problem, threads uint32) *pb.FitRequest {
	if !c.codeTargets.Load() {
		return nil
	}
	ps, groups, ok := convert.CompactProblemsToPB(problems)
	if !ok {
		return nil
	}
	req := &pb.FitRequest{Digest: digest, Rows: convert.Ints[int64](rows), Params: convert.ParamsToPB(params), Problems: ps, RowGroups: groups, Threads: threads}
	if proto.Size(req) > c.maxMessage() {
		return nil
	}
	return req
}

// clampThreads returns threads as FitRequest.threads holds it: 0 for none
// (or a negative count), at most MaxUint32.
func clampThreads(threads int) uint32 {
	return uint32(min(max(threads, 0), math.MaxUint32))
}

// fitParts splits problems into runs of consecutive problems whose Fit
// request takes at most limit bytes. It sizes the request without building
// it: the rows as packed varints, each problem with its targets as they
// are (packed doubles take 8 bytes whatever their values). It sizes the
// dense form (compact targets sized as the dense ones they stand for): a
// part may then go compact (fitOnce), smaller still.
func fitParts(digest string, rows []int, params plugin.Params, problems []plugin.Problem, threads uint32, limit int) ([][]plugin.Problem, error) {
	base := proto.Size(&pb.FitRequest{Digest: digest, Params: convert.ParamsToPB(params), Threads: threads})
	if len(rows) > 0 {
		n := 0
		for _, r := range rows {
			n += protowire.SizeVarint(uint64(r))
		}
		base += protowire.SizeTag(2) + protowire.SizeBytes(n)
	}
	var parts [][]plugin.Problem
	start, size := 0, base
	var zeros []float64 // stands for compact targets: the size of packed doubles does not depend on their values
	for i, p := range problems {
		targets := p.Targets
		if p.Compact != nil {
			if len(zeros) < p.Rows() {
				zeros = make([]float64, p.Rows())
			}
			targets = zeros[:p.Rows()]
		}
		sized := &pb.Problem{Kind: pb.Problem_Kind(p.Kind), Targets: targets, NumClasses: int32(p.NumClasses), Weights: p.Weights, Seed: p.Seed}
		n := protowire.SizeTag(4) + protowire.SizeBytes(proto.Size(sized))
		if base+n > limit {
			return nil, fmt.Errorf("fit: problem %d over %d rows makes a %d-byte request, more than the %d-byte message bound", i, len(rows), base+n, limit)
		}
		if size+n > limit {
			parts, start, size = append(parts, problems[start:i]), i, base
		}
		size += n
	}
	return append(parts, problems[start:]), nil
}

// Predict returns the rows × Σ outputs score matrix of the models on rows
// of dataset digest, and the probabilities when asked for and available.
// Rows whose request or response would exceed the message bound go in
// several calls, each with consecutive rows; a model scores each row on
// its own, so the matrices are the same.
func (c *LearnerClient) Predict(ctx context.Context, digest string, rows []int, models []ModelRef, probabilities bool) (scores, probs *mat.Dense, err error) {
	per, err := predictRows(digest, models, probabilities, c.maxMessage())
	if err != nil {
		return nil, nil, err
	}
	if len(rows) <= per {
		return c.predictOnce(ctx, digest, rows, models, probabilities)
	}
	for lo := 0; lo < len(rows); lo += per {
		hi := min(lo+per, len(rows))
		s, p, err := c.predictOnce(ctx, digest, rows[lo:hi], models, probabilities)
		if err != nil {
			return nil, nil, err
		}
		if scores, err = stackRows(scores, s, lo, hi, len(rows)); err != nil {
			return nil, nil, fmt.Errorf("predict: scores: %w", err)
		}
		if probs, err = stackRows(probs, p, lo, hi, len(rows)); err != nil {
			return nil, nil, fmt.Errorf("predict: probabilities: %w", err)
		}
	}
	return scores, probs, nil
}

// predictRows is the number of rows one Predict call may carry: each row
// adds at most 10 bytes (a varint) to the request and 8 bytes per output
// and matrix to the response.
func predictRows(digest string, models []ModelRef, probabilities bool, limit int) (int, error) {
	handles := make([]string, len(models))
	outputs := 0
	for i, m := range models {
		handles[i] = m.Handle
		outputs += m.Outputs
	}
	fixed := proto.Size(&pb.PredictRequest{Digest: digest, Handles: handles, Probabilities: true}) + predictOverhead
	row := 8 * outputs
	if probabilities {
		row *= 2
	}
	row = max(row, 10)
	if fixed+row > limit {
		return 0, fmt.Errorf("predict: one row of %d models takes more than the %d-byte message bound", len(models), limit)
	}
	return (limit - fixed) / row, nil
}

// stackRows copies part into rows lo..hi−1 of a matrix of n rows, made at
// the first part; a missing part (no probabilities) leaves the matrix nil.
func stackRows(all, part *mat.Dense, lo, hi, n int) (*mat.Dense, error) {
	if part == nil {
		if all != nil {
			return nil, fmt.Errorf("rows from %d missing", lo)
		}
		return nil, nil
	}
	r, c := part.Dims()
	if all == nil {
		if lo != 0 {
			return nil, fmt.Errorf("rows before %d missing", lo)
		}
		all = mat.NewDense(n, c, nil)
	}
	if _, ac := all.Dims(); ac != c || r != hi-lo {
		return nil, fmt.Errorf("rows %d..%d come as %d×%d, want %d×%d", lo, hi-1, r, c, hi-lo, ac)
	}
	all.Slice(lo, lo+r, 0, c).(*mat.Dense).Copy(part)
	return all, nil
}
