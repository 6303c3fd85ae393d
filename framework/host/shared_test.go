//go:build linux

package host

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/framework/sharedmem"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
)

// probLearner scores row i of a model trained on n rows by i + n/1000,
// one output, with the probability 1/(i+2).
type probLearner struct{}

func (probLearner) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{Name: "prob", Version: "1", Capabilities: sdk.Capabilities{Binary: true, Scores: true, Probabilities: true}}
}

func (probLearner) Fit(_ context.Context, in sdk.FitInput, _ sdk.Params) (sdk.Model, error) {
	return probModel(float64(len(in.Targets)) / 1000), nil
}

type probModel float64

func (probModel) Outputs() int { return 1 }

func (m probModel) Predict(_ context.Context, x sdk.Matrix, scores, probs *mat.Dense) error {
	r, _ := x.Dims()
	for i := range r {
		scores.Set(i, 0, float64(i)+float64(m))
		if probs != nil {
			probs.Set(i, 0, 1/float64(i+2))
		}
	}
	return nil
}

// TestSharedPredictMatchesInline: a learner's answer written into the
// shared segment is the answer sent inline, bit for bit, scores and
// probabilities, and the response's bytes no longer carry it; with the
// segment full the answer comes inline.
func TestSharedPredictMatchesInline(t *testing.T) {
	ctx := context.Background()
	h := New("", nil)
	h.Register("prob", InProcess{Learner: probLearner{}})
	defer h.Close()
	p, err := h.Get(ctx, "prob")
	if err != nil {
		t.Fatal(err)
	}
	if p.shared == nil || !p.Learner.UsesShared() {
		t.Fatal("the in-process learner has no shared segment, or its Info did not declare shared_memory")
	}
	const rows = 400
	m := matrix.EncodeMatrix(sdk.Matrix{Dense: mat.NewDense(rows, 3, nil)})
	if _, err := p.EnsureDataset(ctx, m); err != nil {
		t.Fatal(err)
	}
	all := make([]int, rows)
	targets := make([]float64, rows)
	for i := range all {
		all[i], targets[i] = i, float64(1-2*(i%2))
	}
	problems := make([]sdk.Problem, 7)
	for i := range problems {
		problems[i] = sdk.Problem{Kind: sdk.Binary, Targets: targets}
	}
	models, err := p.Learner.Fit(ctx, m.Digest, all, nil, problems, 0)
	if err != nil {
		t.Fatal(err)
	}
	predict := func() (scores, probs *mat.Dense, received int64) {
		t.Helper()
		before := predictReceived(h)
		scores, probs, err := p.Learner.Predict(ctx, m.Digest, all, models, true)
		if err != nil {
			t.Fatal(err)
		}
		return scores, probs, predictReceived(h) - before
	}
	sharedScores, sharedProbs, sharedBytes := predict()
	// Fill the segment: the next answer cannot have a region.
	filler, ok := p.shared.Alloc(p.shared.Size() - sharedmem.Align)
	if !ok {
		t.Fatal("could not allocate the free segment")
	}
	inlineScores, inlineProbs, inlineBytes := predict()
	p.shared.Free(filler)
	sameBits(t, "scores", sharedScores, inlineScores)
	sameBits(t, "probabilities", sharedProbs, inlineProbs)
	if want := float64(rows-1) + 0.4; sharedScores.At(rows-1, 6) != want || sharedProbs.At(0, 0) != 0.5 {
		t.Errorf("score (%d, 6) = %v, want %v; probability (0, 0) = %v, want 0.5", rows-1, sharedScores.At(rows-1, 6), want, sharedProbs.At(0, 0))
	}
	if payload := int64(2 * 8 * rows * 7); sharedBytes >= 100 || inlineBytes < payload {
		t.Errorf("predict received %d bytes with the segment, %d without; want < 100 and ≥ %d", sharedBytes, inlineBytes, payload)
	}
}

// predictReceived is the bytes the host has received from Predict calls.
func predictReceived(h *Host) int64 {
	var n int64
	for _, c := range h.Calls() {
		if c.Method == "LearnerService/Predict" {
			n += c.Received
		}
	}
	return n
}

// sameBits fails unless a and b hold the same values bit for bit.
func sameBits(t *testing.T, what string, a, b *mat.Dense) {
	t.Helper()
	ra, ca := a.Dims()
	rb, cb := b.Dims()
	if ra != rb || ca != cb {
		t.Fatalf("%s: %d×%d vs %d×%d", what, ra, ca, rb, cb)
	}
	for i := range ra {
		for j := range ca {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				t.Fatalf("%s (%d, %d): %v vs %v", what, i, j, a.At(i, j), b.At(i, j))
			}
		}
	}
}

