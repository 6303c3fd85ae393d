package conformance

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"
	"google.golang.org/grpc/codes"

	"github.com/polyclass/polyclass/framework/internal/client"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/sdk"
)

// checkInfo checks a learner's description.
func checkInfo(info sdk.LearnerInfo) error {
	var errs []error
	c := info.Capabilities
	if strings.TrimSpace(info.Name) == "" {
		errs = append(errs, errors.New("no name"))
	}
	if strings.TrimSpace(info.Version) == "" {
		errs = append(errs, errors.New("no version"))
	}
	if !c.Binary && !c.Multiclass && !c.Regression {
		errs = append(errs, errors.New("trains no kind of problem (binary, multiclass, regression)"))
	}
	if !c.Scores && !c.Probabilities {
		errs = append(errs, errors.New("predicts neither scores nor probabilities"))
	}
	seen := map[string]bool{}
	for _, s := range info.Params {
		switch {
		case s.Name == "":
			errs = append(errs, errors.New("a parameter has no name"))
		case seen[s.Name]:
			errs = append(errs, fmt.Errorf("parameter %s is declared twice", s.Name))
		case s.Name == sdk.AnyName && s.Type != sdk.AnyParam:
			errs = append(errs, fmt.Errorf("parameter %s must have type any", sdk.AnyName))
		case s.Type.String() == "unknown":
			errs = append(errs, fmt.Errorf("parameter %s has an unknown type %d", s.Name, s.Type))
		}
		seen[s.Name] = true
		if s.Min != nil && s.Max != nil && *s.Min > *s.Max {
			errs = append(errs, fmt.Errorf("parameter %s: min %v > max %v", s.Name, *s.Min, *s.Max))
		}
		if err := s.CheckDefault(); err != nil {
			errs = append(errs, err)
		}
	}
	errs = append(errs, param.CheckConditions(info.Params)...)
	return errors.Join(errs...)
}

func checkInfoRPC(ctx context.Context, s *session) (string, error) {
	info, err := s.c().Info(ctx)
	if err != nil {
		return "", err
	}
	s.info = info
	if err := checkInfo(info); err != nil {
		return "", err
	}
	c := info.Capabilities
	var kinds []string
	for _, k := range []struct {
		on   bool
		name string
	}{{c.Binary, "binary"}, {c.Multiclass, "multiclass"}, {c.Regression, "regression"}, {c.Scores, "scores"},
		{c.Probabilities, "probabilities"}, {c.Sparse, "sparse"}, {c.Weights, "weights"}} {
		if k.on {
			kinds = append(kinds, k.name)
		}
	}
	params := "parameters"
	if len(info.Params) == 1 {
		params = "parameter"
	}
	return fmt.Sprintf("%s %s: %s; %d %s", info.Name, info.Version, strings.Join(kinds, ", "), len(info.Params), params), nil
}

// upload sends m unless the plugin holds it.
func (s *session) upload(ctx context.Context, m sdk.Matrix) (*matrix.EncodedMatrix, error) {
	enc := matrix.EncodeMatrix(m)
	if _, err := s.c().Ensure(ctx, enc); err != nil {
		return nil, fmt.Errorf("upload: %w", err)
	}
	return enc, nil
}

// fitPredict trains problems on rows of fit and predicts rows of pred
// (both of enc), releasing the models.
func (s *session) fitPredict(ctx context.Context, enc *matrix.EncodedMatrix, rows []int, problems []sdk.Problem, predRows []int, probs bool) (scores, prob *mat.Dense, models []client.ModelRef, err error) {
	models, err = s.c().Fit(ctx, enc.Digest, rows, s.t.Params, problems, 0)
	if err != nil {
		return nil, nil, nil, err
	}
	defer s.c().Release(ctx, models)
	scores, prob, err = s.c().Predict(ctx, enc.Digest, predRows, models, probs)
	return scores, prob, models, err
}

