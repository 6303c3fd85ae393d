package config

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/param"
)

var update = flag.Bool("update", false, "rewrite golden files")

const base = `experiment "x" { seed = 3 }
dataset "iris" { path = "iris.csv" }
learner "logreg" { params = { C = [0.1, 1] } }
`

// formats are the output formats the tests' parser accepts: not the
// report package's (this package cannot import it), to show that the
// parser checks against what it is given.
var formats = []string{"markdown", "csv", "tables"}

func parse(t *testing.T, src string) (*Experiment, string) {
	t.Helper()
	p := NewParser(formats)
	exp, diags := p.ParseSource([]byte(src), "exp.hcl")
	var b bytes.Buffer
	if err := WriteDiagnostics(&b, p.Files(), diags); err != nil {
		t.Fatal(err)
	}
	return exp, b.String()
}

func TestParseMinimal(t *testing.T) {
	exp, diags := parse(t, base)
	if diags != "" {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	if exp.Name != "x" || exp.Seed != 3 {
		t.Errorf("name %q seed %d", exp.Name, exp.Seed)
	}
	if d := exp.Datasets[0]; d.Target != "class" || d.Path != "iris.csv" {
		t.Errorf("dataset = %+v", d)
	}
	l := exp.Learners[0]
	if l.Plugin != "logreg" {
		t.Errorf("plugin defaults to the block name, got %q", l.Plugin)
	}
	if c := l.Params["C"].Value; c.Kind() != param.ListValue || len(c.Elems()) != 2 || c.Elems()[0].Num() != 0.1 {
		t.Errorf("C = %v", c)
	}
	if len(exp.Reductions) != 1 || exp.Reductions[0].Scheme != "none" {
		t.Errorf("without a reduction block the learner runs natively, got %+v", exp.Reductions)
	}
	if exp.CV.Folds != DefaultFolds || !exp.CV.Stratified || exp.CV.Repeats != 1 {
		t.Errorf("cv defaults = %+v", exp.CV)
	}
	if got := strings.Join(exp.Metrics, ","); got != "accuracy,macro_f1" {
		t.Errorf("default metrics %s", got)
	}
	if exp.Output.Dir != filepath.Join("results", "x") {
		t.Errorf("default output dir %q", exp.Output.Dir)
	}
	if p := exp.Pipelines; len(p) != 1 || p[0].Name != "none" {
		t.Errorf("pipelines = %+v", p)
	}
}

func TestOutputRankTimings(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{base, false},
		{base + "output { rank_timings = true }\n", true},
		{base + "output { rank_timings = false }\n", false},
	} {
		exp, diags := parse(t, tc.src)
		if diags != "" {
			t.Fatal(diags)
		}
		if exp.Output.RankTimings != tc.want {
			t.Errorf("%q: rank_timings %v, want %v", tc.src, exp.Output.RankTimings, tc.want)
		}
	}
}

// TestOutputRope: rope turns the Bayesian comparisons on (0 included),
// against the baseline or between every pair with bayes_pairs.
func TestOutputRope(t *testing.T) {
	for _, tc := range []struct {
		src   string
		rope  float64 // −1: not set
		pairs bool
	}{
		{base, -1, false},
		{base + "output {\n  baseline = \"l\"\n  rope = 0.01\n}\n", 0.01, false},
		{base + "output {\n  baseline = \"l\"\n  rope = 0\n}\n", 0, false},
		{base + "output {\n  rope = 0.02\n  bayes_pairs = true\n}\n", 0.02, true},
	} {
		exp, diags := parse(t, tc.src)
		if diags != "" {
			t.Fatalf("%q: %s", tc.src, diags)
		}
		rope := -1.0
		if exp.Output.Rope != nil {
			rope = *exp.Output.Rope
		}
		if rope != tc.rope || exp.Output.BayesPairs != tc.pairs {
			t.Errorf("%q: rope %v, bayes_pairs %v; want %v, %v", tc.src, rope, exp.Output.BayesPairs, tc.rope, tc.pairs)
		}
	}
}

