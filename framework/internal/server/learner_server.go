package server

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"

	"gonum.org/v1/gonum/mat"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyclass/polyclass/framework/internal/convert"
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/sharedmem"
)

// datasetCache keeps uploaded datasets by digest, evicting the least
// recently used beyond a byte budget.
type datasetCache struct {
	mu      sync.Mutex
	budget  int64
	used    int64
	order   *list.List // front = most recently used; values are *cacheEntry
	entries map[string]*list.Element
}

type cacheEntry struct {
	digest string
	m      plugin.Matrix
	size   int64
}

func newDatasetCache(budget int64) *datasetCache {
	return &datasetCache{budget: budget, order: list.New(), entries: map[string]*list.Element{}}
}

func (c *datasetCache) get(digest string) (plugin.Matrix, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[digest]
	if !ok {
		return plugin.Matrix{}, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*cacheEntry).m, true
}

func (c *datasetCache) has(digest string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.entries[digest]
	return ok
}

// remove drops a dataset and returns its size (0 when it was not held).
func (c *datasetCache) remove(digest string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[digest]
	if !ok {
		return 0
	}
	size := el.Value.(*cacheEntry).size
	c.used -= size
	c.order.Remove(el)
	delete(c.entries, digest)
	return size
}

func (c *datasetCache) put(digest string, m plugin.Matrix, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[digest]; ok {
		c.order.MoveToFront(el)
		return
	}
	c.entries[digest] = c.order.PushFront(&cacheEntry{digest: digest, m: m, size: size})
	c.used += size
	// Evict from the back, but always keep the entry just added.
	for c.used > c.budget && c.order.Len() > 1 {
		el := c.order.Back()
		e := el.Value.(*cacheEntry)
		c.order.Remove(el)
		delete(c.entries, e.digest)
		c.used -= e.size
	}
}

// learnerServer serves a Learner over gRPC.
type learnerServer struct {
	pb.UnimplementedLearnerServiceServer
	impl  plugin.Learner
	info  plugin.LearnerInfo
	cache *datasetCache
	// workers bounds the problems of one Fit request trained at once
	// (fewer when the request's threads says so). The bound is per
	// request, not per process: a call that never returns must not starve
	// the calls of other cells.
	workers int
	// shared is the segment the host shares with the process, or nil.
	shared *sharedmem.Segment

	mu     sync.Mutex
	next   uint64
	models map[string]plugin.Model
}

func newLearnerServer(impl plugin.Learner, cacheBytes int64, workers int, shared *sharedmem.Segment) *learnerServer {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return &learnerServer{
		impl: impl, info: impl.Info(), cache: newDatasetCache(cacheBytes),
		workers: workers, models: map[string]plugin.Model{}, shared: shared,
	}
}

func (s *learnerServer) Info(context.Context, *pb.InfoRequest) (*pb.LearnerInfo, error) {
	out := convert.LearnerInfoToPB(s.info, runtimeReport(s.info.Runtime))
	// The SDK converts compact targets to each problem's FitInput.
	out.CodeTargets, out.SharedMemory = true, s.shared != nil
	return out, nil
}

func (s *learnerServer) Has(_ context.Context, req *pb.HasRequest) (*pb.HasResponse, error) {
	resp := &pb.HasResponse{}
	for _, d := range req.GetDigests() {
		if !s.cache.has(d) {
			resp.Missing = append(resp.Missing, d)
		}
	}
	return resp, nil
}

