package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/internal/adversarial"
)

var _ = flag.Bool("update", false, "rewrite the want files of the adversarial corpus")

// TestAdversarialExperiments runs the corpus of experiment files
// (testdata/adversarial/experiments) as bench validate does (prepare:
// parse, resolve against the data and the plugins, check the grid): each
// case's first file is the experiment, the others its data, folds and
// test files. What validate prints (every diagnostic with its file:line:col
// and the source line it points at), followed, when the file is accepted,
// by "ok: N cells" and the code matrices' diagnostics, must be the case's want ($PLUGINS stands for the
// plugins directory). One host serves every case,
// so that each plugin process starts once.
func TestAdversarialExperiments(t *testing.T) {
	h := host.New(pluginsDir, nil)
	defer h.Close()
	adversarial.Run(t, "experiments", func(t *testing.T, c *adversarial.Case, dir string) string {
		file := c.WriteFiles(t, dir)
		var stderr bytes.Buffer
		g, _, err := prepare(commandContext(t), h, file, "", nil, engine.ResolveOptions{}, &stderr)
		out := strings.ReplaceAll(strings.TrimRight(stderr.String(), "\n"), pluginsDir, "$PLUGINS")
		if err == nil {
			var codes bytes.Buffer
			writeCodes(&codes, g.Codes)
			out = strings.TrimLeft(out+fmt.Sprintf("\n%s%s", adversarial.Accepted, plural(len(g.Cells), "cell"))+strings.TrimRight(codes.String(), "\n"), "\n")
		}
		return out
	})
}

// TestAdversarialRuns runs the corpus of whole runs
// (testdata/adversarial/runs): inputs that validate accepts and that only
// cross-validation meets (extreme feature values, weights, C), run with
// bench run, whose cv.timeout (set by each case) stops a solver that
// would spin. What the run gives, the case's want, is "ok: ran N cells"
// and the run's error, then each cell in index order with its error or
// its folds' accuracy and ties (test rows decided by the tie-breaking
// rule, of the fold's test rows), then the footnotes of the Markdown
// tables (the lines starting with †, ‡ or §).
func TestAdversarialRuns(t *testing.T) {
	adversarial.Run(t, "runs", func(t *testing.T, c *adversarial.Case, dir string) string {
		file := c.WriteFiles(t, dir)
		out := filepath.Join(dir, "out")
		_, _, err := bench(t, "run", "-o", out, file)
		return runSummary(t, out, err)
	})
}

// runSummary describes a finished run in the results directory out (see
// TestAdversarialRuns); err is bench run's error.
func runSummary(t *testing.T, out string, err error) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(out, "cells", "*.json"))
	sort.Strings(files)
	lines := []string{fmt.Sprintf("%sran %s", adversarial.Accepted, plural(len(files), "cell"))}
	if err != nil {
		lines[0] += "; run: " + err.Error()
	}
	for _, f := range files {
		var c outcome.CellResult
		if err := json.Unmarshal([]byte(readFile(t, f)), &c); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		line := fmt.Sprintf("cell %d %s/%s/%s/%s/%s: ", c.Index, c.Dataset, c.Encoder, c.Learner, c.Params, c.Reduction)
		if c.Failed() {
			lines = append(lines, line+"failed: "+c.Error)
			continue
		}
		var acc, ties []string
		for _, fr := range c.Folds {
			acc = append(acc, strconv.FormatFloat(fr.Metrics["accuracy"], 'f', 4, 64))
			ties = append(ties, fmt.Sprintf("%d/%d", fr.Ties, fr.NTest))
		}
		lines = append(lines, line+"accuracy "+strings.Join(acc, " ")+"; ties "+strings.Join(ties, " "))
	}
	mds, _ := filepath.Glob(filepath.Join(out, "*.md"))
	for _, md := range mds {
		for _, l := range strings.Split(readFile(t, md), "\n") {
			if strings.HasPrefix(l, "†") || strings.HasPrefix(l, "‡") || strings.HasPrefix(l, "§") {
				lines = append(lines, l)
			}
		}
	}
	return strings.Join(lines, "\n")
}
