package config

import (
	"strings"
	"testing"
)

func TestClassWeight(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      string // ClassWeight.String of learner logreg, reduction ova
		diag      string
	}{
		{"balanced on a learner", `learner "lr" {
  plugin       = "logreg"
  class_weight = "balanced"
}`, "balanced|", ""},
		{"map on a reduction", `reduction "ova" {
  class_weight = { "build wind float" = 2, tableware = 0.5 }
}`, "|{build wind float=2, tableware=0.5}", ""},
		{"a local", `locals { w = { a = 3 } }
learner "lr" {
  plugin       = "logreg"
  class_weight = local.w
}`, "{a=3}|", ""},
		{"unknown word", `learner "lr" {
  plugin       = "logreg"
  class_weight = "balance"
}`, "", `exp.hcl:6:18: error: Invalid class_weight|not "balance".`},
		{"negative", `reduction "ova" { class_weight = { a = -1 } }`, "", `exp.hcl:4:34: error: Invalid class_weight|class_weight of class "a" must be a finite number >= 0, not -1.`},
		{"empty map", `reduction "ova" { class_weight = {} }`, "", `exp.hcl:4:34: error: Invalid class_weight|a non-empty map`},
		{"a list", `reduction "ova" { class_weight = [1, 2] }`, "", `exp.hcl:4:34: error: Invalid class_weight`},
	} {
		exp, diags := parse(t, base+tc.src+"\n")
		if tc.diag != "" {
			for _, part := range strings.Split(tc.diag, "|") {
				if !strings.Contains(diags, part) {
					t.Errorf("%s: diagnostics\n%s\nwant %q", tc.name, diags, part)
				}
			}
			continue
		}
		if diags != "" {
			t.Errorf("%s: diagnostics\n%s", tc.name, diags)
			continue
		}
		var l, r *ClassWeight
		for _, x := range exp.Learners {
			if x.Name == "lr" {
				l = x.ClassWeight
			}
		}
		for _, x := range exp.Reductions {
			if x.Name == "ova" {
				r = x.ClassWeight
			}
		}
		if got := l.String() + "|" + r.String(); got != tc.want {
			t.Errorf("%s: class weights %q, want %q", tc.name, got, tc.want)
		}
		if _, isParam := exp.Reductions[0].Params["class_weight"]; isParam {
			t.Errorf("%s: class_weight taken for a scheme parameter", tc.name)
		}
	}
}

func TestTuneBlock(t *testing.T) {
	exp, diags := parse(t, `experiment "x" { seed = 3 }
dataset "iris" { path = "iris.csv" }
learner "logreg" {
  params = { C = [0.1, 1] }
  tune {
    folds      = 3
    metric     = "macro_f1"
    inner_seed = 0
  }
}
learner "svm" {
  tune {}
}
`)
	if diags != "" {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	lr, svm := exp.Learners[0].Tune, exp.Learners[1].Tune
	if lr == nil || lr.Folds != 3 || lr.Metric != "macro_f1" || lr.InnerSeed != 0 {
		t.Errorf("logreg tune %+v", lr)
	}
	// Defaults: 5 folds, the experiment's first metric (set when resolved),
	// the inner split seeded from the cell.
	if svm == nil || svm.Folds != DefaultTuneFolds || svm.Metric != "" || svm.InnerSeed != -1 {
		t.Errorf("svm tune %+v", svm)
	}
	_, diags = parse(t, base+`learner "lr" {
  plugin = "logreg"
  tune { folds = 1 }
  tune { metric = "accuracy" }
}
`)
	for _, want := range []string{"exp.hcl:6:18: error: Invalid value", "folds must be a whole number >= 2", "exp.hcl:7:3: error: Duplicate tune block"} {
		if !strings.Contains(diags, want) {
			t.Errorf("missing %q in\n%s", want, diags)
		}
	}
}

func TestCalibrate(t *testing.T) {
	exp, diags := parse(t, base+`reduction "ova" { calibrate = "isotonic" }
reduction "ovo" { calibrate = "beta" }
`)
	if exp.Reductions[0].Calibrate != "isotonic" {
		t.Errorf("calibrate %q", exp.Reductions[0].Calibrate)
	}
	if _, isParam := exp.Reductions[0].Params["calibrate"]; isParam {
		t.Error("calibrate taken for a scheme parameter")
	}
	if want := `exp.hcl:5:31: error: Invalid calibrate`; !strings.Contains(diags, want) || !strings.Contains(diags, `not "beta"`) {
		t.Errorf("diagnostics\n%s\nwant %q", diags, want)
	}
}