func (s *learnerServer) Upload(stream pb.LearnerService_UploadServer) error {
	first, err := stream.Recv()
	if err != nil {
		return status.Errorf(codes.InvalidArgument, "upload: reading header: %v", err)
	}
	h := first.GetHeader()
	if h == nil {
		return status.Error(codes.InvalidArgument, "upload: the first message carries no header")
	}
	dec, err := newMatrixDecoder(h)
	if err != nil {
		return status.Errorf(codes.InvalidArgument, "upload: %v", err)
	}
	chunk := first
	for {
		if len(chunk.GetData()) > matrix.ChunkSize {
			return status.Errorf(codes.InvalidArgument, "upload: chunk of %d bytes exceeds %d", len(chunk.GetData()), matrix.ChunkSize)
		}
		if err := dec.write(chunk.GetData()); err != nil {
			return status.Errorf(codes.InvalidArgument, "upload %s: %v", h.GetDigest(), err)
		}
		chunk, err = stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return status.Errorf(codes.Aborted, "upload %s: %v", h.GetDigest(), err)
		}
	}
	m, err := dec.finish()
	if err != nil {
		return status.Errorf(codes.InvalidArgument, "upload %s: %v", h.GetDigest(), err)
	}
	s.cache.put(h.GetDigest(), m, h.GetSize())
	return stream.SendAndClose(&pb.UploadResponse{Digest: h.GetDigest()})
}

func (s *learnerServer) dataset(digest string) (plugin.Matrix, error) {
	m, ok := s.cache.get(digest)
	if !ok {
		return plugin.Matrix{}, status.Errorf(codes.FailedPrecondition, "dataset %s is not loaded (upload it first)", digest)
	}
	return m, nil
}

func (s *learnerServer) capable(k plugin.ProblemKind) bool {
	c := s.info.Capabilities
	switch k {
	case plugin.Binary:
		return c.Binary
	case plugin.Multiclass:
		return c.Multiclass
	case plugin.Regression:
		return c.Regression
	}
	return false
}

// datasetRows returns the dataset with this digest and the row indices of a request,
// checked against the dataset's size.
func (s *learnerServer) datasetRows(digest string, req []int64) (plugin.Matrix, []int, error) {
	x, err := s.dataset(digest)
	if err != nil {
		return plugin.Matrix{}, nil, err
	}
	n, _ := x.Dims()
	rows := make([]int, len(req))
	for i, r := range req {
		if r < 0 || int(r) >= n {
			return plugin.Matrix{}, nil, status.Errorf(codes.InvalidArgument, "row %d out of range 0..%d", r, n-1)
		}
		rows[i] = int(r)
	}
	return x, rows, nil
}

func (s *learnerServer) Fit(ctx context.Context, req *pb.FitRequest) (*pb.FitResponse, error) {
	x, rows, err := s.datasetRows(req.GetDigest(), req.GetRows())
	if err != nil {
		return nil, err
	}
	params := convert.ParamsFromPB(req.GetParams())
	if errs := plugin.CheckParams(s.info.Params, params); len(errs) > 0 {
		err := errors.Join(errs...)
		return nil, statusErr(codes.InvalidArgument, fmt.Sprintf("parameters: %v", err), err)
	}
	params = plugin.WithDefaults(s.info.Params, params)

	problems, members, err := fitProblems(req)
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "fit: %v", err)
	}
	for i := range problems {
		if !s.capable(problems[i].Kind) {
			return nil, status.Errorf(codes.InvalidArgument, "problem %d: %s cannot train %s problems", i, s.info.Name, problems[i].Kind)
		}
	}
	models := make([]plugin.Model, len(problems))
	errs := make([]error, len(problems))
	workers := s.callWorkers(req.GetThreads())
	var jobs []fitJob
	if sf, ok := s.impl.(plugin.SharedFitter); ok && len(problems) > 0 && sf.SharesFit(params) {
		jobs = []fitJob{{slots: workers, run: func() { s.fitShared(ctx, sf, x, rows, members, problems, params, workers, models, errs) }}}
	} else {
		jobs = s.fitJobs(ctx, workers, x, rows, members, problems, params, models, errs)
	}
	// One slot a goroutine: a job takes its slots before it starts (one
	// job at a time, so that two never wait for each other's), and the
	// call never keeps more than workers goroutines busy.
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for _, job := range jobs {
		for range job.slots {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				wg.Wait()
				return nil, status.FromContextError(ctx.Err()).Err()
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				for range job.slots {
					<-sem
				}
			}()
			job.run()
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		if ctx.Err() != nil {
			return nil, status.FromContextError(ctx.Err()).Err()
		}
		// A parameter's fault is the caller's (InvalidArgument, located
		// by the host); any other is the learner's.
		c := codes.Internal
		if len(param.Blamed(err)) > 0 {
			c = codes.InvalidArgument
		}
		return nil, statusErr(c, fmt.Sprintf("fit: %v", err), err)
	}
	resp := &pb.FitResponse{Models: make([]*pb.Model, len(models))}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, m := range models {
		s.next++
		h := "m" + strconv.FormatUint(s.next, 10)
		s.models[h] = m
		resp.Models[i] = &pb.Model{Handle: h, Outputs: int32(m.Outputs()), NotConverged: notConverged(m)}
	}
	return resp, nil
}

