package engine_test

import (
	"strings"
	"testing"

	knn "github.com/polyclass/polyclass/plugins/knn/learner"
	logreg "github.com/polyclass/polyclass/plugins/logreg/learner"
)

// TestLearnerChecksBesideParamError: class weights given to a learner
// whose plugin takes no row weights, and an unknown tune metric, are
// reported in the same pass as the learner's parameter errors, once. A
// new user's knn with k = 0 and class_weight = "balanced" saw the class
// weights refused only after fixing k (the learner did not bind, and the
// grid's checks of it never ran); so was a tune metric "acuracy" beside
// svm's kernel = "gaussian".
func TestLearnerChecksBesideParamError(t *testing.T) {
	for _, tc := range []struct {
		name, params string
		want         []string
	}{
		{"parameter error", "k = 0", []string{
			"exp.hcl:4:18: error: Invalid parameter value",
			"exp.hcl:5:18: error: Learner cannot take class weights",
			"exp.hcl:6:19: error: Unknown metric",
		}},
		{"no parameter error", "k = [1, 3]", []string{
			"exp.hcl:5:18: error: Learner cannot take class weights",
			"exp.hcl:6:19: error: Unknown metric",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `experiment "x" { seed = 1 }
dataset "d" { path = "d.csv" }
learner "knn" {
  params = { ` + tc.params + ` }
  class_weight = "balanced"
  tune { metric = "acuracy" }
}
reduction "ova" {}
reduction "ovo" {}
cv { folds = 3 }
`
			text, _ := resolveSource(t, map[string]string{"d.csv": fuzzData["d.csv"]}, "knn", knn.New(), src)
			if n := strings.Count(text, ": error: "); n != len(tc.want) {
				t.Errorf("%d errors, want %d:\n%s", n, len(tc.want), text)
			}
			for _, want := range tc.want {
				if strings.Count(text, want) != 1 {
					t.Errorf("diagnostics:\n%s\nwant once %q", text, want)
				}
			}
		})
	}
}

// TestClassWeightClassesBesideParamError: a class_weight map naming a
// class no dataset has is reported in the same pass as the learner's
// parameter error, or its missing plugin. A new user's logreg with
// C = [0.01, 0, 1] and class_weight = { setosa = 2, virginca = 3 } saw
// "virginca" refused only after fixing C (the learner did not bind, and
// the class names were checked for bound learners only).
func TestClassWeightClassesBesideParamError(t *testing.T) {
	const unknown = `learner logreg: class_weight names class "z", which no dataset it meets has.`
	for _, tc := range []struct {
		name, plugin, params string
		want                 []string
	}{
		{"parameter error", "logreg", "C = [1, 0]", []string{
			"exp.hcl:4:24: error: Invalid parameter value",
			"exp.hcl:5:18: error: Unknown class",
		}},
		{"missing plugin", "nosuch", "C = 1", []string{
			"exp.hcl:6:18: error: Unknown plugin",
			"exp.hcl:5:18: error: Unknown class",
		}},
		{"no other error", "logreg", "C = 1", []string{
			"exp.hcl:5:18: error: Unknown class",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `experiment "x" { seed = 1 }
dataset "d" { path = "d.csv" }
learner "logreg" {
  params       = { ` + tc.params + ` }
  class_weight = { a = 2, z = 3 }
  plugin       = "` + tc.plugin + `"
}
reduction "ova" {}
cv { folds = 3 }
`
			text, _ := resolveSource(t, map[string]string{"d.csv": fuzzData["d.csv"]}, "logreg", logreg.New(), src)
			if n := strings.Count(text, ": error: "); n != len(tc.want) {
				t.Errorf("%d errors, want %d:\n%s", n, len(tc.want), text)
			}
			for _, want := range append(tc.want, unknown) {
				if strings.Count(text, want) != 1 {
					t.Errorf("diagnostics:\n%s\nwant once %q", text, want)
				}
			}
		})
	}
}

// TestClassWeightUnknownClassSuggests: a class_weight map's class that no
// dataset has is refused with the class it was probably meant to be, as
// a misspelt column, metric or parameter is. A new user's
// class_weight = { tablewear = 5 } on glass said only "which no dataset
// it meets has".
func TestClassWeightUnknownClassSuggests(t *testing.T) {
	const data = "x1,x2,class\n1,2,tableware\n2,1,tableware\n3,3,tableware\n" +
		"4,2,headlamps\n5,1,headlamps\n6,3,headlamps\n7,2,containers\n8,1,containers\n9,3,containers\n"
	for _, tc := range []struct{ class, want string }{
		{"tablewear", `learner logreg: class_weight names class "tablewear", which no dataset it meets has (did you mean "tableware"?).`},
		{"Headlamps", `learner logreg: class_weight names class "Headlamps", which no dataset it meets has (did you mean "headlamps"?).`},
		{"windows", `learner logreg: class_weight names class "windows", which no dataset it meets has.`},
	} {
		t.Run(tc.class, func(t *testing.T) {
			src := `experiment "x" { seed = 1 }
dataset "glass" { path = "glass.csv" }
learner "logreg" {
  class_weight = { tableware = 2, "` + tc.class + `" = 3 }
}
reduction "ova" {}
cv { folds = 3 }
`
			text, _ := resolveSource(t, map[string]string{"glass.csv": data}, "logreg", logreg.New(), src)
			if n := strings.Count(text, ": error: "); n != 1 || !strings.Contains(text, "exp.hcl:4:18: error: Unknown class") {
				t.Errorf("%d errors, want 1 at exp.hcl:4:18:\n%s", n, text)
			}
			if !strings.Contains(text, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant %q", text, tc.want)
			}
		})
	}
}

// TestClassWeightNumericClasses is campaign 12's CW2: on a class column
// compared as numbers (1 and 1.0 one class, named 1), a class_weight key
// "1.0", the data's own spelling, was refused as an unknown class. A key
// names the class it equals as a decimal number; two keys of one class
// are an error.
func TestClassWeightNumericClasses(t *testing.T) {
	const data = "x1,x2,class\n1,2,1\n2,1,1.0\n3,3,1\n4,2,2\n5,1,2.0\n6,3,2\n7,2,3\n8,1,3\n9,3,3\n"
	for _, tc := range []struct{ weights, want string }{
		{`{ "1.0" = 2, "+2" = 3 }`, ""},
		{`{ "1" = 2, "1.0" = 3 }`, `learner logreg: class_weight names class "1" twice, as "1" and "1.0".`},
		{`{ "4.0" = 2 }`, `learner logreg: class_weight names class "4.0", which no dataset it meets has`},
	} {
		t.Run(tc.weights, func(t *testing.T) {
			src := `experiment "x" { seed = 1 }
dataset "d" { path = "d.csv" }
learner "logreg" {
  class_weight = ` + tc.weights + `
}
reduction "ova" {}
cv { folds = 3 }
`
			text, _ := resolveSource(t, map[string]string{"d.csv": data}, "logreg", logreg.New(), src)
			switch n := strings.Count(text, ": error: "); {
			case tc.want == "" && n != 0:
				t.Errorf("diagnostics:\n%s\nwant no error", text)
			case tc.want != "" && (n != 1 || !strings.Contains(text, tc.want)):
				t.Errorf("diagnostics:\n%s\nwant one error with %q", text, tc.want)
			}
		})
	}
}
