package config

import (
	"strings"
	"testing"
)

// TestBlockLabelsAreIdentifiers: every block label names files in the
// results directory, so it is an identifier; a bad one is an error at the
// label's location.
func TestBlockLabelsAreIdentifiers(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"ok", `experiment "a-b.c_1" { seed = 1 }
dataset "iris.v2" { path = "iris.csv" }
learner "logreg" {}
`, ""},
		{"experiment escapes", `experiment "../../../../x" { seed = 1 }
dataset "iris" { path = "iris.csv" }
learner "logreg" {}
`, `exp.hcl:1:12: error: Invalid experiment name; "../../../../x" starts with a dot`},
		{"slash", `experiment "a/b" { seed = 1 }
dataset "iris" { path = "iris.csv" }
learner "logreg" {}
`, `exp.hcl:1:12: error: Invalid experiment name; "a/b" holds '/'`},
		{"hidden", `experiment "x" { seed = 1 }
dataset ".iris" { path = "iris.csv" }
learner "logreg" {}
`, `exp.hcl:2:9: error: Invalid dataset name; ".iris" starts with a dot`},
		{"space", `experiment "x" { seed = 1 }
dataset "iris" { path = "iris.csv" }
learner "log reg" {}
`, `exp.hcl:3:9: error: Invalid learner name; "log reg" holds ' '`},
		{"hangul filler", `experiment "ad\uffa0v" { seed = 1 }
dataset "iris" { path = "iris.csv" }
learner "l\u3164da" {}
`, "exp.hcl:1:12: error: Invalid experiment name; \"ad\ufffdv\" holds U+FFA0, a letter that does not show"}, // the writer shows U+FFFD for it
		{"empty", `experiment "x" { seed = 1 }
dataset "iris" { path = "iris.csv" }
learner "logreg" {}
reduction "" {}
`, `exp.hcl:4:11: error: Invalid reduction name; "" is empty`},
		{"name at the bound", `experiment "x" { seed = 1 }
dataset "iris" { path = "iris.csv" }
learner "` + strings.Repeat("l", MaxNameBytes) + `" {}
`, ""},
		{"name one over", `experiment "x" { seed = 1 }
dataset "iris" { path = "iris.csv" }
learner "` + strings.Repeat("l", MaxNameBytes+1) + `" {}
`, `exp.hcl:3:9: error: Invalid learner name; is 101 bytes long, more than 100`},
		{"backslash", `experiment "x" { seed = 1 }
dataset "iris" { path = "iris.csv" }
learner "logreg" {}
encoder "a\\b" { type = "onehot" }
`, `exp.hcl:4:9: error: Invalid encoder name; "a\\b" holds '\\'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parse(t, tc.src)
			if tc.want == "" {
				if strings.Contains(diags, "Invalid") {
					t.Fatalf("diagnostics:\n%s", diags)
				}
				return
			}
			// "LOCATION: error: SUMMARY; DETAIL" (the detail follows the
			// source snippet).
			for _, part := range strings.Split(tc.want, "; ") {
				if !strings.Contains(diags, part) {
					t.Errorf("want %q in:\n%s", part, diags)
				}
			}
		})
	}
}

// TestLabelLengthBound: a label of MaxLabelChars characters (counted
// as characters, not bytes) is fine; one more is an error at the label.
func TestLabelLengthBound(t *testing.T) {
	const head = `experiment "x" { seed = 1 }
dataset "iris" { path = "iris.csv" }
`
	for _, tc := range []struct {
		name  string
		label string
		want  string // "" for no diagnostic
	}{
		{"ascii at the bound", strings.Repeat("a", MaxLabelChars), ""},
		{"accented at the bound", strings.Repeat("é", MaxLabelChars), ""},
		{"ascii one over", strings.Repeat("a", MaxLabelChars+1),
			`exp.hcl:3:24: error: Invalid label; The label of learner "lr" is 201 characters long, more than the 200 a label may have`},
		{"far over", strings.Repeat("9", 900000),
			`exp.hcl:3:24: error: Invalid label; The label of learner "lr" is 900000 characters long, more than the 200 a label may have`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exp, diags := parse(t, head+`learner "lr" { label = "`+tc.label+`" }
`)
			if tc.want == "" {
				if diags != "" {
					t.Fatalf("diagnostics:\n%s", diags)
				}
				if got := exp.Learners[0].Display(); got != tc.label {
					t.Errorf("shown as %d characters, want the label", len(got))
				}
				return
			}
			for _, part := range strings.Split(tc.want, "; ") {
				if !strings.Contains(diags, part) {
					t.Errorf("want %q in:\n%.2000s", part, diags)
				}
			}
			if len(diags) > 5000 {
				t.Errorf("diagnostics of %d bytes: the message should not repeat the label", len(diags))
			}
		})
	}
}

// TestDisplayLabels: label = "..." on a learner, pipeline or reduction
// block names it in the tables instead of its name; a reduction's label
// is not one of its parameters; a blank label, a line break or two blocks
// shown alike are errors at the label.
func TestDisplayLabels(t *testing.T) {
	const head = `experiment "x" { seed = 1 }
dataset "iris" { path = "iris.csv" }
encoder "std" { type = "standardize" }
`
	t.Run("ok", func(t *testing.T) {
		exp, diags := parse(t, head+`pipeline "p" {
  steps = ["std"]
  label = "standardised"
}
learner "rf" {
  plugin = "sklearn"
  label  = "RF"
  params = { estimator = "sklearn.ensemble.RandomForestClassifier", n_estimators = 200 }
}
learner "logreg" {}
reduction "ecoc" {
  scheme = "ecoc"
  code   = "random_dense"
  label  = "ECOC (random dense, exp. loss)"
}
`)
		if diags != "" {
			t.Fatalf("diagnostics:\n%s", diags)
		}
		if got := exp.Pipelines[0].Display(); got != "standardised" {
			t.Errorf("pipeline shown as %q", got)
		}
		if got := exp.Learners[0].Display() + "," + exp.Learners[1].Display(); got != "RF,logreg" {
			t.Errorf("learners shown as %q", got)
		}
		r := exp.Reductions[0]
		if r.Display() != "ECOC (random dense, exp. loss)" {
			t.Errorf("reduction shown as %q", r.Display())
		}
		if _, ok := r.Params["label"]; ok || len(r.Params) != 1 {
			t.Errorf("reduction parameters %v: the label is not a parameter", r.Params)
		}
		if r.LabelRange.Start.Line != 17 {
			t.Errorf("label range %v, want line 17", r.LabelRange)
		}
	})
	for _, tc := range []struct{ name, src, want string }{
		{"blank", `learner "rf" { label = "  " }`, `exp.hcl:4:24: error: Invalid label; The label of learner "rf" is blank`},
		{"line break", `learner "rf" { label = "a\nb" }`, `exp.hcl:4:24: error: Invalid label; The label of learner "rf" holds a control character`},
		{"two labels alike", `learner "a" { label = "LR" }
learner "b" { label = "LR" }`, `exp.hcl:5:23: error: Duplicate label; Learner "a" and learner "b" would both be shown as "LR"`},
		{"label is another's name", `learner "logreg" {}
learner "b" { label = "logreg" }`, `exp.hcl:5:23: error: Duplicate label; Learner "logreg" and learner "b" would both be shown as "logreg"`},
		{"name is another's label", `learner "b" { label = "logreg" }
learner "logreg" {}`, `exp.hcl:4:23: error: Duplicate label; Learner "b" and learner "logreg" would both be shown as "logreg"`},
		{"label too long", `learner "rf" { label = "` + strings.Repeat("é", MaxLabelChars+1) + `" }`,
			`exp.hcl:4:24: error: Invalid label; The label of learner "rf" is 201 characters long, more than the 200 a label may have`},
		{"pipeline label too long", `pipeline "p" {
  steps = ["std"]
  label = "` + strings.Repeat("a", MaxLabelChars+1) + `"
}`, `exp.hcl:6:11: error: Invalid label; The label of pipeline "p" is 201 characters long, more than the 200 a label may have`},
		{"reduction label too long", `learner "logreg" {}
reduction "ova" { label = format("%0201d", 1) }`, `exp.hcl:5:27: error: Invalid label; The label of reduction "ova" is 201 characters long, more than the 200 a label may have`},
		{"reductions", `learner "logreg" {}
reduction "ova" { label = "ovo" }
reduction "ovo" {}`, `exp.hcl:5:27: error: Duplicate label; Reduction "ova" and reduction "ovo" would both be shown as "ovo"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parse(t, head+tc.src+"\n")
			for _, part := range strings.Split(tc.want, "; ") {
				if !strings.Contains(diags, part) {
					t.Errorf("want %q in:\n%s", part, diags)
				}
			}
		})
	}
}
