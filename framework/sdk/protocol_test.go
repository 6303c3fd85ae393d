package sdk_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/internal/plugintest"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/framework/sparse"
)

// meanLearner is a test learner: its model scores a row by the mean target
// of the training rows plus the row's first feature, so predictions show
// which rows a problem was trained on.
type meanLearner struct {
	mu     sync.Mutex
	fits   []sdk.FitInput
	params []sdk.Params // of each fit
}

func (*meanLearner) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{
		Name: "mean", Version: "1.2.3",
		Capabilities: sdk.Capabilities{Binary: true, Multiclass: true, Regression: true, Scores: true, Probabilities: true, Sparse: true},
		Params: []sdk.ParamSpec{
			{Name: "C", Type: sdk.NumberParam, Default: sdk.Number(1), Min: sdk.Bound(0), MinExclusive: true},
			{Name: "solver", Type: sdk.StringParam, Default: sdk.String("a"), Allowed: []string{"a", "b"}},
		},
	}
}

func (l *meanLearner) Fit(_ context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	l.mu.Lock()
	l.fits = append(l.fits, in)
	l.params = append(l.params, p)
	l.mu.Unlock()
	var s float64
	n := len(in.Targets)
	for _, t := range in.Targets {
		s += t
	}
	for _, c := range in.Classes {
		s += float64(c)
		n = len(in.Classes)
	}
	return meanModel{mean: s/float64(n) + p.Float("C")*0}, nil
}

type meanModel struct{ mean float64 }

func (meanModel) Outputs() int { return 1 }

func (m meanModel) Predict(_ context.Context, x sdk.Matrix, scores, probs *mat.Dense) error {
	r, _ := x.Dims()
	for i := 0; i < r; i++ {
		var f0 float64
		if x.CSR != nil {
			f0 = x.CSR.At(i, 0)
		} else {
			f0 = x.Dense.At(i, 0)
		}
		scores.Set(i, 0, m.mean+f0)
		if probs != nil {
			probs.Set(i, 0, 1/(1+math.Exp(-(m.mean+f0))))
		}
	}
	return nil
}

// connect serves l in-process with Serve and the options opts, and
// returns the host-side client.
func connect(t *testing.T, l sdk.Learner, opts ...sdk.ServeOption) *host.LearnerClient {
	t.Helper()
	return host.NewLearnerClient(plugintest.Conn(t, append(opts, sdk.WithLearner(l))...))
}

