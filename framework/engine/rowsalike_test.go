package engine_test

import (
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

// TestRowsAlike: a learner's label that reads as another learner's
// generated row name (label = "logreg C=1" beside learner logreg with
// C = [1, 2]) gave two rows "logreg C=1", one of them numbered "(2)":
// CheckCells refuses it as a duplicate label, at the label, as it does a
// label equal to another block's name. A label unlike every row is fine.
func TestRowsAlike(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "d.csv"), []byte(fuzzData["d.csv"]), 0o644); err != nil {
		t.Fatal(err)
	}
	h := host.New("", nil)
	h.Register("logreg", host.InProcess{Learner: logreg.New()})
	h.Register("reducers", host.InProcess{Reducer: reducer.New()})
	t.Cleanup(h.Close)
	const head = "experiment \"x\" { seed = 1 }\ndataset \"d\" { path = \"d.csv\" }\ncv { folds = 2 }\nlearner \"logreg\" { params = { C = [1, 2] } }\n"
	for _, tc := range []struct {
		name, src string
		want      string // the error's detail, "" for none
	}{
		{"label reads as a generated row name", "learner \"a\" {\n  plugin = \"logreg\"\n  label  = \"logreg C=1\"\n}\n",
			`exp.hcl:7:12: Learner "a" and learner "logreg" with C=1 would both be shown as "logreg C=1" in the tables (in full, "none logreg C=1 none"); give them different labels.`},
		{"label unlike every row", "learner \"a\" {\n  plugin = \"logreg\"\n  label  = \"logreg C=3\"\n}\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := config.NewParser(report.FormatNames())
			exp, diags := p.ParseSource([]byte(head+tc.src), filepath.Join(dir, "exp.hcl"))
			if diags.HasErrors() {
				t.Fatalf("parse: %v", diags)
			}
			g, diags := engine.Resolve(context.Background(), exp, h, engine.ResolveOptions{DefaultReducer: "reducers"})
			if diags.HasErrors() {
				t.Fatalf("resolve: %v", diags)
			}
			var got []string
			for _, d := range engine.CheckCells(g) {
				got = append(got, fmt.Sprintf("%s:%d:%d: %s", filepath.Base(d.Subject.Filename), d.Subject.Start.Line, d.Subject.Start.Column, d.Detail))
			}
			if want := []string{tc.want}; tc.want == "" && len(got) > 0 || tc.want != "" && strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("CheckCells:\n%s\nwant:\n%s", strings.Join(got, "\n"), tc.want)
			}
		})
	}
}
