package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/data"
	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/framework/metrics"
)

// runBench runs the command line args in-process, without the flags the
// bench helper adds.
func runBench(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(commandContext(t), args, &stdout, &stderr)
	return stdout.String(), stderr.String(), err
}

// TestHelp: a command's help goes to stdout with exit status 0, however it
// is asked for; bench help and bench --help print the global usage.
func TestHelp(t *testing.T) {
	tests := []struct {
		args []string
		want string // stdout prefix
	}{
		{[]string{"run", "--help"}, "usage: bench run [-o DIR] [-j N] [--fresh] [--keep-other-bench] [--adopt] [--dense-budget SIZE] [--shard I/N] [--shards N] [--quiet] [--verbose] [--plugins DIR] [--profile DIR] [--no-share] FILE\n"},
		{[]string{"run", "-h"}, "usage: bench run [-o DIR]"},
		{[]string{"run", "-help"}, "usage: bench run [-o DIR]"},
		{[]string{"run", "exp.hcl", "--help"}, "usage: bench run [-o DIR]"},
		{[]string{"help", "run"}, "usage: bench run [-o DIR]"},
		{[]string{"validate", "--help"}, "usage: bench validate [--plan] [--shards N] [--dense-budget SIZE] [--plugins DIR] FILE\n"},
		{[]string{"help", "merge"}, "usage: bench merge [--verbose] OUT [DIR...]\n"},
		{[]string{"help", "list"}, "usage: bench list [--plugins DIR] metrics|encoders|learners|schemes|decoders|formats\n"},
		{[]string{"rerun", "-h"}, "usage: bench rerun [-o DIR] [-j N] [--dense-budget SIZE] [--plugins DIR] [--verbose] DIR\n"},
		{[]string{"help", "version"}, "usage: bench version\n"},
		{[]string{"version", "--help"}, "usage: bench version\n"},
		{[]string{"version", "-h"}, "usage: bench version\n"},
		{[]string{"help", "--help"}, "usage: bench help [COMMAND]\n"},
		{[]string{"help"}, "usage: bench COMMAND [flags] [ARGS]\n"},
		{[]string{"--help"}, "usage: bench COMMAND [flags] [ARGS]\n"},
		{[]string{"-h"}, "usage: bench COMMAND [flags] [ARGS]\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			stdout, stderr, err := runBench(t, tt.args...)
			if err != nil || stderr != "" {
				t.Fatalf("error %v, stderr %q; want exit 0 and nothing on stderr", err, stderr)
			}
			if !strings.HasPrefix(stdout, tt.want) {
				t.Errorf("stdout:\n%s\nwant it to start with %q", stdout, tt.want)
			}
		})
	}
	// Every command has help that names its flags.
	for _, c := range commands {
		stdout, _, err := runBench(t, "help", c.name)
		if err != nil || !strings.HasPrefix(stdout, "usage: "+c.synopsis()+"\n\n") || !strings.Contains(stdout, c.doc) {
			t.Errorf("help %s: error %v, stdout:\n%s", c.name, err, stdout)
		}
		for _, f := range c.flags {
			if !strings.Contains(stdout, "\n  "+flagDocs[f][0]+" ") {
				t.Errorf("help %s does not describe %s:\n%s", c.name, flagDocs[f][0], stdout)
			}
		}
	}
}