// callWorkers returns the goroutines a Fit request may keep busy: the
// server's workers, or fewer when the request's threads (its share of the
// CPUs, FitRequest.threads) is smaller; 0 threads leaves the server's.
func (s *learnerServer) callWorkers(threads uint32) int {
	if threads > 0 && uint64(threads) < uint64(s.workers) {
		return int(threads)
	}
	return s.workers
}

// fitJob is a job of a Fit request and the goroutines it keeps busy.
type fitJob struct {
	run   func()
	slots int
}

// fitJobs returns the jobs that train the problems of a Fit request, which
// may keep workers goroutines busy: one per batch part a BatchFitter
// trains together (see batchParts), on workers goroutines for a
// ParallelBatchFitter's, one per other problem. A job puts its models into
// models and its errors into errs, at the problems' indices.
func (s *learnerServer) fitJobs(ctx context.Context, workers int, x plugin.Matrix, rows []int, members groupRows, problems []plugin.Problem, params plugin.Params, models []plugin.Model, errs []error) []fitJob {
	parts, partIdx, single, conv := s.batchParts(x, rows, members, problems, workers)
	jobs := make([]fitJob, 0, len(parts)+len(single))
	partSlots := 1
	if _, ok := s.impl.(plugin.ParallelBatchFitter); ok {
		partSlots = workers
	}
	var b *borrowed // set when the learner borrows its input
	if ib, ok := s.impl.(plugin.InputBorrower); ok && ib.BorrowsInput() {
		b = &borrowed{free: make(chan *rowBuffer, workers), taken: s.taken}
	}
	for k, ins := range parts {
		bf := s.impl.(plugin.BatchFitter)
		jobs = append(jobs, fitJob{slots: partSlots, run: func() { s.fitBatch(ctx, bf, ins, partIdx[k], params, workers, models, errs) }})
	}
	for _, i := range single {
		var c *converted
		if conv != nil {
			c = conv[i]
		}
		jobs = append(jobs, fitJob{slots: 1, run: func() {
			var err error
			if models[i], err = s.fitOne(ctx, x, rows, members, problems[i], c, params, b); err != nil {
				errs[i] = fmt.Errorf("problem %d: %w", i, err)
			}
		}})
	}
	return jobs
}

// fitOne trains one problem with Fit on the rows it uses, converting it
// unless c holds its conversion already. The rows are gathered into memory
// of their own, or, when the learner borrows its input (b not nil), taken
// from b.
func (s *learnerServer) fitOne(ctx context.Context, x plugin.Matrix, rows []int, members groupRows, p plugin.Problem, c *converted, params plugin.Params, b *borrowed) (plugin.Model, error) {
	if c == nil {
		c = &converted{}
		c.in, c.used, c.err = convertProblem(rows, members, p)
	}
	if c.err != nil {
		return nil, c.err
	}
	in := c.in
	if b != nil {
		var done func()
		in.X, done = b.rows(x, rows, c.used)
		defer done()
	} else {
		in.X = s.taken(gatherRows(x, c.used))
	}
	return s.impl.Fit(ctx, in, params)
}

