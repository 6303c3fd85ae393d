package report

import (
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/setup"
)

// TestShortNames: a row is named by its learner (or the learner's label)
// and what differs between that learner's rows, in the order of the full
// label; the names do not depend on the order of the rows; rows that
// would share a name take their full labels.
func TestShortNames(t *testing.T) {
	k := func(enc, learner, params, red string) setup.Key {
		return setup.Key{Encoder: enc, Learner: learner, Params: params, Reduction: red}
	}
	for _, tc := range []struct {
		name string
		rows []setup.Key
		want []string
	}{
		{"learners differ, one reduction",
			[]setup.Key{k("default", "logreg", "", "ova"), k("default", "svm", "", "ova")},
			[]string{"logreg", "svm"}},
		{"one learner under two reductions",
			[]setup.Key{k("default", "logreg", "", "ova"), k("default", "logreg", "", "ovo"), k("default", "svm", "", "ova")},
			[]string{"logreg ova", "logreg ovo", "svm"}},
		{"the parameter that differs, not those that do not",
			[]setup.Key{k("default", "svm", "C=1,kernel=rbf", "ova"), k("default", "svm", "C=10,kernel=rbf", "ova"), k("default", "logreg", "C=1", "ova")},
			[]string{"svm C=1", "svm C=10", "logreg"}},
		{"tuned rows (the issue's)",
			[]setup.Key{k("default", "logreg", "C=[0.1, 1, 10] (tuned)", "ova"), k("default", "svm_rbf", "C=[0.1, 1, 10],kernel=rbf (tuned)", "ovo")},
			[]string{"logreg", "svm_rbf"}},
		{"tuned beside untuned",
			[]setup.Key{k("default", "logreg", "C=1", "ova"), k("default", "logreg", "C=[1, 10] (tuned)", "ova")},
			[]string{"logreg C=1", "logreg C=[1, 10] (tuned)"}},
		{"a list value with a comma and a name=value inside",
			[]setup.Key{k("default", "m", "w=[1, 2],x=a", "ova"), k("default", "m", "w=[1, 3],x=a", "ova")},
			[]string{"m w=[1, 2]", "m w=[1, 3]"}},
		{"labels: the learner's label and its shown parameters",
			[]setup.Key{k("default", "LR", "(tuned)", "OvA"), k("default", "SVM", "C=1", "OvA"), k("default", "SVM", "C=10", "OvA")},
			[]string{"LR", "SVM C=1", "SVM C=10"}},
		{"pipelines that differ",
			[]setup.Key{k("raw", "logreg", "", "ova"), k("std", "logreg", "", "ova"), k("std", "svm", "", "ova")},
			[]string{"raw logreg", "std logreg", "svm"}},
		{"reduction parameters",
			[]setup.Key{k("default", "logreg", "", "ecoc[decode=hamming]"), k("default", "logreg", "", "ecoc[decode=loss:exp]")},
			[]string{"logreg ecoc[decode=hamming]", "logreg ecoc[decode=loss:exp]"}},
		{"a parameter some rows lack",
			[]setup.Key{k("default", "m", "a=1", "ova"), k("default", "m", "a=1,b=2", "ova")},
			[]string{"m", "m b=2"}},
		{"collision: short names alike take the full labels",
			[]setup.Key{k("", "a", "", "b"), k("", "a", "", "c"), k("", "a b", "", "ova")},
			[]string{"a b", "a c", "a b ova"}},
		{"one row",
			[]setup.Key{k("default", "logreg", "C=1", "ova")},
			[]string{"logreg"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ShortNames(tc.rows); strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("ShortNames = %q, want %q", got, tc.want)
			}
			n := len(tc.rows)
			for shift := 1; shift < n; shift++ { // every rotation, reversed too
				for _, rev := range []bool{false, true} {
					perm := make([]int, n)
					rows := make([]setup.Key, n)
					for i := range n {
						perm[i] = (i + shift) % n
						if rev {
							perm[i] = n - 1 - perm[i]
						}
						rows[i] = tc.rows[perm[i]]
					}
					for i, got := range ShortNames(rows) {
						if got != tc.want[perm[i]] {
							t.Errorf("rows in order %v: row %d named %q, want %q", perm, perm[i], got, tc.want[perm[i]])
						}
					}
				}
			}
		})
	}
}

