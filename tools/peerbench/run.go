package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// modulePath identifies the repository root's go.mod.
const modulePath = "github.com/polyclass/polyclass"

// sectionNames returns the parts of the report, in print order.
func sectionNames() []string {
	return []string{"letter", "grid", "diabetes", "tax", "plugintax", "profile", "e2e", "scaling", "libsvm", "share", "tuning", "cores", "irisgrid", "together"}
}

// options are the parsed flags.
type options struct {
	runs         int
	root         string
	dataDir      string // "" = experiments/data, then ../shared/data
	bench        string
	liblinear    string
	python       string
	sections     map[string]bool
	tmp          string
	longRuns     int    // runs of the long whole-run timings (e2e, scaling)
	scaling      []int  // row counts of the scaling section
	scaleRuns    int    // runs of each size in the scaling section
	taxPairs     int    // pairs of runs of the plugin tax section
	tuningRows   int    // training rows of the tuning section (0: all)
	coresRows    int    // rows of each data set of the cores section (0: all)
	togetherRows int    // training rows of the together section (0: all)
	out          string // file the report is written to ("" = stdout only)
	goals        []goalResult
}

// run parses args, runs the selected sections and writes the Markdown report
// to stdout; progress goes to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == taxGridCommand {
		return taxGrid(ctx, args[1:], stdout)
	}
	o, err := parseFlags(args)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "peerbench-")
	if err != nil {
		return fmt.Errorf("creating a temporary directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	o.tmp = tmp

	start := machineNow(ctx, o.root)
	var body bytes.Buffer
	var errs []error
	for _, s := range sectionNames() {
		if !o.sections[s] {
			continue
		}
		if err := ctx.Err(); err != nil {
			// Interrupted: report what was measured so far.
			errs = append(errs, err)
			break
		}
		fmt.Fprintf(stderr, "peerbench: section %s\n", s)
		if err := runSection(ctx, s, o, &body, stderr); err != nil {
			// Report the failure in place and carry on with the rest.
			fmt.Fprintf(&body, "**%s failed:** %v\n\n", s, err)
			errs = append(errs, fmt.Errorf("section %s: %w", s, err))
		}
	}
	var report bytes.Buffer
	writeHeader(&report, o, start, machineNow(ctx, o.root))
	report.Write(body.Bytes())
	md := report.String()
	if _, err := io.WriteString(stdout, md); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	if err := o.save(md); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// parseFlags reads the command line and locates the repository root.
func parseFlags(args []string) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("peerbench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.IntVar(&o.runs, "n", 5, "runs per timing (the median is reported)")
	fs.IntVar(&o.longRuns, "long", 3, "runs of each whole-run timing of the e2e, libsvm, cores and irisgrid sections (the median is reported)")
	sizes := fs.String("scaling", "25000,100000,400000", "row counts of the scaling section")
	fs.IntVar(&o.scaleRuns, "scaling-runs", 3, "runs of each size in the scaling section (the median is reported)")
	fs.IntVar(&o.taxPairs, "tax-pairs", 9, "pairs of runs (plugin processes, linked in) of the plugintax section (the median of their ratios is reported)")
	fs.IntVar(&o.tuningRows, "tuning-rows", 0, "training rows of the tuning section: the first N of letter's (0: all 15000)")
	fs.IntVar(&o.coresRows, "cores-rows", 0, "rows of each data set of the cores section: the first N of letter's and of the 200-class set's (0: all 20000)")
	fs.IntVar(&o.togetherRows, "together-rows", 0, "training rows of the together section: the first N of letter's (0: all 15000)")
	fs.StringVar(&o.out, "o", "", "also write the report to this file")
	fs.StringVar(&o.root, "root", "", "repository root (default: found from the working directory)")
	fs.StringVar(&o.dataDir, "data", "", "data directory (default: experiments/data if it holds the file, else ../shared/data)")
	fs.StringVar(&o.bench, "bench", "", "bench binary (default: ROOT/bin/bench)")
	fs.StringVar(&o.liblinear, "liblinear", "liblinear-train", "liblinear-train binary")
	fs.StringVar(&o.python, "python", "/usr/bin/python3", "python with scikit-learn")
	only := fs.String("only", strings.Join(sectionNames(), ","), "sections to run: "+strings.Join(sectionNames(), ","))
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("peerbench: %w", err)
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("peerbench: unexpected argument %q", fs.Arg(0))
	}
	if o.runs < 1 || o.longRuns < 1 || o.scaleRuns < 1 || o.taxPairs < 1 {
		return nil, errors.New("peerbench: -n, -long, -scaling-runs and -tax-pairs must be at least 1")
	}
	for _, f := range []struct {
		name string
		n    int
	}{{"tuning-rows", o.tuningRows}, {"cores-rows", o.coresRows}, {"together-rows", o.togetherRows}} {
		if f.n < 0 {
			return nil, fmt.Errorf("peerbench: -%s %d: want a number of rows, or 0 for all", f.name, f.n)
		}
	}
	var err error
	if o.scaling, err = parseSizes(*sizes); err != nil {
		return nil, fmt.Errorf("peerbench: %w", err)
	}
	o.sections = map[string]bool{}
	for _, s := range strings.Split(*only, ",") {
		s = strings.TrimSpace(s)
		if !slices.Contains(sectionNames(), s) {
			return nil, fmt.Errorf("peerbench: unknown section %q in -only (want %s)", s, strings.Join(sectionNames(), ","))
		}
		o.sections[s] = true
	}
	if o.root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("finding the repository root: %w", err)
		}
		if o.root, err = findRoot(wd); err != nil {
			return nil, err
		}
	}
	root, err := filepath.Abs(o.root)
	if err != nil {
		return nil, fmt.Errorf("repository root %s: %w", o.root, err)
	}
	o.root = root
	if o.bench == "" {
		o.bench = filepath.Join(o.root, "bin", "bench")
	}
	return o, nil
}

// findRoot walks up from dir to the directory whose go.mod declares
// modulePath.
func findRoot(dir string) (string, error) {
	for d := dir; ; {
		b, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil && bytes.Contains(b, []byte("module "+modulePath+"\n")) {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("no go.mod of %s in %s or above: run peerbench from the repository", modulePath, dir)
		}
		d = parent
	}
}

// sharedDataDir is the default data directory, ../shared/data next to the
// repository; the experiment files in experiments/bench point there.
func (o *options) sharedDataDir() string {
	return filepath.Join(filepath.Dir(o.root), "shared", "data")
}

// dataFile finds a data file: in -data when given, else in
// experiments/data, else in ../shared/data.
func (o *options) dataFile(name string) (string, error) {
	dirs := []string{o.dataDir}
	if o.dataDir == "" {
		dirs = []string{filepath.Join(o.root, "experiments", "data"), o.sharedDataDir()}
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if _, err := os.Stat(p); err == nil {
			return filepath.Abs(p)
		}
	}
	return "", fmt.Errorf("%s not found in %s", name, strings.Join(dirs, " or "))
}

// lookTool resolves a tool given as a name or a path; ok is false when it is
// not installed.
func lookTool(name string) (string, bool) {
	if name == "" {
		return "", false
	}
	p, err := exec.LookPath(name)
	return p, err == nil
}