func checkUpload(ctx context.Context, s *session) (string, error) {
	x, y := noisy(3000, 100, 0, 1, true)
	enc := matrix.EncodeMatrix(sdk.Matrix{Dense: x})
	missing, err := s.c().Missing(ctx, enc.Digest)
	if err != nil {
		return "", err
	}
	if len(missing) != 1 || missing[0] != enc.Digest {
		return "", fmt.Errorf("has: a digest never uploaded is not reported missing (missing = %v)", missing)
	}
	if _, err := s.c().Ensure(ctx, enc); err != nil {
		return "", fmt.Errorf("upload of %d bytes in %d chunks: %w", enc.Size(), (enc.Size()+matrix.ChunkSize-1)/matrix.ChunkSize, err)
	}
	if missing, err = s.c().Missing(ctx, enc.Digest); err != nil || len(missing) != 0 {
		return "", fmt.Errorf("has, after the upload: missing %v, %v", missing, err)
	}
	if again, err := s.c().Ensure(ctx, enc); err != nil || again {
		return "", fmt.Errorf("a second Ensure uploaded again (%v, %v)", again, err)
	}
	// The last 100 rows predict as a separate copy of them does.
	copyRows := mat.DenseCopyOf(x.Slice(2900, 3000, 0, 100))
	small, err := s.upload(ctx, sdk.Matrix{Dense: copyRows})
	if err != nil {
		return "", err
	}
	p := problemFor(s.info.Capabilities, y[:2900])
	models, err := s.c().Fit(ctx, enc.Digest, seq(2900), s.t.Params, []sdk.Problem{p}, 0)
	if err != nil {
		return "", fmt.Errorf("fit on the chunked upload: %w", err)
	}
	defer s.c().Release(ctx, models)
	tail := make([]int, 100)
	for i := range tail {
		tail[i] = 2900 + i
	}
	a, _, err := s.c().Predict(ctx, enc.Digest, tail, models, false)
	if err != nil {
		return "", fmt.Errorf("predict on the chunked upload: %w", err)
	}
	b, _, err := s.c().Predict(ctx, small.Digest, seq(100), models, false)
	if err != nil {
		return "", fmt.Errorf("predict on the copy: %w", err)
	}
	if !sameBits(a, b) {
		return "", errors.New("rows 2900..2999 of the chunked upload predict differently from an unchunked copy of them: the chunks were not put together intact")
	}
	// A tampered upload: the bytes no longer hash to the digest.
	t, _ := noisy(5, 3, 0, 2, true)
	bad := matrix.EncodeMatrix(sdk.Matrix{Dense: t})
	bad.Data = append([]byte(nil), bad.Data...)
	bad.Data[3] ^= 0x40
	if err := s.c().Upload(ctx, bad); err == nil {
		return "", errors.New("an upload whose bytes do not hash to its digest was accepted")
	}
	return fmt.Sprintf("%d bytes in %d chunks, intact; tampered upload refused", enc.Size(), (enc.Size()+matrix.ChunkSize-1)/matrix.ChunkSize), nil
}

// kinds are the problems the learner trains, on labels y of k classes.
func (s *session) kinds(y []int, k int) map[string][]sdk.Problem {
	c := s.info.Capabilities
	out := map[string][]sdk.Problem{}
	if c.Binary {
		out["binary"] = []sdk.Problem{binaryProblem(y, 0), binaryProblem(y, 2), pairProblem(y, 0, 1)}
	}
	if c.Multiclass {
		out["multiclass"] = []sdk.Problem{multiclassProblem(y, k)}
	}
	if c.Regression {
		out["regression"] = []sdk.Problem{regressionProblem(y)}
	}
	return out
}

var kindOrder = []string{"binary", "multiclass", "regression"}

