package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/curves"
	"github.com/polyclass/polyclass/framework/metrics"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/sdk"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// mkCell builds a finished cell whose folds have the given scores per
// metric (all slices of one length), nTrain/nTest rows each.
func mkCell(ds, learner, params, red string, nTrain, nTest int, scores map[string][]float64) *outcome.CellResult {
	c := &outcome.CellResult{ID: outcome.ID{Dataset: ds, Encoder: "default", Learner: learner, Params: params, Reduction: red},
		Classes: []string{"a", "b"}}
	n := 0
	for _, v := range scores {
		n = len(v)
	}
	for i := 0; i < n; i++ {
		f := outcome.FoldResult{Fold: i, NTrain: nTrain, NTest: nTest, Metrics: map[string]float64{}}
		for m, v := range scores {
			f.Metrics[m] = v[i]
		}
		c.Folds = append(c.Folds, f)
	}
	return c
}

// withErr is mkCell's scores as accuracy and error = 1 − accuracy.
func withErr(acc []float64) map[string][]float64 {
	e := make([]float64, len(acc))
	for i, a := range acc {
		e[i] = 1 - a
	}
	return map[string][]float64{"accuracy": acc, "error": e}
}

// goldenCells: three rows on two datasets, five folds of 120/30 rows; every
// fold has the confusion matrix its accuracy implies (15 rows per class,
// errors split between the two classes) and the one-vs-all code matrix
// diagnostics of K = 2.
func goldenCells() []*outcome.CellResult {
	cells := goldenScores()
	for _, c := range cells {
		for i := range c.Folds {
			f := &c.Folds[i]
			wrong := 30 - int(math.Round(30*f.Metrics["accuracy"]))
			f.Confusion = [][]int{{15 - wrong/2, wrong / 2}, {wrong - wrong/2, 15 - (wrong - wrong/2)}}
			f.Diagnostics = &sdk.CodeDiagnostics{Classes: 2, Columns: 2, MinDistance: 2, MeanDistance: 2}
		}
	}
	// The logreg rows on iris have threshold views (probabilities for
	// C=1, softmax scores for C=10).
	cells[0].Curves = goldenCurves(1, true)
	cells[1].Curves = goldenCurves(2, false)
	return cells
}

// goldenCurves are the threshold views of 150 rows of two classes whose
// scores come from a fixed sequence (seed picks it).
func goldenCurves(seed int, probabilities bool) *curves.Set {
	var f curves.Fold
	for i := range 150 {
		y := i % 2
		p := 0.5 + 0.45*math.Sin(float64(i*7+seed*13))
		if y == 0 {
			p = 1 - p*0.8
		}
		f.Scores = append(f.Scores, p, 1-p)
		f.True = append(f.True, y)
	}
	return curves.Compute(2, []curves.Fold{f}, probabilities)
}

// goldenSetup is the set-up of the golden run.
func goldenSetup() *Setup {
	return &Setup{File: "/home/u/exp/golden.hcl", FileSHA256: strings.Repeat("ab", 32), Seed: 7,
		CV: CVInfo{Folds: 5, Stratified: true, Repeats: 1},
		Datasets: []DatasetInfo{
			{Name: "iris", Path: "data/iris.csv", SHA256: strings.Repeat("01", 32), Rows: 150, Numeric: 4,
				Classes: []ClassCount{{"a", 75}, {"b", 75}}},
			{Name: "wine&co", Path: "data/wine.csv", SHA256: strings.Repeat("02", 32), Rows: 150, Numeric: 10, Categorical: 3,
				Classes: []ClassCount{{"a", 75}, {"b", 75}}},
		},
		Plugins:   []PluginInfo{{Name: "logreg", Version: "0.3.0", SHA256: strings.Repeat("cd", 32)}},
		GoVersion: "go1.26.8", Status: "complete", Cells: 6, Finished: 6, Failed: 1}
}

func goldenScores() []*outcome.CellResult {
	return []*outcome.CellResult{
		mkCell("iris", "logreg", "C=1", "ova", 120, 30, withErr([]float64{0.9, 0.9333333333333333, 0.9666666666666667, 0.9, 0.9333333333333333})),
		mkCell("iris", "logreg", "C=10", "ova", 120, 30, withErr([]float64{0.9666666666666667, 1, 1, 0.9666666666666667, 1})),
		mkCell("iris", "svm_cs", "", "ova", 120, 30, withErr([]float64{0.8, 0.8333333333333334, 0.9, 0.8666666666666667, 0.8})),
		mkCell("wine&co", "logreg", "C=1", "ova", 120, 30, withErr([]float64{0.9666666666666667, 0.9333333333333333, 1, 0.9666666666666667, 0.9666666666666667})),
		mkCell("wine&co", "logreg", "C=10", "ova", 120, 30, withErr([]float64{0.9666666666666667, 0.9333333333333333, 1, 0.9666666666666667, 0.9666666666666667})),
		{ID: outcome.ID{Dataset: "wine&co", Encoder: "default", Learner: "svm_cs", Reduction: "ova"}, Error: "repeat 0 fold 2: boom"},
	}
}

var dataURI = regexp.MustCompile(`data:image/png;base64,[A-Za-z0-9+/=]+`)

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	if strings.HasSuffix(name, ".html") {
		// PNG bytes depend on floating-point rasterisation; compare the markup.
		got = dataURI.ReplaceAll(got, []byte("data:image/png;base64,PNG"))
	}
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update to accept):\n%s", name, got)
	}
}

func TestGolden(t *testing.T) {
	cells := goldenCells()
	rope := 0.01
	tables := BuildTables(Spec{Experiment: "golden", Metrics: []string{"accuracy", "error"}, Baseline: "logreg C=1", Rope: &rope, Seed: 7}, cells)
	figs, err := BuildFigures(tables, cells, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file string
		fn   func(*bytes.Buffer) error
	}{
		{"golden.md", func(b *bytes.Buffer) error { return WriteMarkdown(b, tables, cells) }},
		{"golden.tex", func(b *bytes.Buffer) error { return WriteLaTeX(b, tables) }},
		{"golden.json", func(b *bytes.Buffer) error { return WriteJSON(b, tables) }},
		{"golden.html", func(b *bytes.Buffer) error {
			return WriteHTML(b, HTMLReport{Tables: tables, Figures: figs, Cells: cells, Setup: goldenSetup()})
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
}

// writeAll writes the files of a run into dir, as package results does,
// and returns their paths.
func writeAll(dir string, s Spec, cells []*outcome.CellResult) ([]string, error) {
	files, err := Files(s, cells)
	if err != nil {
		return nil, err
	}
	var written []string
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return written, err
		}
		var b bytes.Buffer
		if err := f.Write(&b); err != nil {
			return written, err
		}
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			return written, err
		}
		written = append(written, p)
	}
	return written, nil
}

// TestWriteAllDeterministic writes every format twice and compares bytes.
func TestWriteAllDeterministic(t *testing.T) {
	m := Spec{Experiment: "det", Metrics: []string{"accuracy", "error"},
		Formats: []string{"markdown", "csv", "json", "latex", "html"}, Baseline: "logreg C=1"}
	var runs [2]map[string][]byte
	for i := range runs {
		dir := t.TempDir()
		cells := goldenCells()
		for i := range cells[1].Folds {
			cells[1].Folds[i].Confusion = [][]int{{15, 0}, {1, 14}}
		}
		written, err := writeAll(dir, m, cells)
		if err != nil {
			t.Fatal(err)
		}
		runs[i] = map[string][]byte{}
		for _, p := range written {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(dir, p)
			runs[i][rel] = b
		}
	}
	for _, want := range []string{"summary.csv", "folds.csv", "det.md", "det.tex", "det.html", "det.json",
		"plots/box_accuracy.png", "plots/box_accuracy.svg", "plots/box_error.svg",
		"plots/confusion_iris_logreg_C=10.png", "plots/confusion_iris_logreg_C=10.svg"} {
		if _, ok := runs[0][want]; !ok {
			t.Errorf("WriteAll did not write %s", want)
		}
	}
	if len(runs[0]) != len(runs[1]) {
		t.Fatalf("%d files then %d", len(runs[0]), len(runs[1]))
	}
	for name, b := range runs[0] {
		if !bytes.Equal(b, runs[1][name]) {
			t.Errorf("%s differs between two identical runs", name)
		}
	}
	// The critical-difference diagram needs two complete datasets.
	dir := t.TempDir()
	written, err := writeAll(dir, Spec{Experiment: "d", Metrics: []string{"auc_ovr"}, Formats: []string{"plots"}}, demsarCells([]int{0, 1, 2, 3}))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(written, " "), filepath.Join(dir, "plots", "cd_auc_ovr.png")) {
		t.Errorf("no CD diagram among %v", written)
	}
	// Without "csv" among the formats, no CSV file is written.
	for _, w := range written {
		if strings.HasSuffix(w, ".csv") {
			t.Errorf("formats [plots] wrote %s", w)
		}
	}
}