// taken returns m as the learner takes rows: dense unless it declares
// Sparse.
func (s *learnerServer) taken(m plugin.Matrix) plugin.Matrix {
	if !s.info.Capabilities.Sparse {
		return m.AsDense()
	}
	return m
}

// borrowed is the memory of the rows that the problems of one Fit call
// borrow (InputBorrower): the call's rows gathered once for the problems
// that use them all, and the free buffers that the other problems gather
// theirs into, one per problem trained at once.
type borrowed struct {
	free  chan *rowBuffer
	taken func(plugin.Matrix) plugin.Matrix // the learner server's taken

	once sync.Once
	all  plugin.Matrix
}

// rows returns the rows used (a subsequence of rows) of x and the function
// to call once Fit has returned.
func (b *borrowed) rows(x plugin.Matrix, rows, used []int) (m plugin.Matrix, done func()) {
	if len(used) == len(rows) { // the subsequence is rows itself
		b.once.Do(func() { b.all = b.taken(gatherRows(x, rows)) })
		return b.all, func() {}
	}
	buf := &rowBuffer{}
	select {
	case buf = <-b.free:
	default:
	}
	return b.taken(gatherRowsInto(buf, x, used)), func() {
		select {
		case b.free <- buf:
		default:
		}
	}
}

func (s *learnerServer) Predict(ctx context.Context, req *pb.PredictRequest) (*pb.PredictResponse, error) {
	x, rows, err := s.datasetRows(req.GetDigest(), req.GetRows())
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	models := make([]plugin.Model, len(req.GetHandles()))
	total := 0
	for i, h := range req.GetHandles() {
		m, ok := s.models[h]
		if !ok {
			s.mu.Unlock()
			return nil, status.Errorf(codes.NotFound, "no model %q", h)
		}
		models[i] = m
		total += m.Outputs()
	}
	s.mu.Unlock()
	if len(rows) == 0 || total == 0 {
		return &pb.PredictResponse{}, nil
	}
	probs := req.GetProbabilities() && s.info.Capabilities.Probabilities && hasProbabilities(models)
	sub := s.taken(gatherRows(x, rows))
	scores, prob, answer := s.answerMatrices(req.GetOutput(), len(rows), total, probs)
	if bp, ok := s.impl.(plugin.BatchPredictor); ok && len(models) > 1 {
		done, err := predictBatch(ctx, bp, models, sub, scores, prob)
		if err != nil {
			return nil, status.Errorf(codes.Internal, "predict: models 0 to %d: %v", len(models)-1, err)
		}
		if done {
			return answer(), nil
		}
	}
	if err := s.predictModels(ctx, sub, models, scores, prob); err != nil {
		return nil, err
	}
	return answer(), nil
}

// predictModels writes the outputs of models on the rows x side by side
// into scores (and prob, when not nil). A lone model writes them itself.
// Otherwise the models are split into runs of consecutive models, as many
// as the server has workers (one per predictTile models at least), whose
// Predicts run at once; each run writes into its own matrices (a model's
// Predict gets a zeroed matrix of its outputs), which are then copied
// into the model's columns (see outputTile).
func (s *learnerServer) predictModels(ctx context.Context, x plugin.Matrix, models []plugin.Model, scores, prob *mat.Dense) error {
	if len(models) == 1 {
		if err := models[0].Predict(ctx, x, scores, prob); err != nil {
			return predictError(0, err)
		}
		return nil
	}
	first := make([]int, len(models)+1) // first output column of each model
	for i, m := range models {
		first[i+1] = first[i] + m.Outputs()
	}
	parts := min(s.workers, (len(models)+predictTile-1)/predictTile)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*len(models)/parts, (p+1)*len(models)/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[p] = s.predictRun(ctx, x, models[lo:hi], lo, first[lo:hi+1], scores, prob)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err // the first model's that failed
		}
	}
	return nil
}

// predictError is the error of the call's model i (its place in the
// request, from 0, as a Fit error names its problem), whose Predict
// failed with err. Not its handle: handles are numbered in the order the
// process fitted its models, which concurrent calls make depend on
// timing, and the error is recorded in the cell.
func predictError(i int, err error) error {
	return status.Errorf(codes.Internal, "predict: model %d: %v", i, err)
}

