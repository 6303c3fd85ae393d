package conformance

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
	"google.golang.org/grpc/codes"

	"github.com/polyclass/polyclass/framework/internal/client"
	"github.com/polyclass/polyclass/framework/sdk"
)

// ReducerChecks lists the reducer suite in the order RunReducer runs it.
func ReducerChecks() []Check {
	return []Check{
		{"info", "Info answers: a name, a version, schemes with unique names and sane parameter schemas", nil},
		{"plan-decode", "each scheme plans K = 3 classes (or labels) with its default parameters: one target per training row, a K × L code matrix when it has one; Decode of L score columns returns one class in 0..K−1 (or a row of K labels) per test row and finite class scores", nil},
		{"bad-params", "an unknown parameter and a value of the wrong type are InvalidArgument errors that blame the parameter in their structured field", nil},
		{"deterministic", "two Plans with the same seed are identical", nil},
		{"row-wise-decode", "each scheme that declares row_wise_decode decodes 130 test rows (with and without probabilities) in two halves as at once, bit for bit: predictions, class scores, label matrices, ties summed", nil},
	}
}

// RunReducer runs the reducer suite on a reducer plugin.
func RunReducer(ctx context.Context, c *client.ReducerClient) []Result {
	ctx, cancel := context.WithTimeout(ctx, DefaultTimeout)
	defer cancel()
	info, err := c.Info(ctx)
	var out []Result
	add := func(name, detail string, err error) {
		r := Result{Check: name, Detail: detail}
		var skip errSkip
		switch {
		case errors.As(err, &skip):
			r.Status, r.Detail = Skip, skip.Error()
		case err != nil:
			r.Status, r.Detail = Fail, err.Error()
		}
		out = append(out, r)
	}
	if err == nil {
		err = checkReducerInfo(info)
	}
	add("info", fmt.Sprintf("%s %s: %d schemes", info.Name, info.Version, len(info.Schemes)), err)
	if err != nil {
		return out
	}
	d, err := checkPlanDecode(ctx, c, info)
	add("plan-decode", d, err)
	d, err = checkReducerBadParams(ctx, c, info)
	add("bad-params", d, err)
	d, err = checkPlanDeterministic(ctx, c, info)
	add("deterministic", d, err)
	d, err = checkRowWiseDecode(ctx, c, info)
	add("row-wise-decode", d, err)
	return out
}

func checkReducerInfo(info sdk.ReducerInfo) error {
	var errs []error
	if strings.TrimSpace(info.Name) == "" || strings.TrimSpace(info.Version) == "" {
		errs = append(errs, errors.New("no name or no version"))
	}
	if len(info.Schemes) == 0 {
		errs = append(errs, errors.New("no schemes"))
	}
	seen := map[string]bool{}
	for _, s := range info.Schemes {
		if s.Name == "" || seen[s.Name] {
			errs = append(errs, fmt.Errorf("scheme name %q empty or declared twice", s.Name))
		}
		seen[s.Name] = true
		// The parameter checks of a learner's Info apply to a scheme's.
		li := sdk.LearnerInfo{Name: s.Name, Version: "-", Capabilities: sdk.Capabilities{Binary: true, Scores: true}, Params: s.Params}
		if err := checkInfo(li); err != nil {
			errs = append(errs, fmt.Errorf("scheme %s: %w", s.Name, err))
		}
	}
	return errors.Join(errs...)
}

// planRequest is a K = 3 problem of 12 training rows, 4 per class (a
// label matrix with two labels per row for a multi-label scheme).
func planRequest(s sdk.Scheme, params sdk.Params, seed uint64) sdk.PlanRequest {
	req := sdk.PlanRequest{Scheme: s.Name, Params: params, NumClasses: 3, ClassNames: []string{"a", "b", "c"}, Seed: seed}
	_, y := BlobsMatrix()
	if s.MultiLabel {
		req.LabelMatrix = mat.NewDense(12, 3, nil)
		for i, k := range y {
			req.LabelMatrix.Set(i, k, 1)
			req.LabelMatrix.Set(i, (k+1+i%2)%3, 1)
		}
		return req
	}
	req.Labels = y
	return req
}