func checkCSR(ctx context.Context, s *session) (string, error) {
	if !s.info.Capabilities.Sparse {
		return "", errSkip("the learner does not declare sparse: the host sends it dense matrices only")
	}
	d, c, y := wideBlobs()
	denc, err := s.upload(ctx, sdk.Matrix{Dense: d})
	if err != nil {
		return "", err
	}
	cenc, err := s.upload(ctx, sdk.Matrix{CSR: c})
	if err != nil {
		return "", fmt.Errorf("CSR %w", err)
	}
	problems := s.kinds(y, 3)
	for _, kind := range kindOrder {
		for i, p := range problems[kind] {
			want, _, _, err := s.fitPredict(ctx, denc, seq(12), []sdk.Problem{p}, seq(13), false)
			if code(err) == codes.InvalidArgument {
				continue // refused under these parameters (see fit-predict)
			}
			if err != nil {
				return "", fmt.Errorf("%s problem %d on the dense copy: %w", kind, i, err)
			}
			got, _, _, err := s.fitPredict(ctx, cenc, seq(12), []sdk.Problem{p}, seq(13), false)
			if err != nil {
				return "", fmt.Errorf("%s problem %d on CSR: %w", kind, i, err)
			}
			if r, k := got.Dims(); r != 13 || k != outputs(p) {
				return "", fmt.Errorf("%s problem %d on CSR: scores %d×%d, want 13×%d", kind, i, r, k, outputs(p))
			}
			if kind == "regression" {
				continue
			}
			gd, wd := decisions(got), decisions(want)
			for r := range gd {
				if gd[r] != wd[r] {
					return "", fmt.Errorf("%s problem %d: row %d decided %d on CSR, %d on the dense copy", kind, i, r, gd[r], wd[r])
				}
			}
		}
	}
	return "13×5 CSR with an empty row: same decisions as dense", nil
}

// outputs is the number of score columns a problem's model must have.
func outputs(p sdk.Problem) int {
	if p.Kind == sdk.Multiclass {
		return p.NumClasses
	}
	return 1
}

func checkFitPredict(ctx context.Context, s *session) (string, error) {
	x, y := BlobsMatrix()
	enc, err := s.upload(ctx, sdk.Matrix{Dense: x})
	if err != nil {
		return "", err
	}
	c := s.info.Capabilities
	problems := s.kinds(y, 3)
	var done, refused []string
	for _, kind := range kindOrder {
		ps := problems[kind]
		if ps == nil {
			continue
		}
		models, err := s.c().Fit(ctx, enc.Digest, seq(12), s.t.Params, ps, 0)
		if code(err) == codes.InvalidArgument {
			// A capability may hold under some parameters only (a bridge
			// whose estimator is a classifier refuses regression).
			refused = append(refused, fmt.Sprintf("%s refused under these parameters (%v)", kind, err))
			continue
		}
		if err != nil {
			return "", fmt.Errorf("%s: fit: %w", kind, err)
		}
		defer s.c().Release(ctx, models)
		if len(models) != len(ps) {
			return "", fmt.Errorf("%s: %d models for %d problems", kind, len(models), len(ps))
		}
		width := 0
		for i, m := range models {
			if m.Outputs != outputs(ps[i]) {
				return "", fmt.Errorf("%s problem %d: the model has %d outputs, want %d", kind, i, m.Outputs, outputs(ps[i]))
			}
			width += m.Outputs
		}
		scores, prob, err := s.c().Predict(ctx, enc.Digest, seq(12), models, true)
		if err != nil {
			return "", fmt.Errorf("%s: %w", kind, err) // the host says "predict: …"
		}
		if err := checkShape("scores", scores, 12, width); err != nil {
			return "", fmt.Errorf("%s: %w", kind, err)
		}
		// A learner with probabilities may still answer without them
		// when its models have none (sdk.ProbabilityModel).
		if c.Probabilities && kind != "regression" && prob != nil {
			if err := checkProbabilities(prob, 12, width, kind == "multiclass"); err != nil {
				return "", fmt.Errorf("%s: %w", kind, err)
			}
		}
		// Rows come back in the order asked.
		order := []int{7, 0, 11, 3}
		sub, _, err := s.c().Predict(ctx, enc.Digest, order, models, false)
		if err != nil {
			return "", fmt.Errorf("%s: predict rows %v: %w", kind, order, err)
		}
		if err := checkShape("scores", sub, len(order), width); err != nil {
			return "", fmt.Errorf("%s: predict rows %v: %w", kind, order, err)
		}
		for i, r := range order {
			if !sameBits(mat.NewDense(1, width, sub.RawRowView(i)), mat.NewDense(1, width, scores.RawRowView(r))) {
				return "", fmt.Errorf("%s: predicting rows %v, row %d scores %v, but %v when predicting every row", kind, order, r, sub.RawRowView(i), scores.RawRowView(r))
			}
		}
		if err := learnt(kind, ps, scores, y); err != nil {
			return "", err
		}
		done = append(done, kind)
	}
	if len(done) == 0 {
		return "", errors.New(strings.Join(refused, "; "))
	}
	return strings.Join(append([]string{strings.Join(done, ", ") + ": shapes, row order and the blobs right"}, refused...), "; "), nil
}