// TestCorrectedMarks checks v / * / tie on folds built so that the verdict
// is known. Baseline b: ten folds of 0.80, n_train 90, n_test 10, so the
// correction is 1/J + n_test/n_train = 0.1 + 0.1111 = 0.2111.
//
//   - "up": d alternates 0.01, 0.03: mean 0.02, var = 10·0.01²/9 = 1.111e-4,
//     t = 0.02/√(0.2111·1.111e-4) = 4.13, p(t₉) ≈ 0.0026 → v.
//   - "down": d = −(0.01, 0.03, …): t = −4.13 → *.
//   - "noisy": d alternates 0.00, 0.04: mean 0.02, var = 4.444e-4. The naive
//     paired t = 0.02/√(4.444e-4/10) = 3.00 (p ≈ 0.015) would call it
//     significant; corrected t = 0.02/√(0.2111·4.444e-4) = 2.065, p ≈ 0.069
//     → tie.
//
// For "error" = 1 − accuracy (lower is better) the differences change sign
// (t = −4.13 for "up") but the verdicts must stay: lower error is better.
func TestCorrectedMarks(t *testing.T) {
	base := make([]float64, 10)
	mk := func(d0, d1 float64) []float64 {
		v := make([]float64, 10)
		for i := range v {
			base[i] = 0.8
			v[i] = 0.8 + d0
			if i%2 == 1 {
				v[i] = 0.8 + d1
			}
		}
		return v
	}
	cells := []*outcome.CellResult{
		mkCell("d", "base", "", "ova", 90, 10, withErr(mk(0, 0))),
		mkCell("d", "up", "", "ova", 90, 10, withErr(mk(0.01, 0.03))),
		mkCell("d", "down", "", "ova", 90, 10, withErr(mk(-0.01, -0.03))),
		mkCell("d", "noisy", "", "ova", 90, 10, withErr(mk(0, 0.04))),
	}
	tables := BuildTables(Spec{Experiment: "marks", Metrics: []string{"accuracy", "error"}, Baseline: "base", Alpha: 0.05}, cells)
	want := map[string][]string{"accuracy": {"", "v", "*", ""}, "error": {"", "v", "*", ""}}
	for _, c := range tables.Metrics {
		for r, w := range want[c.Metric] {
			if got := c.Entries[r][0].Mark; got != w {
				t.Errorf("%s, %s: mark %q, want %q", c.Metric, c.Rows[r].Label, got, w)
			}
		}
		e := c.Entries[1][0]
		if math.Abs(math.Abs(e.T)-4.1295) > 1e-3 || math.Abs(e.P-0.00257) > 2e-4 {
			t.Errorf("%s up: t = %v, p = %v; hand 4.1295, 0.0026", c.Metric, e.T, e.P)
		}
		if e := c.Entries[3][0]; math.Abs(math.Abs(e.T)-2.0647) > 1e-3 || !(e.P > 0.05 && e.P < 0.08) {
			t.Errorf("%s noisy: t = %v, p = %v; hand 2.065, 0.069", c.Metric, e.T, e.P)
		}
		if (e.T > 0) != (c.Metric == "accuracy") {
			t.Errorf("%s up: t = %v has the wrong sign", c.Metric, e.T)
		}
		// Effect size of "up": mean difference 0.02 (−0.02 in error), 95%
		// interval ± t_{0.975, 9}·√(0.2111·1.111e-4) = ± 2.262157·0.0048432.
		sign := 1.0
		if c.Metric == "error" {
			sign = -1
		}
		half := 2.262157 * math.Sqrt((0.1+10.0/90)*(10*1e-4/9))
		if math.Abs(e.Diff-sign*0.02) > 1e-12 || math.Abs(e.Lo-(sign*0.02-half)) > 1e-6 || math.Abs(e.Hi-(sign*0.02+half)) > 1e-6 {
			t.Errorf("%s up: effect %v [%v, %v], want %v ± %v", c.Metric, e.Diff, e.Lo, e.Hi, sign*0.02, half)
		}
		if c.WTL[1] != (WTL{Win: 1}) || c.WTL[2] != (WTL{Loss: 1}) || c.WTL[3] != (WTL{Tie: 1}) {
			t.Errorf("%s: w/t/l %v", c.Metric, c.WTL)
		}
	}
	var md, tex bytes.Buffer
	WriteMarkdown(&md, tables, cells)
	// up and noisy have the same mean, 0.82, up to the rounding of their
	// fold sums: they tie (rank 1.5, both bold). Beside each tested entry
	// its p-value and effect size, the hand values above: p = 0.0026,
	// Δ = ±0.02 ± 0.010956 (noisy: t = 2.065, p = 0.0689, half-width
	// 2.262157·√(0.2111·4.444e-4) = 0.021913).
	for _, want := range []string{
		"| up | **0.8200 ± 0.0105** v (p = 0.0026, Δ = +0.0200 [+0.0090, +0.0310]) | 1.50 | 1/0/0 |",
		"| noisy | **0.8200 ± 0.0211** (p = 0.0689, Δ = +0.0200 [-0.0019, +0.0419]) | 1.50 | 0/1/0 |",
		`| down | 0.7800 ± 0.0105 \* (p = 0.0026, Δ = -0.0200 [-0.0310, -0.0090]) | 4.00 | 0/0/1 |`,
		"| up | **0.1800 ± 0.0105** v (p = 0.0026, Δ = -0.0200 [-0.0310, -0.0090]) | 1.50 | 1/0/0 |",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown marks: no line %q in\n%s", want, md.String())
		}
	}
	// LaTeX: compactly, beside the marks only.
	WriteLaTeX(&tex, tables)
	for _, want := range []string{
		`up & \textbf{0.8200 $\pm$ 0.0105}\,v$^{p=.003}_{+.020\pm.011}$ & 1.50 & 1/0/0 \\`,
		`down & 0.7800 $\pm$ 0.0105\,*$^{p=.003}_{-.020\pm.011}$ & 4.00 & 0/0/1 \\`,
		`noisy & \textbf{0.8200 $\pm$ 0.0211} & 1.50 & 0/1/0 \\`,
	} {
		if !strings.Contains(tex.String(), want) {
			t.Errorf("latex marks: no line %q in\n%s", want, tex.String())
		}
	}
	// Without a baseline: no marks, no w/t/l column.
	plain := BuildTables(Spec{Experiment: "marks", Metrics: []string{"accuracy"}}, cells)
	for r := range plain.Metrics[0].Rows {
		if m := plain.Metrics[0].Entries[r][0].Mark; m != "" {
			t.Errorf("mark %q without a baseline", m)
		}
	}
}

func TestFindRow(t *testing.T) {
	rows, _, _ := rowsOf(goldenCells(), nil)
	for _, tc := range []struct {
		name string
		want int
		err  string
	}{
		{"logreg C=1 ova", 0, ""},
		{"logreg C=10", 1, ""},
		{"svm_cs", 2, ""},
		{"svm_cs ova", 2, ""},
		{"logreg", -1, "several rows"},
		{"tree", -1, "matches no row"},
	} {
		got, err := FindRow(rows, tc.name)
		if got != tc.want || (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("FindRow(%q) = %d, %v; want %d, %q", tc.name, got, err, tc.want, tc.err)
		}
	}
}