func TestIterativeStratification(t *testing.T) {
	exp, diags := parse(t, base+`cv { stratified = "iterative" }`+"\n")
	if diags != "" {
		t.Fatal(diags)
	}
	if !exp.CV.Stratified || !exp.CV.Iterative {
		t.Fatalf("cv = %+v", exp.CV)
	}
}

func TestDefaultPipelineInFileOrder(t *testing.T) {
	exp, diags := parse(t, base+`
encoder "onehot" { type = "onehot" }
encoder "std" { type = "standardize" }
`)
	if diags != "" {
		t.Fatal(diags)
	}
	if p := exp.Pipelines[0]; p.Name != "default" || strings.Join(p.Steps, ",") != "onehot,std" {
		t.Fatalf("default pipeline = %+v", p)
	}
}

func TestVariablesLocalsAndFunctions(t *testing.T) {
	exp, diags := parse(t, `
variable "folds" { default = 5 }
locals {
  grid = [for e in range(-1, 2) : pow(10, e)]
  name = "iris"
}
experiment "x" { seed = 1 }
dataset "iris" { path = "${local.name}.csv" }
learner "logreg" { params = { C = local.grid } }
cv { folds = var.folds }
reduction "ecoc" {
  scheme = "ecoc"
  matrix = [[1, -1, 0], [-1, 1, 1]]
  decode = ["hamming", "loss:exp"]
}
`)
	if diags != "" {
		t.Fatal(diags)
	}
	if exp.CV.Folds != 5 || exp.Datasets[0].Path != "iris.csv" {
		t.Errorf("folds %d path %s", exp.CV.Folds, exp.Datasets[0].Path)
	}
	if got := exp.Learners[0].Params["C"].Value.String(); got != "[0.1, 1, 10]" {
		t.Errorf("C = %s", got)
	}
	r := exp.Reductions[0]
	if r.Scheme != "ecoc" || r.Params["matrix"].Value.String() != "[[1, -1, 0], [-1, 1, 1]]" || r.Params["decode"].Value.String() != "[hamming, loss:exp]" {
		t.Errorf("reduction = %+v", r)
	}
}