// learnt checks that the models of problems separate the blobs they were
// trained on.
func learnt(kind string, ps []sdk.Problem, scores *mat.Dense, y []int) error {
	switch kind {
	case "binary":
		for j, p := range ps {
			for i, t := range p.Targets {
				if t != 0 && (scores.At(i, j) > 0) != (t > 0) {
					return fmt.Errorf("binary problem %d: row %d (class %d) scores %v: the separable blobs are not learnt", j, i, y[i], scores.At(i, j))
				}
			}
		}
	case "multiclass":
		for i, k := range y {
			if got := argmax(scores.RawRowView(i)); got != k {
				return fmt.Errorf("multiclass: row %d (class %d) scores %v: the separable blobs are not learnt", i, k, scores.RawRowView(i))
			}
		}
	}
	return nil
}

func checkShape(what string, m *mat.Dense, rows, cols int) error {
	if m == nil {
		return fmt.Errorf("no %s", what)
	}
	if r, c := m.Dims(); r != rows || c != cols {
		return fmt.Errorf("%s %d×%d, want %d×%d", what, r, c, rows, cols)
	}
	if i, j, ok := finite(m); !ok {
		return fmt.Errorf("%s[%d][%d] = %v", what, i, j, m.At(i, j))
	}
	return nil
}

func checkProbabilities(p *mat.Dense, rows, cols int, sumToOne bool) error {
	if err := checkShape("probabilities", p, rows, cols); err != nil {
		return err
	}
	for i := 0; i < rows; i++ {
		var sum float64
		for j := 0; j < cols; j++ {
			v := p.At(i, j)
			if v < 0 || v > 1 {
				return fmt.Errorf("probability [%d][%d] = %v is not in [0, 1]", i, j, v)
			}
			sum += v
		}
		if sumToOne && math.Abs(sum-1) > 1e-6 {
			return fmt.Errorf("the probabilities of row %d sum to %v, not 1", i, sum)
		}
	}
	return nil
}

func checkRelease(ctx context.Context, s *session) (string, error) {
	x, y := BlobsMatrix()
	enc, err := s.upload(ctx, sdk.Matrix{Dense: x})
	if err != nil {
		return "", err
	}
	models, err := s.c().Fit(ctx, enc.Digest, seq(12), s.t.Params, []sdk.Problem{problemFor(s.info.Capabilities, labels01(y))}, 0)
	if err != nil {
		return "", err
	}
	if err := s.c().Release(ctx, models); err != nil {
		return "", err
	}
	_, _, err = s.c().Predict(ctx, enc.Digest, seq(12), models, false)
	if err == nil {
		return "", fmt.Errorf("model %s still predicts after Release", models[0].Handle)
	}
	return fmt.Sprintf("predict after release: %s", code(err)), nil
}

// labels01 maps classes 0..2 to 0 (class 0) and 1 (the others).
func labels01(y []int) []int {
	out := make([]int, len(y))
	for i, k := range y {
		if k != 0 {
			out[i] = 1
		}
	}
	return out
}

func checkForget(ctx context.Context, s *session) (string, error) {
	x, _ := noisy(20, 3, 0, 3, true)
	enc, err := s.upload(ctx, sdk.Matrix{Dense: x})
	if err != nil {
		return "", err
	}
	if err := s.c().Forget(ctx, enc.Digest); err != nil {
		return "", err
	}
	missing, err := s.c().Missing(ctx, enc.Digest)
	if err != nil {
		return "", err
	}
	detail := "forgotten"
	if len(missing) == 0 {
		detail = "Forget not implemented or ignored (allowed: the cache evicts on its own)"
	}
	unknown := strings.Repeat("0", 64)
	p := problemFor(s.info.Capabilities, []int{0, 1})
	_, err = s.c().Fit(ctx, unknown, []int{0, 1}, s.t.Params, []sdk.Problem{p}, 0)
	if code(err) != codes.FailedPrecondition {
		return "", fmt.Errorf("fit on a dataset never uploaded: %v (code %s), want FailedPrecondition, on which the host uploads again", err, code(err))
	}
	return detail + "; unknown dataset: FailedPrecondition", nil
}

