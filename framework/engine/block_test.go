package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/logreg/learner"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
)

// manyClassGrid resolves an experiment on 16 classes of 12 rows (4
// features, a seeded blob per class) with the shipped logreg and reducers
// linked in: one-vs-one decoded by vote (scikit-learn's tie-break) and by
// hamming and by a loss, and one-vs-all (whose argmax decoding passes
// the learner's probabilities on), 3 folds, predictions kept.
func manyClassGrid(t testing.TB) *Grid {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 49))
	var csv strings.Builder
	csv.WriteString("a,b,c,d,class\n")
	for k := range 16 {
		center := []float64{float64(k % 4), float64(k / 4), float64(k % 3), float64(k % 5)}
		for range 12 {
			for _, c := range center {
				fmt.Fprintf(&csv, "%.6f,", c+0.6*rng.NormFloat64())
			}
			fmt.Fprintf(&csv, "k%02d\n", k)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "many.csv"), []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	src := `
experiment "many" { seed = 3 }
dataset "many" { path = "many.csv" }
encoder "std" { type = "standardize" }
learner "logreg" { params = { C = 1 } }
reduction "ovo" { scheme = "ovo" }
reduction "ovo_hamming" {
  scheme = "ovo"
  params = { decode = "hamming" }
}
reduction "ovo_loss" {
  scheme = "ovo"
  params = { decode = "loss:logistic" }
}
reduction "ova" { scheme = "ova" }
cv { folds = 3 }
metrics = ["accuracy", "log_loss"]
`
	file := filepath.Join(dir, "many.hcl")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	exp, diags := config.NewParser(config.DefaultFormats()).ParseFile(file)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	h := host.New("", nil)
	h.Register("logreg", host.InProcess{Learner: learner.New()})
	h.Register("reducers", host.InProcess{Reducer: reducer.New()})
	t.Cleanup(h.Close)
	g, diags := Resolve(context.Background(), exp, h, ResolveOptions{DefaultReducer: "reducers"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return g
}

// TestDecodeBlocksChangeNothing runs the many-class grid with the test
// rows predicted and decoded whole, and in blocks of one and of seven
// rows (a block budget of one byte, and of seven rows of one-vs-one
// scores): every fold's predictions, class scores, ties and metrics are
// the same, bit for bit.
func TestDecodeBlocksChangeNothing(t *testing.T) {
	g := manyClassGrid(t)
	run := func(block int64) []*outcome.CellResult {
		t.Helper()
		res, _, err := Run(context.Background(), g, Options{Workers: 2, KeepPredictions: true, DecodeBlock: block})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if r.Failed() {
				t.Fatalf("cell %s failed: %s", r.ID.Key(), r.Error)
			}
		}
		return res
	}
	whole := run(0)
	for _, block := range []int64{1, 7 * 8 * 120} {
		parts := run(block)
		for i, w := range whole {
			p := parts[i]
			for j, wf := range w.Folds {
				pf := p.Folds[j]
				name := fmt.Sprintf("block %d, %s fold %d", block, w.ID.Key(), j)
				if fmt.Sprint(pf.Predictions.Predicted) != fmt.Sprint(wf.Predictions.Predicted) || pf.Ties != wf.Ties {
					t.Errorf("%s: predictions %v (ties %d), whole %v (ties %d)", name, pf.Predictions.Predicted, pf.Ties, wf.Predictions.Predicted, wf.Ties)
				}
				ws, ps := wf.Predictions.Scores, pf.Predictions.Scores
				if r, c := ws.Dims(); r == 0 || c != 16 {
					t.Fatalf("%s: %d×%d class scores", name, r, c)
				}
				for r := range wf.Predictions.Rows {
					for c := range 16 {
						if math.Float64bits(ps.At(r, c)) != math.Float64bits(ws.At(r, c)) {
							t.Fatalf("%s: row %d class %d: score %v, whole %v", name, r, c, ps.At(r, c), ws.At(r, c))
						}
					}
				}
				for m, v := range wf.Metrics {
					if math.Float64bits(pf.Metrics[m]) != math.Float64bits(v) && !strings.HasSuffix(m, "seconds") {
						t.Errorf("%s: %s %v, whole %v", name, m, pf.Metrics[m], v)
					}
				}
			}
		}
	}
}

// failingOVA is oneVsAll, decoding row-wise, whose third Decode call
// fails.
type failingOVA struct {
	oneVsAll
	calls *atomic.Int64
}

func (r failingOVA) Info() sdk.ReducerInfo {
	info := r.oneVsAll.Info()
	info.Schemes[0].RowWiseDecode = true
	return info
}

func (r failingOVA) Decode(ctx context.Context, req sdk.DecodeRequest) (sdk.Decoding, error) {
	if r.calls.Add(1) == 3 {
		return sdk.Decoding{}, errors.New("decoder broke on its third block")
	}
	return r.oneVsAll.Decode(ctx, req)
}

// TestDecodeBlockErrorFailsTheFold: a decoder that fails on a block fails
// its fold with its error (the blocks still being predicted are dropped,
// and the fold waits for them before it returns).
func TestDecodeBlockErrorFailsTheFold(t *testing.T) {
	calls := &atomic.Int64{}
	g, _ := newPluginGrid(t, []float64{0, 0, 0, 9.8, 5, 5, 5, 5, 10, 10, 10, 10}, []int{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, failingOVA{calls: calls})
	res, _, err := Run(context.Background(), g, Options{Workers: 1, DecodeBlock: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || !strings.Contains(res[0].Error, "decoder broke on its third block") {
		t.Fatalf("results %+v, want the cell failed by the decoder", res)
	}
}

// overlappingOVA is oneVsAll, decoding row-wise, that records the most
// Decode calls in flight at once; each call waits (up to 5 s) until two
// have been in flight together.
type overlappingOVA struct {
	oneVsAll
	inFlight, most *atomic.Int64
	together       chan struct{} // closed once two calls were in flight at once
	once           *sync.Once
}

func (r overlappingOVA) Info() sdk.ReducerInfo {
	info := r.oneVsAll.Info()
	info.Schemes[0].RowWiseDecode = true
	return info
}

func (r overlappingOVA) Decode(ctx context.Context, req sdk.DecodeRequest) (sdk.Decoding, error) {
	n := r.inFlight.Add(1)
	defer r.inFlight.Add(-1)
	for m := r.most.Load(); n > m && !r.most.CompareAndSwap(m, n); m = r.most.Load() {
	}
	if n >= 2 {
		r.once.Do(func() { close(r.together) })
	}
	select {
	case <-r.together:
	case <-time.After(5 * time.Second):
	}
	return r.oneVsAll.Decode(ctx, req)
}

// TestDecodeBlocksSideBySide: a fold alone (one worker) decodes its
// blocks two at a time at least (decodeLanes), each predicted and
// decoded on a lane of its own, where one goroutine decoded them one
// after another; the fold's predictions are those of its rows decoded
// whole.
func TestDecodeBlocksSideBySide(t *testing.T) {
	x := []float64{0, 0, 0, 9.8, 5, 5, 5, 5, 10, 10, 10, 10}
	y := []int{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}
	for _, tc := range []struct {
		name  string
		block int64
		most  int64 // the fewest calls in flight at once wanted at the peak
	}{
		{"whole", 0, 1},
		{"blocks of one row", 1, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			red := overlappingOVA{inFlight: &atomic.Int64{}, most: &atomic.Int64{}, together: make(chan struct{}), once: &sync.Once{}}
			if tc.block == 0 {
				close(red.together) // one call a fold: nothing to wait for
			}
			g, _ := newPluginGrid(t, x, y, red)
			res, _, err := Run(context.Background(), g, Options{Workers: 1, DecodeBlock: tc.block, KeepPredictions: true})
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Failed() {
				t.Fatalf("cell failed: %s", res[0].Error)
			}
			if got := red.most.Load(); got < tc.most {
				t.Errorf("at most %d Decode calls in flight at once, want %d", got, tc.most)
			}
			// The nearest centroid of each test row (9.8, of class a, is
			// nearer c's in fold 1).
			wants := [][]int{{0, 0, 1, 1, 2, 2}, {0, 2, 1, 1, 2, 2}}
			for i, f := range res[0].Folds {
				if want := wants[i]; fmt.Sprint(f.Predictions.Predicted) != fmt.Sprint(want) {
					t.Errorf("fold %d: predicted %v, want %v", i, f.Predictions.Predicted, want)
				}
			}
		})
	}
}

// BenchmarkDecodeBlocks: the many-class grid (16 classes, one-vs-one
// decoded three ways and one-vs-all, 3 folds) run on one worker, its test
// rows predicted and decoded in blocks of one row, on decodeLanes lanes:
// with -cpu 1,2 it shows the blocks of a fold alone spread over the
// processors.
func BenchmarkDecodeBlocks(b *testing.B) {
	g := manyClassGrid(b)
	for b.Loop() {
		res, _, err := Run(context.Background(), g, Options{Workers: 1, DecodeBlock: 1})
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range res {
			if r.Failed() {
				b.Fatalf("cell %s failed: %s", r.ID.Key(), r.Error)
			}
		}
	}
}

// TestDecodeLanes: a fold decodes on its share of the CPUs, at least 2
// lanes and at most maxDecodeLanes; an inner fold (no share) on 2.
func TestDecodeLanes(t *testing.T) {
	for _, tc := range []struct {
		share int // 0: no share (an inner fold)
		want  int
	}{
		{0, 2}, {1, 2}, {2, 2}, {3, 3}, {4, 4}, {16, 4},
	} {
		f := &fold{}
		if tc.share > 0 {
			f.threads = func() int { return tc.share }
		}
		if got := f.decodeLanes(); got != tc.want {
			t.Errorf("share %d: %d lanes, want %d", tc.share, got, tc.want)
		}
	}
}
