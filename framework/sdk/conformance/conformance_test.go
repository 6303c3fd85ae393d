package conformance

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/internal/client"
	"github.com/polyclass/polyclass/framework/sdk"
)

// centroid is a nearest-centroid learner for binary problems, dense or
// CSR; its defect field breaks it on purpose.
type centroid struct{ defect string }

func (centroid) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{Name: "centroid", Version: "1",
		Capabilities: sdk.Capabilities{Binary: true, Scores: true, Sparse: true},
		Params:       []sdk.ParamSpec{{Name: "shift", Type: sdk.NumberParam, Default: sdk.Number(0)}}}
}

func (l centroid) Fit(ctx context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	x := in.X.AsDense().Dense
	n, d := x.Dims()
	pos, neg := mat.NewVecDense(d, nil), mat.NewVecDense(d, nil)
	var np, nn float64
	for i := 0; i < n; i++ {
		if in.Targets[i] > 0 {
			pos.AddVec(pos, x.RowView(i))
			np++
		} else {
			neg.AddVec(neg, x.RowView(i))
			nn++
		}
	}
	if np == 0 || nn == 0 {
		return nil, errors.New("needs both classes")
	}
	pos.ScaleVec(1/np, pos)
	neg.ScaleVec(1/nn, neg)
	w, mid := mat.NewVecDense(d, nil), mat.NewVecDense(d, nil)
	w.SubVec(pos, neg)
	mid.AddVec(pos, neg)
	m := model{w: w, b: -mat.Dot(w, mid)/2 + p.Float("shift"), defect: l.defect}
	if l.defect == "random" {
		m.b += rand.Float64() * 1e-9 // ignores the seed
	}
	return m, nil
}

// FitBatch declines, unless the defect is "batch": then the models of a
// batch differ from Fit's by a shifted intercept.
func (l centroid) FitBatch(ctx context.Context, ins []sdk.FitInput, p sdk.Params) ([]sdk.Model, error) {
	if l.defect != "batch" {
		return nil, sdk.ErrBatchDeclined
	}
	out := make([]sdk.Model, len(ins))
	for i, in := range ins {
		m, err := l.Fit(ctx, in, p)
		if err != nil {
			return nil, err
		}
		mm := m.(model)
		mm.b += 1e-9
		out[i] = mm
	}
	return out, nil
}

type model struct {
	w      *mat.VecDense
	b      float64
	defect string
}

func (m model) Outputs() int {
	if m.defect == "outputs" {
		return 2
	}
	return 1
}

func (m model) Predict(_ context.Context, x sdk.Matrix, scores, _ *mat.Dense) error {
	d := x.AsDense().Dense
	r, _ := d.Dims()
	for i := 0; i < r; i++ {
		s := mat.Dot(m.w, d.RowView(i)) + m.b
		switch m.defect {
		case "nan":
			s = math.NaN()
		case "constant":
			s = 1
		}
		for j := 0; j < m.Outputs(); j++ {
			scores.Set(i, j, s)
		}
	}
	return nil
}