// scoresFor makes n rows of scores for a plan's problems, deterministic
// and varied: binary and regression problems 1 column, multiclass K.
func scoresFor(p sdk.Plan, n int) *mat.Dense {
	width := 0
	for _, q := range p.Problems {
		width += outputs(q)
	}
	m := mat.NewDense(n, max(width, 1), nil)
	for i := 0; i < n; i++ {
		for j := 0; j < width; j++ {
			m.Set(i, j, float64((i*7+j*3)%11)/5-1)
		}
	}
	return m
}

func checkPlanDecode(ctx context.Context, c *client.ReducerClient, info sdk.ReducerInfo) (string, error) {
	var ran, needs, staged []string
	for _, s := range info.Schemes {
		req := planRequest(s, nil, 1)
		plan, err := c.Plan(ctx, req)
		if err != nil {
			if code(err) == codes.InvalidArgument {
				needs = append(needs, s.Name)
				continue
			}
			return "", fmt.Errorf("scheme %s: plan: %w", s.Name, err)
		}
		if len(plan.Problems) == 0 {
			return "", fmt.Errorf("scheme %s: a plan with no problems", s.Name)
		}
		// The host's Plan refuses problems without a target per training row.
		for i, p := range plan.Problems {
			if p.Kind < sdk.Binary || p.Kind > sdk.Regression {
				return "", fmt.Errorf("scheme %s: problem %d has kind %d", s.Name, i, p.Kind)
			}
		}
		if cm := plan.Code; cm != nil && (cm.Rows != 3 || cm.Cols != len(plan.Problems) || len(cm.Entries) != cm.Rows*cm.Cols) {
			return "", fmt.Errorf("scheme %s: a %d×%d code matrix (%d entries) for 3 classes and %d problems", s.Name, cm.Rows, cm.Cols, len(cm.Entries), len(plan.Problems))
		}
		if plan.NextStage != nil {
			staged = append(staged, s.Name)
			continue
		}
		dreq := sdk.DecodeRequest{Scheme: s.Name, State: plan.State, Scores: scoresFor(plan, 5)}
		if plan.NeedsTrainingScores {
			dreq.TrainingScores = scoresFor(plan, 12)
		}
		dec, err := c.Decode(ctx, dreq)
		if err != nil {
			return "", fmt.Errorf("scheme %s: decode: %w", s.Name, err)
		}
		if err := checkDecoding(s, dec, 5); err != nil {
			return "", fmt.Errorf("scheme %s: %w", s.Name, err)
		}
		ran = append(ran, s.Name)
	}
	if len(ran) == 0 {
		return "", errSkip("no scheme plans with its default parameters")
	}
	d := fmt.Sprintf("%d schemes planned and decoded", len(ran))
	if len(needs) > 0 {
		d += fmt.Sprintf("; %s need parameters", strings.Join(needs, ", "))
	}
	if len(staged) > 0 {
		d += fmt.Sprintf("; %s staged (decode not checked)", strings.Join(staged, ", "))
	}
	return d, nil
}

func checkDecoding(s sdk.Scheme, dec sdk.Decoding, n int) error {
	if s.MultiLabel {
		if dec.LabelMatrix == nil {
			return errors.New("no label matrix for a multi-label scheme")
		}
		if r, k := dec.LabelMatrix.Dims(); r != n || k != 3 {
			return fmt.Errorf("a %d×%d label matrix for %d test rows and 3 labels", r, k, n)
		}
		return nil
	}
	if len(dec.Predicted) != n {
		return fmt.Errorf("%d predictions for %d test rows", len(dec.Predicted), n)
	}
	for i, k := range dec.Predicted {
		if k < 0 || k >= 3 {
			return fmt.Errorf("row %d predicted class %d, not in 0..2", i, k)
		}
	}
	if dec.ClassScores != nil {
		if err := checkShape("class scores", dec.ClassScores, n, 3); err != nil {
			return err
		}
	}
	return nil
}