// badValue returns a value of the wrong type for spec s.
func badValue(s sdk.ParamSpec) (sdk.Value, bool) {
	for _, v := range []sdk.Value{sdk.String("conformance"), sdk.Bool(true), sdk.List(sdk.Bool(true))} {
		if s.Check(v) != nil {
			return v, true
		}
	}
	return sdk.Value{}, false
}

func checkBadParams(ctx context.Context, s *session) (string, error) {
	x, y := BlobsMatrix()
	enc, err := s.upload(ctx, sdk.Matrix{Dense: x})
	if err != nil {
		return "", err
	}
	p := problemFor(s.info.Capabilities, labels01(y))
	try := func(name string, v sdk.Value, what string) error {
		params := sdk.Params{}
		for k, w := range s.t.Params {
			params[k] = w
		}
		params[name] = v
		models, err := s.c().Fit(ctx, enc.Digest, seq(12), params, []sdk.Problem{p}, 0)
		if err == nil {
			s.c().Release(ctx, models)
			return fmt.Errorf("%s %s = %v was accepted", what, name, v)
		}
		if code(err) != codes.InvalidArgument {
			return fmt.Errorf("%s %s = %v: %v (code %s), want InvalidArgument", what, name, v, err, code(err))
		}
		if !slices.Contains(client.FaultParams(err), name) {
			return fmt.Errorf("%s %s = %v: the error does not blame the parameter in its structured field (a google.rpc.BadRequest field violation params.%s): %v", what, name, v, name, err)
		}
		return nil
	}
	var done []string
	if _, ok := sdk.LookupSpec(s.info.Params, "no_such_parameter"); !ok {
		if err := try("no_such_parameter", sdk.Number(1), "unknown parameter"); err != nil {
			return "", err
		}
		done = append(done, "unknown name")
	}
	for _, spec := range s.info.Params {
		if spec.Type == sdk.AnyParam {
			continue
		}
		if v, ok := badValue(spec); ok {
			if err := try(spec.Name, v, "wrong type:"); err != nil {
				return "", err
			}
			done = append(done, "wrong type for "+spec.Name)
			break
		}
	}
	if len(done) == 0 {
		return "", errSkip("every parameter name and value is accepted (a single parameter of type any)")
	}
	return strings.Join(done, ", ") + ": InvalidArgument blaming it", nil
}

// Cancellation: a Fit of many problems on a large, noisy dataset is
// cancelled once the plugin has spent cancelAfter of CPU on it (or after
// cancelAfter when its CPU cannot be read); the plugin's process must then
// go idle (a window of idleWindow with under idleCPU of CPU) within
// idleWithin.
const (
	cancelAfter = 300 * time.Millisecond
	idleWindow  = 500 * time.Millisecond
	idleCPU     = 20 * time.Millisecond
	idleWithin  = 10 * time.Second
)