// demsar is Demšar's (2006) Table 6 (AUC of four C4.5 variants on 14 data
// sets), as in package stats' tests.
var demsar = [][]float64{
	{0.763, 0.768, 0.771, 0.798}, {0.599, 0.591, 0.590, 0.569}, {0.954, 0.971, 0.968, 0.967},
	{0.628, 0.661, 0.654, 0.657}, {0.882, 0.888, 0.886, 0.898}, {0.936, 0.931, 0.916, 0.931},
	{0.661, 0.668, 0.609, 0.685}, {0.583, 0.583, 0.563, 0.625}, {0.775, 0.838, 0.866, 0.875},
	{1.000, 1.000, 1.000, 1.000}, {0.940, 0.962, 0.965, 0.962}, {0.619, 0.666, 0.614, 0.669},
	{0.972, 0.981, 0.97501, 0.975}, {0.957, 0.978, 0.946, 0.970},
}

func demsarCells(methods []int) []*outcome.CellResult {
	names := []string{"C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"}
	var cells []*outcome.CellResult
	for d, row := range demsar {
		for _, j := range methods {
			cells = append(cells, mkCell("ds"+strconv.Itoa(d), names[j], "", "", 100, 10,
				map[string][]float64{"auc_ovr": {row[j], row[j]}}))
		}
	}
	return cells
}

// TestAcrossDemsar renders the Friedman / Nemenyi example of Demšar (2006,
// section 3.2.4): average ranks 3.143, 2.000, 2.893, 1.964; χ²_F = 9.28,
// F_F = 3.69, CD = 1.25 for k = 4, N = 14 at α = 0.05.
func TestAcrossDemsar(t *testing.T) {
	cells := demsarCells([]int{0, 1, 2, 3})
	tables := BuildTables(Spec{Experiment: "demsar", Metrics: []string{"auc_ovr"}}, cells)
	c := tables.Metrics[0]
	for j, want := range []float64{3.143, 2.000, 2.893, 1.964} {
		if math.Abs(c.AvgRank[j]-want) > 0.0005 {
			t.Errorf("avg rank %d = %v, paper %v", j, c.AvgRank[j], want)
		}
	}
	var md, tex, js bytes.Buffer
	WriteMarkdown(&md, tables, cells)
	WriteLaTeX(&tex, tables)
	WriteJSON(&js, tables)
	for _, want := range []string{"| C4.5+m+cf | **0.7980 ± 0.0000** | ", "1.96 |",
		"Friedman χ²_F = 9.279 (df 3, p = 0.0258), Iman–Davenport F_F = 3.686 (df 3, 39, p = 0.0198)",
		"CD = 1.254 (α = 0.05, k = 4, N = 14)", "Nemenyi: no two rows differ by at least CD."} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	if !strings.Contains(tex.String(), `Friedman $\chi^2_F$ = 9.279`) || !strings.Contains(tex.String(), "CD = 1.254") {
		t.Errorf("latex:\n%s", tex.String())
	}
	var parsed struct {
		Metrics []struct {
			Across struct {
				Friedman struct {
					Chi2, FF  float64
					NemenyiCD float64 `json:"nemenyi_cd"`
				}
			}
		}
	}
	if err := json.Unmarshal(js.Bytes(), &parsed); err != nil {
		t.Fatal(err)
	}
	a := parsed.Metrics[0].Across
	if math.Abs(a.Friedman.Chi2-9.28) > 0.005 || math.Abs(a.Friedman.FF-3.69) > 0.005 || math.Abs(a.Friedman.NemenyiCD-1.25) > 0.005 {
		t.Errorf("json across: %+v", a)
	}

	// Two methods: Wilcoxon, C4.5 vs C4.5+m. Demšar section 3.1.3: the
	// rank sums are 12 (C4.5 better) and 93 (C4.5+m better), T = 12, below
	// the critical 21 for N = 14 at α = 0.05; with the tie correction
	// z = (12 − 52.5)/√(253.75 − 12/48) = −2.544, p = 0.011.
	two := demsarCells([]int{0, 1})
	tw := BuildTables(Spec{Experiment: "demsar2", Metrics: []string{"auc_ovr"}}, two)
	w := tw.Metrics[0].Across.Wilcoxon
	if w == nil || w.RPlus != 12 || w.RMinus != 93 || math.Abs(w.Z+2.5437) > 1e-4 || !(w.P < 0.05) {
		t.Fatalf("wilcoxon %+v", w)
	}
	md.Reset()
	WriteMarkdown(&md, tw, two)
	if !strings.Contains(md.String(), "Wilcoxon signed-ranks, C4.5 vs C4.5+m: R+ = 12.0, R− = 93.0, T = 12.0, p = 0.0110 (normal approximation, z = -2.544).") {
		t.Errorf("markdown wilcoxon:\n%s", md.String())
	}
}

// TestLaTeXCompiles runs pdflatex on the golden tables in a minimal article.
func TestLaTeXCompiles(t *testing.T) {
	pdflatex, err := exec.LookPath("pdflatex")
	if err != nil {
		t.Skip("pdflatex not installed: LaTeX output not compiled (apt-get install texlive-latex-base texlive-latex-recommended; make test-deps does)")
	}
	dir := t.TempDir()
	var tex bytes.Buffer
	// With the Bayesian tables and the effect sizes beside the marks.
	rope := 0.01
	tables := BuildTables(Spec{Experiment: "golden_run", Metrics: []string{"accuracy", "error"}, Baseline: "logreg C=1", Rope: &rope}, goldenCells())
	if err := WriteLaTeX(&tex, tables); err != nil {
		t.Fatal(err)
	}
	// And the statistics of Demšar's example with a control (Holm's and
	// the Bonferroni–Dunn tests), whose sentences carry formulas.
	demsarTables := BuildTables(Spec{Experiment: "demsar", Metrics: []string{"auc_ovr"}, Baseline: "C4.5"}, demsarCells([]int{0, 1, 2, 3}))
	if err := WriteLaTeX(&tex, demsarTables); err != nil {
		t.Fatal(err)
	}
	// And a log_loss from a softmax of scores, with its dagger and footnote.
	soft := mkCell("digits", "svm", "C=1", "ova", 90, 10, map[string][]float64{"log_loss": {0.3, 0.35}})
	soft.Folds[0].SoftmaxScores = true
	if err := WriteLaTeX(&tex, BuildTables(Spec{Experiment: "soft", Metrics: []string{"log_loss"}}, []*outcome.CellResult{soft})); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tex.String(), `$^\dagger$: log\_loss from a softmax`) {
		t.Errorf("no softmax footnote in the LaTeX tables")
	}
	// And a tuned cell's choices, escaped.
	tuned := mkCell("my_data", "svm", "C=[1, 10] (tuned)", "ova", 90, 10, withErr([]float64{0.9, 0.8}))
	for i := range tuned.Folds {
		tuned.Folds[i].Chosen = []string{"C=1, loss=squared_hinge", "C=10, loss=hinge"}[i%2]
	}
	if err := WriteLaTeX(&tex, BuildTables(Spec{Experiment: "tuned", Metrics: []string{"accuracy"}}, []*outcome.CellResult{tuned})); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tex.String(), `\label{tab:tuned-selected}`) {
		t.Errorf("no table of the tuned cell's choices")
	}
	// And a table wider than the line: twelve datasets.
	var wide []*outcome.CellResult
	for i := range 12 {
		ds := fmt.Sprintf("dataset_number_%02d", i)
		wide = append(wide, mkCell(ds, "logreg", "C=1", "ova", 90, 10, withErr([]float64{0.9, 0.8})),
			mkCell(ds, "svm", "C=1", "ova", 90, 10, withErr([]float64{0.7, 0.8})))
	}
	if err := WriteLaTeX(&tex, BuildTables(Spec{Experiment: "wide", Metrics: []string{"accuracy"}}, wide)); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "tables.tex"), tex.Bytes(), 0o644)
	const note = "polyclass: table tab:wide-accuracy is wider than the line; \\usepackage{graphicx} scales it to fit"
	for _, tc := range []struct {
		name, packages string
		overfull       bool // the wide table sticks out of the line
	}{
		{"booktabs alone", "\\usepackage{booktabs}", true},
		{"with graphicx", "\\usepackage{booktabs}\n\\usepackage{graphicx}", false},
	} {
		doc := "\\documentclass{article}\n" + tc.packages + "\n\\begin{document}\n\\input{tables}\n\\end{document}\n"
		os.WriteFile(filepath.Join(dir, "doc.tex"), []byte(doc), 0o644)
		os.Remove(filepath.Join(dir, "doc.pdf"))
		cmd := exec.Command(pdflatex, "-interaction=nonstopmode", "-halt-on-error", "doc.tex")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: pdflatex: %v\n%s", tc.name, err, out)
		}
		if _, err := os.Stat(filepath.Join(dir, "doc.pdf")); err != nil {
			t.Fatal(err)
		}
		log, err := os.ReadFile(filepath.Join(dir, "doc.log"))
		if err != nil {
			t.Fatal(err)
		}
		// TeX breaks log lines at 79 characters: join them again.
		text := strings.ReplaceAll(string(log), "\n", "")
		if got := strings.Contains(text, "Overfull \\hbox"); got != tc.overfull {
			t.Errorf("%s: overfull box in the log %v, want %v", tc.name, got, tc.overfull)
		}
		if got := strings.Contains(text, note); got != tc.overfull {
			t.Errorf("%s: note %q in the log %v, want %v", tc.name, note, got, tc.overfull)
		}
	}
}