func checkReducerBadParams(ctx context.Context, c *client.ReducerClient, info sdk.ReducerInfo) (string, error) {
	for _, s := range info.Schemes {
		if _, err := c.Plan(ctx, planRequest(s, nil, 1)); err != nil {
			continue // needs parameters: its errors may be about those
		}
		try := func(name string, v sdk.Value) error {
			_, err := c.Plan(ctx, planRequest(s, sdk.Params{name: v}, 1))
			switch {
			case err == nil:
				return fmt.Errorf("scheme %s: %s = %v was accepted", s.Name, name, v)
			case code(err) != codes.InvalidArgument:
				return fmt.Errorf("scheme %s: %s = %v: %v (code %s), want InvalidArgument", s.Name, name, v, err, code(err))
			case !slices.Contains(client.FaultParams(err), name):
				return fmt.Errorf("scheme %s: %s = %v: the error does not blame the parameter in its structured field (a google.rpc.BadRequest field violation params.%s): %v", s.Name, name, v, name, err)
			}
			return nil
		}
		if _, ok := sdk.LookupSpec(s.Params, "no_such_parameter"); !ok {
			if err := try("no_such_parameter", sdk.Number(1)); err != nil {
				return "", err
			}
		}
		for _, spec := range s.Params {
			if v, ok := badValue(spec); ok && spec.Type != sdk.AnyParam {
				if err := try(spec.Name, v); err != nil {
					return "", err
				}
				return fmt.Sprintf("scheme %s: unknown name and wrong type for %s: InvalidArgument blaming it", s.Name, spec.Name), nil
			}
		}
		return fmt.Sprintf("scheme %s: unknown name: InvalidArgument blaming it", s.Name), nil
	}
	return "", errSkip("no scheme plans with its default parameters")
}

func checkPlanDeterministic(ctx context.Context, c *client.ReducerClient, info sdk.ReducerInfo) (string, error) {
	n := 0
	for _, s := range info.Schemes {
		a, err := c.Plan(ctx, planRequest(s, nil, 11))
		if err != nil {
			continue
		}
		b, err := c.Plan(ctx, planRequest(s, nil, 11))
		if err != nil {
			return "", fmt.Errorf("scheme %s: the second plan failed: %w", s.Name, err)
		}
		if !reflect.DeepEqual(a, b) {
			return "", fmt.Errorf("scheme %s: two plans with seed 11 differ", s.Name)
		}
		n++
	}
	if n == 0 {
		return "", errSkip("no scheme plans with its default parameters")
	}
	return fmt.Sprintf("%d schemes, seed 11: identical plans", n), nil
}

// rowWiseRows is the number of test rows checkRowWiseDecode decodes: two
// halves of 65, each over a 64-row block of gonum's matrix products.
const rowWiseRows = 130

// checkRowWiseDecode decodes, for each scheme that declares RowWiseDecode
// and plans with its default parameters (a staged scheme's last stage),
// varied scores of rowWiseRows test rows at once and in two halves, with
// and without probabilities, and compares the answers bit for bit: the
// host splits such a scheme's decode over the message bound and trusts
// the joined answer to be the whole one.
func checkRowWiseDecode(ctx context.Context, c *client.ReducerClient, info sdk.ReducerInfo) (string, error) {
	var checked, skipped []string
	for _, s := range info.Schemes {
		if !s.RowWiseDecode {
			continue
		}
		req := planRequest(s, nil, 1)
		plan, err := c.Plan(ctx, req)
		for stage := 1; err == nil && plan.NextStage != nil && stage < 4; stage++ {
			req.Stage, req.State = stage, plan.State
			plan, err = c.Plan(ctx, req)
		}
		if err != nil || plan.NextStage != nil {
			skipped = append(skipped, s.Name)
			continue
		}
		scores := variedScores(plan, rowWiseRows, 1)
		probs := mat.NewDense(rowWiseRows, scores.RawMatrix().Cols, nil)
		probs.Apply(func(_, _ int, v float64) float64 { return 1 / (1 + math.Exp(-v)) }, scores)
		for _, p := range []*mat.Dense{nil, probs} {
			dreq := sdk.DecodeRequest{Scheme: s.Name, State: plan.State, Scores: scores, Probabilities: p}
			if plan.NeedsTrainingScores {
				dreq.TrainingScores = variedScores(plan, 12, 2)
			}
			what := "scores"
			if p != nil {
				what = "scores and probabilities"
			}
			if err := decodeHalves(ctx, c, dreq); err != nil {
				return "", fmt.Errorf("scheme %s declares row_wise_decode, but decoding %d test rows' %s in two halves %w", s.Name, rowWiseRows, what, err)
			}
		}
		checked = append(checked, s.Name)
	}
	if len(checked) == 0 {
		if len(skipped) > 0 {
			return "", errSkip(fmt.Sprintf("the schemes that declare row_wise_decode need parameters or more stages to plan: %s", strings.Join(skipped, ", ")))
		}
		return "", errSkip("no scheme declares row_wise_decode")
	}
	d := fmt.Sprintf("%s: halves decode as the whole", strings.Join(checked, ", "))
	if len(skipped) > 0 {
		d += fmt.Sprintf("; not checked, needing parameters or more stages to plan: %s", strings.Join(skipped, ", "))
	}
	return d, nil
}

