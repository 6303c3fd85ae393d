package client

import (
	"context"
	"fmt"
	"sort"

	"gonum.org/v1/gonum/mat"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/polyclass/polyclass/framework/internal/convert"
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/internal/wire"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/sharedmem"
)

// maxMessage is the bound Decode keeps to: MaxMessageBytes, at most the
// gRPC call limits the host dials with (wire.MaxMessageSize).
func (c *ReducerClient) maxMessage() int {
	if c.MaxMessageBytes > 0 {
		return min(c.MaxMessageBytes, wire.MaxMessageSize)
	}
	return wire.MaxMessageSize
}

// Decode turns a fold's outputs into predictions. A request over the
// message bound goes in several calls, each with a run of consecutive test
// rows and the whole state, parameters and training scores, when the
// scheme declares row-wise decoding (plugin.Scheme.RowWiseDecode); the
// answers are concatenated in row order and their ties summed, which for
// such a scheme is the answer of one call bit for bit. A run whose answer
// exceeds the bound is decoded again in two halves. A scheme that is not
// row-wise fails over the bound, with an error naming it and the sizes.
func (c *ReducerClient) Decode(ctx context.Context, req plugin.DecodeRequest) (plugin.Decoding, error) {
	limit := c.maxMessage()
	if d, done, err := c.decodeShared(ctx, req, limit); done {
		return d, err
	}
	sz := newDecodeSizer(req)
	n, l := dims(req.Scores)
	total := sz.size(n)
	if total <= limit {
		return c.decodeRows(ctx, req, 0, n, limit)
	}
	if err := c.checkRowWise(ctx, req.Scheme, func() string {
		return fmt.Sprintf("the request for its %d test rows × %d problems takes %d bytes, over the %d-byte message bound", n, l, total, limit)
	}); err != nil {
		return plugin.Decoding{}, err
	}
	per := sz.rowsWithin(n, limit)
	if per == 0 {
		return plugin.Decoding{}, fmt.Errorf("decode %s: one test row of %d problems (with the state and training scores every part carries) makes a %d-byte request, over the %d-byte message bound", req.Scheme, l, sz.size(1), limit)
	}
	parts := (n + per - 1) / per
	per = (n + parts - 1) / parts // runs of even length
	var out []plugin.Decoding
	var lens []int
	for lo := 0; lo < n; lo += per {
		hi := min(lo+per, n)
		d, err := c.decodeRows(ctx, req, lo, hi, limit)
		if err != nil {
			return plugin.Decoding{}, err
		}
		out, lens = append(out, d), append(lens, hi-lo)
	}
	return joinDecodings(req.Scheme, out, lens)
}

// decodeRows decodes test rows lo..hi−1 in one call; when the plugin's
// answer exceeds the message bound (ResourceExhausted), a row-wise
// scheme's rows go again in two halves.
func (c *ReducerClient) decodeRows(ctx context.Context, req plugin.DecodeRequest, lo, hi, limit int) (plugin.Decoding, error) {
	d, err := c.decodeOnce(ctx, req, lo, hi, limit)
	if status.Code(err) != codes.ResourceExhausted {
		return d, err
	}
	if hi-lo < 2 {
		return plugin.Decoding{}, fmt.Errorf("decode %s: the answer for test row %d alone exceeds the %d-byte message bound: %w", req.Scheme, lo, limit, err)
	}
	if rerr := c.checkRowWise(ctx, req.Scheme, func() string {
		return fmt.Sprintf("the answer for %d test rows exceeds the %d-byte message bound (%v)", hi-lo, limit, err)
	}); rerr != nil {
		return plugin.Decoding{}, rerr
	}
	mid := lo + (hi-lo)/2
	a, err := c.decodeRows(ctx, req, lo, mid, limit)
	if err != nil {
		return plugin.Decoding{}, err
	}
	b, err := c.decodeRows(ctx, req, mid, hi, limit)
	if err != nil {
		return plugin.Decoding{}, err
	}
	return joinDecodings(req.Scheme, []plugin.Decoding{a, b}, []int{mid - lo, hi - mid})
}

// decodeOnce sends test rows lo..hi−1 of req in one Decode call, which
// fails with ResourceExhausted when the answer exceeds limit.
func (c *ReducerClient) decodeOnce(ctx context.Context, req plugin.DecodeRequest, lo, hi, limit int) (plugin.Decoding, error) {
	msg := &pb.DecodeRequest{
		Scheme: req.Scheme, Params: convert.ParamsToPB(req.Params), State: req.State,
		Scores: convert.DenseToPB(rowRange(req.Scores, lo, hi)), Probabilities: convert.DenseToPB(rowRange(req.Probabilities, lo, hi)),
		TrainingScores: convert.DenseToPB(req.TrainingScores),
	}
	return c.decodeCall(ctx, msg, limit)
}

