package docs

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Runner generates parts by running experiments with a bench binary. Each
// experiment runs once; later parts reuse its report.
type Runner struct {
	// Ctx bounds every run.
	Ctx context.Context
	// Bench is the bench binary; its plugins are found beside it.
	Bench string
	// Root is the repository root that spec files are relative to.
	Root string
	// Out is a scratch directory for the results.
	Out string

	reports map[string]string // experiment file → NAME.md
}

// Generate implements Generator.
func (r *Runner) Generate(s Spec) (string, error) {
	md, err := r.report(s.File)
	if err != nil {
		return "", err
	}
	return Extract(md, s.Heading, s.Kind == "table")
}

// report runs an experiment file once and returns its Markdown report.
func (r *Runner) report(file string) (string, error) {
	if md, ok := r.reports[file]; ok {
		return md, nil
	}
	name := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	out := filepath.Join(r.Out, name)
	cmd := exec.CommandContext(r.Ctx, r.Bench, "run", "--quiet", "-o", out, filepath.Join(r.Root, file))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("bench run %s: %w\n%s", file, err, stderr.String())
	}
	mds, _ := filepath.Glob(filepath.Join(out, "*.md"))
	if len(mds) != 1 {
		return "", fmt.Errorf("bench run %s wrote %d Markdown reports, want 1", file, len(mds))
	}
	b, err := os.ReadFile(mds[0])
	if err != nil {
		return "", fmt.Errorf("report of %s: %w", file, err)
	}
	if r.reports == nil {
		r.reports = map[string]string{}
	}
	r.reports[file] = string(b)
	return string(b), nil
}