// predictTile is the number of one-output models whose scores a run
// gathers before copying them into the answer: 32 columns, four cache
// lines of each row of the answer written at once, where a model at a
// time writes one value into every row (one-vs-one's thousands of
// one-column models, over answers of thousands of columns).
const predictTile = 32

// predictRun predicts with a run of models whose outputs start at columns
// first (and end at first[len(models)]).
func (s *learnerServer) predictRun(ctx context.Context, x plugin.Matrix, models []plugin.Model, base int, first []int, scores, prob *mat.Dense) error {
	rows, _ := scores.Dims()
	tile := outputTile{rows: rows, scores: scores, prob: prob}
	multi := predictScratch{rows: rows}
	multiP := predictScratch{rows: rows}
	for i, m := range models {
		k := m.Outputs()
		if k == 1 {
			sc, pr := tile.next(first[i])
			if err := m.Predict(ctx, x, sc, pr); err != nil {
				return predictError(base+i, err)
			}
			if tile.full() {
				tile.flush()
			}
			continue
		}
		tile.flush()
		sc, pr := multi.get(k), (*mat.Dense)(nil)
		if prob != nil {
			pr = multiP.get(k)
		}
		if err := m.Predict(ctx, x, sc, pr); err != nil {
			return predictError(base+i, err)
		}
		scores.Slice(0, rows, first[i], first[i]+k).(*mat.Dense).Copy(sc)
		if prob != nil {
			prob.Slice(0, rows, first[i], first[i]+k).(*mat.Dense).Copy(pr)
		}
	}
	tile.flush()
	return nil
}

// outputTile gathers the outputs of up to predictTile consecutive
// one-output models, each in a column of its own (a rows × 1 matrix,
// zeroed), and copies them into their columns of the answer, row by row.
type outputTile struct {
	rows         int
	scores, prob *mat.Dense
	sc, pr       []float64 // predictTile columns of rows values
	col, n       int       // the tile's first answer column, and its models
	scMat, prMat []*mat.Dense
}

// next returns the zeroed matrices of the next model, whose outputs go to
// answer column col (the one after the tile's last).
func (t *outputTile) next(col int) (sc, pr *mat.Dense) {
	if t.sc == nil {
		t.sc = make([]float64, predictTile*t.rows)
		t.scMat = make([]*mat.Dense, predictTile)
		for j := range t.scMat {
			t.scMat[j] = mat.NewDense(t.rows, 1, t.sc[j*t.rows:(j+1)*t.rows])
		}
		if t.prob != nil {
			t.pr = make([]float64, predictTile*t.rows)
			t.prMat = make([]*mat.Dense, predictTile)
			for j := range t.prMat {
				t.prMat[j] = mat.NewDense(t.rows, 1, t.pr[j*t.rows:(j+1)*t.rows])
			}
		}
	}
	if t.n == 0 {
		t.col = col
	}
	j := t.n
	t.n++
	clear(t.sc[j*t.rows : (j+1)*t.rows])
	if t.prob == nil {
		return t.scMat[j], nil
	}
	clear(t.pr[j*t.rows : (j+1)*t.rows])
	return t.scMat[j], t.prMat[j]
}

func (t *outputTile) full() bool { return t.n == predictTile }

// flush copies the tile's columns into the answer.
func (t *outputTile) flush() {
	if t.n == 0 {
		return
	}
	for _, m := range []struct {
		dst *mat.Dense
		src []float64
	}{{t.scores, t.sc}, {t.prob, t.pr}} {
		if m.dst == nil {
			continue
		}
		for i := range t.rows {
			row := m.dst.RawRowView(i)[t.col : t.col+t.n]
			for j := range row {
				row[j] = m.src[j*t.rows+i]
			}
		}
	}
	t.n = 0
}