// TestUsageErrors: a mistake on the command line is a usage error (exit
// status 2 in main); within a command it shows that command's synopsis.
func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want []string // in the error text
		not  string   // not in the error text
	}{
		{[]string{"run", "--bogus", "x.hcl"}, []string{"run: flag provided but not defined: -bogus", "usage: bench run [-o DIR]", "Run 'bench help run' for details."}, "commands:"},
		{[]string{"run", "-j", "-1", "x.hcl"}, []string{"run: -j -1: want 0 (all CPUs) or more", "usage: bench run"}, "commands:"},
		{[]string{"run"}, []string{"run needs exactly one experiment file", "usage: bench run"}, "commands:"},
		{[]string{"run", "--dense-budget", "lots", "x.hcl"}, []string{`run: invalid value "lots" for flag -dense-budget: "lots" is not a size`, "usage: bench run"}, "commands:"},
		{[]string{"validate", "a.hcl", "b.hcl"}, []string{"validate needs exactly one experiment file", "usage: bench validate"}, "commands:"},
		{[]string{"merge"}, []string{"merge needs a results directory: bench merge DIR merges the shards in DIR in place", "usage: bench merge [--verbose] OUT [DIR...]"}, "commands:"},
		{[]string{"run", "--shard", "3/3", "x.hcl"}, []string{"shard 3/3: the shard index must be in [0, 3)", "usage: bench run"}, "commands:"},
		{[]string{"run", "--shard", "1", "x.hcl"}, []string{"want I/N", "usage: bench run"}, "commands:"},
		{[]string{"run", "--shard", "0/99999999999", "-o", "out", "x.hcl"}, []string{"run: --shard: shard 0/99999999999: 99999999999 shards: at most 100000 (a Kubernetes Indexed Job's completions; more shards than cells run nothing)", "usage: bench run"}, "commands:"},
		{[]string{"validate", "--plan", "--shards", "99999999999", "x.hcl"}, []string{"validate: --shards 99999999999: 99999999999 shards: at most 100000", "usage: bench validate"}, "commands:"},
		{[]string{"validate", "--plan", "--shards", "0", "x.hcl"}, []string{"validate: --shards 0: want 1 or more shards", "usage: bench validate"}, "commands:"},
		{[]string{"run", "-o", "", "x.hcl"}, []string{"run: -o '': want a directory (leave -o out for the experiment's output directory)", "usage: bench run"}, "commands:"},
		{[]string{"run", "-o", "~/x", "x.hcl"}, []string{`run: -o "~/x" starts with ~, which bench does not expand`, "usage: bench run"}, "commands:"},
		{[]string{"rerun", "-o=~", "d"}, []string{`rerun: -o "~" starts with ~`, "usage: bench rerun"}, "commands:"},
		{[]string{"run", "-o", "$HOME/x", "x.hcl"}, []string{`run: -o "$HOME/x" holds $HOME, which bench does not expand`, "usage: bench run"}, "commands:"},
		{[]string{"run", "--profile", "~/p", "x.hcl"}, []string{`run: --profile "~/p" starts with ~, which bench does not expand`, "usage: bench run"}, "commands:"},
		{[]string{"run", "--profile=$HOME/p", "x.hcl"}, []string{`run: --profile "$HOME/p" holds $HOME, which bench does not expand (a shell expands it outside single quotes`, "usage: bench run"}, "commands:"},
		{[]string{"merge", "~/m", "sh"}, []string{`merge: OUT "~/m" starts with ~, which bench does not expand`, "usage: bench merge"}, "commands:"},
		{[]string{"submit", "slurm", "--shards", "100001", "x.hcl"}, []string{"submit: --shards 100001: 100001 shards: at most 100000"}, "commands:"},
		{[]string{"list"}, []string{"list needs one of metrics, encoders, learners, schemes, decoders, formats", "usage: bench list"}, "commands:"},
		{[]string{"list", "reducers"}, []string{`list: unknown topic "reducers" (want metrics, encoders, learners, schemes, decoders, formats)`}, "commands:"},
		{[]string{"help", "nosuch"}, []string{`help: unknown command "nosuch"`, "commands:"}, ""},
		{[]string{"version", "extra"}, []string{"version takes no arguments"}, ""},
		{[]string{"frobnicate"}, []string{`unknown command "frobnicate"`, "commands:"}, ""},
		{nil, []string{"no command", "commands:"}, ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, _, err := runBench(t, tt.args...)
			var ue usageError
			if !errors.As(err, &ue) {
				t.Fatalf("error %v, want a usage error", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error:\n%v\nwant it to contain %q", err, w)
				}
			}
			if tt.not != "" && strings.Contains(err.Error(), tt.not) {
				t.Errorf("error:\n%v\nshould not contain %q", err, tt.not)
			}
		})
	}
}