func checkCancel(ctx context.Context, s *session) (string, error) {
	x, y := noisy(6000, 40, 0.2, 4, false)
	enc, err := s.upload(ctx, sdk.Matrix{Dense: x})
	if err != nil {
		return "", err
	}
	problems := make([]sdk.Problem, 32)
	for i := range problems {
		problems[i] = problemFor(s.info.Capabilities, y)
		problems[i].Seed = uint64(i)
	}
	fctx, cancel := context.WithCancel(ctx)
	type answer struct {
		models []client.ModelRef
		err    error
	}
	ch := make(chan answer, 1)
	start := time.Now()
	go func() {
		m, err := s.c().Fit(fctx, enc.Digest, seq(6000), s.t.Params, problems, 0)
		ch <- answer{m, err}
	}()
	var a answer
	select {
	case a = <-ch:
	case <-s.computing(fctx):
		cancel()
		a = <-ch
	}
	cancel()
	detail := "cancelled"
	if a.err == nil {
		s.c().Release(ctx, a.models)
		detail = fmt.Sprintf("Fit finished in %v, before it could be cancelled", time.Since(start).Round(time.Millisecond))
	} else if fctx.Err() == nil {
		return "", fmt.Errorf("fit of 32 problems on 6000×40: %w", a.err)
	}
	if s.t.CPUTime != nil {
		idle, err := s.waitIdle(ctx)
		if err != nil {
			return "", err
		}
		detail += fmt.Sprintf("; idle %v after the cancel", idle.Round(100*time.Millisecond))
	} else {
		detail += "; CPU not measured"
	}
	// The plugin answers the next call.
	x2, y2 := BlobsMatrix()
	enc2, err := s.upload(ctx, sdk.Matrix{Dense: x2})
	if err != nil {
		return "", fmt.Errorf("after the cancelled Fit: %w", err)
	}
	if _, _, _, err := s.fitPredict(ctx, enc2, seq(12), []sdk.Problem{problemFor(s.info.Capabilities, labels01(y2))}, seq(12), false); err != nil {
		return "", fmt.Errorf("after the cancelled Fit: %w", err)
	}
	return detail, nil
}

// computing returns a channel closed once the Fit under way is surely
// computing: the plugin's process has used cancelAfter of CPU since the
// call (else, without CPUTime, once cancelAfter has passed). On a busy
// machine the call may reach the plugin late; cancelling it before it
// starts would prove nothing.
// The watch ends with ctx.
func (s *session) computing(ctx context.Context) <-chan struct{} {
	out := make(chan struct{})
	if s.t.CPUTime == nil {
		time.AfterFunc(cancelAfter, func() { close(out) })
		return out
	}
	start, err := s.t.CPUTime()
	go func() {
		defer close(out)
		for deadline := time.Now().Add(idleWithin); err == nil && time.Now().Before(deadline) && ctx.Err() == nil; {
			time.Sleep(20 * time.Millisecond)
			var now time.Duration
			if now, err = s.t.CPUTime(); now-start >= cancelAfter {
				return
			}
		}
	}()
	return out
}

// waitIdle waits until the plugin's process uses under idleCPU in a window
// of idleWindow, and returns how long that took.
func (s *session) waitIdle(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	last, err := s.t.CPUTime()
	if err != nil {
		return 0, fmt.Errorf("CPU time: %w", err)
	}
	first := last
	for time.Since(start) < idleWithin {
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(idleWindow):
		}
		now, err := s.t.CPUTime()
		if err != nil {
			return 0, fmt.Errorf("CPU time: %w", err)
		}
		if now-last < idleCPU {
			return time.Since(start), nil
		}
		last = now
	}
	return 0, fmt.Errorf("the plugin kept computing after its Fit was cancelled: %v of CPU in the %v that followed", (last - first).Round(10*time.Millisecond), idleWithin)
}

func checkDeterministic(ctx context.Context, s *session) (string, error) {
	x, y := noisy(400, 8, 0.25, 5, false)
	enc, err := s.upload(ctx, sdk.Matrix{Dense: x})
	if err != nil {
		return "", err
	}
	var ps []sdk.Problem
	c := s.info.Capabilities
	if c.Binary || !c.Multiclass {
		ps = append(ps, problemFor(c, y))
	}
	if c.Multiclass {
		y3 := make([]int, len(y))
		for i := range y {
			y3[i] = (y[i] + i%2) % 3
		}
		ps = append(ps, multiclassProblem(y3, 3))
	}
	for i := range ps {
		ps[i].Seed = 7
	}
	for i := range ps {
		ps[i].Targets = ps[i].Targets[:300]
	}
	a, _, _, err := s.fitPredict(ctx, enc, seq(300), ps, seq(400), false)
	if err != nil {
		return "", err
	}
	b, _, _, err := s.fitPredict(ctx, enc, seq(300), ps, seq(400), false)
	if err != nil {
		return "", err
	}
	if !sameBits(a, b) {
		return "", errors.New("two Fits with seed 7 predict different scores")
	}
	return fmt.Sprintf("%d problem(s), seed 7: identical scores", len(ps)), nil
}

