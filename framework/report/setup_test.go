package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/setup"
)

// goldenRows is the set-up of the golden run's rows, with labels: logreg
// shown as "LR" (its C varies) and ova as "OvA"; svm_cs unlabelled.
func goldenRows() []setup.Row {
	pipeline := []setup.Step{{Name: "std", Type: "standardize"}, {Name: "hot", Type: "onehot",
		Options: []setup.Param{{Name: "drop_first", Value: "false", Default: true}, {Name: "min_frequency", Value: "3"}}}}
	ova := []setup.Param{{Name: "decode", Value: "argmax", Default: true}}
	code := []setup.Phrase{{Text: "one-vs-all: K columns, class k +1, the rest −1"}}
	decoder := []setup.Phrase{{Text: "the class of the largest score"}}
	row := func(learner, params, plugin string, show setup.Key, lp []setup.Param) setup.Row {
		return setup.Row{Key: setup.Key{Encoder: "default", Learner: learner, Params: params, Reduction: "ova"}, Show: show,
			Pipeline: pipeline, LearnerPlugin: plugin, LearnerParams: lp, ReductionPlugin: "reducers", Scheme: "ova",
			ReductionParams: ova, Code: code, Decoder: decoder}
	}
	return []setup.Row{
		row("logreg", "C=1", "logreg", setup.Key{Encoder: "default", Learner: "LR", Params: "C=1", Reduction: "OvA"},
			[]setup.Param{{Name: "C", Value: "1"}, {Name: "max_iter", Value: "1000", Default: true}}),
		row("logreg", "C=10", "logreg", setup.Key{Encoder: "default", Learner: "LR", Params: "C=10", Reduction: "OvA"},
			[]setup.Param{{Name: "C", Value: "10"}, {Name: "max_iter", Value: "1000", Default: true}}),
		func() setup.Row {
			r := row("svm_cs", "", "svm", setup.Key{Encoder: "default", Learner: "svm_cs", Reduction: "OvA"},
				[]setup.Param{{Name: "C", Value: "1", Default: true}})
			r.Calibration, r.ClassWeight = "platt", "balanced"
			return r
		}(),
	}
}

// TestGoldenSetup: the set-up table in Markdown, JSON and HTML, the
// experiment file in the HTML report, and the tables labelled by the
// blocks' labels (the baseline named by its label).
func TestGoldenSetup(t *testing.T) {
	cells := goldenCells()
	s := goldenSetup()
	s.Rows = goldenRows()
	s.Source = "experiment \"golden\" { seed = 7 }\nlearner \"logreg\" {\n  label = \"LR\"\n  C     = [1, 10]\n}\n# <tags> & \"quotes\" are escaped\n"
	spec := Spec{Experiment: "golden", Metrics: []string{"accuracy"}, Baseline: "LR C=1", Setup: s}
	tables := BuildTables(spec, cells)
	if n := len(tables.Metrics[0].Notes); n != 0 {
		t.Fatalf("notes %v: the baseline named by its label was not found", tables.Metrics[0].Notes)
	}
	for _, tc := range []struct {
		file string
		fn   func(*bytes.Buffer) error
	}{
		{"golden_setup.md", func(b *bytes.Buffer) error { return WriteMarkdown(b, tables, cells) }},
		{"golden_setup.json", func(b *bytes.Buffer) error { return WriteJSON(b, tables) }},
		{"golden_setup.html", func(b *bytes.Buffer) error {
			return WriteHTML(b, HTMLReport{Tables: tables, Cells: cells, Setup: s})
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.fn(&b); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.file, b.Bytes())
		})
	}
	// The rows go by their labels; the cells' names still find them.
	rows := tables.Metrics[0].Rows
	for _, tc := range []struct {
		name string
		want int
	}{{"LR C=1", 0}, {"logreg C=10", 1}, {"svm_cs", 2}, {"svm_cs OvA", 2}, {"svm_cs ova", 2}} {
		if got, err := FindRow(rows, tc.name); err != nil || got != tc.want {
			t.Errorf("FindRow(%q) = %d, %v; want %d", tc.name, got, err, tc.want)
		}
	}
	if _, err := FindRow(rows, "LR"); err == nil || !strings.Contains(err.Error(), "several rows") {
		t.Errorf("FindRow(LR): %v, want several rows", err)
	}
}

// TestFigureNamesSafeAndUnique: labels with spaces, slashes, a leading
// dot or accents make safe file names; figures whose names are made safe
// alike (or alike but for case) each end in a digest of what they show,
// the same in any order; a name too long keeps its first bytes and ends
// in a digest.
func TestFigureNamesSafeAndUnique(t *testing.T) {
	long := strings.Repeat("x", 300)
	figs := []Figure{
		{Name: "confusion_iris_" + fileSafe("RF/ova"), key: "RF/ova"},
		{Name: "confusion_iris_" + fileSafe("RF ova"), key: "RF ova"},
		{Name: "confusion_iris_" + fileSafe("rf ova"), key: "rf ova"},
		{Name: fileSafe(".hidden")}, {Name: fileSafe("Ré C=1")}, {Name: "confusion_iris_" + fileSafe("logreg C=[0.1, 1, 10] (tuned)")},
		{Name: long}, {Name: strings.Repeat("x", 200)},
	}
	want := []string{"confusion_iris_RF_ova-" + digest("RF/ova"), "confusion_iris_RF_ova-" + digest("RF ova"),
		"confusion_iris_rf_ova-" + digest("rf ova"), "_hidden", "R_C=1", "confusion_iris_logreg_C=_0.1_1_10_tuned",
		strings.Repeat("x", maxFileName-digestLen-1) + "-" + digest(long), strings.Repeat("x", maxFileName-digestLen-1) + "-" + digest(strings.Repeat("x", 200))}
	for _, order := range [][]int{{0, 1, 2, 3, 4, 5, 6, 7}, {7, 6, 5, 4, 3, 2, 1, 0}} {
		shuffled := make([]Figure, len(figs))
		for i, o := range order {
			shuffled[i] = figs[o]
		}
		uniqueNames(shuffled)
		for i, f := range shuffled {
			if w := want[order[i]]; f.Name != w {
				t.Errorf("order %v: figure %d named %q, want %q", order, order[i], f.Name, w)
			}
			if len(f.Name) > maxFileName {
				t.Errorf("figure %d: name of %d bytes, more than %d", order[i], len(f.Name), maxFileName)
			}
		}
	}
	if got, w := fileSafe(strings.Repeat("svm_rbf C=10 ", 10)), "svm_rbf_C=10_svm_rbf_C=10_svm_r-"+digest(strings.Repeat("svm_rbf C=10 ", 10)); got != w || len(got) != maxFilePart {
		t.Errorf("fileSafe of a long label = %q, want %q (%d bytes)", got, w, maxFilePart)
	}
}