// TestDiagnostics checks that each mistake gives a diagnostic at its
// location, and that all of them are reported at once.
func TestDiagnostics(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"unknown block", base + "model \"m\" {}\n", `exp.hcl:4:1: error: Unsupported block type`},
		{"unknown attribute", base + "cv { foldz = 3 }\n", `exp.hcl:4:6: error: Unsupported argument`},
		{"missing path", `experiment "x" {}` + "\ndataset \"d\" {}\nlearner \"l\" {}\n", `exp.hcl:2:13: error: Missing required argument`},
		{"missing experiment", "dataset \"d\" { path = \"a\" }\nlearner \"l\" {}\n", `error: Missing experiment block`},
		// At the first block, not at a blank first line the snippet skips.
		{"missing experiment after a blank line", "\n# comment\ndataset \"d\" { path = \"a\" }\nlearner \"l\" {}\n", `exp.hcl:3:1: error: Missing experiment block`},
		{"no learners", `experiment "x" {}` + "\ndataset \"d\" { path = \"a\" }\n", "error: No learners"},
		{"bad folds", base + "cv { folds = 1 }\n", `exp.hcl:4:14: error: Invalid value`},
		{"fractional folds", base + "cv { folds = 2.5 }\n", `exp.hcl:4:14: error: Invalid value`},
		{"folds type", base + "cv { folds = \"ten\" }\n", `exp.hcl:4:14: error: Incorrect attribute value type`},
		{"negative seed", `experiment "x" { seed = -1 }` + "\ndataset \"d\" { path = \"a\" }\nlearner \"l\" {}\n", `exp.hcl:1:25: error: Invalid seed`},
		{"duplicate dataset", base + "dataset \"iris\" { path = \"b\" }\n", `exp.hcl:4:9: error: Duplicate dataset name`},
		{"duplicate cv", base + "cv {}\ncv {}\n", `exp.hcl:5:1: error: Duplicate cv block`},
		{"unknown encoder in pipeline", base + "encoder \"s\" { type = \"standardize\" }\npipeline \"p\" { steps = [\"s\", \"pca\"] }\n", `exp.hcl:5:24: error: Unknown encoder`},
		{"unknown dataset in reduction", base + "reduction \"ova\" { datasets = [\"iris\", \"wine\"] }\n", `exp.hcl:4:30: error: Unknown dataset`},
		{"unknown learner in reduction", base + "reduction \"ova\" { learners = [\"svm\"] }\n", `exp.hcl:4:30: error: Unknown learner`},
		// A misspelt name of a declared block: the name it may mean.
		{"misspelt learner in reduction", base + "reduction \"ova\" { learners = [\"logre\"] }\n",
			`Reduction "ova" names learner "logre", which is not declared (did you mean "logreg"?).`},
		{"misspelt encoder in pipeline", base + "encoder \"std\" { type = \"standardize\" }\npipeline \"p\" { steps = [\"stdd\"] }\n",
			`Pipeline "p" names encoder "stdd", which is not declared (did you mean "std"?).`},
		{"encoder without type", base + "encoder \"s\" {}\n", `exp.hcl:4:1: error: Missing required argument`},
		{"params not object", base + "learner \"svm\" { params = 3 }\n", `exp.hcl:4:26: error: Incorrect attribute value type`},
		{"param object value", base + "learner \"svm\" { params = { C = { a = 1 } } }\n", `exp.hcl:4:32: error: Invalid parameter value`},
		{"unknown function", base + "learner \"svm\" { params = { C = frobnicate(1) } }\n", `exp.hcl:4:32: error: Call to unknown function`},
		{"unknown variable", base + "cv { folds = var.nope }\n", `exp.hcl:4:17: error: Unsupported attribute`},
		{"bad format", base + "output { formats = [\"pdf\"] }\n", `exp.hcl:4:20: error: Unknown output format`},
		// Campaign 12 OF1: json twice wrote NAME.json twice, the second
		// moving bench's own first aside.
		{"format twice", base + "output { formats = [\"csv\", \"markdown\", \"csv\"] }\n", `exp.hcl:4:20: error: Duplicate output format`},
		// Campaign 14 N11: a row listed twice drew its confusion matrix
		// twice, the second under NAME_2; an error at the second entry.
		{"confusion row twice", base + "output { confusion = [\"l\", \"m\", \"l\"] }\n", `exp.hcl:4:33: error: Duplicate confusion row`},
		{"confusion row twice, detail", base + "output { confusion = [\"l\", \"m\", \"l\"] }\n", `Confusion row "l" is listed twice (first at `},
		{"format the parser was not given", base + "output { formats = [\"tables\", \"html\"] }\n", `"html" is not an output format; choose from markdown, csv, tables.`},
		{"bad alpha", base + "output { alpha = 2 }\n", `exp.hcl:4:18: error: Invalid alpha`},
		{"rank_timings type", base + "output { rank_timings = \"yes\" }\n", `exp.hcl:4:25: error: `},
		{"negative rope", base + "output {\n  baseline = \"l\"\n  rope = -0.01\n}\n", `exp.hcl:6:10: error: Invalid rope`},
		{"rope without baseline", base + "output { rope = 0.01 }\n", `exp.hcl:4:17: error: Nothing to compare`},
		{"bayes_pairs without rope", base + "output { bayes_pairs = true }\n", `exp.hcl:4:24: error: Missing rope`},
		{"rope type", base + "output { rope = \"wide\" }\n", `exp.hcl:4:17: error: Incorrect attribute value type`},
		{"two targets", base + "dataset \"e\" {\n  path = \"e.csv\"\n  target = \"a\"\n  labels = [\"b\"]\n}\n", `exp.hcl:4:1: error: Conflicting targets`},
		{"duplicate label", base + "dataset \"e\" {\n  path = \"e.csv\"\n  labels = [\"a\", \"b\", \"a\"]\n}\n", `exp.hcl:6:12: error: Duplicate label`},
		{"delimiter", base + "dataset \"e\" {\n path = \"e.csv\"\n delimiter = \";;\"\n}\n", `exp.hcl:6:14: error: Invalid delimiter`},
		{"delimiter NUL", base + "dataset \"e\" {\n path = \"e.csv\"\n delimiter = \"\\u0000\"\n}\n", `exp.hcl:6:14: error: Invalid delimiter`},
		{"delimiter ESC", base + "dataset \"e\" {\n path = \"e.csv\"\n delimiter = \"\\u001b\"\n}\n", `exp.hcl:6:14: error: Invalid delimiter`},
		{"folds file with repeats", base + "cv {\n folds_file = \"f.csv\"\n repeats = 2\n}\n", `exp.hcl:6:12: error: Conflicting fold settings`},
		{"syntax", base + "cv { folds = }\n", `exp.hcl:4:14: error: Invalid expression`},
		{"stratified word", base + "cv { stratified = \"yes\" }\n", `exp.hcl:4:19: error: Invalid value`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := parse(t, tt.src)
			if !strings.Contains(diags, tt.want) {
				t.Fatalf("diagnostics:\n%s\nwant a line containing %q", diags, tt.want)
			}
		})
	}
}