// checkTogether fits the problems of a 3-class one-vs-all (every row),
// a one-vs-one problem (a subset), multiclass problems on every row and on
// a subset and a regression problem, those the learner trains, in one Fit,
// then each in a Fit of its own: a learner may train the problems of a call
// together (sdk.BatchFitter), but never so that a model changes.
func checkTogether(ctx context.Context, s *session) (string, error) {
	c := s.info.Capabilities
	x, y := noisy(300, 6, 0.2, 11, false)
	for i := range y {
		y[i] = (y[i] + i%3) % 3
	}
	var ps []sdk.Problem
	if c.Binary {
		ps = append(ps, binaryProblem(y, 0), binaryProblem(y, 1), binaryProblem(y, 2), pairProblem(y, 0, 1))
	}
	if c.Multiclass {
		sub := multiclassProblem(y, 3)
		sub.NumClasses = 2
		for i := range sub.Targets {
			sub.Targets[i] = float64(y[i] - 1) // class 0 not used, 1 and 2 become 0 and 1
		}
		ps = append(ps, multiclassProblem(y, 3), sub)
	}
	if c.Regression {
		ps = append(ps, regressionProblem(y))
	}
	for i := range ps {
		ps[i].Seed = 11 + uint64(i)
		ps[i].Targets = ps[i].Targets[:240]
	}
	enc, err := s.upload(ctx, sdk.Matrix{Dense: x})
	if err != nil {
		return "", err
	}
	// Each alone first: a problem the learner refuses under these
	// parameters (fit-predict reports it) is left out.
	var kept []sdk.Problem
	var alone []*mat.Dense
	for _, p := range ps {
		one, _, _, err := s.fitPredict(ctx, enc, seq(240), []sdk.Problem{p}, seq(300), false)
		if outOfTime(ctx, err) {
			// Not a refusal: the check ran out of its limit (else the
			// problems left would be refused for want of time, and the
			// check skipped rather than timed out).
			return "", err
		}
		if err == nil {
			kept, alone = append(kept, p), append(alone, one)
		}
	}
	if len(kept) < 2 {
		return "", errSkip(fmt.Sprintf("the learner trains %d of %d problems alone", len(kept), len(ps)))
	}
	all, _, _, err := s.fitPredict(ctx, enc, seq(240), kept, seq(300), false)
	if err != nil {
		return "", err
	}
	col := 0
	for i, one := range alone {
		_, w := one.Dims()
		if _, cols := all.Dims(); col+w > cols || !sameBits(all.Slice(0, 300, col, col+w).(*mat.Dense), one) {
			return "", fmt.Errorf("problem %d (%s) predicts other scores trained with the others than alone", i, kept[i].Kind)
		}
		col += w
	}
	detail := fmt.Sprintf("%d problems trained together or alone: identical scores", len(kept))
	if len(kept) < len(ps) {
		detail += fmt.Sprintf(" (%d refused alone, left out)", len(ps)-len(kept))
	}
	return detail, nil
}

// outOfTime reports whether err ended a call because the check's limit
// passed: ctx is done, or the plugin's server saw the deadline first
// (DeadlineExceeded, a moment before ctx does).
func outOfTime(ctx context.Context, err error) bool {
	return err != nil && (ctx.Err() != nil || code(err) == codes.DeadlineExceeded)
}

// survives checks that the plugin answers Info after a call.
func (s *session) survives(ctx context.Context, after string) error {
	if _, err := s.c().Info(ctx); err != nil {
		return fmt.Errorf("no answer after %s: %w", after, err)
	}
	return nil
}

// brokenCall reports whether err says the plugin failed rather than
// refused: its process or connection ended.
func brokenCall(err error) bool {
	c := code(err)
	return c == codes.Unavailable || c == codes.Canceled || c == codes.DeadlineExceeded
}