// TestHelpCoversEveryFlag: every flag bench parses is documented, every
// documented flag is parsed and used by a command, and the global usage
// and the README's Commands block name every command.
func TestHelpCoversEveryFlag(t *testing.T) {
	parsed := map[string]bool{}
	flagSet("x", &options{}).VisitAll(func(f *flag.Flag) { parsed[f.Name] = true })
	used := map[string]bool{}
	for _, c := range commands {
		for _, f := range c.flags {
			used[f] = true
		}
	}
	for name := range parsed {
		if _, ok := flagDocs[name]; !ok {
			t.Errorf("flag %s has no entry in flagDocs", name)
		}
		if !used[name] {
			t.Errorf("flag %s is in no command's flags", name)
		}
	}
	for name := range flagDocs {
		if !parsed[name] {
			t.Errorf("flagDocs describes %s, which flagSet does not define", name)
		}
	}
	usage := globalUsage()
	readme := readFile(t, "../../README.md")
	block := readme[strings.Index(readme, "## Commands\n"):]
	block = block[:strings.Index(block, "```\n\n")]
	for _, c := range commands {
		if !strings.Contains(usage, "\n  "+c.name) {
			t.Errorf("global usage does not list %s:\n%s", c.name, usage)
		}
		if !strings.Contains(block, "bench "+c.name) {
			t.Errorf("README's Commands block does not list bench %s:\n%s", c.name, block)
		}
	}
}

// TestVersion: bench version and bench --version print the module
// version, the commit and the Go version.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		stdout, _, err := runBench(t, args...)
		bi, _ := debug.ReadBuildInfo()
		if err != nil || stdout != versionText(bi) {
			t.Errorf("%v: error %v, stdout:\n%s", args, err, stdout)
		}
		if !strings.HasPrefix(stdout, "bench ") || !strings.Contains(stdout, "\ncommit: ") || !strings.Contains(stdout, "\ngo: "+runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH+"\n") {
			t.Errorf("%v: stdout:\n%s", args, stdout)
		}
	}
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	goLine := "go: go1.99.1 " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"clean checkout", &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Version: "v1.2.3"},
			Settings: vcs("vcs", "git", "vcs.revision", "0123456789abcdef0123456789abcdef01234567", "vcs.time", "2026-11-22T18:49:14Z", "vcs.modified", "false")},
			"bench v1.2.3\ncommit: 0123456789abcdef0123456789abcdef01234567\ncommit time: 2026-11-22T18:49:14Z\n" + goLine},
		{"modified checkout", &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs.revision", "89abcdef", "vcs.modified", "true")},
			"bench (devel)\ncommit: 89abcdef (modified)\n" + goLine},
		{"no VCS", &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Version: "(devel)"}},
			"bench (devel)\ncommit: unknown (built without VCS information; go build in a git checkout records it)\n" + goLine},
		{"no build info", nil,
			"bench unknown\ncommit: unknown (built without VCS information; go build in a git checkout records it)\ngo: " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionText(tt.bi); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestVersionOfBuiltBinary builds bench as make build does, with VCS
// stamping on, and checks that bench version prints the commit of the
// checkout. Go records no VCS information in a git worktree (its .git is
// a file), so there the commit must say it is unknown.
func TestVersionOfBuiltBinary(t *testing.T) {
	skipUnderRace(t, "the test builds and runs a bench binary")
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(t.TempDir(), "bench")
	build := exec.Command("go", "build", "-buildvcs=auto", "-o", exe, "./cmd/bench")
	build.Dir = repo
	build.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(exe, "--version").Output()
	if err != nil {
		t.Fatalf("bench --version: %v", err)
	}
	want := "commit: unknown"
	if fi, err := os.Stat(filepath.Join(repo, ".git")); err == nil && fi.IsDir() {
		head, err := exec.Command("git", "-C", repo, "rev-parse", "HEAD").Output()
		if err != nil {
			t.Fatalf("git rev-parse HEAD: %v", err)
		}
		want = "commit: " + strings.TrimSpace(string(head))
	}
	if !strings.Contains(string(out), "\n"+want) {
		t.Errorf("bench --version:\n%s\nwant a line starting %q", out, want)
	}
}

// irisLDA writes the experiment name: iris, lda one-vs-all, 2 folds.
func irisLDA(t *testing.T, name string) string {
	t.Helper()
	return writeExperiment(t, `experiment "`+name+`" { seed = 1 }
dataset "iris" {
  path   = "%DATA%/iris.csv"
  target = "class"
}
learner "lda" {}
reduction "ova" {}
cv { folds = 2 }
metrics = ["accuracy"]
`)
}

// TestJobs: -j 0 means every CPU, as in make and ninja; a negative -j is a
// usage error (TestUsageErrors).
func TestJobs(t *testing.T) {
	exp := irisLDA(t, "jobs")
	for _, tt := range []struct {
		j    string
		want int
	}{{"0", runtime.NumCPU()}, {"1", 1}} {
		t.Run("-j "+tt.j, func(t *testing.T) {
			out := t.TempDir()
			if _, stderr, err := bench(t, "run", "-j", tt.j, "-o", out, exp); err != nil {
				t.Fatalf("run: %v\n%s", err, stderr)
			}
			var m struct{ Workers int }
			if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "manifest.json"))), &m); err != nil {
				t.Fatal(err)
			}
			if m.Workers != tt.want {
				t.Errorf("manifest workers %d, want %d", m.Workers, tt.want)
			}
		})
	}
}