// TestTargetListed checks that a dataset's target in its ignore or
// numeric list is an error at that entry naming the target, rather than
// the data layer's "in both Categorical and Ignore" (campaign2 e07), and
// that a defaulted "class" of an ARFF file, which may name its own labels,
// is left to the data.
func TestTargetListed(t *testing.T) {
	ds := func(body string) string { return base + "dataset \"e\" {\n" + body + "}\n" }
	for _, tc := range []struct{ name, src, want string }{
		{"target in ignore", ds("  path = \"e.csv\"\n  target = \"y\"\n  ignore = [\"id\", \"y\"]\n"),
			`exp.hcl:7:19: error: Target column listed; Dataset "e" lists "y" in ignore, but "y" is its target, which cannot be ignored; remove it from ignore.`},
		{"default target in ignore", ds("  path = \"e.csv\"\n  ignore = [\"class\"]\n"),
			`exp.hcl:6:13: error: Target column listed; Dataset "e" lists "class" in ignore, but "class" is its target (the default, as it sets no target), which cannot be ignored; remove it from ignore.`},
		{"default target in numeric", ds("  path = \"e.csv\"\n  numeric = [\"x\", \"class\"]\n"),
			`exp.hcl:6:19: error: Target column listed; Dataset "e" lists "class" in numeric, but "class" is its target (the default, as it sets no target), which is read as class names, not numbers; remove it from numeric.`},
		{"default target of an ARFF file in ignore", ds("  path = \"e.arff\"\n  ignore = [\"class\"]\n"), ""},
		{"ignore without the target", ds("  path = \"e.csv\"\n  target = \"y\"\n  ignore = [\"class\"]\n"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parse(t, tc.src)
			if tc.want == "" {
				if diags != "" {
					t.Fatalf("diagnostics:\n%s\nwant none", diags)
				}
				return
			}
			at, detail, _ := strings.Cut(tc.want, "; ")
			if !strings.Contains(diags, at+"\n") || !strings.Contains(diags, detail) {
				t.Fatalf("diagnostics:\n%s\nwant %q with %q", diags, at, detail)
			}
		})
	}
}

func TestAllDiagnosticsAtOnce(t *testing.T) {
	src := `experiment "x" { seed = -1 }
dataset "d" { pth = "a.csv" }
learner "l" { params = { C = 1 } }
cv {
  folds = 1
}
output { formats = ["pdf"] }
`
	_, diags := parse(t, src)
	for _, want := range []string{"exp.hcl:1:25:", "exp.hcl:2:15: error: Missing required argument", "exp.hcl:2:15: error: Unsupported argument", "exp.hcl:5:11:", "exp.hcl:7:20:"} {
		if !strings.Contains(diags, want) {
			t.Errorf("missing %s in\n%s", want, diags)
		}
	}
}

