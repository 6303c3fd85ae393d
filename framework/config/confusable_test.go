package config

import (
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/safetext"
)

// TestConfusableNames: two datasets (encoders, pipelines, learners,
// reductions) whose shown names differ only by homoglyphs of other
// scripts or by Unicode normalisation are a warning at the second, naming
// both in ASCII quoting and where the first is (HCL reads strings in
// NFC, so labels that differ by normalisation are one: a duplicate); a label with a bidi
// control or a zero-width character is an error at the label, and a
// name holding one is an error at the name; the source lines the
// diagnostics quote show such a character as U+FFFD, never raw. On the code before, each
// passed without a word.
func TestConfusableNames(t *testing.T) {
	const head = `experiment "x" { seed = 1 }
`
	for _, tc := range []struct{ name, src, want string }{
		{"Cyrillic i in a dataset name", `dataset "iris" { path = "iris.csv" }
dataset "іris" { path = "iris2.csv" }
learner "logreg" {}`,
			`exp.hcl:3:1: warning: Confusable names; The dataset "\u0456ris" (shown as "іris") looks like the dataset "iris" (shown as "iris") declared at exp.hcl:2:1`},
		{"Greek omicron in a learner label", `dataset "iris" { path = "iris.csv" }
learner "logreg" { label = "LOGREG" }
learner "knn" { label = "LΟGREG" }`,
			`exp.hcl:4:25: warning: Confusable names; The learner "L\u039fGREG" (shown as "LΟGREG") looks like the learner "LOGREG" (shown as "LOGREG") declared at exp.hcl:3:28`},
		{"label and another's name", `dataset "iris" { path = "iris.csv" }
learner "logreg" {}
learner "knn" { label = "lоgreg" }`,
			`exp.hcl:4:25: warning: Confusable names; The learner "l\u043egreg" (shown as "lоgreg") looks like the learner "logreg" (shown as "logreg") declared at exp.hcl:3:1`},
		{"reduction labels by NFC", `dataset "iris" { path = "iris.csv" }
learner "logreg" {}
reduction "ova" { label = "caf` + "\u00e9" + `" }
reduction "ovo" { label = "cafe` + "\u0301" + `" }`,
			// HCL reads a string in its NFC form: the two labels are one.
			`exp.hcl:5:27: error: Duplicate label; Reduction "ova" and reduction "ovo" would both be shown as "café"`},
		{"pipeline labels by a trailing blank", `dataset "iris" { path = "iris.csv" }
encoder "std" { type = "standardize" }
pipeline "a" {
  steps = ["std"]
  label = "std"
}
pipeline "b" {
  steps = ["std"]
  label = "std "
}
learner "logreg" {}`,
			`exp.hcl:10:11: warning: Confusable names; The pipeline "std " (shown as "std ") looks like the pipeline "std" (shown as "std") declared at exp.hcl:6:11`},
		{"encoder names fullwidth", `dataset "iris" { path = "iris.csv" }
encoder "std" { type = "standardize" }
encoder "ｓtd" { type = "standardize" }
learner "logreg" {}`,
			`exp.hcl:4:1: warning: Confusable names; The encoder "\uff53td" (shown as "ｓtd") looks like the encoder "std" (shown as "std") declared at exp.hcl:3:1`},
		{"zero-width space in a dataset name", `dataset "ir` + "\u200b" + `is" { path = "iris.csv" }
learner "logreg" {}`,
			`exp.hcl:2:9: error: Invalid dataset name; "ir\u200bis" holds '\u200b'`},
		{"bidi override in a learner name", `dataset "iris" { path = "iris.csv" }
learner "` + "\u202e" + `gerlog" {}`,
			`exp.hcl:3:9: error: Invalid learner name; "\u202egerlog" holds '\u202e'`},
		{"bidi override in a label", `dataset "iris" { path = "iris.csv" }
learner "logreg" { label = "LR` + "\u202e" + `" }`,
			`exp.hcl:3:28: error: Invalid label; The label of learner "logreg" holds a right-to-left override (U+202E) at character 3; a name or label may hold no bidi control or other invisible (default-ignorable) character`},
		{"zero-width joiner in a label", `dataset "iris" { path = "iris.csv" }
learner "logreg" {}
reduction "ova" { label = "o` + "\u200d" + `va" }`,
			`exp.hcl:4:27: error: Invalid label; The label of reduction "ova" holds a zero-width joiner (U+200D) at character 2`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parse(t, head+tc.src+"\n")
			for _, part := range strings.Split(tc.want, "; ") {
				if !strings.Contains(diags, part) {
					t.Errorf("want %q in:\n%s", part, diags)
				}
			}
			if i := strings.IndexFunc(diags, safetext.Hidden); i >= 0 {
				t.Errorf("the diagnostics show a hidden character raw (U+%04X), in the quoted source line:\n%s", []rune(diags[i:])[0], diags)
			}
		})
	}
	t.Run("distinct names", func(t *testing.T) {
		_, diags := parse(t, head+`dataset "iris" { path = "iris.csv" }
dataset "Iris2" { path = "iris.csv" }
learner "logreg" { label = "LR" }
learner "knn" { label = "kNN" }
`)
		if strings.Contains(diags, "Confusable") {
			t.Errorf("diagnostics:\n%s", diags)
		}
	})
}