// TestList: bench list prints the names of each registry: every metric of
// package metrics, every encoder type of package encode, the reducer
// plugin's schemes and decoders, and every data format.
func TestList(t *testing.T) {
	var metricRows, encoderRows, formatRows []string
	for _, m := range metrics.Metrics() {
		better := "lower"
		if m.HigherIsBetter {
			better = "higher"
		}
		metricRows = append(metricRows, `(?m)^`+regexp.QuoteMeta(m.Name)+` +`+regexp.QuoteMeta(m.Kind.String())+` +`+better+` +`+regexp.QuoteMeta(m.Doc)+`$`)
	}
	for name := range encode.Kinds() {
		encoderRows = append(encoderRows, `(?m)^`+name+`: `)
	}
	for _, f := range data.Formats() {
		formatRows = append(formatRows, `(?m)^`+f.Name+` +`+regexp.QuoteMeta(strings.Join(f.Extensions, " "))+` `)
	}
	tests := []struct {
		topic string
		want  []string // regular expressions the output must match
	}{
		{"metrics", append(metricRows, `(?m)^accuracy +multiclass +higher +fraction of rows`, `(?m)^log_loss +multiclass +lower `)},
		{"encoders", append(encoderRows, `(?m)^onehot: categorical columns`, `(?m)^  param buckets \(integer\) default 1024 >= 1`)},
		{"formats", append(formatRows, `(?m)^csv +\.csv +comma-separated`, `(?m)^libsvm +\.libsvm \.svm \.svmlight \.txt +`,
			`(?m)^output formats \(output \{ formats = \[\.\.\.\] \}; markdown and csv by default\):$`,
			`(?m)^markdown +NAME\.md: `, `(?m)^latex +NAME\.tex: `, `(?m)^plots +plots/: `)},
		{"schemes", []string{`(?m)^plugin reducers \d+\.\d+\.\d+: `, `(?m)^scheme ova: one-vs-all`, `(?m)^scheme ovo: `, `(?m)^scheme ordered: `,
			`(?m)^scheme ecoc: `, `(?m)^scheme none \[needs a multiclass learner\]: `, `(?m)^scheme br \[multi-label data\]: `,
			`(?m)^scheme plst \[multi-label data; needs a regression learner; decodes a fold's test rows in one call\]: `, `(?m)^  param asymmetric \(bool\) default false`}},
		{"decoders", []string{`(?m)^plugin reducers \d+\.\d+\.\d+: decode = \.\.\.$`,
			`(?m)^argmax +ova, none +ova, none$`, `(?m)^hamming +ecoc +ova, ordered, ovo, ecoc$`, `(?m)^vote +ovo +ova, ordered, ovo, ecoc$`,
			`(?m)^loss:exp +ova, ordered, ovo, ecoc$`, `(?m)^sequential +ordered +ordered$`}},
	}
	for _, tt := range tests {
		t.Run(tt.topic, func(t *testing.T) {
			t.Parallel() // its own plugin processes
			stdout, stderr, err := bench(t, "list", tt.topic)
			if err != nil {
				t.Fatalf("list %s: %v\n%s", tt.topic, err, stderr)
			}
			for _, w := range tt.want {
				if !regexp.MustCompile(w).MatchString(stdout) {
					t.Errorf("list %s: no match for %s in:\n%s", tt.topic, w, stdout)
				}
			}
		})
	}
}