// decodeCall makes one Decode call, with messages of at most limit bytes.
func (c *ReducerClient) decodeCall(ctx context.Context, msg *pb.DecodeRequest, limit int) (plugin.Decoding, error) {
	r, err := c.rpc.Decode(ctx, msg, grpc.MaxCallRecvMsgSize(limit), grpc.MaxCallSendMsgSize(limit))
	if err != nil {
		return plugin.Decoding{}, rpcErr("decode", err)
	}
	d := plugin.Decoding{Predicted: convert.Ints[int](r.GetPredicted()), Ties: int(r.GetTies()),
		ClassScoresAreProbabilities: r.GetClassScoresAreProbabilities()}
	if d.ClassScores, err = convert.DenseFromPB(r.GetClassScores()); err != nil {
		return plugin.Decoding{}, fmt.Errorf("decode: class scores: %w", err)
	}
	if d.LabelMatrix, err = convert.DenseFromPB(r.GetLabelMatrix()); err != nil {
		return plugin.Decoding{}, fmt.Errorf("decode: label matrix: %w", err)
	}
	return d, nil
}

// decodeShared decodes req in one call with its matrices in the shared
// segment, when the plugin reads them there and the segment has room;
// done is false when it does not, or when the answer exceeded the
// message bound, and Decode then sends the matrices inline (in parts
// over the bound).
func (c *ReducerClient) decodeShared(ctx context.Context, req plugin.DecodeRequest, limit int) (d plugin.Decoding, done bool, err error) {
	if !c.useShared.Load() {
		return plugin.Decoding{}, false, nil
	}
	mats := []*mat.Dense{req.Scores, req.Probabilities, req.TrainingScores}
	sizes := make([]int, len(mats))
	n := 0
	for i, m := range mats {
		r, k := dims(m)
		sizes[i] = 8 * r * k
		n += sizes[i]
	}
	region, ok := c.shared.Alloc(n)
	if !ok {
		return plugin.Decoding{}, false, nil
	}
	msgs := make([]*pb.Dense, len(mats))
	at := region.Offset
	for i, m := range mats {
		if msgs[i], err = c.place(m, sharedmem.Region{Offset: at, Length: sizes[i]}); err != nil {
			c.shared.Free(region)
			return plugin.Decoding{}, true, err
		}
		at += sizes[i]
	}
	msg := &pb.DecodeRequest{
		Scheme: req.Scheme, Params: convert.ParamsToPB(req.Params), State: req.State,
		Scores: msgs[0], Probabilities: msgs[1], TrainingScores: msgs[2],
	}
	d, err = c.decodeCall(ctx, msg, limit)
	// After a failed call the plugin may still be reading the matrices.
	endRegion(c.shared, region, err)
	if status.Code(err) == codes.ResourceExhausted {
		return plugin.Decoding{}, false, nil
	}
	return d, true, err
}

// place copies m into the start of region r of the shared segment and
// returns the message that names it there; a nil matrix stays nil and an
// empty one goes inline.
func (c *ReducerClient) place(m *mat.Dense, r sharedmem.Region) (*pb.Dense, error) {
	rows, cols := dims(m)
	if m == nil || rows == 0 || cols == 0 {
		return convert.DenseToPB(m), nil
	}
	vals, err := c.shared.Floats(r, rows*cols)
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	mat.NewDense(rows, cols, vals).Copy(m)
	return convert.SharedDenseToPB(rows, cols, r), nil
}

// checkRowWise returns nil when scheme decodes row-wise (asking the plugin
// for its Info if this client has not yet), else an error that says why
// the request had to be split.
func (c *ReducerClient) checkRowWise(ctx context.Context, scheme string, why func() string) error {
	c.mu.Lock()
	known := c.rowWise != nil
	c.mu.Unlock()
	if !known {
		if _, err := c.Info(ctx); err != nil {
			return fmt.Errorf("decode %s: %s; asking whether the scheme decodes row-wise: %w", scheme, why(), err)
		}
	}
	c.mu.Lock()
	rowWise := c.rowWise[scheme]
	c.mu.Unlock()
	if !rowWise {
		return fmt.Errorf("decode %s: %s, and the scheme does not declare row-wise decoding (row_wise_decode), so its test rows cannot go in parts; use more folds (fewer test rows each) or a reduction with fewer problems", scheme, why())
	}
	return nil
}

// dims returns the dimensions of m; a nil m is 0 × 0.
func dims(m *mat.Dense) (int, int) {
	if m == nil {
		return 0, 0
	}
	return m.Dims()
}

// rowRange returns rows lo..hi−1 of m, m itself when they are all of its
// rows (or m is nil).
func rowRange(m *mat.Dense, lo, hi int) *mat.Dense {
	if m == nil {
		return nil
	}
	if r, c := m.Dims(); lo != 0 || hi != r {
		return m.Slice(lo, hi, 0, c).(*mat.Dense)
	}
	return m
}