// TestSyntaxErrorWithContentErrors: with a syntax error, the parser still
// reports the content errors of the rest of the file, each at its place;
// what the syntax error may have caused is not reported: an error inside
// the block that holds it, and a name that a block the parser skipped
// may declare; a name that no block of the text declares is.
func TestSyntaxErrorWithContentErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want []string // the error lines: the syntax errors, then the others, each in file order
	}{
		{"a syntax error and three content errors", `experiment "x" { seed = 1 }
dataset "iris" { path = "iris.csv" }
learner "lr" {
  plugin = = "logreg"
}
learner "svm" { paramz = { C = 1 } }
cv { folds = "ten" }
output { formats = ["markdwn"] }
`, []string{
			"exp.hcl:4:12: error: Invalid expression",
			"exp.hcl:6:17: error: Unsupported argument",
			"exp.hcl:7:14: error: Incorrect attribute value type",
			"exp.hcl:8:20: error: Unknown output format",
		}},
		{"a content error in the block of the syntax error is left out", `experiment "x" { seed = 1 }
dataset "iris" { path = "iris.csv" }
learner "lr" {
  plugin = = "logreg"
  paramz = { C = 1 }
}
cv { folds = "ten" }
`, []string{
			"exp.hcl:4:12: error: Invalid expression",
			"exp.hcl:7:14: error: Incorrect attribute value type",
		}},
		{"names are not checked when the parser skipped text", `experiment "x" { seed = 1 }
dataset "iris" { path = "iris.csv" }
pipeline "p" { steps = ["std"] }
cv { folds = "ten" }
learner "lr" { params = { C = [0.1, 1 } }
encoder "std" { type = "standardize" }
`, []string{
			"exp.hcl:5:39: error: Missing item separator",
			"exp.hcl:4:14: error: Incorrect attribute value type",
		}},
		{"a name no text declares is reported beside a syntax error", `experiment "x" { seed = 1 }
dataset "iris" { path = "iris.csv" }
pipeline "p" { steps = ["std", "hot"] }
reduction "ova" { learners = ["lr", "svm"] }
learner "lr" { params = { C = [0.1, 1 } }
encoder "std" { type = "standardize" }
`, []string{
			"exp.hcl:5:39: error: Missing item separator",
			"exp.hcl:3:24: error: Unknown encoder",
			"exp.hcl:4:30: error: Unknown learner",
		}},
	} {
		exp, diags := parse(t, tc.src)
		var got []string
		for line := range strings.Lines(diags) {
			if strings.HasPrefix(line, "exp.hcl:") || strings.HasPrefix(line, "error:") {
				got = append(got, strings.TrimSuffix(line, "\n"))
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: errors\n%s\nwant\n%s\nin:\n%s", tc.name, strings.Join(got, "\n"), strings.Join(tc.want, "\n"), diags)
		}
		if exp == nil {
			t.Errorf("%s: no partial experiment", tc.name)
		}
	}
}