// variedScores makes n rows of normal scores for a plan's problems, as
// scoresFor shapes them, from a fixed seed.
func variedScores(p sdk.Plan, n int, seed uint64) *mat.Dense {
	m := scoresFor(p, n)
	rng := rand.New(rand.NewPCG(seed, 7))
	m.Apply(func(_, _ int, _ float64) float64 { return rng.NormFloat64() }, m)
	return m
}

// decodeHalves decodes req at once and in two halves of its test rows and
// returns an error (completing "decoding … in two halves") unless the
// answers agree bit for bit.
func decodeHalves(ctx context.Context, c *client.ReducerClient, req sdk.DecodeRequest) error {
	whole, err := c.Decode(ctx, req)
	if err != nil {
		return fmt.Errorf("could not be compared: decoding them at once failed: %w", err)
	}
	n, _ := req.Scores.Dims()
	var parts [2]sdk.Decoding
	for h, rows := range [2][2]int{{0, n / 2}, {n / 2, n}} {
		part := req
		part.Scores = sliceRows(req.Scores, rows[0], rows[1])
		part.Probabilities = sliceRows(req.Probabilities, rows[0], rows[1])
		if parts[h], err = c.Decode(ctx, part); err != nil {
			return fmt.Errorf("failed: rows %d..%d: %w", rows[0], rows[1]-1, err)
		}
	}
	if !slices.Equal(whole.Predicted, append(slices.Clip(parts[0].Predicted), parts[1].Predicted...)) {
		return errors.New("gives other predicted classes than decoding them at once")
	}
	if whole.Ties != parts[0].Ties+parts[1].Ties {
		return fmt.Errorf("counts %d + %d ties, at once %d", parts[0].Ties, parts[1].Ties, whole.Ties)
	}
	for _, m := range []struct {
		name  string
		whole *mat.Dense
		a, b  *mat.Dense
	}{{"class scores", whole.ClassScores, parts[0].ClassScores, parts[1].ClassScores}, {"label matrix", whole.LabelMatrix, parts[0].LabelMatrix, parts[1].LabelMatrix}} {
		if (m.whole == nil) != (m.a == nil) || (m.a == nil) != (m.b == nil) {
			return fmt.Errorf("gives a %s on one side only", m.name)
		}
		if m.whole == nil {
			continue
		}
		_, k := m.whole.Dims()
		for i := range n {
			half, r := m.a, i
			if i >= n/2 {
				half, r = m.b, i-n/2
			}
			if hr, hk := half.Dims(); r >= hr || hk != k {
				return fmt.Errorf("gives a %d×%d %s for a half, the whole a %d-column one", hr, hk, m.name, k)
			}
			for j := range k {
				if math.Float64bits(half.At(r, j)) != math.Float64bits(m.whole.At(i, j)) {
					return fmt.Errorf("gives %s entry (%d,%d) = %v, at once %v", m.name, i, j, half.At(r, j), m.whole.At(i, j))
				}
			}
		}
	}
	return nil
}

// sliceRows returns rows lo..hi−1 of m (nil for nil).
func sliceRows(m *mat.Dense, lo, hi int) *mat.Dense {
	if m == nil {
		return nil
	}
	return m.Slice(lo, hi, 0, m.RawMatrix().Cols).(*mat.Dense)
}