// decodeSizer computes the exact marshalled size of a Decode request for
// a run of test rows without building it: the fields every part carries
// (scheme, parameters, state, training scores) once, and the scores and
// probabilities from their dimensions (a Dense message's size depends on
// its dimensions only).
type decodeSizer struct {
	base                int
	scoreCols, probCols int
	hasScores, hasProbs bool
}

func newDecodeSizer(req plugin.DecodeRequest) decodeSizer {
	s := decodeSizer{
		base:      proto.Size(&pb.DecodeRequest{Scheme: req.Scheme, Params: convert.ParamsToPB(req.Params), State: req.State}),
		hasScores: req.Scores != nil, hasProbs: req.Probabilities != nil,
	}
	if req.TrainingScores != nil {
		r, c := req.TrainingScores.Dims()
		s.base += denseFieldSize(6, r, c)
	}
	_, s.scoreCols = dims(req.Scores)
	_, s.probCols = dims(req.Probabilities)
	return s
}

// size is the marshalled size of the request for k test rows.
func (s decodeSizer) size(k int) int {
	n := s.base
	if s.hasScores {
		n += denseFieldSize(4, k, s.scoreCols)
	}
	if s.hasProbs {
		n += denseFieldSize(5, k, s.probCols)
	}
	return n
}

// rowsWithin is the largest k ≤ n whose request takes at most limit bytes
// (0 when a single row does not fit).
func (s decodeSizer) rowsWithin(n, limit int) int {
	return sort.Search(n, func(k int) bool { return s.size(k+1) > limit })
}

// denseFieldSize is the marshalled size of a present r × c Dense message
// as field number num of its parent: tag, length, and the message's
// non-zero fields (rows, cols, data).
func denseFieldSize(num protowire.Number, r, c int) int {
	n := 0
	if r != 0 {
		n += protowire.SizeTag(1) + protowire.SizeVarint(uint64(int64(r)))
	}
	if c != 0 {
		n += protowire.SizeTag(2) + protowire.SizeVarint(uint64(int64(c)))
	}
	if r*c != 0 {
		n += protowire.SizeTag(3) + protowire.SizeBytes(8*r*c)
	}
	return protowire.SizeTag(num) + protowire.SizeBytes(n)
}

// JoinDecodings concatenates the decodings of consecutive runs of test
// rows of a row-wise scheme, of lens[i] rows each, into the decoding of
// all of them (see joinDecodings): the engine decodes a fold's test rows
// in blocks so.
func JoinDecodings(scheme string, parts []plugin.Decoding, lens []int) (plugin.Decoding, error) {
	return joinDecodings(scheme, parts, lens)
}

// joinDecodings concatenates the decodings of consecutive runs of test
// rows, of lens[i] rows each: predictions, class scores and label
// matrices in row order, ties summed; the class scores are probabilities
// when every part's are. Every part must carry the same fields, each with
// its run's number of rows.
func joinDecodings(scheme string, parts []plugin.Decoding, lens []int) (plugin.Decoding, error) {
	n := 0
	for i, p := range parts {
		// No predictions (a multi-label scheme's) come as an empty list.
		if (len(p.Predicted) == 0) != (len(parts[0].Predicted) == 0) || (p.ClassScores == nil) != (parts[0].ClassScores == nil) || (p.LabelMatrix == nil) != (parts[0].LabelMatrix == nil) {
			return plugin.Decoding{}, fmt.Errorf("decode %s: the parts of the test rows came back with different fields (predictions, class scores, label matrix)", scheme)
		}
		if len(p.Predicted) != 0 && len(p.Predicted) != lens[i] {
			return plugin.Decoding{}, fmt.Errorf("decode %s: %d predictions for the %d test rows of part %d", scheme, len(p.Predicted), lens[i], i)
		}
		n += lens[i]
	}
	out := plugin.Decoding{Predicted: make([]int, 0, n), ClassScoresAreProbabilities: true}
	lo := 0
	var err error
	for i, p := range parts {
		hi := lo + lens[i]
		out.Predicted = append(out.Predicted, p.Predicted...)
		if out.ClassScores, err = stackRows(out.ClassScores, p.ClassScores, lo, hi, n); err != nil {
			return plugin.Decoding{}, fmt.Errorf("decode %s: class scores: %w", scheme, err)
		}
		if out.LabelMatrix, err = stackRows(out.LabelMatrix, p.LabelMatrix, lo, hi, n); err != nil {
			return plugin.Decoding{}, fmt.Errorf("decode %s: label matrix: %w", scheme, err)
		}
		out.Ties += p.Ties
		out.ClassScoresAreProbabilities = out.ClassScoresAreProbabilities && p.ClassScoresAreProbabilities
		lo = hi
	}
	return out, nil
}