// TestRun: a sound learner passes every check; each defect fails the
// checks it breaks, by name, with what was wrong.
func TestRun(t *testing.T) {
	for _, tt := range []struct {
		defect string
		fail   map[string]string // check → substring of its detail
		skip   map[string]string // checks skipped, likewise
	}{
		{"", nil, nil},
		{"outputs", map[string]string{"csr": "scores 13×2, want 13×1", "fit-predict": "the model has 2 outputs, want 1"}, nil},
		{"random", map[string]string{"deterministic": "two Fits with seed 7 predict different scores", "together": "problem 0 (binary) predicts other scores trained with the others than alone"}, nil},
		{"batch", map[string]string{"together": "problem 0 (binary) predicts other scores trained with the others than alone"}, nil},
		// The host refuses NaN scores in every Predict: each check that
		// predicts fails with its message.
		{"nan", map[string]string{
			"upload":        "predict on the chunked upload: predict: model 0 (of 1): score 0 of row 0 of the request (matrix row 2900) is NaN",
			"csr":           "binary problem 0 on the dense copy: predict: model 0 (of 1): score 0 of row 0 of the request (matrix row 0) is NaN",
			"fit-predict":   "binary: predict: model 0 (of 3): score 0 of row 0 of the request (matrix row 0) is NaN",
			"cancel":        "after the cancelled Fit: predict: model 0 (of 1): score 0 of row 0 of the request (matrix row 0) is NaN",
			"deterministic": "predict: model 0 (of 1): score 0 of row 0 of the request (matrix row 0) is NaN",
		}, map[string]string{"together": "the learner trains 0 of 4 problems alone"}},
		{"constant", map[string]string{"fit-predict": "the separable blobs are not learnt"}, nil},
	} {
		t.Run("defect="+tt.defect, func(t *testing.T) {
			results := Run(context.Background(), &Target{Client: Connect(t, centroid{tt.defect})})
			if len(results) != len(Checks()) {
				t.Fatalf("%d results for %d checks", len(results), len(Checks()))
			}
			for _, r := range results {
				want, fail := tt.fail[r.Check]
				if fail != (r.Status == Fail) || (fail && !strings.Contains(r.Detail, want)) {
					t.Errorf("%s: %s %q; want failed %v (%q)", r.Check, r.Status, r.Detail, fail, want)
				}
				why, skip := tt.skip[r.Check]
				if !fail && skip != (r.Status == Skip) || (skip && !strings.Contains(r.Detail, why)) {
					t.Errorf("%s: %s %q; want skipped %v (%q)", r.Check, r.Status, r.Detail, skip, why)
				}
			}
		})
	}
}

// TestTest: the suite as Go plugins run it in their tests.
func TestTest(t *testing.T) { Test(t, centroid{}, sdk.Params{"shift": sdk.Number(0)}) }