func TestLearnerProtocolRoundTrip(t *testing.T) {
	ctx := context.Background()
	impl := &meanLearner{}
	c := connect(t, impl)

	info, err := c.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "mean" || info.Version != "1.2.3" || !info.Capabilities.Probabilities || len(info.Params) != 2 {
		t.Fatalf("info = %+v", info)
	}
	if s := info.Params[0]; s.Name != "C" || s.Min == nil || *s.Min != 0 || !s.MinExclusive || s.Default.Num() != 1 {
		t.Fatalf("param spec C = %+v", s)
	}

	x := mat.NewDense(4, 2, []float64{10, 1, 20, 2, 30, 3, 40, 4})
	enc := matrix.EncodeMatrix(sdk.Matrix{Dense: x})
	up, err := c.Ensure(ctx, enc)
	if err != nil || !up {
		t.Fatalf("first Ensure: uploaded=%v err=%v", up, err)
	}
	if up, err = c.Ensure(ctx, enc); err != nil || up {
		t.Fatalf("second Ensure uploaded again: %v %v", up, err)
	}

	// Rows 0, 1, 3 train; the second problem leaves row 1 out (target 0).
	models, err := c.Fit(ctx, enc.Digest, []int{0, 1, 3}, sdk.Params{"C": sdk.Number(2)}, []sdk.Problem{
		{Kind: sdk.Binary, Targets: []float64{1, -1, 1}},
		{Kind: sdk.Binary, Targets: []float64{1, 0, -1}},
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(impl.fits) != 2 {
		t.Fatalf("%d fits, want 2", len(impl.fits))
	}
	// The SDK completes the parameters with the spec's defaults: Fit sees
	// solver = "a" although the host sent only C.
	for _, p := range impl.params {
		if len(p) != 2 || p.Float("C") != 2 || p.Str("solver") != "a" {
			t.Fatalf("Fit got params %v, want C=2 solver=a", p)
		}
	}
	for _, f := range impl.fits {
		r, _ := f.X.Dims()
		if r != len(f.Targets) {
			t.Fatalf("fit input has %d rows and %d targets", r, len(f.Targets))
		}
		if r == 2 && (f.X.Dense.At(0, 0) != 10 || f.X.Dense.At(1, 0) != 40) {
			t.Fatalf("problem 2 trained on rows %v, want rows 0 and 3", mat.Formatted(f.X.Dense))
		}
	}
	scores, probs, err := c.Predict(ctx, enc.Digest, []int{2}, models, true)
	if err != nil {
		t.Fatal(err)
	}
	// Problem 1: mean(1,−1,1) = 1/3; problem 2: mean(1,−1) = 0; row 2 has f0 = 30.
	want := []float64{30 + 1.0/3, 30}
	for j, w := range want {
		if got := scores.At(0, j); math.Abs(got-w) > 1e-12 {
			t.Errorf("score[0,%d] = %v, want %v", j, got, w)
		}
		if got := probs.At(0, j); math.Abs(got-1/(1+math.Exp(-w))) > 1e-12 {
			t.Errorf("prob[0,%d] = %v", j, got)
		}
	}
	if err := c.Release(ctx, models); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Predict(ctx, enc.Digest, []int{2}, models, false); err == nil || !strings.Contains(err.Error(), "no model") {
		t.Fatalf("predict after release: %v", err)
	}
}

func TestLearnerRejectsBadInput(t *testing.T) {
	ctx := context.Background()
	c := connect(t, &meanLearner{})
	enc := matrix.EncodeMatrix(sdk.Matrix{Dense: mat.NewDense(2, 1, []float64{1, 2})})
	if _, err := c.Fit(ctx, enc.Digest, []int{0}, nil, []sdk.Problem{{Kind: sdk.Binary, Targets: []float64{1}}}, 0); err == nil || !strings.Contains(err.Error(), "not loaded") {
		t.Fatalf("fit before upload: %v", err)
	}
	if _, err := c.Ensure(ctx, enc); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		rows   []int
		params sdk.Params
		p      sdk.Problem
		want   string
	}{
		{"bad param value", []int{0, 1}, sdk.Params{"C": sdk.Number(0)}, sdk.Problem{Kind: sdk.Binary, Targets: []float64{1, -1}}, "C = 0 is out of range"},
		{"unknown param", []int{0, 1}, sdk.Params{"gamma": sdk.Number(1)}, sdk.Problem{Kind: sdk.Binary, Targets: []float64{1, -1}}, `unknown parameter "gamma"`},
		{"bad enum", []int{0, 1}, sdk.Params{"solver": sdk.String("c")}, sdk.Problem{Kind: sdk.Binary, Targets: []float64{1, -1}}, `solver = "c" is not one of`},
		{"row out of range", []int{0, 5}, nil, sdk.Problem{Kind: sdk.Binary, Targets: []float64{1, -1}}, "row 5 out of range"},
		{"target count", []int{0, 1}, nil, sdk.Problem{Kind: sdk.Binary, Targets: []float64{1}}, "1 targets for 2 rows"},
		{"binary target", []int{0, 1}, nil, sdk.Problem{Kind: sdk.Binary, Targets: []float64{1, 2}}, "binary target 2"},
		{"no rows used", []int{0, 1}, nil, sdk.Problem{Kind: sdk.Binary, Targets: []float64{0, 0}}, "uses no rows"},
		{"class target", []int{0, 1}, nil, sdk.Problem{Kind: sdk.Multiclass, NumClasses: 2, Targets: []float64{1, 3}}, "class target 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Fit(ctx, enc.Digest, tt.rows, tt.params, []sdk.Problem{tt.p}, 0)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestUploadChunksAndSparse(t *testing.T) {
	ctx := context.Background()
	impl := &meanLearner{}
	c := connect(t, impl)
	// 3 MiB of dense data travels in several chunks.
	big := mat.NewDense(4096, 96, nil)
	for i := 0; i < 4096; i++ {
		big.Set(i, 0, float64(i))
	}
	enc := matrix.EncodeMatrix(sdk.Matrix{Dense: big})
	if enc.Size() <= 2*matrix.ChunkSize {
		t.Fatalf("test matrix too small: %d bytes", enc.Size())
	}
	if _, err := c.Ensure(ctx, enc); err != nil {
		t.Fatal(err)
	}
	models, err := c.Fit(ctx, enc.Digest, []int{0, 4095}, nil, []sdk.Problem{{Kind: sdk.Regression, Targets: []float64{2, 4}}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := c.Predict(ctx, enc.Digest, []int{4000}, models, false)
	if err != nil || s.At(0, 0) != 4003 {
		t.Fatalf("predict on chunked upload: %v, %v", s, err)
	}
	// A CSR matrix round-trips.
	csr := &sparse.CSR{Rows: 3, Cols: 5, Indptr: []int64{0, 1, 1, 3}, Indices: []int32{0, 0, 4}, Values: []float64{7, 9, 1}}
	senc := matrix.EncodeMatrix(sdk.Matrix{CSR: csr})
	if senc.Digest == enc.Digest {
		t.Fatal("digests collide")
	}
	if _, err := c.Ensure(ctx, senc); err != nil {
		t.Fatal(err)
	}
	models, err = c.Fit(ctx, senc.Digest, []int{0, 1, 2}, nil, []sdk.Problem{{Kind: sdk.Regression, Targets: []float64{0, 0, 0}}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err = c.Predict(ctx, senc.Digest, []int{2, 0, 1}, models, false)
	if err != nil || s.At(0, 0) != 9 || s.At(1, 0) != 7 || s.At(2, 0) != 0 {
		t.Fatalf("sparse predict: %v %v", mat.Formatted(s), err)
	}
}

func TestUploadRejectsCorruptData(t *testing.T) {
	c := connect(t, &meanLearner{})
	enc := matrix.EncodeMatrix(sdk.Matrix{Dense: mat.NewDense(2, 2, []float64{1, 2, 3, 4})})
	bad := *enc
	bad.Data = append([]byte(nil), enc.Data...)
	bad.Data[3] ^= 1
	err := c.Upload(context.Background(), &bad)
	if err == nil || !strings.Contains(err.Error(), "digest mismatch") {
		t.Fatalf("corrupt upload: %v", err)
	}
}

// denseOnly is meanLearner without the sparse capability; its models fail
// on CSR input, as the README's example would.
type denseOnly struct{ meanLearner }

func (d *denseOnly) Info() sdk.LearnerInfo {
	info := d.meanLearner.Info()
	info.Capabilities.Sparse = false
	return info
}

func (d *denseOnly) Fit(ctx context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	if in.X.Dense == nil {
		return nil, errors.New("Fit got CSR input")
	}
	m, err := d.meanLearner.Fit(ctx, in, p)
	return denseModel{m.(meanModel)}, err
}

type denseModel struct{ meanModel }

func (m denseModel) Predict(ctx context.Context, x sdk.Matrix, scores, probs *mat.Dense) error {
	if x.Dense == nil {
		return errors.New("Predict got CSR input")
	}
	return m.meanModel.Predict(ctx, x, scores, probs)
}

// TestDenseOnlyLearnerGetsDenseRows: a learner without the sparse
// capability sees the rows of a CSR upload as a dense matrix, in Fit and
// in Predict.
func TestDenseOnlyLearnerGetsDenseRows(t *testing.T) {
	ctx := context.Background()
	impl := &denseOnly{}
	c := connect(t, impl)
	// [[7 0 0 0 0] [0 0 0 0 0] [9 0 0 0 1]]
	csr := &sparse.CSR{Rows: 3, Cols: 5, Indptr: []int64{0, 1, 1, 3}, Indices: []int32{0, 0, 4}, Values: []float64{7, 9, 1}}
	enc := matrix.EncodeMatrix(sdk.Matrix{CSR: csr})
	if _, err := c.Ensure(ctx, enc); err != nil {
		t.Fatal(err)
	}
	models, err := c.Fit(ctx, enc.Digest, []int{2, 0}, nil, []sdk.Problem{{Kind: sdk.Regression, Targets: []float64{1, 3}}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(2, 5, []float64{9, 0, 0, 0, 1, 7, 0, 0, 0, 0})
	if got := impl.fits[0].X.Dense; !mat.Equal(got, want) {
		t.Fatalf("Fit saw\n%v\nwant\n%v", mat.Formatted(got), mat.Formatted(want))
	}
	s, _, err := c.Predict(ctx, enc.Digest, []int{2, 0, 1}, models, false)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{2 + 9, 2 + 7, 2 + 0} { // mean target 2 + first feature
		if s.At(i, 0) != want {
			t.Errorf("row %d: score %v, want %v", i, s.At(i, 0), want)
		}
	}
}

// addLearner's models add to the matrices Predict hands them rather than
// set them: model v (its problem's first target) adds v + j to column j
// of the scores and (v + j + 2)/100 to the probabilities; a multiclass
// problem's model (v its first class) has NumClasses outputs, a binary
// one one.
type addLearner struct{}

func (addLearner) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{Name: "add", Version: "1", Capabilities: sdk.Capabilities{Binary: true, Multiclass: true, Scores: true, Probabilities: true}}
}

func (addLearner) Fit(_ context.Context, in sdk.FitInput, _ sdk.Params) (sdk.Model, error) {
	if in.Kind == sdk.Multiclass {
		return addModel{k: in.NumClasses, v: float64(in.Classes[0])}, nil
	}
	return addModel{k: 1, v: in.Targets[0]}, nil
}

type addModel struct {
	k int
	v float64
}

func (m addModel) Outputs() int { return m.k }

func (m addModel) Predict(_ context.Context, x sdk.Matrix, scores, probs *mat.Dense) error {
	r, _ := x.Dims()
	for i := range r {
		for j := range m.k {
			scores.Set(i, j, scores.At(i, j)+m.v+float64(j))
			if probs != nil {
				probs.Set(i, j, probs.At(i, j)+(m.v+float64(j)+2)/100)
			}
		}
	}
	return nil
}

// TestPredictHandsEachModelZeroedMatrices: whatever the models of a
// Predict (several of one output, which share the SDK's scratch matrix,
// one of three outputs, or a lone model, which writes the answer's
// matrices), each writes into zeroed scores and probabilities of its own
// shape, and its columns land in order.
func TestPredictHandsEachModelZeroedMatrices(t *testing.T) {
	ctx := context.Background()
	c := connect(t, addLearner{})
	enc := matrix.EncodeMatrix(sdk.Matrix{Dense: mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})})
	if _, err := c.Ensure(ctx, enc); err != nil {
		t.Fatal(err)
	}
	rows := []int{0, 1, 2}
	models, err := c.Fit(ctx, enc.Digest, rows, nil, []sdk.Problem{
		{Kind: sdk.Binary, Targets: []float64{1, -1, 1}},
		{Kind: sdk.Binary, Targets: []float64{-1, 1, 1}},
		{Kind: sdk.Multiclass, NumClasses: 3, Targets: []float64{2, 0, 1}},
		{Kind: sdk.Binary, Targets: []float64{1, 1, -1}},
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		models []host.ModelRef
		want   []float64 // each row's scores
	}{
		{"four models", models, []float64{1, -1, 2, 3, 4, 1}},
		{"one model", models[2:3], []float64{2, 3, 4}},
		{"two of one output", []host.ModelRef{models[3], models[1]}, []float64{1, -1}},
	} {
		scores, probs, err := c.Predict(ctx, enc.Digest, []int{2, 0}, tc.models, true)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			for j, w := range tc.want {
				if scores.At(i, j) != w || probs.At(i, j) != (w+2)/100 {
					t.Errorf("%s: row %d column %d: score %v, probability %v; want %v, %v", tc.name, i, j, scores.At(i, j), probs.At(i, j), w, (w+2)/100)
				}
			}
		}
	}
}

// rowsLearner records, for each Fit, the first feature of its rows and
// where its matrix's memory starts; it borrows its input when borrow is
// set.
type rowsLearner struct {
	borrow bool
	mu     sync.Mutex
	seen   map[string][]float64 // problem (its first target and number of rows) → first features of the rows
	starts map[*float64]int     // where a fit's rows start → the number of fits whose rows start there
}

func (*rowsLearner) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{Name: "rows", Version: "1", Capabilities: sdk.Capabilities{Binary: true, Scores: true}}
}

func (l *rowsLearner) BorrowsInput() bool { return l.borrow }

func (l *rowsLearner) Fit(_ context.Context, in sdk.FitInput, _ sdk.Params) (sdk.Model, error) {
	r, _ := in.X.Dims()
	f := make([]float64, r)
	for i := range r {
		f[i] = in.X.Dense.At(i, 0)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen[fmt.Sprint(in.Targets[0], r)] = f
	l.starts[&in.X.Dense.RawMatrix().Data[0]]++
	return meanModel{}, nil
}

// TestBorrowingLearnerReusesRowMemory: a learner that borrows its input
// gets each problem's own rows; the problems that use every row of the
// call share one gather of them, and the others, one worker training them
// one after the other, one buffer. A learner that does not borrow gets
// memory of its own for each problem.
func TestBorrowingLearnerReusesRowMemory(t *testing.T) {
	ctx := context.Background()
	x := mat.NewDense(6, 2, []float64{10, 0, 11, 0, 12, 0, 13, 0, 14, 0, 15, 0})
	enc := matrix.EncodeMatrix(sdk.Matrix{Dense: x})
	// Each problem trains on the rows where its targets are not 0 (the
	// subsets fewer each time, so that the buffer never grows).
	problems := []sdk.Problem{
		{Kind: sdk.Binary, Targets: []float64{1, -1, 1, -1, 1, -1}},
		{Kind: sdk.Binary, Targets: []float64{1, 0, -1, 1, 0, -1}},
		{Kind: sdk.Binary, Targets: []float64{-1, 1, 1, -1, 1, -1}},
		{Kind: sdk.Binary, Targets: []float64{1, 1, 0, 0, -1, 0}},
		{Kind: sdk.Binary, Targets: []float64{-1, 0, 0, 0, 0, 1}},
	}
	want := map[string][]float64{"1 6": {10, 11, 12, 13, 14, 15}, "-1 6": {10, 11, 12, 13, 14, 15},
		"1 4": {10, 12, 13, 15}, "1 3": {10, 11, 14}, "-1 2": {10, 15}}
	for _, tc := range []struct {
		borrow bool
		starts []int // the number of fits at each place, sorted
	}{{true, []int{2, 3}}, {false, []int{1, 1, 1, 1, 1}}} {
		impl := &rowsLearner{borrow: tc.borrow, seen: map[string][]float64{}, starts: map[*float64]int{}}
		c := connect(t, impl, sdk.WithWorkers(1))
		if _, err := c.Ensure(ctx, enc); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Fit(ctx, enc.Digest, []int{0, 1, 2, 3, 4, 5}, nil, problems, 0); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(impl.seen, want) {
			t.Errorf("borrow %v: the problems (first target, rows) trained on first features %v, want %v", tc.borrow, impl.seen, want)
		}
		var starts []int
		for _, n := range impl.starts {
			starts = append(starts, n)
		}
		slices.Sort(starts)
		if !slices.Equal(starts, tc.starts) {
			t.Errorf("borrow %v: fits per place %v, want %v", tc.borrow, starts, tc.starts)
		}
	}
}
