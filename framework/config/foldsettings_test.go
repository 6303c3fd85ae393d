package config

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// diagHeads returns the first line of each diagnostic in diags
// ("exp.hcl:8:13: error: Conflicting fold settings").
func diagHeads(diags string) []string {
	return regexp.MustCompile(`(?m)^exp\.hcl:\d+:\d+: (error|warning): .*$`).FindAllString(diags, -1)
}

// TestFoldSettings checks that a cv option a dataset's own split (a
// folds file, a test file) would silently ignore is a located error at
// the option (a warning for stratified), and that the options that do
// reach a dataset pass: a folds_file with repeats = 3 ran 1 repeat of
// 10 folds (10 fits, not 30) without a word.
func TestFoldSettings(t *testing.T) {
	const head = "experiment \"x\" { seed = 3 }\nlearner \"logreg\" {}\n"
	const ownFile = "dataset \"iris\" {\n  path       = \"iris.csv\"\n  folds_file = \"f.csv\"\n}\n" // lines 3-6
	const testFile = "dataset \"adult\" {\n  path      = \"a.csv\"\n  test_path = \"t.csv\"\n}\n"    // lines 3-6 (or 7-10)
	const drawn = "dataset \"wine\" { path = \"wine.csv\" }\n"                                       // one line
	const tune = "learner \"svm\" {\n  params = { C = [1, 10] }\n  tune {}\n}\n"                     // four lines
	for _, tc := range []struct {
		name, src string
		heads     []string
		message   string
	}{
		{"dataset folds file with repeats", head + ownFile + "cv {\n  repeats = 3\n}\n",
			[]string{"exp.hcl:8:13: error: Conflicting fold settings"},
			`Dataset "iris" takes its folds from its folds_file (at exp.hcl:5:16), which fixes one partition of its rows: repeats = 3 would only re-use the same folds 3 times. Drop repeats (one repeat), or drop the dataset's folds_file to draw fresh folds for each repeat.`},
		{"dataset folds file with repeats beside a drawn dataset", head + ownFile + drawn + "cv {\n  repeats = 3\n}\n",
			[]string{"exp.hcl:9:13: error: Conflicting fold settings"},
			`Dataset "iris" takes its folds from its folds_file`},
		{"cv folds file with repeats", head + drawn + "cv {\n  folds_file = \"f.csv\"\n  repeats    = 2\n}\n",
			[]string{"exp.hcl:6:16: error: Conflicting fold settings"},
			`The cv block's folds_file (at exp.hcl:5:16) fixes one partition of each dataset's rows: repeats = 2 would only re-use the same folds 2 times. Drop repeats (one repeat), or drop folds_file to draw fresh folds for each repeat.`},
		{"dataset folds file with holdout", head + ownFile + drawn + "cv {\n  holdout = 0.25\n}\n",
			[]string{"exp.hcl:9:13: error: Conflicting fold settings"},
			`Dataset "iris" takes its folds from its folds_file (at exp.hcl:5:16), which fixes them: holdout = 0.25 would not apply to it. Drop holdout, or drop the dataset's folds_file to split it by the holdout.`},
		{"test files only with folds", head + testFile + "cv {\n  folds = 5\n}\n",
			[]string{"exp.hcl:8:11: error: Fold setting that applies to no dataset"},
			`folds = 5 splits no dataset: every dataset has a test_path (one fit on its path, one score on its test file). Drop folds.`},
		{"test files only with holdout", head + testFile + "cv {\n  holdout = 0.3\n}\n",
			[]string{"exp.hcl:8:13: error: Fold setting that applies to no dataset"},
			`holdout = 0.3 splits no dataset: every dataset has a test_path`},
		{"test files only with repeats", head + testFile + "cv {\n  repeats = 3\n}\n",
			[]string{"exp.hcl:8:13: error: Fold setting that applies to no dataset"},
			`repeats = 3 repeats no dataset's folds: every dataset has a test_path (one fit on its path, one score on its test file), so each cell would run once. Drop repeats.`},
		{"cv folds file that every dataset overrides", head + ownFile + testFile + "cv {\n  folds_file = \"g.csv\"\n}\n",
			[]string{"exp.hcl:12:16: error: Fold setting that applies to no dataset"},
			`The cv block's folds_file splits no dataset: every dataset has a test_path or a folds_file of its own. Drop it.`},
		{"stratified over folds files", head + ownFile + "cv {\n  stratified = false\n}\n",
			[]string{"exp.hcl:8:16: warning: Fold setting that applies to no dataset"},
			`stratified stratifies no folds: every dataset's split is fixed by a file (its test_path, or a folds_file), and no learner has a tune block (whose inner folds it stratifies). Drop stratified.`},
		// What reaches a dataset passes.
		{"stratified with a tune block", head + tune + ownFile + "cv {\n  stratified = false\n}\n", nil, ""},
		{"test file beside drawn folds", head + testFile + drawn + "cv {\n  holdout = 0.25\n  repeats = 5\n  stratified = true\n}\n", nil, ""},
		{"folds beside a dataset folds file", head + ownFile + drawn + "cv {\n  folds = 10\n}\n", nil, ""},
		{"one repeat with a folds file", head + ownFile + "cv {\n  repeats = 1\n}\n", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parse(t, tc.src)
			if got := diagHeads(diags); !slices.Equal(got, tc.heads) {
				t.Fatalf("diagnostics %q, want %q; all:\n%s", got, tc.heads, diags)
			}
			if !strings.Contains(diags, tc.message) {
				t.Errorf("diagnostics:\n%s\nwant a message containing %q", diags, tc.message)
			}
		})
	}
}