// TestFileErrors: an error about a file that cannot be read says why.
func TestFileErrors(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	dataset := func(path string) string {
		return writeExperiment(t, `
experiment "x" { seed = 1 }
dataset "d" { path = "`+path+`" }
learner "logreg" {}
reduction "ova" {}
`)
	}
	type test struct {
		name string
		args []string
		want string // in stderr or the error
	}
	tests := []test{
		{"missing experiment file", []string{"validate", filepath.Join(dir, "nope.hcl")}, `The experiment file "` + filepath.Join(dir, "nope.hcl") + `" cannot be read: no such file or directory.`},
		{"experiment file is a directory", []string{"validate", dir}, `cannot be read: is a directory.`},
		{"experiment file under a file", []string{"run", filepath.Join(notDir, "x.hcl")}, `cannot be read: not a directory.`},
		{"missing data file", []string{"validate", dataset(filepath.Join(dir, "nope.csv"))}, "open " + filepath.Join(dir, "nope.csv") + ": no such file or directory"},
		{"missing results directory", []string{"table", filepath.Join(dir, "results")}, "open " + filepath.Join(dir, "results", "manifest.json") + ": no such file or directory"},
	}
	if os.Geteuid() != 0 { // root reads any file
		secret := filepath.Join(dir, "secret.hcl")
		if err := os.WriteFile(secret, nil, 0o000); err != nil {
			t.Fatal(err)
		}
		tests = append(tests, test{"unreadable experiment file", []string{"validate", secret}, "cannot be read: permission denied."})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, err := bench(t, tt.args...)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(stderr+err.Error(), tt.want) {
				t.Errorf("error %v, stderr:\n%s\nwant %q", err, stderr, tt.want)
			}
		})
	}
}

// TestValidateReportsSyntaxAndContentErrors: validate on a file with one
// syntax error and three content errors prints all four, each with its
// file:line:col, and counts them.
func TestValidateReportsSyntaxAndContentErrors(t *testing.T) {
	exp := writeExperiment(t, `experiment "x" { seed = 1 }
dataset "iris" { path = "%DATA%/iris.csv" }
learner "lr" {
  plugin = = "logreg"
}
learner "svm" { paramz = { C = 1 } }
cv { folds = "ten" }
output { formats = ["markdwn"] }
`)
	_, stderr, err := bench(t, "validate", exp)
	if !errors.Is(err, errReported) {
		t.Fatalf("validate: error %v, want the diagnostics reported; stderr:\n%s", err, stderr)
	}
	var heads []string
	for line := range strings.Lines(stderr) {
		if strings.Contains(line, ": error: ") {
			heads = append(heads, strings.TrimSpace(line))
		}
	}
	want := []string{
		exp + ":4:12: error: Invalid expression",
		exp + ":6:17: error: Unsupported argument",
		exp + ":7:14: error: Incorrect attribute value type",
		exp + ":8:20: error: Unknown output format",
	}
	if !slices.Equal(heads, want) || !strings.HasSuffix(stderr, exp+": 4 error(s)\n") {
		t.Errorf("errors\n%s\nwant\n%s\nstderr:\n%s", strings.Join(heads, "\n"), strings.Join(want, "\n"), stderr)
	}
}

// TestValidateReportsParserAndResolverErrors: a file the parser reads
// whole is resolved against its data and plugins even when the parser
// found errors, so that validate reports both kinds in one pass; what the
// resolver would find in a block with a parser error (dataset "bad" has
// no path, so it cannot load) is not reported.
func TestValidateReportsParserAndResolverErrors(t *testing.T) {
	exp := writeExperiment(t, `experiment "x" { seed = 1 }
dataset "iris" { path = "%DATA%/iris.csv" }
dataset "bad" { pth = "iris.csv" }
learner "nope" {}
learner "logreg" { params = { C = -1 } }
metrics = ["accuracy", "f1_macr"]
output { formats = ["markdwn"] }
`)
	_, stderr, err := bench(t, "validate", exp)
	if !errors.Is(err, errReported) {
		t.Fatalf("validate: error %v, want the diagnostics reported; stderr:\n%s", err, stderr)
	}
	var heads []string
	for line := range strings.Lines(stderr) {
		if strings.Contains(line, "error: ") {
			heads = append(heads, strings.TrimPrefix(strings.TrimSpace(line), exp+":"))
		}
	}
	want := []string{
		"3:17: error: Missing required argument",
		"3:17: error: Unsupported argument",
		"7:20: error: Unknown output format",
		"4:9: error: Unknown plugin",
		"5:35: error: Invalid parameter value",
		"6:24: error: Unknown metric",
	}
	if !slices.Equal(heads, want) || !strings.HasSuffix(stderr, exp+": 6 error(s)\n") {
		t.Errorf("errors\n%s\nwant\n%s\nstderr:\n%s", strings.Join(heads, "\n"), strings.Join(want, "\n"), stderr)
	}
}