// TestPredictionsRecompute writes predictions/zoo.csv and recomputes accuracy
// and macro_f1 of every cell from it alone.
func TestPredictionsRecompute(t *testing.T) {
	classes := []string{"cat", "dog", "emu"}
	folds := []struct{ rows, y, p []int }{
		{[]int{0, 3, 5, 7, 9}, []int{0, 1, 2, 2, 1}, []int{0, 1, 2, 1, 1}},
		{[]int{1, 2, 4, 6, 8}, []int{0, 0, 1, 2, 2}, []int{1, 0, 1, 2, 0}},
	}
	acc, _ := metrics.Lookup("accuracy")
	f1, _ := metrics.Lookup("macro_f1")
	c := &outcome.CellResult{ID: outcome.ID{Dataset: "zoo", Encoder: "default", Learner: "lr", Params: "C=1", Reduction: "ova"}, Classes: classes}
	for i, f := range folds {
		scores := mat.NewDense(len(f.y), 3, nil)
		for r, p := range f.p {
			scores.Set(r, p, 0.7)
			scores.Set(r, (p+1)%3, 0.2)
			scores.Set(r, (p+2)%3, 0.1)
		}
		in := &metrics.Input{K: 3, True: f.y, Pred: f.p}
		a, _, _ := acc.Eval(in)
		m, _, _ := f1.Eval(in)
		c.Folds = append(c.Folds, outcome.FoldResult{Fold: i, Metrics: map[string]float64{"accuracy": a, "macro_f1": m},
			Predictions: &outcome.Predictions{Rows: f.rows, True: f.y, Predicted: f.p, Scores: scores}})
	}
	dir := t.TempDir()
	m := Spec{Experiment: "p", Metrics: []string{"accuracy", "macro_f1"}, Predictions: true}
	if _, err := writeAll(dir, m, []*outcome.CellResult{c}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "predictions", "zoo.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := "dataset,pipeline,learner,params,reduction,repeat,fold,row,true,predicted,score_cat,score_dog,score_emu"
	if got := strings.Join(recs[0], ","); got != want {
		t.Fatalf("header %s, want %s", got, want)
	}
	idx := map[string]int{"cat": 0, "dog": 1, "emu": 2}
	byFold := map[string]*metrics.Input{}
	for _, r := range recs[1:] {
		in := byFold[r[6]]
		if in == nil {
			in = &metrics.Input{K: 3}
			byFold[r[6]] = in
		}
		in.True = append(in.True, idx[r[8]])
		in.Pred = append(in.Pred, idx[r[9]])
		if s, _ := strconv.ParseFloat(r[10+idx[r[9]]], 64); s != 0.7 {
			t.Errorf("score of the predicted class %v, want 0.7", s)
		}
	}
	if len(byFold) != 2 || len(recs) != 11 {
		t.Fatalf("%d folds, %d lines", len(byFold), len(recs))
	}
	for i, fr := range c.Folds {
		in := byFold[strconv.Itoa(i)]
		a, _, _ := acc.Eval(in)
		m, _, _ := f1.Eval(in)
		if a != fr.Metrics["accuracy"] || m != fr.Metrics["macro_f1"] {
			t.Errorf("fold %d: recomputed accuracy %v macro_f1 %v, cell %v %v", i, a, m, fr.Metrics["accuracy"], fr.Metrics["macro_f1"])
		}
	}
	// The known values: fold 0 has 4 of 5 right, fold 1 3 of 5.
	if c.Folds[0].Metrics["accuracy"] != 0.8 || c.Folds[1].Metrics["accuracy"] != 0.6 {
		t.Errorf("accuracies %v %v", c.Folds[0].Metrics["accuracy"], c.Folds[1].Metrics["accuracy"])
	}
}

func TestCompare(t *testing.T) {
	a := goldenCells()
	b := goldenCells()
	if d := Compare(a, b, nil); len(d) != 0 {
		t.Fatalf("identical runs differ: %v", d)
	}
	b[0].Folds[2].Metrics["accuracy"] = 0.9666666666666666 // last bit
	b = append(b[:1], b[2:]...)                            // drop logreg C=10 on iris
	b = append(b, mkCell("iris", "tree", "", "ova", 120, 30, withErr([]float64{1})))
	b[4].Error = "other" // svm_cs on wine&co: another error
	d := Compare(a, b, []string{"accuracy"})
	var lines []string
	for _, x := range d {
		lines = append(lines, x.String())
	}
	want := []string{
		"iris|default|logreg|C=10|ova: missing",
		"iris|default|logreg|C=1|ova repeat 0 fold 2 accuracy: 0.9666666666666667 → 0.9666666666666666 (Δ -1.1102230246251565e-16)",
		"iris|default|tree||ova: added",
		`wine&co|default|svm_cs||ova: error "repeat 0 fold 2: boom" → "other"`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("differences:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	var buf bytes.Buffer
	WriteDifferences(&buf, d)
	if !strings.HasPrefix(buf.String(), "4 differences:\n") {
		t.Errorf("report: %s", buf.String())
	}
}

// TestPredictionFiles: two datasets with different classes get one file
// each, predictions/DATASET.csv, whose score columns are that dataset's
// classes only: no column is empty for want of a class.
func TestPredictionFiles(t *testing.T) {
	cell := func(ds string, classes []string, y, p []int) *outcome.CellResult {
		scores := mat.NewDense(len(y), len(classes), nil)
		for r := range y {
			for k := range classes {
				scores.Set(r, k, float64(10*r+k)/100)
			}
		}
		return &outcome.CellResult{ID: outcome.ID{Dataset: ds, Encoder: "default", Learner: "lr", Reduction: "ova"}, Classes: classes,
			Folds: []outcome.FoldResult{{Metrics: map[string]float64{"accuracy": 1}, Predictions: &outcome.Predictions{
				Rows: []int{0, 1}, True: y, Predicted: p, Scores: scores}}}}
	}
	cells := []*outcome.CellResult{
		cell("iris", []string{"setosa", "versicolor", "virginica"}, []int{0, 2}, []int{0, 1}),
		cell("car", []string{"acc", "good", "unacc", "vgood"}, []int{3, 1}, []int{3, 2}),
		{ID: outcome.ID{Dataset: "wine", Learner: "lr", Reduction: "ova"}, Error: "boom"},
	}
	dir := t.TempDir()
	if _, err := writeAll(dir, Spec{Experiment: "p", Metrics: []string{"accuracy"}, Predictions: true}, cells); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file string
		want string
	}{
		{"iris.csv", `dataset,pipeline,learner,params,reduction,repeat,fold,row,true,predicted,score_setosa,score_versicolor,score_virginica
iris,default,lr,,ova,0,0,0,setosa,setosa,0,0.01,0.02
iris,default,lr,,ova,0,0,1,virginica,versicolor,0.1,0.11,0.12
`},
		{"car.csv", `dataset,pipeline,learner,params,reduction,repeat,fold,row,true,predicted,score_acc,score_good,score_unacc,score_vgood
car,default,lr,,ova,0,0,0,vgood,vgood,0,0.01,0.02,0.03
car,default,lr,,ova,0,0,1,good,unacc,0.1,0.11,0.12,0.13
`},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, "predictions", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b, tc.want)
			}
		})
	}
	for _, gone := range []string{"predictions.csv", "predictions/wine.csv"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); err == nil {
			t.Errorf("%s written", gone)
		}
	}
	var b bytes.Buffer
	if err := WritePredictionsCSV(&b, cells[:2]); err == nil || !strings.Contains(err.Error(), `not "iris"`) {
		t.Errorf("cells of two datasets in one file: %v", err)
	}
}

