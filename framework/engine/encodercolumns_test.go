package engine_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/report"
	logreg "github.com/polyclass/polyclass/plugins/logreg/learner"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
)

// TestEncoderColumns: an entry of an encoder's columns option that names
// no column the encoder takes (a typo, the target, an ignored column, a
// column of the other kind, one an earlier step encoded) was left alone
// by the step without a word, and the run went on as if the encoder were
// not there. Each is an error at the columns option, naming the entry,
// the dataset and why; an entry that some dataset has, a column an
// earlier step makes (a cross), and impute on either kind are fine.
func TestEncoderColumns(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"d.csv": "x1,x2,colour,size,class\n5.1,3.5,red,s,a\n4.9,3.0,blue,m,a\n4.7,3.2,red,l,a\n4.6,3.1,blue,s,a\n" +
			"7.0,3.2,red,m,b\n6.4,3.2,blue,l,b\n6.9,3.1,red,s,b\n5.5,2.3,blue,m,b\n",
		"e.csv": "x1,x3,class\n1,2,a\n2,3,a\n3,1,a\n4,5,b\n5,4,b\n6,6,b\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := host.New("", nil)
	h.Register("logreg", host.InProcess{Learner: logreg.New()})
	h.Register("reducers", host.InProcess{Reducer: reducer.New()})
	t.Cleanup(h.Close)
	const head = "experiment \"x\" { seed = 1 }\nlearner \"logreg\" {}\ncv { folds = 2 }\n"
	const d = "dataset \"d\" { path = \"d.csv\" }\n"
	const oh = "encoder \"oh\" { type = \"onehot\" }\n"
	for _, tc := range []struct {
		name, src string
		want      []string // the errors' heading line and the start of their detail, "" for none
	}{
		{"standardize typo", d + oh + "encoder \"std\" {\n  type    = \"standardize\"\n  columns = [\"x1\", \"x_2\"]\n}\n",
			[]string{"exp.hcl:8:13: error: Encoder column not encoded",
				`Encoder "std" (standardize): columns names "x_2", which the step would leave alone without a word: "x_2" is not a column of dataset "d" (did you mean "x2"?); its numeric columns at this step are: "x1", "x2", "colour=blue", "colour=red", "size=l", "size=m", "size=s".`}},
		{"standardize on a categorical column", d + oh + "encoder \"std\" {\n  type    = \"standardize\"\n  columns = [\"colour\"]\n}\npipeline \"p\" { steps = [\"std\", \"oh\"] }\n",
			[]string{"exp.hcl:8:13: error: Encoder column not encoded",
				`Encoder "std" (standardize): columns names "colour", which the step would leave alone without a word: "colour" is a categorical column of dataset "d", and a standardize encoder takes numeric columns only (encode it with onehot, hash or counts, or take it out of columns).`}},
		{"onehot on a numeric column", d + "encoder \"oh\" {\n  type    = \"onehot\"\n  columns = [\"colour\", \"size\", \"x1\"]\n}\n",
			[]string{"exp.hcl:7:13: error: Encoder column not encoded",
				`Encoder "oh" (onehot): columns names "x1", which the step would leave alone without a word: "x1" is a numeric column of dataset "d", and a onehot encoder takes categorical columns only (list it in the dataset's categorical to read it as text, or take it out of columns).`}},
		{"onehot on the target", d + "encoder \"oh\" {\n  type    = \"onehot\"\n  columns = [\"class\", \"colour\", \"size\"]\n}\n",
			[]string{"exp.hcl:7:13: error: Encoder column not encoded",
				`Encoder "oh" (onehot): columns names "class", which the step would leave alone without a word: "class" is the target of dataset "d", which no encoder takes.`}},
		{"impute on an ignored column", "dataset \"d\" {\n  path   = \"d.csv\"\n  ignore = [\"x2\"]\n}\n" + oh + "encoder \"imp\" {\n  type    = \"impute\"\n  columns = [\"x2\", \"x1\"]\n}\npipeline \"p\" { steps = [\"imp\", \"oh\"] }\n",
			[]string{"exp.hcl:11:13: error: Encoder column not encoded",
				`Encoder "imp" (impute): columns names "x2", which the step would leave alone without a word: "x2" is in the ignore list of dataset "d".`}},
		{"standardize after onehot on its column", d + "encoder \"oh\" { type = \"onehot\" }\nencoder \"std\" {\n  type    = \"standardize\"\n  columns = [\"x1\", \"colour\"]\n}\n",
			[]string{"exp.hcl:8:13: error: Encoder column not encoded",
				`Encoder "std" (standardize): columns names "colour", which the step would leave alone without a word: "colour", a column of dataset "d", is gone when the step runs: an earlier step of pipeline "default" has encoded it.`}},
		{"a column of one dataset of two", d + "dataset \"e\" { path = \"e.csv\" }\n" + oh + "encoder \"std\" {\n  type    = \"standardize\"\n  columns = [\"x2\", \"x3\", \"x4\"]\n}\n",
			[]string{"exp.hcl:9:13: error: Encoder column not encoded",
				`Encoder "std" (standardize): columns names "x4", which the step would leave alone without a word: "x4" is not a column of dataset "d" (did you mean "x1" or "x2"?); its numeric columns at this step are: "x1", "x2", "colour=blue", "colour=red", "size=l", "size=m", "size=s". The same holds on dataset(s) "e".`}},
		{"impute takes either kind", d + "encoder \"imp\" {\n  type    = \"impute\"\n  columns = [\"x1\", \"colour\"]\n}\n" + oh, nil},
		{"onehot on a cross", d + "encoder \"x\" { type = \"cross\" }\nencoder \"oh\" {\n  type    = \"onehot\"\n  columns = [\"colour×size\", \"colour\", \"size\"]\n}\n", nil},
		{"an empty list", d + oh + "encoder \"std\" {\n  type    = \"standardize\"\n  columns = []\n}\n",
			[]string{"exp.hcl:8:13: error: Encoder column not encoded",
				`Encoder "std" (standardize): columns = [] names no column, so the step would encode nothing; list the columns, or leave columns out for every numeric column.`}},
		{"every entry taken", d + oh + "encoder \"std\" {\n  type    = \"standardize\"\n  columns = [\"x1\", \"x2\"]\n}\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, "exp.hcl")
			p := config.NewParser(report.FormatNames())
			exp, diags := p.ParseSource([]byte(head+tc.src), file)
			if diags.HasErrors() {
				t.Fatalf("parse: %v", diags)
			}
			_, diags = engine.Resolve(context.Background(), exp, h, engine.ResolveOptions{DefaultReducer: "reducers"})
			var got []string
			for _, dg := range diags {
				if dg.Severity != hcl.DiagError {
					continue
				}
				var out bytes.Buffer
				if err := config.WriteDiagnostics(&out, p.Files(), []*hcl.Diagnostic{dg}); err != nil {
					t.Fatal(err)
				}
				text := strings.ReplaceAll(out.String(), dir+string(filepath.Separator), "")
				lines := strings.Split(text, "\n")
				got = append(got, lines[0])
				for _, l := range lines {
					if strings.HasPrefix(l, "Encoder ") {
						got = append(got, l)
					}
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