// answerMatrices returns the zeroed rows × total matrices a Predict call
// writes its scores and probabilities (when probs) into, and the function
// that makes the response of them: views of the region of the shared
// segment the host offered (out) when it holds both (sharedAnswer), else
// Go matrices, sent inline.
func (s *learnerServer) answerMatrices(out *pb.SharedRegion, rows, total int, probs bool) (scores, prob *mat.Dense, answer func() *pb.PredictResponse) {
	if scores, prob, resp, ok := s.sharedAnswer(out, rows, total, probs); ok {
		return scores, prob, func() *pb.PredictResponse { return resp }
	}
	scores = mat.NewDense(rows, total, nil)
	if probs {
		prob = mat.NewDense(rows, total, nil)
	}
	return scores, prob, func() *pb.PredictResponse {
		return &pb.PredictResponse{Scores: convert.DenseToPB(scores), Probabilities: convert.DenseToPB(prob)}
	}
}

// sharedAnswer returns the answer's matrices as zeroed views of region out
// of the shared segment, scores first, and the response that names them
// there; ok is false when the process has no segment, the host offered no
// region, or the region cannot hold them.
func (s *learnerServer) sharedAnswer(out *pb.SharedRegion, rows, total int, probs bool) (scores, prob *mat.Dense, resp *pb.PredictResponse, ok bool) {
	if s.shared == nil || out == nil {
		return nil, nil, nil, false
	}
	r, err := convert.RegionFromPB(out)
	if err != nil {
		return nil, nil, nil, false
	}
	n, m := rows*total, 1
	if probs {
		m = 2
	}
	vals, err := s.shared.Floats(r, m*n)
	if err != nil {
		return nil, nil, nil, false
	}
	clear(vals)
	scores = mat.NewDense(rows, total, vals[:n:n])
	resp = &pb.PredictResponse{Scores: convert.SharedDenseToPB(rows, total, r)}
	if probs {
		prob = mat.NewDense(rows, total, vals[n:])
		resp.Probabilities = convert.SharedDenseToPB(rows, total, sharedmem.Region{Offset: r.Offset + 8*n, Length: 8 * n})
	}
	return scores, prob, resp, true
}

// predictScratch holds a zeroed rows × k matrix for each k asked for, the
// same one each time.
type predictScratch struct {
	rows int
	byK  map[int]*mat.Dense
}

// get returns the rows × k matrix, zeroed.
func (p *predictScratch) get(k int) *mat.Dense {
	if m, ok := p.byK[k]; ok {
		m.Zero()
		return m
	}
	if p.byK == nil {
		p.byK = map[int]*mat.Dense{}
	}
	m := mat.NewDense(p.rows, k, nil)
	p.byK[k] = m
	return m
}

func (s *learnerServer) Release(_ context.Context, req *pb.ReleaseRequest) (*pb.ReleaseResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range req.GetHandles() {
		delete(s.models, h)
	}
	return &pb.ReleaseResponse{}, nil
}

// bigDataset is the size (wire bytes) from which a Forget gives the
// process's free memory back to the operating system at once
// (debug.FreeOSMemory). Below it the pages stay with the process for the
// next fold's dataset and scratch: giving back a few megabytes after
// every fold costs a collection and, in the next fold, a page fault per
// 4 KiB page touched again (letter, 10 folds of 2.6 MB: 76 000 faults,
// ~0.3 s of system time, in the learner process).
const bigDataset = 16 << 20

func (s *learnerServer) Forget(_ context.Context, req *pb.ForgetRequest) (*pb.ForgetResponse, error) {
	var freed int64
	for _, d := range req.GetDigests() {
		freed += s.cache.remove(d)
	}
	if freed >= bigDataset {
		debug.FreeOSMemory() // its pages go back at once
	}
	return &pb.ForgetResponse{}, nil
}

// notConverged reports whether m says that its fit did not converge.
func notConverged(m plugin.Model) bool {
	r, ok := m.(plugin.ConvergenceReporter)
	return ok && r.NotConverged()
}