// TestPartialInEveryFormat: the tables of a partial run say so where their
// reader looks: a Markdown quote under the title, the caption of every
// LaTeX table, a banner at the top of the HTML report, a JSON field; and
// nothing of the kind for a complete run.
func TestPartialInEveryFormat(t *testing.T) {
	const partial = "5 of 6 cells finished (run status: interrupted)"
	tests := []struct {
		file  string
		want  string
		count int // occurrences: one per metric table for LaTeX
	}{
		{"p.md", "> **Partial results:** 5 of 6 cells finished (run status: interrupted).\n", 1},
		{"p.tex", "std over folds. Partial results: 5 of 6 cells finished (run status: interrupted).}", 2},
		{"p.html", `<div class="banner" id="partial" role="status"><strong>Partial run:</strong> 5 of 6 cells finished (run status: interrupted). The tables and figures show the finished cells only.</div>`, 1},
		{"p.json", `"partial": "5 of 6 cells finished (run status: interrupted)"`, 1},
	}
	for _, run := range []struct {
		name    string
		partial string
	}{{"partial", partial}, {"complete", ""}} {
		dir := t.TempDir()
		s := Spec{Experiment: "p", Metrics: []string{"accuracy", "error"}, Formats: []string{"markdown", "latex", "html", "json"}, Partial: run.partial}
		if _, err := writeAll(dir, s, goldenCells()); err != nil {
			t.Fatal(err)
		}
		for _, tc := range tests {
			t.Run(run.name+"/"+tc.file, func(t *testing.T) {
				b, err := os.ReadFile(filepath.Join(dir, tc.file))
				if err != nil {
					t.Fatal(err)
				}
				want := tc.count
				if run.partial == "" {
					want = 0
				}
				if got := strings.Count(string(b), tc.want); got != want {
					t.Errorf("%d times %q, want %d", got, tc.want, want)
				}
				if run.partial == "" && strings.Contains(strings.ToLower(string(b)), "partial") {
					t.Errorf("a complete run's %s mentions partial results", tc.file)
				}
			})
		}
	}
}

// TestAcrossCaveats: the tests across datasets run only with at least 3
// datasets and 2 complete rows, and say why not otherwise; rows missing on
// some dataset are left out by name; a perfect agreement of ranks prints
// no ∞; the Wilcoxon test of two rows on fewer than 6 datasets says that
// it cannot be significant.
func TestAcrossCaveats(t *testing.T) {
	// cell: row name, dataset, the fold scores.
	type cell struct {
		row, ds string
		acc     []float64
	}
	build := func(cs []cell) []*outcome.CellResult {
		var out []*outcome.CellResult
		for _, c := range cs {
			out = append(out, mkCell(c.ds, c.row, "", "ova", 90, 10, withErr(c.acc)))
		}
		return out
	}
	lo, hi := []float64{0.70, 0.72, 0.74}, []float64{0.80, 0.83, 0.81}
	for _, tc := range []struct {
		name      string
		cells     []cell
		rows      []string // rows tested
		leftOut   []string
		noTest    string
		friedman  bool
		wilcoxon  bool
		md, notMD []string
	}{
		{
			// The case: k = 2, N = 2 printed F_F = ∞ beside Wilcoxon p = 0.5.
			name:   "k=2 N=2",
			cells:  []cell{{"a", "d1", lo}, {"b", "d1", hi}, {"a", "d2", lo}, {"b", "d2", hi}},
			rows:   []string{"a", "b"},
			noTest: "no test across datasets on 2 datasets (they need at least 3)",
			md:     []string{"No test across datasets on 2 datasets (they need at least 3)."},
			notMD:  []string{"∞", "Friedman", "Wilcoxon", "Nemenyi"},
		},
		{
			name:   "k=3 N=1",
			cells:  []cell{{"a", "d1", lo}, {"b", "d1", hi}, {"c", "d1", lo}},
			rows:   []string{"a", "b", "c"},
			noTest: "no test across datasets on 1 dataset (they need at least 3)",
			notMD:  []string{"Friedman", "Left out", "No test"}, // said in JSON only
		},
		{
			// b wins on all three datasets: χ²_F = N(k−1) = 3, F_F's
			// denominator is 0.
			name:     "perfect agreement N=3",
			cells:    []cell{{"a", "d1", lo}, {"b", "d1", hi}, {"a", "d2", lo}, {"b", "d2", hi}, {"a", "d3", lo}, {"b", "d3", hi}},
			rows:     []string{"a", "b"},
			friedman: true,
			wilcoxon: true,
			md: []string{"Friedman χ²_F = 3.000 (df 1, p = 0.0833), Iman–Davenport F_F undefined (every dataset ranks the rows alike)",
				"Wilcoxon signed-ranks, a vs b: R+ = 0.0, R− = 6.0, T = 0.0, p = 0.0833 (normal approximation, z = -1.732). With 3 datasets this test cannot be significant at α = 0.05: even the most extreme outcome has exact p = 0.2500, which the normal approximation's p understates."},
			notMD: []string{"∞"},
		},
		{
			// a and b tie on d2: that zero difference is dropped (an odd
			// one), leaving 2 ranked differences, whose smallest exact p is
			// 0.5, not that of 3 datasets (0.25).
			name:     "a zero difference dropped",
			cells:    []cell{{"a", "d1", lo}, {"b", "d1", hi}, {"a", "d2", lo}, {"b", "d2", lo}, {"a", "d3", lo}, {"b", "d3", hi}},
			rows:     []string{"a", "b"},
			friedman: true,
			wilcoxon: true,
			md:       []string{"With 3 datasets (2 differences ranked) this test cannot be significant at α = 0.05: even the most extreme outcome has exact p = 0.5000, which the normal approximation's p understates."},
		},
		{
			// c failed on d2 and is missing on d3: left out; a and b are
			// tested on all three datasets.
			name: "incomplete rows",
			cells: []cell{{"a", "d1", lo}, {"b", "d1", hi}, {"c", "d1", hi}, {"a", "d2", hi}, {"b", "d2", lo},
				{"a", "d3", lo}, {"b", "d3", hi}},
			rows:     []string{"a", "b"},
			leftOut:  []string{"c"},
			friedman: true,
			wilcoxon: true,
			md: []string{"The average ranks and the tests across datasets use the 2 rows with a value on every dataset; left out (missing or failed on some dataset, no average rank): c.",
				"Across 3 datasets: Friedman χ²_F = 0.333 (df 1, p = 0.5637), Iman–Davenport F_F = 0.250 (df 1, 2, p = 0.6667)"},
		},
		{
			name:    "one complete row",
			cells:   []cell{{"a", "d1", lo}, {"b", "d1", hi}, {"a", "d2", lo}, {"b", "d3", hi}, {"a", "d3", lo}},
			rows:    []string{"a"},
			leftOut: []string{"b"},
			noTest:  "no test across datasets: 1 row has a value on every dataset (the tests need at least 2)",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cells := build(tc.cells)
			if tc.name == "incomplete rows" {
				cells = append(cells, &outcome.CellResult{ID: outcome.ID{Dataset: "d2", Encoder: "default", Learner: "c", Reduction: "ova"}, Error: "boom"})
			}
			tables := BuildTables(Spec{Experiment: "x", Metrics: []string{"accuracy"}}, cells)
			c := tables.Metrics[0]
			a := c.Across
			if a == nil {
				t.Fatal("no Across")
			}
			var rows, left []string
			for _, r := range a.Rows {
				rows = append(rows, c.Rows[r].Label)
			}
			for _, r := range a.LeftOut {
				left = append(left, c.Rows[r].Label)
			}
			if strings.Join(rows, ",") != strings.Join(tc.rows, ",") || strings.Join(left, ",") != strings.Join(tc.leftOut, ",") {
				t.Errorf("rows %v left out %v; want %v, %v", rows, left, tc.rows, tc.leftOut)
			}
			if a.NoTest != tc.noTest || (a.Friedman != nil) != tc.friedman || (a.Wilcoxon != nil) != tc.wilcoxon {
				t.Errorf("no test %q, Friedman %v, Wilcoxon %v; want %q, %v, %v", a.NoTest, a.Friedman != nil, a.Wilcoxon != nil,
					tc.noTest, tc.friedman, tc.wilcoxon)
			}
			var md, js bytes.Buffer
			WriteMarkdown(&md, tables, cells)
			WriteJSON(&js, tables)
			checkText(t, "markdown", md.String(), tc.md, tc.notMD)
			var parsed struct {
				Metrics []struct {
					Across struct {
						Rows     []string
						LeftOut  []string `json:"left_out"`
						NoTest   string   `json:"no_test"`
						Friedman *struct {
							FF *float64 `json:"ff"`
						}
					}
				}
			}
			if err := json.Unmarshal(js.Bytes(), &parsed); err != nil {
				t.Fatal(err)
			}
			ja := parsed.Metrics[0].Across
			if ja.NoTest != tc.noTest || strings.Join(ja.LeftOut, ",") != strings.Join(tc.leftOut, ",") {
				t.Errorf("json no_test %q left_out %v", ja.NoTest, ja.LeftOut)
			}
			if tc.name == "perfect agreement N=3" && (ja.Friedman == nil || ja.Friedman.FF != nil) {
				t.Errorf("json: an infinite F_F should be null: %s", js.String())
			}
		})
	}
}