// TestSharedDecodeMatchesInline decodes the same one-vs-one scores and
// probabilities through the shared segment and inline, with the reducers
// plugin as a process (the segment passed as its descriptor 3) and linked
// in: the answers are identical, and the shared requests carry a few
// hundred bytes instead of the matrices.
func TestSharedDecodeMatchesInline(t *testing.T) {
	const K, nTrain, nTest = 6, 120, 300
	for _, mode := range []string{"process", "linked"} {
		t.Run(mode, func(t *testing.T) {
			ctx := context.Background()
			h, p, params, plan := ovoReducer(t, mode, K, nTrain)
			rng := rand.New(rand.NewPCG(3, 4))
			probs := randomDense(rng, nTest, len(plan.Problems))
			probs.Apply(func(_, _ int, v float64) float64 { return 1 / (1 + math.Exp(-v)) }, probs)
			req := sdk.DecodeRequest{Scheme: "ovo", Params: params, State: plan.State, Scores: randomDense(rng, nTest, len(plan.Problems)), Probabilities: probs}
			decode := func() (sdk.Decoding, int64) {
				t.Helper()
				var before int64
				for _, c := range h.Calls() {
					if c.Method == "ReducerService/Decode" {
						before = c.Sent
					}
				}
				d, err := p.Reducer.Decode(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range h.Calls() {
					if c.Method == "ReducerService/Decode" {
						return d, c.Sent - before
					}
				}
				t.Fatal("no Decode call counted")
				return d, 0
			}
			shared, sharedSent := decode()
			p.Reducer.Share(nil)
			inline, inlineSent := decode()
			sameDecoding(t, shared, inline)
			if payload := int64(2 * 8 * nTest * len(plan.Problems)); sharedSent >= 1000 || inlineSent < payload {
				t.Errorf("decode sent %d bytes through the segment, %d inline; want < 1000 and ≥ %d", sharedSent, inlineSent, payload)
			}
		})
	}
}

// ovoReducer starts the reducers plugin, as a process (the binary built
// for these tests) or linked in (mode "linked"), on a host closed when tb
// ends, and plans one-vs-one voting for K classes over nTrain rows.
func ovoReducer(tb testing.TB, mode string, K, nTrain int) (*Host, *Plugin, sdk.Params, sdk.Plan) {
	tb.Helper()
	labels := make([]int, nTrain)
	for i := range labels {
		labels[i] = i % K
	}
	dir := tb.TempDir()
	copyFile(tb, reducers, filepath.Join(dir, "bench-plugin-reducers"), 0o755)
	ctx := context.Background()
	h := New(dir, nil)
	tb.Cleanup(h.Close)
	if mode == "linked" {
		h.Register("reducers", InProcess{Reducer: reducer.New()})
	}
	p, err := h.Get(ctx, "reducers")
	if err != nil {
		tb.Fatal(err)
	}
	params := sdk.Params{"decode": sdk.String("vote")}
	plan, err := p.Reducer.Plan(ctx, sdk.PlanRequest{Scheme: "ovo", Params: params, NumClasses: K, Labels: labels, Seed: 1})
	if err != nil {
		tb.Fatal(err)
	}
	return h, p, params, plan
}

// gateLearner's models block in Predict until their context ends, then
// write into the answer anyway: a plugin still busy with a call the host
// has given up on.
type gateLearner struct{ started chan struct{} }

func (gateLearner) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{Name: "gate", Version: "1", Capabilities: sdk.Capabilities{Binary: true, Scores: true}}
}

func (l gateLearner) Fit(context.Context, sdk.FitInput, sdk.Params) (sdk.Model, error) {
	return gateModel(l), nil
}

type gateModel gateLearner

func (gateModel) Outputs() int { return 1 }

func (m gateModel) Predict(ctx context.Context, _ sdk.Matrix, scores, _ *mat.Dense) error {
	m.started <- struct{}{}
	<-ctx.Done()
	scores.Set(0, 0, 666)
	return ctx.Err()
}

// TestCancelledPredictForfeitsRegion: the region a cancelled Predict call
// offered is not given to a later call, since the plugin may still write
// into it.
func TestCancelledPredictForfeitsRegion(t *testing.T) {
	ctx := context.Background()
	h := New("", nil)
	l := gateLearner{started: make(chan struct{}, 1)}
	h.Register("gate", InProcess{Learner: l})
	defer h.Close()
	p, err := h.Get(ctx, "gate")
	if err != nil {
		t.Fatal(err)
	}
	m := matrix.EncodeMatrix(sdk.Matrix{Dense: mat.NewDense(4, 2, nil)})
	if _, err := p.EnsureDataset(ctx, m); err != nil {
		t.Fatal(err)
	}
	models, err := p.Learner.Fit(ctx, m.Digest, []int{0, 1, 2, 3}, nil, []sdk.Problem{{Kind: sdk.Binary, Targets: []float64{1, -1, 1, -1}}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	go func() {
		<-l.started
		cancel()
	}()
	if _, _, err := p.Learner.Predict(cctx, m.Digest, []int{0, 1, 2, 3}, models, false); err == nil {
		t.Fatal("the cancelled Predict succeeded")
	}
	// The call's region was the segment's first, [Align, Align+64).
	r, ok := p.shared.Alloc(8 * 4)
	if !ok || r.Offset == sharedmem.Align {
		t.Errorf("after the cancelled call Alloc gave %+v (ok %v): the cancelled call's region again", r, ok)
	}
	p.shared.Free(r)
}
