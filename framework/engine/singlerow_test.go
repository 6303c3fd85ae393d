package engine_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/report"
	logreg "github.com/polyclass/polyclass/plugins/logreg/learner"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
)

// TestSingleRowClasses is the campaign's hang: a dataset of 10,000
// classes of one row each, 2 stratified folds, ran for an hour (K×K
// confusion matrices, K score columns) to compute accuracy 0, as no
// training part holds the class of any test row. Resolve now refuses a
// dataset whose every class has a single row, at the dataset, naming the
// count; one whose classes have 2 rows, or one with a test file, passes.
func TestSingleRowClasses(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, classes, rows int) {
		var b strings.Builder
		b.WriteString("x1,x2,class\n")
		for i := range classes * rows {
			fmt.Fprintf(&b, "%d,%d,c%d\n", i%97, i%89, i%classes)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("one.csv", 2000, 1)
	write("two.csv", 1000, 2)
	write("test.csv", 2000, 1)
	h := host.New("", nil)
	h.Register("logreg", host.InProcess{Learner: logreg.New()})
	h.Register("reducers", host.InProcess{Reducer: reducer.New()})
	t.Cleanup(h.Close)
	const refused = "exp.hcl:3:1: error: Every class has a single row"
	for _, tc := range []struct {
		name, dataset string
		want          string // a diagnostic's heading and message, or "" for none of the kind
	}{
		{"2000 classes of one row", `dataset "d" { path = "one.csv" }`,
			refused + "\n" + `Dataset "d": each of its 2000 classes with rows ("c0", "c1", "c10", …) has a single row, so no training part of a fold holds the class of any of its test rows: every prediction would be wrong.`},
		{"1000 classes of two rows", `dataset "d" { path = "two.csv" }`, ""},
		{"a test file", `dataset "d" {
  path      = "one.csv"
  test_path = "test.csv"
}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "experiment \"x\" { seed = 1 }\nlearner \"logreg\" {}\n" + tc.dataset + "\ncv { folds = 2 }\n"
			file := filepath.Join(dir, "exp.hcl")
			p := config.NewParser(report.FormatNames())
			exp, _ := p.ParseSource([]byte(src), file)
			_, diags := engine.Resolve(context.Background(), exp, h, engine.ResolveOptions{DefaultReducer: "reducers"})
			var out bytes.Buffer
			if err := config.WriteDiagnostics(&out, p.Files(), diags); err != nil {
				t.Fatal(err)
			}
			text := strings.ReplaceAll(out.String(), dir+string(filepath.Separator), "")
			heading, message, _ := strings.Cut(tc.want, "\n")
			switch {
			case tc.want == "" && strings.Contains(text, "single row"):
				t.Errorf("diagnostics:\n%s\nwant none about single rows", text)
			case tc.want != "" && (!strings.Contains(text, heading) || !strings.Contains(text, message)):
				t.Errorf("diagnostics:\n%s\nwant %q with %q", text, heading, message)
			}
		})
	}
}
