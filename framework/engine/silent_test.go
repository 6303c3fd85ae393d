package engine_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/report"
	logreg "github.com/polyclass/polyclass/plugins/logreg/learner"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
)

// TestSilentResolve: what Resolve accepted silently and ran into
// nonsense: a test file that is the training file (by its path or a link
// to it) or a copy of it (gzipped or not), a rope as wide as a metric's range, an experiment of no cell
// (its one reduction covers no dataset: CheckCells), data whose every feature is
// constant, a dataset's folds file whose number of folds is not the cv
// block's folds, and a baseline beside timing metrics alone. Each gets an error or a warning at its place.
func TestSilentResolve(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"d.csv":     fuzzData["d.csv"],
		"t.csv":     fuzzData["t.csv"],
		"f.csv":     fuzzData["f.csv"],
		"const.csv": "x1,colour,class\n1,red,a\n1,red,a\n1,red,a\n1,red,b\n1,red,b\n1,red,b\n",
		"half.csv":  "x1,colour,class\n1,red,a\n1,red,a\n1,red,a\n1,red,b\n1,red,b\n2,red,b\n",
		"copy.csv":  fuzzData["d.csv"],
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write([]byte(fuzzData["d.csv"])); err != nil || zw.Close() != nil {
		t.Fatal(err)
	}
	files["copy.csv.gz"] = gz.String()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "d.csv"), filepath.Join(dir, "link.csv")); err != nil {
		t.Fatal(err)
	}
	h := host.New("", nil)
	h.Register("logreg", host.InProcess{Learner: logreg.New()})
	h.Register("reducers", host.InProcess{Reducer: reducer.New()})
	t.Cleanup(h.Close)
	const head = "experiment \"x\" { seed = 1 }\nlearner \"logreg\" {}\n"
	for _, tc := range []struct {
		name, src string
		want      []string // the diagnostics' heading lines
	}{
		{"test_path is path", head + "dataset \"d\" {\n  path      = \"d.csv\"\n  test_path = \"d.csv\"\n}\n",
			[]string{"exp.hcl:5:15: error: Test file is the training file"}},
		{"test_path is a link to path", head + "dataset \"d\" {\n  path      = \"d.csv\"\n  test_path = \"link.csv\"\n}\n",
			[]string{"exp.hcl:5:15: error: Test file is the training file"}},
		// Campaign 16 N05: a copy of the training file, or its gzip, was
		// accepted, and k = 1 nearest neighbour scored 1.
		{"test_path a copy of path", head + "dataset \"d\" {\n  path      = \"d.csv\"\n  test_path = \"copy.csv\"\n}\n",
			[]string{"exp.hcl:5:15: error: Test file copies the training file"}},
		{"test_path a gzipped copy of path", head + "dataset \"d\" {\n  path      = \"d.csv\"\n  test_path = \"copy.csv.gz\"\n}\n",
			[]string{"exp.hcl:5:15: error: Test file copies the training file"}},
		{"test_path another file", head + "dataset \"d\" {\n  path      = \"d.csv\"\n  test_path = \"t.csv\"\n}\n", nil},
		{"rope 5 on accuracy", head + "dataset \"d\" { path = \"d.csv\" }\ncv { folds = 4 }\noutput {\n  baseline = \"logreg\"\n  rope     = 5\n}\n",
			[]string{"exp.hcl:7:14: error: Rope wider than the metric"}},
		{"rope 1 on accuracy", head + "dataset \"d\" { path = \"d.csv\" }\ncv { folds = 4 }\noutput {\n  baseline = \"logreg\"\n  rope     = 1\n}\n",
			[]string{"exp.hcl:7:14: error: Rope wider than the metric"}},
		{"rope 0.5 on accuracy", head + "dataset \"d\" { path = \"d.csv\" }\ncv { folds = 4 }\noutput {\n  baseline = \"logreg\"\n  rope     = 0.5\n}\n", nil},
		{"rope 2 on mcc", head + "dataset \"d\" { path = \"d.csv\" }\ncv { folds = 4 }\nmetrics = [\"log_loss\", \"mcc\"]\noutput {\n  baseline = \"logreg\"\n  rope     = 2\n}\n",
			[]string{"exp.hcl:8:14: error: Rope wider than the metric"}},
		{"no cell", head + "dataset \"d\" { path = \"d.csv\" }\ncv { folds = 4 }\nreduction \"ova\" { datasets = [] }\n",
			[]string{"exp.hcl:1:1: error: No cells"}},
		{"every feature constant", head + "dataset \"d\" { path = \"const.csv\" }\ncv { folds = 3 }\nencoder \"oh\" { type = \"onehot\" }\n",
			// Its rows are copies of each other, too: said by this warning
			// alone.
			[]string{"exp.hcl:3:22: warning: Every feature is constant"}},
		// A dataset's folds file of 4 folds under cv folds = 3: the file's 4
		// were used in silence (the cv block's own folds_file was checked).
		{"dataset folds file disagrees with folds", head + "dataset \"d\" {\n  path       = \"d.csv\"\n  folds_file = \"f.csv\"\n}\ncv { folds = 3 }\n",
			[]string{"exp.hcl:7:14: error: Conflicting fold settings"}},
		{"dataset folds file agrees with folds", head + "dataset \"d\" {\n  path       = \"d.csv\"\n  folds_file = \"f.csv\"\n}\ncv { folds = 4 }\n", nil},
		// Campaign 14 N8: a baseline beside timing metrics alone was
		// ignored without a word (timings are reported, not tested).
		{"baseline with timing metrics only", head + "dataset \"d\" { path = \"d.csv\" }\ncv { folds = 4 }\nmetrics = [\"fit_seconds\", \"predict_seconds\"]\noutput { baseline = \"logreg\" }\n",
			[]string{"exp.hcl:6:21: warning: Baseline not tested"}},
		{"baseline with timings ranked", head + "dataset \"d\" { path = \"d.csv\" }\ncv { folds = 4 }\nmetrics = [\"fit_seconds\"]\noutput {\n  baseline     = \"logreg\"\n  rank_timings = true\n}\n", nil},
		{"baseline with a quality metric", head + "dataset \"d\" { path = \"d.csv\" }\ncv { folds = 4 }\nmetrics = [\"fit_seconds\", \"accuracy\"]\noutput { baseline = \"logreg\" }\n", nil},
		// Not constant; but 5 of its 6 rows copy another.
		{"one feature varies in one row", head + "dataset \"d\" { path = \"half.csv\" }\ncv { folds = 3 }\nencoder \"oh\" { type = \"onehot\" }\n",
			[]string{"exp.hcl:3:22: warning: Rows copy other rows"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, "exp.hcl")
			p := config.NewParser(report.FormatNames())
			exp, _ := p.ParseSource([]byte(tc.src), file)
			g, diags := engine.Resolve(context.Background(), exp, h, engine.ResolveOptions{DefaultReducer: "reducers"})
			if !diags.HasErrors() {
				diags = append(diags, engine.CheckCells(g)...)
			}
			var out bytes.Buffer
			if err := config.WriteDiagnostics(&out, p.Files(), diags); err != nil {
				t.Fatal(err)
			}
			text := strings.ReplaceAll(out.String(), dir+string(filepath.Separator), "")
			var got []string
			for line := range strings.Lines(text) {
				if strings.HasPrefix(line, "exp.hcl:") {
					got = append(got, strings.TrimSpace(line))
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nheadings %q, want %q", text, got, tc.want)
			}
		})
	}
}