// TestDiagnosticFormat pins the printed form: location, snippet, caret and
// detail.
func TestDiagnosticFormat(t *testing.T) {
	_, got := parse(t, base+"cv {\n  folds = \"ten\"\n}\n")
	golden := filepath.Join("testdata", "diagnostic.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(base)
	f.Add(`experiment "x" { seed = 1 }` + "\ncv { folds = 3 }\nreduction \"r\" { matrix = [[1, -1]] }\n")
	f.Add("locals { a = local.b\n b = local.a }\n")
	// Nesting at and beyond MaxNesting (the parser recursed into a stack
	// overflow at 100,000 levels).
	f.Add(base + "reduction \"r\" { matrix = " + strings.Repeat("[", 70) + "1" + strings.Repeat("]", 70) + " }\n")
	f.Add(`experiment "x" { seed = ` + strings.Repeat("(", 62) + "1" + strings.Repeat(")", 62) + " }\n")
	f.Add(`experiment "x" { seed = ` + strings.Repeat("-", 80) + "1 }\n")
	// UTF-16, with a byte order mark and without (one error, not one per
	// character).
	f.Add(encodeUTF16(base, true, 0xFF, 0xFE))
	f.Add(encodeUTF16(base, false))
	f.Fuzz(func(t *testing.T, src string) {
		p := NewParser(formats)
		exp, diags := p.ParseSource([]byte(src), "fuzz.hcl")
		var b bytes.Buffer
		if err := WriteDiagnostics(&b, p.Files(), diags); err != nil {
			t.Fatal(err)
		}
		if exp == nil && !diags.HasErrors() {
			t.Fatal("no experiment and no error")
		}
	})
}

// TestParamsShape: params = { … } is the one shape of a block's
// parameters; encoders and reductions also take them as bare attributes,
// and a name given both ways is an error at the bare attribute.
func TestParamsShape(t *testing.T) {
	for _, tc := range []struct {
		name, block string
		want        map[string]string // parameter → value, nil when an error is expected
		err         string
	}{
		{"encoder params", `encoder "imp" {
  type   = "impute"
  params = { strategy = "median" }
}`, map[string]string{"strategy": "median"}, ""},
		{"encoder bare", `encoder "imp" {
  type     = "impute"
  strategy = "median"
}`, map[string]string{"strategy": "median"}, ""},
		{"reduction params", `reduction "ecoc" {
  params = { code = "random_dense", length = [10, 20] }
}`, map[string]string{"code": "random_dense", "length": "[10, 20]"}, ""},
		{"reduction both", `reduction "ecoc" {
  params = { code = "random_dense" }
  length = 10
}`, map[string]string{"code": "random_dense", "length": "10"}, ""},
		{"reduction twice", `reduction "ecoc" {
  params = { length = 20 }
  length = 10
}`, nil, `exp.hcl:6:3: error: Duplicate parameter`},
		{"learner bare is not sugar", `learner "svm" {
  C = 1
}`, nil, `exp.hcl:5:3: error: Unsupported argument`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exp, diags := parse(t, base+tc.block+"\n")
			if tc.want == nil {
				if !strings.Contains(diags, tc.err) {
					t.Fatalf("diagnostics:\n%s\nwant a line containing %q", diags, tc.err)
				}
				return
			}
			if diags != "" {
				t.Fatalf("diagnostics:\n%s", diags)
			}
			var got map[string]Param
			if len(exp.Encoders) > 0 {
				got = exp.Encoders[0].Options
			} else {
				got = exp.Reductions[0].Params
			}
			if len(got) != len(tc.want) {
				t.Errorf("params %v, want %v", got, tc.want)
			}
			for k, v := range tc.want {
				if p, ok := got[k]; !ok || p.Value.String() != v {
					t.Errorf("%s = %v, want %s", k, p.Value, v)
				}
			}
		})
	}
}

// TestOutputFormats: output { formats } accepts the formats the parser was
// given and no other, and a file without the attribute gets the defaults.
func TestOutputFormats(t *testing.T) {
	exp, diags := parse(t, base+"output { formats = [\"tables\", \"csv\"] }\n")
	if diags != "" || strings.Join(exp.Output.Formats, ",") != "tables,csv" {
		t.Errorf("formats %v, diagnostics:\n%s", exp.Output.Formats, diags)
	}
	exp, diags = parse(t, base)
	if diags != "" || strings.Join(exp.Output.Formats, ",") != strings.Join(DefaultFormats(), ",") {
		t.Errorf("default formats %v, want %v; diagnostics:\n%s", exp.Output.Formats, DefaultFormats(), diags)
	}
	p := NewParser(nil)
	if _, d := p.ParseSource([]byte(base+"output { formats = [\"markdown\"] }\n"), "exp.hcl"); !d.HasErrors() {
		t.Error("a parser given no formats accepted markdown")
	}
}