func TestCheckInfo(t *testing.T) {
	ok := centroid{}.Info()
	for _, tt := range []struct {
		name string
		edit func(*sdk.LearnerInfo)
		want string
	}{
		{"sound", func(*sdk.LearnerInfo) {}, ""},
		{"no name", func(i *sdk.LearnerInfo) { i.Name = " " }, "no name"},
		{"no version", func(i *sdk.LearnerInfo) { i.Version = "" }, "no version"},
		{"trains nothing", func(i *sdk.LearnerInfo) { i.Capabilities.Binary = false }, "trains no kind of problem"},
		{"predicts nothing", func(i *sdk.LearnerInfo) { i.Capabilities.Scores = false }, "predicts neither"},
		{"twice", func(i *sdk.LearnerInfo) { i.Params = append(i.Params, i.Params[0]) }, "parameter shift is declared twice"},
		{"wildcard", func(i *sdk.LearnerInfo) {
			i.Params = append(i.Params, sdk.ParamSpec{Name: "*", Type: sdk.NumberParam})
		}, "parameter * must have type any"},
		{"bounds", func(i *sdk.LearnerInfo) { i.Params[0].Min, i.Params[0].Max = sdk.Bound(2), sdk.Bound(1) }, "min 2 > max 1"},
		{"default", func(i *sdk.LearnerInfo) { i.Params[0].Default = sdk.String("x") }, "the default of parameter shift fails its own schema"},
		{"condition on an undeclared parameter", func(i *sdk.LearnerInfo) {
			i.Params[0].AppliesWhen = []sdk.Condition{sdk.When("solver", "sgd")}
		}, "parameter shift applies when solver is sgd: no parameter solver is declared"},
		{"condition on itself", func(i *sdk.LearnerInfo) {
			i.Params[0].AppliesWhen = []sdk.Condition{{Clauses: []sdk.Clause{{Param: "shift", OneOf: []sdk.Value{sdk.Number(1)}}}}}
		}, "parameter shift applies when shift is 1: a parameter's condition cannot name the parameter itself"},
		{"condition value outside the schema", func(i *sdk.LearnerInfo) {
			i.Params = append(i.Params, sdk.ParamSpec{Name: "mode", Type: sdk.StringParam, Allowed: []string{"a", "b"}})
			i.Params[0].AppliesWhen = []sdk.Condition{sdk.When("mode", "a", "c")}
		}, `parameter shift applies when mode is a or c: mode = "c" is not one of "a", "b"`},
		{"unknown problem kind", func(i *sdk.LearnerInfo) {
			i.Params[0].AppliesWhen = []sdk.Condition{sdk.OnProblems(7)}
		}, "parameter shift applies when the learner fits unknown problems: problem kind 7 is none of binary, multiclass, regression"},
		{"sound condition", func(i *sdk.LearnerInfo) {
			i.Params = append(i.Params, sdk.ParamSpec{Name: "mode", Type: sdk.StringParam, Allowed: []string{"a", "b"}})
			i.Params[0].AppliesWhen = []sdk.Condition{sdk.When("mode", "a").On(sdk.Binary)}
		}, ""},
	} {
		info := ok
		info.Params = append([]sdk.ParamSpec(nil), ok.Params...)
		tt.edit(&info)
		err := checkInfo(info)
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestWriteTable(t *testing.T) {
	var b strings.Builder
	rs := []Result{{"info", Pass, "x 1"}, {"csr", Skip, "no sparse"}, {"cancel", Fail, "kept\ncomputing"}}
	if err := WriteTable(&b, rs); err != nil {
		t.Fatal(err)
	}
	want := "check   result  detail\ninfo    PASS    x 1\ncsr     SKIP    no sparse\ncancel  FAIL    kept computing\n"
	if b.String() != want || Failed(rs) != 1 {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
}

// borrower is the centroid learner borrowing its input; with writes set,
// its Fit doubles the first stored value of the rows it is given.
type borrower struct {
	centroid
	writes bool
}

func (borrower) BorrowsInput() bool { return true }

func (l borrower) Fit(ctx context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	if l.writes {
		if in.X.CSR != nil {
			in.X.CSR.Values[0] *= 2
		} else {
			in.X.Dense.Set(0, 0, 2*in.X.Dense.At(0, 0)+1)
		}
	}
	return l.centroid.Fit(ctx, in, p)
}

// errorsOf records the errors of a check instead of failing the test.
type errorsOf struct {
	testing.TB
	errs []string
}

func (e *errorsOf) Helper()                      {}
func (e *errorsOf) Logf(string, ...any)          {}
func (e *errorsOf) Errorf(f string, args ...any) { e.errs = append(e.errs, fmt.Sprintf(f, args...)) }
func (e *errorsOf) Fatalf(f string, args ...any) { e.Errorf(f, args...); panic(e) }

// TestCheckBorrowedRows: the check passes a learner that only reads its
// rows, and fails, dense and CSR alike, one that writes into them.
func TestCheckBorrowedRows(t *testing.T) {
	for _, tc := range []struct {
		writes bool
		errs   int // dense and CSR, one binary problem each
	}{{false, 0}, {true, 2}} {
		rec := &errorsOf{TB: t}
		CheckBorrowedRows(rec, borrower{writes: tc.writes})
		if len(rec.errs) != tc.errs {
			t.Errorf("writes %v: %d errors %q, want %d", tc.writes, len(rec.errs), rec.errs, tc.errs)
		}
	}
}

// means is a natively multiclass learner (nearest class mean) that trains
// nothing else.
type means struct{}

func (means) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{Name: "means", Version: "1", Capabilities: sdk.Capabilities{Multiclass: true, Scores: true}}
}

func (means) Fit(_ context.Context, in sdk.FitInput, _ sdk.Params) (sdk.Model, error) {
	x := in.X.AsDense().Dense
	_, d := x.Dims()
	centers := mat.NewDense(in.NumClasses, d, nil)
	counts := make([]float64, in.NumClasses)
	for i, k := range in.Classes {
		row := centers.RawRowView(k)
		for j := range row {
			row[j] += x.At(i, j)
		}
		counts[k]++
	}
	for k, n := range counts {
		for j := range d {
			if n > 0 {
				centers.Set(k, j, centers.At(k, j)/n)
			}
		}
	}
	return meansModel{centers}, nil
}

type meansModel struct{ centers *mat.Dense }

func (m meansModel) Outputs() int { r, _ := m.centers.Dims(); return r }

func (m meansModel) Predict(_ context.Context, x sdk.Matrix, scores, _ *mat.Dense) error {
	d := x.AsDense().Dense
	r, _ := d.Dims()
	for i := 0; i < r; i++ {
		for k := 0; k < m.Outputs(); k++ {
			var diff mat.VecDense
			diff.SubVec(d.RowView(i), m.centers.RowView(k))
			scores.Set(i, k, -mat.Norm(&diff, 2))
		}
	}
	return nil
}

// TestMulticlassOnly: a learner that trains multiclass problems only
// passes every check; the empty problem it is offered leaves every row
// out (NotUsed), where a target of 0 would be class 0.
func TestMulticlassOnly(t *testing.T) {
	for _, r := range Run(context.Background(), &Target{Client: Connect(t, means{})}) {
		if r.Status == Fail {
			t.Errorf("%s: %s", r.Check, r.Detail)
		}
	}
}

// spinner is the centroid learner whose Fit never returns and ignores
// its context, until stop is closed (the test's stand-in for killing the
// plugin's process).
type spinner struct {
	centroid
	stop <-chan struct{}
}

func (l spinner) Fit(context.Context, sdk.FitInput, sdk.Params) (sdk.Model, error) {
	for {
		select {
		case <-l.stop:
			return nil, errors.New("killed")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// spinTarget is a Target over spinner learners with the given per-check
// limit; Restart "kills" the current one (closes its stop) and connects a
// new one, or fails with failRestart. restarts counts Restart's calls.
func spinTarget(t *testing.T, limit time.Duration, failRestart error, restarts *int) *Target {
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	tg := &Target{Client: Connect(t, spinner{stop: stop}), Timeout: limit}
	tg.Restart = func(context.Context) (*client.LearnerClient, error) {
		*restarts++
		close(stop)
		stop = make(chan struct{})
		if failRestart != nil {
			return nil, failRestart
		}
		return Connect(t, spinner{stop: stop}), nil
	}
	return tg
}

// TestRunTimedOutCheck: a check that outlives the suite's per-check limit
// (a Fit that never returns and ignores its context) fails at once with
// the limit in its detail, its result reaches Progress before the next
// check starts, and the plugin is stopped and started again for the next
// check; the whole suite ends within about one limit per check. When the
// plugin cannot be started again, the checks left fail without waiting.
func TestRunTimedOutCheck(t *testing.T) {
	const limit = 300 * time.Millisecond
	for _, tt := range []struct {
		name        string
		failRestart error
		wantFit     string // fit-predict's detail, "(…)" for any words
		wantLast    string // empty's detail, likewise
		maxRestarts int
	}{
		{"restarted", nil,
			"did not answer within the check's limit of 300ms (…); the plugin was stopped and started again for the next check",
			"did not answer within the check's limit of 300ms (…); the plugin was stopped and started again for the next check", len(Checks())},
		{"restart fails", errors.New("no binary"),
			"not run: the plugin was stopped after check upload and not started again: restarting it: no binary",
			"not run: the plugin was stopped after check upload and not started again: restarting it: no binary", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			restarts := 0
			tg := spinTarget(t, limit, tt.failRestart, &restarts)
			var progress []string
			tg.Progress = func(r Result) { progress = append(progress, r.Check+" "+r.Status.String()) }
			start := time.Now()
			results := Run(context.Background(), tg)
			elapsed := time.Since(start)
			if max := time.Duration(len(Checks())+2) * limit; elapsed > max {
				t.Errorf("the suite took %s, more than %s (one limit per check)", elapsed, max)
			}
			byName := map[string]Result{}
			var want []string
			for _, r := range results {
				byName[r.Check] = r
				want = append(want, r.Check+" "+r.Status.String())
			}
			if !slices.Equal(progress, want) {
				t.Errorf("progress %v, want %v", progress, want)
			}
			if r := byName["fit-predict"]; r.Status != Fail || !matches(r.Detail, tt.wantFit) {
				t.Errorf("fit-predict: %s %q, want FAIL %q", r.Status, r.Detail, tt.wantFit)
			}
			if r := byName["empty"]; r.Status != Fail || !matches(r.Detail, tt.wantLast) {
				t.Errorf("empty: %s %q, want FAIL %q", r.Status, r.Detail, tt.wantLast)
			}
			if r := byName["info"]; r.Status != Pass {
				t.Errorf("info: %s %q, want PASS", r.Status, r.Detail)
			}
			if restarts == 0 || restarts > tt.maxRestarts {
				t.Errorf("%d restarts, want 1 to %d", restarts, tt.maxRestarts)
			}
		})
	}
}

// matches reports whether s is want, where a "(…)" of want stands for any
// parenthesised words of s.
func matches(s, want string) bool {
	before, after, ok := strings.Cut(want, "(…)")
	if !ok {
		return s == want
	}
	return strings.HasPrefix(s, before+"(") && strings.HasSuffix(s, ")"+after) && len(s) > len(before)+len(after)+2
}