// TestValidatePlan: validate --plan lists every cell with its folds and
// fits, and the totals. Iris has K = 3 classes: one-vs-all fits 3 binary
// problems per fold, one-vs-one K(K−1)/2 = 3, asymmetric one-vs-one
// K(K−1) = 6, ordered one-vs-rest K−1 = 2, none one multiclass problem.
// Emotions has 6 labels: binary relevance fits 6, 2BR stacking with 3
// inner folds (3+1)·6 + 6 = 30. With 5 folds × 2 repeats each cell has 10
// folds: iris 10·(3+3+6+2) = 140 binary and 10 multiclass fits, emotions
// 10·(6+30) = 360 binary.
func TestValidatePlan(t *testing.T) {
	exp := writeExperiment(t, `
experiment "plan" { seed = 1 }
dataset "iris" {
  path   = "%DATA%/iris.csv"
  target = "class"
}
dataset "emotions" {
  path          = "%DATA%/emotions.csv.gz"
  labels_prefix = "label_"
}
learner "logreg" {}
reduction "ova" { datasets = ["iris"] }
reduction "ovo" { datasets = ["iris"] }
reduction "ovo_asym" {
  scheme     = "ovo"
  datasets   = ["iris"]
  asymmetric = true
}
reduction "ordered" { datasets = ["iris"] }
reduction "none" { datasets = ["iris"] }
reduction "br" { datasets = ["emotions"] }
reduction "stack" {
  datasets    = ["emotions"]
  inner_folds = 3
}
cv {
  folds   = 5
  repeats = 2
}
metrics = ["accuracy", "hamming_loss"]
`)
	stdout, stderr, err := bench(t, "validate", "--plan", exp)
	if err != nil {
		t.Fatalf("validate --plan: %v\n%s", err, stderr)
	}
	want := []string{
		`(?m)^cell +dataset +pipeline +learner +params +reduction +folds +fits/fold +fits$`,
		`(?m)^0 +iris +none +logreg +– +ova +10 +3 +30$`,
		`(?m)^1 +iris +none +logreg +– +ovo +10 +3 +30$`,
		`(?m)^2 +iris +none +logreg +– +ovo_asym +10 +6 +60$`,
		`(?m)^3 +iris +none +logreg +– +ordered +10 +2 +20$`,
		`(?m)^4 +iris +none +logreg +– +none +10 +1 +10$`,
		`(?m)^5 +emotions +none +logreg +– +br +10 +6 +60$`,
		`(?m)^6 +emotions +none +logreg +– +stack +10 +30 +300$`,
		`(?m)^total: 7 cells, 70 folds, 510 fits \(500 binary, 10 multiclass\)$`,
	}
	for _, w := range want {
		if !regexp.MustCompile(w).MatchString(stdout) {
			t.Errorf("no match for %s in:\n%s", w, stdout)
		}
	}
	// Without --plan, validate prints no plan.
	stdout, _, err = bench(t, "validate", exp)
	if err != nil || strings.Contains(stdout, "total:") || !strings.Contains(stdout, ": 7 cells") {
		t.Errorf("validate without --plan: %v\n%s", err, stdout)
	}
}

