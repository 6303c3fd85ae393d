package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/config"
)

// TestTogetherExperiments: each method's experiment parses, on the
// letter split, the RBF svm at (16, 4) with hsu_lin.hcl's cache; the
// all-together methods under scheme none with their multiclass, one-vs-one
// under ovo with LIBSVM's ties and no multiclass.
func TestTogetherExperiments(t *testing.T) {
	for _, tc := range []struct {
		slug, scheme, multiclass string
	}{{"ovo", "ovo", ""}, {"crammer_singer", "none", "crammer_singer"}, {"weston_watkins", "none", "weston_watkins"}} {
		var m togetherMethod
		for _, x := range togetherMethods() {
			if x.slug == tc.slug {
				m = x
			}
		}
		file := filepath.Join(t.TempDir(), "together.hcl")
		if err := os.WriteFile(file, []byte(togetherExperiment(m, "/d/train.csv.gz", "/d/test.csv")), 0o644); err != nil {
			t.Fatal(err)
		}
		exp, diags := config.NewParser(config.DefaultFormats()).ParseFile(file)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", tc.slug, diags)
		}
		if ds := exp.Datasets[0]; ds.Path != "/d/train.csv.gz" || ds.TestPath != "/d/test.csv" {
			t.Errorf("%s: dataset %+v", tc.slug, ds)
		}
		if len(exp.Reductions) != 1 || exp.Reductions[0].Scheme != tc.scheme {
			t.Errorf("%s: reductions %+v, want one of scheme %s", tc.slug, exp.Reductions, tc.scheme)
		}
		if tc.scheme == "ovo" && exp.Reductions[0].Params["ties"].Value.Str() != "libsvm" {
			t.Errorf("%s: ties %v, want libsvm", tc.slug, exp.Reductions[0].Params["ties"].Value)
		}
		p := exp.Learners[0].Params
		if p["kernel"].Value.Str() != "rbf" || p["C"].Value.Num() != 16 || p["gamma"].Value.Num() != 4 || p["cache_size"].Value.Num() != 2048 {
			t.Errorf("%s: params %v", tc.slug, p)
		}
		if got := p["multiclass"].Value.Str(); got != tc.multiclass {
			t.Errorf("%s: multiclass %q, want %q", tc.slug, got, tc.multiclass)
		}
		if strings.Join(exp.Metrics, ",") != "accuracy,fit_seconds,predict_seconds" {
			t.Errorf("%s: metrics %v", tc.slug, exp.Metrics)
		}
	}
}

// togetherSample is the section's three runs: one-vs-one 100 s, the
// all-together methods 400 s and 4000 s.
func togetherSample(t *testing.T) []*togetherRun {
	t.Helper()
	var runs []*togetherRun
	for i, m := range togetherMethods() {
		wall := []float64{100, 400, 4000}[i]
		run := &benchRun{wall: time.Duration(wall * float64(time.Second)), cpu: time.Duration(1.5 * wall * float64(time.Second)), rows: []summaryRow{
			{metric: "accuracy", mean: 0.97 - 0.01*float64(i)},
			{metric: "fit_seconds", mean: wall - 10},
			{metric: "predict_seconds", mean: 5},
		}}
		r, err := togetherFromRun(m, run)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	return runs
}

func TestTogetherFromRun(t *testing.T) {
	r := togetherSample(t)[1]
	if r.accuracy != 0.96 || r.fit != 390 || r.predict != 5 {
		t.Errorf("run %+v", r)
	}
	_, err := togetherFromRun(togetherMethods()[0], &benchRun{rows: []summaryRow{{metric: "accuracy", mean: 0.9}}})
	if err == nil || err.Error() != "the run's summary lacks accuracy, fit_seconds or predict_seconds (1 rows)" {
		t.Errorf("a summary without times: %v", err)
	}
}

// TestTogetherGoals: one line per all-together method, its wall against
// an hour, one-vs-one's time and accuracy in its text.
func TestTogetherGoals(t *testing.T) {
	o := &options{togetherRows: 1000}
	togetherGoals(o, togetherSample(t))
	if len(o.goals) != 2 {
		t.Fatalf("%d goals, want 2", len(o.goals))
	}
	for i, want := range []struct {
		what string
		met  bool
	}{
		{"letter, RBF (C, γ) = (16, 4): Crammer–Singer, `bench run -j 2` train + predict wall (accuracy 0.9600; one-vs-one 100.0 s, accuracy 0.9700) (-together-rows 1000: not the target's measurement)", true},
		{"letter, RBF (C, γ) = (16, 4): Weston–Watkins, `bench run -j 2` train + predict wall (accuracy 0.9500; one-vs-one 100.0 s, accuracy 0.9700) (-together-rows 1000: not the target's measurement)", false},
	} {
		g := o.goals[i]
		if g.goal != togetherGoal || g.what != want.what || g.met() != want.met || g.target != 3600 || g.peer != 0 {
			t.Errorf("goal %d: %+v, want %q met %v", i, g, want.what, want.met)
		}
	}
}

func TestWriteTogether(t *testing.T) {
	var b strings.Builder
	writeTogether(&b, "T", 0, togetherSample(t))
	for _, want := range []string{
		"| one-vs-one (LIBSVM's vote) | 100.0 s | 150.0 s | 90.0 s | 5.00 s | 0.9700 | 1.00 |\n",
		"| Crammer–Singer | 400.0 s | 600.0 s | 390.0 s | 5.00 s | 0.9600 | 4.00 |\n",
		"| Weston–Watkins | 4000.0 s | 6000.0 s | 3990.0 s | 5.00 s | 0.9500 | 40.00 |\n",
		"the first 15000 rows train",
		"within 3600.0 s (one hour)",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in\n%s", want, b.String())
		}
	}
}