// TestFindRowByShortName: the baseline may be a row's short name, its
// full label, or its words in order; a name that fits several rows lists
// them by their short names, and one that fits none suggests the closest
// short name.
func TestFindRowByShortName(t *testing.T) {
	acc := withErr([]float64{0.9, 0.8})
	var cells []*outcome.CellResult
	for _, ds := range []string{"iris", "wine"} {
		cells = append(cells,
			mkCell(ds, "logreg", "C=[0.1, 1, 10] (tuned)", "ova", 90, 10, acc),
			mkCell(ds, "logreg", "C=[0.1, 1, 10] (tuned)", "ovo", 90, 10, acc),
			mkCell(ds, "svm_rbf", "C=[0.1, 1, 10],kernel=rbf (tuned)", "ovo", 90, 10, acc))
	}
	rows, _, _ := rowsOf(cells, nil)
	var names []string
	for _, r := range rows {
		names = append(names, r.Label)
	}
	if got := strings.Join(names, ", "); got != "logreg ova, logreg ovo, svm_rbf" {
		t.Fatalf("rows named %s", got)
	}
	for _, tc := range []struct {
		name string
		want int
		err  string
	}{
		{"logreg ova", 0, ""},
		{"svm_rbf", 2, ""},
		{"logreg C=[0.1, 1, 10] (tuned) ova", 0, ""},
		{"logreg (tuned) ovo", 1, ""},
		{"svm_rbf kernel=rbf", 2, ""},
		{"svm_rbf ovo", 2, ""},
		{"ovo", -1, `"ovo" matches several rows: "logreg ovo", "svm_rbf"`},
		{"logreg", -1, `"logreg" matches several rows: "logreg ova", "logreg ovo"`},
		{"tree", -1, `"tree" matches no row (rows: "logreg ova", "logreg ovo", "svm_rbf")`},
		{"svm_rbg", -1, `"svm_rbg" matches no row (did you mean "svm_rbf"?) (rows: "logreg ova", "logreg ovo", "svm_rbf")`},
		{"logreg ovs", -1, `"logreg ovs" matches no row (did you mean "logreg ova" or "logreg ovo"?)`},
		{"ova logreg", -1, `"ova logreg" matches no row`},
		{"", -1, `"" matches no row`},
	} {
		if tc.name == "tree" {
			if _, err := FindRow(nil, tc.name); err == nil || err.Error() != `"tree" matches no row (the tables have no rows)` {
				t.Errorf("FindRow(no rows) = %v", err)
			}
		}
		t.Run(tc.name, func(t *testing.T) {
			got, err := FindRow(rows, tc.name)
			if got != tc.want || (tc.err == "") != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), tc.err)) {
				t.Errorf("FindRow(%q) = %d, %v; want %d, %q", tc.name, got, err, tc.want, tc.err)
			}
		})
	}
}

// TestFigureFileNamesShort: the figures of the rows (tuned
// learners, long parameter lists) are named by the rows' short names:
// short, unique (whatever the case), and with no digest where none is
// needed.
func TestFigureFileNamesShort(t *testing.T) {
	var cells []*outcome.CellResult
	for d, ds := range []string{"d1", "d2", "d3"} {
		for r, row := range [][2]string{{"logreg", "ova"}, {"logreg", "ovo"}, {"svm_rbf", "ovo"}} {
			params := "C=[0.1, 1, 10] (tuned)"
			if row[0] == "svm_rbf" {
				params = "C=[0.1, 1, 10],kernel=rbf (tuned)"
			}
			acc := []float64{0.7 + 0.05*float64(r) + 0.01*float64(d), 0.72 + 0.04*float64(r), 0.71 + 0.03*float64(r+d)}
			c := mkCell(ds, row[0], params, row[1], 90, 10, withErr(acc))
			for i := range c.Folds {
				c.Folds[i].Confusion = [][]int{{4, 1}, {1, 4}}
			}
			cells = append(cells, c)
		}
	}
	rope := 0.01
	tables := BuildTables(Spec{Experiment: "n", Metrics: []string{"accuracy"}, Rope: &rope, BayesPairs: true, Seed: 1}, cells)
	figs, err := BuildFigures(tables, cells, []string{"svm_rbf"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	seen := map[string]bool{}
	for _, f := range figs {
		names = append(names, f.Name)
		if len(f.Name) > 50 || seen[strings.ToLower(f.Name)] {
			t.Errorf("figure file name %q: longer than 50 bytes or not unique", f.Name)
		}
		seen[strings.ToLower(f.Name)] = true
	}
	want := "box_accuracy, cd_accuracy, bayes_accuracy_logreg_ova_vs_logreg_ovo, bayes_accuracy_logreg_ova_vs_svm_rbf, " +
		"bayes_accuracy_logreg_ovo_vs_svm_rbf, confusion_d1_svm_rbf, confusion_d2_svm_rbf, confusion_d3_svm_rbf"
	if got := strings.Join(names, ", "); got != want {
		t.Errorf("figures\n%s\nwant\n%s", got, want)
	}
}