// TestSilentCases: what parsed silently and then ran nothing, or less than
// the file declares: a reduction limited to no dataset or no learner (an
// error: it makes no cell), a dataset or a learner that no reduction
// covers (missing from the tables), an encoder in no pipeline.
func TestSilentCases(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // the diagnostics' heading lines
	}{
		{"datasets = []", base + "reduction \"ova\" {\n  datasets = []\n}\n",
			[]string{"exp.hcl:5:14: error: Empty datasets list", "exp.hcl:2:1: warning: Dataset in no reduction"}},
		{"learners = []", base + "reduction \"ova\" {\n  learners = []\n}\n",
			[]string{"exp.hcl:5:14: error: Empty learners list", "exp.hcl:3:1: warning: Learner in no reduction"}},
		{"dataset in no reduction", base + "dataset \"wine\" { path = \"wine.csv\" }\nreduction \"ova\" {\n  datasets = [\"iris\"]\n}\n",
			[]string{"exp.hcl:4:1: warning: Dataset in no reduction"}},
		{"learner in no reduction", base + "learner \"svm\" {}\nreduction \"ova\" {\n  learners = [\"logreg\"]\n}\n",
			[]string{"exp.hcl:4:1: warning: Learner in no reduction"}},
		{"encoder in no pipeline", base + "encoder \"z\" { type = \"standardize\" }\nencoder \"oh\" { type = \"onehot\" }\npipeline \"p\" { steps = [\"z\"] }\n",
			[]string{"exp.hcl:5:1: warning: Encoder in no pipeline"}},
		{"every encoder in the default pipeline", base + "encoder \"z\" { type = \"standardize\" }\n", nil},
		{"datasets covered by two reductions", base + "dataset \"wine\" { path = \"wine.csv\" }\nreduction \"ova\" { datasets = [\"iris\"] }\nreduction \"ovo\" { datasets = [\"wine\"] }\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parse(t, tc.src)
			var got []string
			for line := range strings.Lines(diags) {
				if strings.HasPrefix(line, "exp.hcl:") {
					got = append(got, strings.TrimSpace(line))
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nheadings %q, want %q", diags, got, tc.want)
			}
		})
	}
}

// TestDefaultMetricsFitTheData: a file without metrics gets metrics for
// the kinds of its datasets, so that each default applies to some dataset
// (a multi-label file once got accuracy, which applies to none of them);
// a written list is kept as written, and an empty one names the default
// for the file's data.
func TestDefaultMetricsFitTheData(t *testing.T) {
	const mc = `dataset "iris" { path = "iris.csv" }` + "\n"
	const ml = `dataset "em" {
  path          = "em.csv"
  labels_prefix = "label_"
}
`
	const ml2 = `dataset "yeast" {
  path   = "yeast.csv"
  labels = ["a", "b"]
}
`
	for _, tc := range []struct {
		name, datasets, metrics, want, diag string
	}{
		{name: "multiclass", datasets: mc, want: "accuracy,macro_f1"},
		{name: "multi-label by prefix", datasets: ml, want: "hamming_loss,subset_accuracy,macro_f1"},
		{name: "multi-label by list", datasets: ml2, want: "hamming_loss,subset_accuracy,macro_f1"},
		{name: "both kinds", datasets: mc + ml, want: "accuracy,macro_f1,hamming_loss,subset_accuracy"},
		{name: "written list kept", datasets: ml, metrics: `metrics = ["accuracy"]` + "\n", want: "accuracy"},
		{name: "empty list", datasets: ml, metrics: "metrics = []\n",
			diag: "leave metrics out for the default (hamming_loss, subset_accuracy, macro_f1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `experiment "x" { seed = 1 }
learner "logreg" {}
` + tc.datasets + tc.metrics
			exp, diags := parse(t, src)
			if tc.diag != "" {
				if !strings.Contains(diags, tc.diag) {
					t.Fatalf("diagnostics lack %q:\n%s", tc.diag, diags)
				}
				return
			}
			if diags != "" {
				t.Fatalf("diagnostics:\n%s", diags)
			}
			if got := strings.Join(exp.Metrics, ","); got != tc.want {
				t.Errorf("metrics = %s, want %s", got, tc.want)
			}
		})
	}
}