func checkOneClass(ctx context.Context, s *session) (string, error) {
	x, y := BlobsMatrix()
	enc, err := s.upload(ctx, sdk.Matrix{Dense: x})
	if err != nil {
		return "", err
	}
	c := s.info.Capabilities
	one := make([]int, len(y))
	for i := range one {
		one[i] = 1
	}
	var ps []sdk.Problem
	if c.Binary {
		ps = append(ps, binaryProblem(one, 1))
	}
	if c.Multiclass {
		ps = append(ps, multiclassProblem(one, 3))
	}
	if ps == nil {
		return "", errSkip("the learner trains regression problems only")
	}
	var seen []string
	for _, p := range ps {
		scores, _, models, err := s.fitPredict(ctx, enc, seq(12), []sdk.Problem{p}, seq(12), false)
		switch {
		case err != nil && brokenCall(err):
			return "", fmt.Errorf("%s problem with one class: %w", p.Kind, err)
		case err != nil:
			seen = append(seen, fmt.Sprintf("%s: refused (%s)", p.Kind, code(err)))
		default:
			if err := oneClassScores(scores, p, models[0].Outputs); err != nil {
				return "", fmt.Errorf("%s problem with one class: %w", p.Kind, err)
			}
			seen = append(seen, fmt.Sprintf("%s: a model", p.Kind))
		}
		if err := s.survives(ctx, "a one-class problem"); err != nil {
			return "", err
		}
	}
	return strings.Join(seen, "; "), nil
}

func checkEmpty(ctx context.Context, s *session) (string, error) {
	x, y := BlobsMatrix()
	enc, err := s.upload(ctx, sdk.Matrix{Dense: x})
	if err != nil {
		return "", err
	}
	p := problemFor(s.info.Capabilities, labels01(y))
	unused := p
	unused.Targets = make([]float64, 12) // every binary target 0: no row used
	switch p.Kind {
	case sdk.Multiclass:
		// 0 is class 0 here: NotUsed leaves a row out.
		for i := range unused.Targets {
			unused.Targets[i] = sdk.NotUsed
		}
	case sdk.Regression:
		unused.Targets = nil
	}
	rows := seq(12)
	if unused.Targets == nil {
		rows = nil
	}
	models, err := s.c().Fit(ctx, enc.Digest, rows, s.t.Params, []sdk.Problem{unused}, 0)
	if err == nil {
		s.c().Release(ctx, models)
		return "", errors.New("a problem that uses no rows was trained")
	}
	if brokenCall(err) {
		return "", fmt.Errorf("a problem that uses no rows: %w", err)
	}
	refused := code(err)
	if err := s.survives(ctx, "a problem that uses no rows"); err != nil {
		return "", err
	}
	models, err = s.c().Fit(ctx, enc.Digest, seq(12), s.t.Params, []sdk.Problem{p}, 0)
	if err != nil {
		return "", err
	}
	defer s.c().Release(ctx, models)
	scores, _, err := s.c().Predict(ctx, enc.Digest, nil, models, false)
	if err != nil {
		return "", fmt.Errorf("predict of no rows: %w", err)
	}
	if scores != nil {
		if r, _ := scores.Dims(); r != 0 {
			return "", fmt.Errorf("predict of no rows returned %d rows", r)
		}
	}
	return fmt.Sprintf("no rows: refused (%s); predict of no rows: empty", refused), nil
}

// oneClassScores checks the scores of a model trained on one class (class
// 1 of a multiclass problem): 12 rows of finite scores, except that a
// class without training rows may score −∞ (its prior is 0).
func oneClassScores(scores *mat.Dense, p sdk.Problem, width int) error {
	if r, c := scores.Dims(); r != 12 || c != outputs(p) || c != width {
		return fmt.Errorf("scores %d×%d, want 12×%d", r, c, outputs(p))
	}
	for i := 0; i < 12; i++ {
		for j, v := range scores.RawRowView(i) {
			absent := p.Kind == sdk.Multiclass && j != 1
			if math.IsNaN(v) || math.IsInf(v, 1) || (math.IsInf(v, -1) && !absent) {
				return fmt.Errorf("scores[%d][%d] = %v", i, j, v)
			}
		}
	}
	return nil
}

// sameBits reports whether a and b have the same shape and bit-identical
// entries (NaN equals NaN).
func sameBits(a, b *mat.Dense) bool {
	ar, ac := a.Dims()
	br, bc := b.Dims()
	if ar != br || ac != bc {
		return false
	}
	for i := 0; i < ar; i++ {
		for j := 0; j < ac; j++ {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				return false
			}
		}
	}
	return true
}
