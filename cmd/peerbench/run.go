package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// modulePath identifies the repository root's go.mod.
const modulePath = "github.com/polyclass/polyclass"

// sectionNames returns the parts of the report, in print order.
func sectionNames() []string { return []string{"letter", "grid", "diabetes", "tax", "plugintax"} }

// options are the parsed flags.
type options struct {
	runs      int
	root      string
	dataDir   string // "" = experiments/data, then ../shared/data
	bench     string
	liblinear string
	python    string
	sections  map[string]bool
	tmp       string
}

// run parses args, runs the selected sections and writes the Markdown report
// to stdout; progress goes to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
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

	w := bufio.NewWriter(stdout)
	defer w.Flush()
	fmt.Fprintf(w, "<!-- peerbench: %s, %s/%s, %d CPUs, GOMAXPROCS %d, %s -->\n\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), time.Now().UTC().Format("2006-01-02"))
	var errs []error
	for _, s := range sectionNames() {
		if !o.sections[s] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		var err error
		switch s {
		case "letter":
			err = letterSection(ctx, o, w, stderr)
		case "grid":
			err = gridSection(ctx, o, w, stderr)
		case "diabetes":
			err = diabetesSection(ctx, o, w, stderr)
		case "tax":
			err = taxSection(ctx, o, w, stderr)
		case "plugintax":
			err = plugintaxSection(ctx, o, w, stderr)
		}
		if err != nil {
			// Report the failure in place and carry on with the rest.
			fmt.Fprintf(w, "**%s failed:** %v\n\n", s, err)
			errs = append(errs, fmt.Errorf("section %s: %w", s, err))
		}
		if err := w.Flush(); err != nil {
			return fmt.Errorf("writing the report: %w", err)
		}
	}
	return errors.Join(errs...)
}

// parseFlags reads the command line and locates the repository root.
func parseFlags(args []string) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("peerbench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.IntVar(&o.runs, "n", 5, "runs per timing (the median is reported)")
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
	if o.runs < 1 {
		return nil, errors.New("peerbench: -n must be at least 1")
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