// TestRunRecordsPluginDigests: bench run records the SHA-256 of the plugin
// binaries it starts in manifest.json, taken from the binaries themselves,
// and writes nothing to the user's cache directory ($XDG_CACHE_HOME).
func TestRunRecordsPluginDigests(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	exp := irisLDA(t, "digests")
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, exp); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var m struct {
		Plugins []struct{ Name, Path, SHA256 string }
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "manifest.json"))), &m); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range m.Plugins {
		want, err := data.FileSHA256(filepath.Join(pluginsDir, "bench-plugin-"+p.Name))
		if err != nil {
			t.Fatal(err)
		}
		if p.SHA256 != want {
			t.Errorf("manifest records %s's SHA-256 %s, the binary's is %s", p.Name, p.SHA256, want)
		}
		names = append(names, p.Name)
	}
	if slices.Sort(names); !slices.Equal(names, []string{"lda", "reducers"}) {
		t.Fatalf("manifest plugins %+v, want lda and reducers", m.Plugins)
	}
	if entries, err := os.ReadDir(cache); err != nil || len(entries) != 0 {
		t.Errorf("bench run wrote to the user's cache directory: %v, %v", entries, err)
	}
}

// TestFlagOfAnotherCommand: a flag the command does not take is a usage
// error naming the flags it takes and the commands that take that one
// (bench run --plan ran the whole experiment, ignoring --plan, a flag of
// validate); --quiet, which every command takes, is no error.
func TestFlagOfAnotherCommand(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string // "": no usage error
	}{
		{"run --plan", []string{"run", "--plan", "x.hcl"},
			"run: --plan is not a flag of run (it takes -o DIR, -j N, --fresh, --keep-other-bench, --adopt, --dense-budget SIZE, --shard I/N, --shards N, --quiet, --verbose, --plugins DIR, --profile DIR, --no-share); --plan is a flag of bench validate"},
		{"validate --fresh", []string{"validate", "--fresh", "x.hcl"},
			"validate: --fresh is not a flag of validate (it takes --plan, --shards N, --dense-budget SIZE, --plugins DIR, --quiet); --fresh is a flag of bench run"},
		{"table -j", []string{"table", "-j", "2", "d"},
			"table: -j N is not a flag of table (it takes --verbose, --quiet); -j N is a flag of bench run, bench rerun"},
		{"merge --plugins", []string{"merge", "--plugins", "p", "out"},
			"merge: --plugins DIR is not a flag of merge (it takes --verbose, --quiet); --plugins DIR is a flag of bench run, bench validate, bench plugins, bench list, bench rerun, bench submit"},
		{"plugin check --plan", []string{"plugin", "--plan", "check", "p"},
			"plugin: --plan is not a flag of plugin (it takes --quiet); --plan is a flag of bench validate"},
		{"table --quiet", []string{"table", "--quiet", "no-such-dir"}, ""},
		{"validate --quiet", []string{"validate", "--quiet", "no-such.hcl"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			err := run(commandContext(t), tc.args, &stdout, &stderr)
			var u usageError
			isUsage := errors.As(err, &u)
			switch {
			case tc.want == "" && isUsage:
				t.Errorf("usage error %v, want --quiet accepted", err)
			case tc.want != "" && (!isUsage || !strings.HasPrefix(err.Error(), tc.want+"\n")):
				t.Errorf("err %v\nwant the usage error %q", err, tc.want)
			}
		})
	}
}

// TestErrorLineEscapesControls: the error a command ends with is printed
// with the characters a terminal acts on escaped, as an unknown flag
// holding an escape sequence (campaign 20 N07) would otherwise color or
// clear the user's terminal; newlines (the usage lines) are kept.
func TestErrorLineEscapesControls(t *testing.T) {
	_, _, err := bench(t, "run", "--o\x1b[31m", "x.hcl")
	if err == nil {
		t.Fatal("an unknown flag was accepted")
	}
	got := errorLine(err)
	if !strings.HasPrefix(got, `bench: run: flag provided but not defined: -o\x1b[31m`+"\nusage: bench run") {
		t.Errorf("errorLine = %q", got)
	}
	if strings.ContainsAny(got, "\x1b\u009b\r") {
		t.Errorf("errorLine keeps a control character: %q", got)
	}
	if got := errorLine(errors.New("a\u009b2Jb\r\u202e")); got != `bench: a\u009b2Jb\r\u202e` {
		t.Errorf("errorLine = %q", got)
	}
}
