package engine

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/sdk"
)

// TestFitParts: a fit of fewer than 2 × minFitPart problems is one call;
// a larger one is cut into parts of at least minFitPart problems, at most
// fitPartsMax of them (one-vs-one on 200 classes: 16 parts of 1,244).
func TestFitParts(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want []int
	}{
		{1, []int{1}},
		{325, []int{325}},
		{1023, []int{1023}},
		{1024, []int{512, 1024}},
		{1100, []int{512, 1024, 1100}},
		{19900, []int{1244, 2488, 3732, 4976, 6220, 7464, 8708, 9952, 11196, 12440, 13684, 14928, 16172, 17416, 18660, 19900}},
	} {
		if got := fitParts(tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("fitParts(%d) = %v, want %v", tc.n, got, tc.want)
		}
	}
}

// TestFitPartsTakeTheFreedCores: a fold's fit of 1,100 problems goes to
// the learner in 3 calls, each with the fold's share of the CPUs when it
// is sent: 1 thread for the first (another fold running beside it), 4 for
// the others (the other fold ended meanwhile), where one call kept its
// one thread to the end; every problem gets its model.
func TestFitPartsTakeTheFreedCores(t *testing.T) {
	impl := &parallelCentroid{}
	g := newPluginGridOf(t, []float64{0, 0, 0, 9.8, 5, 5, 5, 5, 10, 10, 10, 10}, []int{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, oneVsAll{},
		impl, sdk.WithWorkers(16))
	s := newScheduler(g, Options{})
	tk := s.tasks[0]
	_, enc, err := design(g, tk, s.matrices[tk.key], DefaultDenseBudget)
	if err != nil {
		t.Fatal(err)
	}
	f, err := newFold(context.Background(), g, tk, &s.stats)
	if err != nil {
		t.Fatal(err)
	}
	shares := []int{1, 4, 4}
	f.threads = func() int {
		share := shares[0]
		shares = shares[1:]
		return share
	}
	if err := f.upload(enc); err != nil {
		t.Fatal(err)
	}
	plan, err := f.plan(f.planRequest())
	if err != nil {
		t.Fatal(err)
	}
	const n = 1100
	problems, keys := make([]plugin.Problem, n), make([]string, n)
	for i := range problems {
		problems[i], keys[i] = plan.Problems[i%3], fmt.Sprint("problem ", i)
	}
	f.share = newFitTable()
	models, seconds, have := make([]host.ModelRef, n), make([]float64, n), make([]bool, n)
	mine, fits, _ := f.share.claim(shareKey{}, keys, f.lp, have, models, seconds)
	if err := f.fitClaimed(enc.Digest, problems, keys, mine, fits, siblingFits{}, models, seconds, have); err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 4, 4}; !slices.Equal(impl.workers, want) {
		t.Errorf("the calls' batches had %v workers, want %v", impl.workers, want)
	}
	for i, m := range models {
		if !have[i] || m.Handle == "" {
			t.Fatalf("problem %d has no model", i)
		}
	}
	for i, e := range fits {
		select {
		case <-e.done:
		default:
			t.Fatalf("claimed fit %d not published", i)
		}
	}
}