// TestHolmControlDemsar: with C4.5 as the baseline, the tables carry
// Demšar's (2006, section 3.2.2) post-hoc tests against the control: Holm
// finds C4.5+m+cf (z = −2.415, p = 0.0157) and C4.5+m (z = −2.342, p =
// 0.0192) better and C4.5+cf (p = 0.608; the paper prints 0.607) not
// different; the Bonferroni–Dunn CD is 1.168 (the paper prints 1.16) and
// only C4.5+m+cf lies beyond it. A CD diagram of the control variant is
// drawn.
func TestHolmControlDemsar(t *testing.T) {
	cells := demsarCells([]int{0, 1, 2, 3})
	tables := BuildTables(Spec{Experiment: "demsar", Metrics: []string{"auc_ovr"}, Baseline: "C4.5"}, cells)
	c := tables.Metrics[0]
	ctl := c.Across.Control
	if ctl == nil {
		t.Fatalf("no tests against the control; notes %v", c.Notes)
	}
	if math.Abs(ctl.CD-1.168) > 5e-4 {
		t.Errorf("Bonferroni–Dunn CD %.4f, want 1.168", ctl.CD)
	}
	var md, tex, js bytes.Buffer
	WriteMarkdown(&md, tables, cells)
	WriteLaTeX(&tex, tables)
	WriteJSON(&js, tables)
	want := "Against the baseline C4.5 (avg. rank 3.14), z = (R_i − R_baseline)/√(k(k+1)/6N) with Holm's step-down procedure at α = 0.05: " +
		"C4.5+m+cf (1.96): z = -2.415, p = 0.0157, Holm p = 0.0472, better; " +
		"C4.5+m (2.00): z = -2.342, p = 0.0192, Holm p = 0.0472, better; " +
		"C4.5+cf (2.89): z = -0.512, p = 0.6084, Holm p = 0.6084, not different. " +
		"Bonferroni–Dunn critical difference CD = 1.168 (beyond CD: C4.5+m+cf)."
	if !strings.Contains(md.String(), want) {
		t.Errorf("markdown lacks\n%s\nin\n%s", want, md.String())
	}
	if !strings.Contains(tex.String(), `$z = (R_i - R_{\mathrm{baseline}})/\sqrt{k(k+1)/6N}$ with Holm's step-down procedure at $\alpha$ = 0.05`) {
		t.Errorf("latex:\n%s", tex.String())
	}
	var parsed struct {
		Metrics []struct {
			Across struct {
				Control struct {
					Baseline    string
					CD          float64 `json:"bonferroni_dunn_cd"`
					Comparisons []struct {
						Row   string
						Z, P  float64
						HolmP float64 `json:"holm_p"`
						Holm  bool    `json:"holm_rejects"`
						BD    bool    `json:"bonferroni_dunn_rejects"`
					}
				}
			}
		}
	}
	if err := json.Unmarshal(js.Bytes(), &parsed); err != nil {
		t.Fatal(err)
	}
	jc := parsed.Metrics[0].Across.Control
	if jc.Baseline != "C4.5" || len(jc.Comparisons) != 3 || jc.Comparisons[0].Row != "C4.5+m+cf" || !jc.Comparisons[0].Holm ||
		!jc.Comparisons[0].BD || !jc.Comparisons[1].Holm || jc.Comparisons[1].BD || jc.Comparisons[2].Holm {
		t.Errorf("json control: %+v", jc)
	}
	figs, err := BuildFigures(tables, cells, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range figs {
		if f.Metric != "" {
			names = append(names, f.Name)
		}
	}
	if strings.Join(names, ",") != "box_auc_ovr,cd_auc_ovr,cd_control_auc_ovr" {
		t.Errorf("figures %v", names)
	}

	// A baseline left out of the tests (missing on a dataset): no control
	// tests, and the table says so.
	cells = append(cells[:len(cells)-4:len(cells)-4], cells[len(cells)-3:]...) // drop C4.5 on the last dataset
	tables = BuildTables(Spec{Experiment: "demsar", Metrics: []string{"auc_ovr"}, Baseline: "C4.5"}, cells)
	c = tables.Metrics[0]
	if c.Across.Control != nil || !slices.Contains(c.Notes, "the baseline C4.5 is left out of the tests across datasets: no Holm or Bonferroni–Dunn tests against it") {
		t.Errorf("baseline left out: control %v, notes %v", c.Across.Control, c.Notes)
	}
}

// TestTimingTables: timing metrics are reported without ranks, bold,
// marks or tests unless Spec.RankTimings.
func TestTimingTables(t *testing.T) {
	var cells []*outcome.CellResult
	for d, ds := range []string{"d1", "d2", "d3"} {
		for j, row := range []string{"fast", "slow"} {
			s := 0.1 * float64(1+j) * float64(1+d)
			cells = append(cells, mkCell(ds, row, "", "ova", 90, 10, map[string][]float64{
				"fit_seconds": {s, s + 0.01, s + 0.02}, "accuracy": {0.8, 0.81, 0.82}}))
		}
	}
	plain := BuildTables(Spec{Experiment: "t", Metrics: []string{"accuracy", "fit_seconds"}, Baseline: "fast"}, cells)
	ranked := BuildTables(Spec{Experiment: "t", Metrics: []string{"accuracy", "fit_seconds"}, Baseline: "fast", RankTimings: true}, cells)
	for _, tc := range []struct {
		name    string
		tables  *Tables
		ranked  bool
		md, not []string
	}{
		{"default", plain, false,
			[]string{"## fit_seconds (lower is better)\n\n| row | d1 | d2 | d3 |\n",
				"| slow | 0.2100 ± 0.0100 | 0.4100 ± 0.0100 | 0.6100 ± 0.0100 |\n",
				"Note: timing metric: reported, not ranked or tested (output { rank_timings = true } ranks it)."},
			[]string{"**0.1100", "Friedman χ²_F = 3.000"}},
		{"rank_timings", ranked, true,
			[]string{"| row | d1 | d2 | d3 | avg. rank | w/t/l |\n", "| fast | **0.1100 ± 0.0100** |",
				"Friedman χ²_F = 3.000"},
			[]string{"timing metric"}},
	} {
		c := tc.tables.Metrics[1]
		if c.Ranked != tc.ranked || (c.Across != nil) != tc.ranked || (c.Baseline >= 0) != tc.ranked {
			t.Errorf("%s: ranked %v, across %v, baseline %d", tc.name, c.Ranked, c.Across != nil, c.Baseline)
		}
		if !tc.tables.Metrics[0].Ranked || tc.tables.Metrics[0].Across == nil {
			t.Errorf("%s: accuracy not ranked", tc.name)
		}
		var md bytes.Buffer
		WriteMarkdown(&md, tc.tables, cells)
		fit := md.String()[strings.Index(md.String(), "## fit_seconds"):]
		for _, w := range tc.md {
			if !strings.Contains(fit, w) {
				t.Errorf("%s: markdown lacks %q:\n%s", tc.name, w, fit)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(fit, w) {
				t.Errorf("%s: markdown has %q:\n%s", tc.name, w, fit)
			}
		}
	}
	// No CD diagram for an unranked timing metric.
	figs, err := BuildFigures(plain, cells, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figs {
		if f.Name == "cd_fit_seconds" {
			t.Error("CD diagram drawn for an unranked timing metric")
		}
	}
}

// TestSoftmaxFootnote: a log_loss or brier computed from a softmax of the
// decoder's class scores is flagged with a dagger and a footnote in every
// format; calibrated cells and other metrics are not.
func TestSoftmaxFootnote(t *testing.T) {
	scores := map[string][]float64{"accuracy": {0.9, 0.8}, "log_loss": {0.30, 0.35}, "brier": {0.1, 0.12}}
	svm := mkCell("digits", "svm", "C=1", "ova", 90, 10, scores)
	platt := mkCell("digits", "svm", "C=1", "ova_platt", 90, 10, map[string][]float64{"accuracy": {0.9, 0.8}, "log_loss": {0.25, 0.3}, "brier": {0.09, 0.1}})
	for i := range svm.Folds {
		svm.Folds[i].SoftmaxScores = true
	}
	cells := []*outcome.CellResult{svm, platt}
	tables := BuildTables(Spec{Experiment: "cal", Metrics: []string{"accuracy", "log_loss", "brier"}}, cells)
	for _, c := range tables.Metrics {
		want := c.Metric != "accuracy"
		if c.Entries[0][0].Softmax != want || c.Entries[1][0].Softmax {
			t.Errorf("%s: softmax flags %v, %v; want %v, false", c.Metric, c.Entries[0][0].Softmax, c.Entries[1][0].Softmax, want)
		}
	}
	var md, tex, html, js bytes.Buffer
	WriteMarkdown(&md, tables, cells)
	WriteLaTeX(&tex, tables)
	WriteHTML(&html, HTMLReport{Tables: tables, Cells: cells})
	WriteJSON(&js, tables)
	for _, tc := range []struct {
		format, out string
		want        []string
		count       int // daggers: 2 entries + 2 footnotes
		dagger      string
	}{
		{"markdown", md.String(), []string{"| svm ova | 0.3250 ± 0.0354 † |",
			"†: log_loss from a softmax of the decoder's class scores, not from probabilities"}, 4, "†"},
		{"latex", tex.String(), []string{`0.3250 $\pm$ 0.0354\,$^\dagger$ &`, `$^\dagger$: brier from a softmax`}, 4, `$^\dagger$`},
		{"html", html.String(), []string{"0.3250 ± 0.0354<sup>†</sup></td>", "<sup>†</sup>: log_loss from a softmax"}, 4, "<sup>†</sup>"},
		{"json", js.String(), []string{`"softmax_scores": true`}, 0, ""},
	} {
		for _, w := range tc.want {
			if !strings.Contains(tc.out, w) {
				t.Errorf("%s lacks %q:\n%s", tc.format, w, tc.out)
			}
		}
		if tc.dagger != "" && strings.Count(tc.out, tc.dagger) != tc.count {
			t.Errorf("%s: %d daggers, want %d", tc.format, strings.Count(tc.out, tc.dagger), tc.count)
		}
	}
	if n := strings.Count(js.String(), `"softmax_scores": true`); n != 2 {
		t.Errorf("json: %d entries flagged, want 2 (log_loss and brier of svm ova)", n)
	}
}

// TestNemenyiPairsAndCaveat: a pair of rows whose average ranks differ by
// at least the Nemenyi CD reads "better than"; post-hoc results against a
// baseline carry the caveat of the omnibus test the code checks, the
// Iman–Davenport F_F (here it rejects, so no caveat; with the rows' ranks
// mixed it does not, and the caveat names it).
func TestNemenyiPairsAndCaveat(t *testing.T) {
	lo, mid, hi := []float64{0.70, 0.72, 0.74}, []float64{0.75, 0.77, 0.76}, []float64{0.80, 0.83, 0.81}
	var ordered, mixed []*outcome.CellResult
	for i := range 6 {
		d := fmt.Sprintf("d%d", i+1)
		ordered = append(ordered, mkCell(d, "a", "", "ova", 90, 10, withErr(hi)), mkCell(d, "b", "", "ova", 90, 10, withErr(mid)),
			mkCell(d, "c", "", "ova", 90, 10, withErr(lo)))
		// a, b and c take turns: equal average ranks.
		v := [][]float64{lo, mid, hi}
		mixed = append(mixed, mkCell(d, "a", "", "ova", 90, 10, withErr(v[i%3])), mkCell(d, "b", "", "ova", 90, 10, withErr(v[(i+1)%3])),
			mkCell(d, "c", "", "ova", 90, 10, withErr(v[(i+2)%3])))
	}
	for _, tc := range []struct {
		name      string
		cells     []*outcome.CellResult
		want, not []string
	}{
		{"ordered", ordered, []string{"Nemenyi, rank difference at least CD: a (1.00) better than c (3.00)."}, []string{"does not reject"}},
		{"mixed", mixed, []string{"Nemenyi: no two rows differ by at least CD.",
			"The Iman–Davenport test does not reject equal ranks at α = 0.05, so these post-hoc results do not establish differences."}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tables := BuildTables(Spec{Experiment: "x", Metrics: []string{"accuracy"}, Baseline: "b", Alpha: 0.05}, tc.cells)
			var md bytes.Buffer
			WriteMarkdown(&md, tables, tc.cells)
			checkText(t, "markdown", md.String(), tc.want, tc.not)
		})
	}
}

// TestAvgRankOfIncompleteRows: a row run on one dataset only, where it is
// best, would have the best average rank (1.00) over its one dataset; the
// average ranks are those of the complete rows among themselves, and the
// incomplete row has none.
func TestAvgRankOfIncompleteRows(t *testing.T) {
	lo, mid, hi := []float64{0.70, 0.72, 0.74}, []float64{0.75, 0.77, 0.76}, []float64{0.80, 0.83, 0.81}
	cells := []*outcome.CellResult{
		mkCell("d1", "a", "", "ova", 90, 10, withErr(mid)), mkCell("d1", "b", "", "ova", 90, 10, withErr(lo)),
		mkCell("d1", "only", "", "ova", 90, 10, withErr(hi)),
		mkCell("d2", "a", "", "ova", 90, 10, withErr(lo)), mkCell("d2", "b", "", "ova", 90, 10, withErr(mid)),
		mkCell("d3", "a", "", "ova", 90, 10, withErr(mid)), mkCell("d3", "b", "", "ova", 90, 10, withErr(lo)),
	}
	c := BuildTables(Spec{Experiment: "x", Metrics: []string{"accuracy"}}, cells).Metrics[0]
	got := map[string]float64{}
	for r, row := range c.Rows {
		got[row.Label] = c.AvgRank[r]
	}
	if got["a"] != 4.0/3 || got["b"] != 5.0/3 || !math.IsNaN(got["only"]) {
		t.Errorf("average ranks %v, want a 4/3, b 5/3, only none", got)
	}
	// The best entry of d1 is still the incomplete row's, in bold.
	for r, row := range c.Rows {
		if e := c.Entries[r][0]; e.Best != (row.Label == "only") {
			t.Errorf("d1, %s: best %v", row.Label, e.Best)
		}
	}
}

// checkText reports each of want that text (named what) lacks and each of
// not that it has.
func checkText(t *testing.T, what, text string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
	for _, w := range not {
		if strings.Contains(text, w) {
			t.Errorf("%s has %q:\n%s", what, w, text)
		}
	}
}

// TestBestAsShown: the tables bold every mean printed the same as the
// column's best (four decimals), not only the best itself: 0.93402610 and
// 0.93403200 both print as 0.9340, and both are bold; 0.93396 prints as
// 0.9340 too; 0.93394 (0.9339) is not. For error (lower is better) the
// same holds with the smallest mean.
func TestBestAsShown(t *testing.T) {
	means := map[string]float64{"a": 0.9340320, "b": 0.9340261, "c": 0.93396, "d": 0.93394}
	var cells []*outcome.CellResult
	for _, l := range []string{"a", "b", "c", "d"} {
		m := means[l]
		cells = append(cells, mkCell("d1", l, "", "ova", 90, 10, withErr([]float64{m, m, m})))
	}
	tables := BuildTables(Spec{Experiment: "x", Metrics: []string{"accuracy", "error"}}, cells)
	wantBold := map[string]bool{"a": true, "b": true, "c": true, "d": false}
	for _, c := range tables.Metrics {
		for r, row := range c.Rows {
			if e := c.Entries[r][0]; e.Best != wantBold[row.Label] {
				t.Errorf("%s, %s (%.7f): best %v, want %v", c.Metric, row.Label, e.Mean, e.Best, wantBold[row.Label])
			}
		}
	}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, tables, cells); err != nil {
		t.Fatal(err)
	}
	checkText(t, "markdown", b.String(), []string{"**0.9340 ± 0.0000**", "| 0.9339 ± 0.0000 |", "**0.0660 ± 0.0000**", "| 0.0661 ± 0.0000 |"},
		[]string{"| 0.9340 ± 0.0000 |", "**0.9339", "| 0.0660 ± 0.0000 |"})

	// Two means tied within the tie tolerance on either side of a rounding
	// boundary print differently; both are best, and both bold.
	lo, hi := 0.93404999999997, 0.93405000000003
	tied := []*outcome.CellResult{
		mkCell("d1", "lo", "", "ova", 90, 10, withErr([]float64{lo, lo, lo})),
		mkCell("d1", "hi", "", "ova", 90, 10, withErr([]float64{hi, hi, hi})),
	}
	c := BuildTables(Spec{Experiment: "x", Metrics: []string{"accuracy"}}, tied).Metrics[0]
	for r, row := range c.Rows {
		if e := c.Entries[r][0]; !e.Best || e.Rank != 1.5 {
			t.Errorf("%s (%.14f): best %v, rank %v; want best, 1.5", row.Label, e.Mean, e.Best, e.Rank)
		}
	}
}

// TestRowOrderOfPartialRuns: rows keep the grid's order when cells are
// missing (a partial run), even the first cells of the first dataset.
func TestRowOrderOfPartialRuns(t *testing.T) {
	acc := withErr([]float64{0.8, 0.9})
	cell := func(ds, learner string) *outcome.CellResult { return mkCell(ds, learner, "", "ova", 90, 10, acc) }
	tests := []struct {
		name  string
		cells []*outcome.CellResult
		want  string
	}{
		{"complete", []*outcome.CellResult{cell("iris", "a"), cell("iris", "b"), cell("iris", "c"), cell("wine", "a"), cell("wine", "b"), cell("wine", "c")}, "a,b,c"},
		{"first cell missing", []*outcome.CellResult{cell("iris", "b"), cell("iris", "c"), cell("wine", "a"), cell("wine", "b"), cell("wine", "c")}, "a,b,c"},
		{"two first cells missing", []*outcome.CellResult{cell("iris", "c"), cell("wine", "a"), cell("wine", "c"), cell("glass", "b"), cell("glass", "c")}, "a,b,c"},
		// b and c are never on one dataset: nothing orders them but the
		// order they are first seen in.
		{"rows never side by side", []*outcome.CellResult{cell("iris", "c"), cell("wine", "a"), cell("wine", "b"), cell("glass", "a"), cell("glass", "c")}, "a,c,b"},
		{"middle row on a later dataset only", []*outcome.CellResult{cell("iris", "a"), cell("iris", "c"), cell("wine", "b"), cell("wine", "c")}, "a,b,c"},
		{"unrelated rows keep first-seen order", []*outcome.CellResult{cell("iris", "c"), cell("wine", "a")}, "c,a"},
	}
	for _, tc := range tests {
		c := BuildTables(Spec{Experiment: "x", Metrics: []string{"accuracy"}}, tc.cells).Metrics[0]
		var got []string
		for _, r := range c.Rows {
			got = append(got, r.Label)
		}
		if strings.Join(got, ",") != tc.want {
			t.Errorf("%s: rows %v, want %s", tc.name, got, tc.want)
		}
		// Every cell's entry is in its own row and column.
		for r, row := range c.Rows {
			for d, ds := range c.Datasets {
				present := false
				for _, cl := range tc.cells {
					present = present || (cl.Dataset == ds && cl.Learner == row.Label)
				}
				if c.Entries[r][d].Present != present {
					t.Errorf("%s: %s on %s present %v, want %v", tc.name, row.Label, ds, c.Entries[r][d].Present, present)
				}
			}
		}
	}
}

// TestSingleSplitColumns: a dataset scored once is marked in every table
// format: "(test set)" when it has a test file, "(holdout)" for one random
// split; a cross-validated one is not marked.
func TestSingleSplitColumns(t *testing.T) {
	cells := []*outcome.CellResult{
		mkCell("adult", "a", "", "ova", 900, 100, withErr([]float64{0.85})),
		mkCell("iris", "a", "", "ova", 90, 10, withErr([]float64{0.9})),
		mkCell("wine", "a", "", "ova", 90, 10, withErr([]float64{0.9, 0.8})),
	}
	setup := &Setup{Datasets: []DatasetInfo{{Name: "adult", TestPath: "adult_test.csv"}, {Name: "iris"}, {Name: "wine"}}}
	tables := BuildTables(Spec{Experiment: "x", Metrics: []string{"accuracy"}, Setup: setup}, cells)
	var md, tex, html bytes.Buffer
	if err := WriteMarkdown(&md, tables, cells); err != nil {
		t.Fatal(err)
	}
	if err := WriteLaTeX(&tex, tables); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&html, HTMLReport{Tables: tables, Cells: cells, Setup: setup}); err != nil {
		t.Fatal(err)
	}
	checkText(t, "markdown", md.String(), []string{"| adult (test set) | iris (holdout) | wine |"}, []string{"wine (holdout)"})
	checkText(t, "latex", tex.String(), []string{"adult (test set) & iris (holdout) & wine"}, nil)
	checkText(t, "html", html.String(), []string{`<th class="num" data-sort="num">adult (test set)</th><th class="num" data-sort="num">iris (holdout)</th><th class="num" data-sort="num">wine</th>`}, nil)
}
