package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/polyclass/polyclass/framework/cellspec"
	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/report"
	"github.com/polyclass/polyclass/framework/results"
	"github.com/polyclass/polyclass/framework/software"
)

// newManifest records the run's inputs and what its tables show.
func newManifest(file string, g *engine.Grid, o *options) *results.Manifest {
	exp := g.Experiment
	// An absolute path, so that bench rerun works from any directory.
	if abs, err := filepath.Abs(file); err == nil {
		file = abs
	}
	m := &results.Manifest{
		Experiment: exp.Name, File: file, Seed: exp.Seed, Args: append([]string{"bench", "run"}, o.args...),
		Workers: o.jobs, GoVersion: runtime.Version(),
		Metrics: g.Metrics, Formats: exp.Output.Formats, Baseline: exp.Output.Baseline, Alpha: exp.Output.Alpha,
		RankTimings: exp.Output.RankTimings, Predictions: exp.Output.Predictions, ConfusionRows: exp.Output.Confusion,
		Rope: exp.Output.Rope, BayesPairs: exp.Output.BayesPairs, CV: results.NewCVRecord(exp.CV),
	}
	build := benchBuild()
	m.Bench = &build
	// The bytes parsed, read once: the path may hold another file by now
	// (a link swapped to a secret, a named pipe).
	if exp.Source != nil {
		sum := sha256.Sum256(exp.Source)
		m.FileSHA256 = hex.EncodeToString(sum[:])
		m.Source = string(exp.Source)
	}
	m.Rows = g.Setup()
	if bi, ok := debug.ReadBuildInfo(); ok {
		m.GoVersion = bi.GoVersion
	}
	for _, d := range g.Datasets {
		m.Datasets = append(m.Datasets, newDatasetRecord(d, filepath.Dir(file)))
	}
	for _, p := range g.Plugins() {
		// The plugin's runtime report, then what the parameters of its
		// learners add (the package an estimator comes from).
		rt := p.Runtime()
		for _, l := range g.Learners {
			if l.Plugin == p {
				rt = software.Union(slices.Clone(rt), l.Runtime)
			}
		}
		m.Plugins = append(m.Plugins, results.PluginRecord{Name: p.Name, Version: p.Version(), Path: p.Path, SHA256: p.SHA256, Runtime: rt})
	}
	return m
}

// newDatasetRecord records a loaded dataset: its files, digest and shape
// (rows, feature columns by kind, rows per class or label). The files are
// recorded relative to dir, the experiment file's directory, as the file
// names them: a run of "exp.hcl" and one of "/abs/exp.hcl" (a cluster
// task's) record the same paths, so their reports are byte-identical.
func newDatasetRecord(d *engine.Dataset, dir string) results.DatasetRecord {
	r := results.DatasetRecord{Name: d.Config.Name, Path: relativeTo(dir, d.Config.Path), SHA256: d.SHA256,
		TestPath: relativeTo(dir, d.Config.TestPath), Rows: d.Table.NumRows, MultiLabel: d.MultiLabel}
	if f := d.Features; f != nil {
		r.NumericFeatures, r.CategoricalFeatures = len(f.Num), len(f.Cat)
		for _, b := range f.Sparse {
			r.NumericFeatures += b.M.Cols
		}
	}
	counts := make([]int, len(d.Classes))
	switch {
	case d.LabelMatrix != nil:
		rows, cols := d.LabelMatrix.Dims()
		for i := range rows {
			for j := range min(cols, len(counts)) {
				if d.LabelMatrix.At(i, j) != 0 {
					counts[j]++
				}
			}
		}
	default:
		for _, k := range d.Labels {
			if k >= 0 && k < len(counts) {
				counts[k]++
			}
		}
	}
	for k, name := range d.Classes {
		r.Classes = append(r.Classes, results.ClassCount{Name: name, Count: counts[k]})
	}
	return r
}

// relativeTo gives path relative to dir when both are on the same
// filesystem tree, else path unchanged ("" stays "").
func relativeTo(dir, path string) string {
	if path == "" {
		return ""
	}
	ad, err1 := filepath.Abs(dir)
	ap, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return path
	}
	rel, err := filepath.Rel(ad, ap)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}

// renderer returns what makes the outputs of a run (package report's
// tables, figures and predictions files) from its manifest and cells:
// results.Renderer. A figure that cannot be drawn is a warning on notes.
func renderer(notes io.Writer) results.Renderer {
	return func(m *results.Manifest, cells []*results.Cell) ([]results.Output, error) {
		return render(m, cells, notes)
	}
}

// render makes the outputs of a run from its manifest and cells, a
// warning on notes for each figure that cannot be drawn (renderer).
func render(m *results.Manifest, cells []*results.Cell, notes io.Writer) ([]results.Output, error) {
	spec := reportSpec(m, len(cells))
	spec.ComputedBy = computedBy(cells)
	spec.Notes = notes
	files, err := report.Files(spec, results.Results(cells))
	if err != nil {
		return nil, err
	}
	out := make([]results.Output, len(files))
	for i, f := range files {
		out[i] = results.Output{Name: f.Name, Write: f.Write}
	}
	return out, nil
}

// reportSpec returns what the tables of the run m records show, with
// finished of its cells done: the tables of a partial run say so ("12 of
// 40 cells finished (run status: interrupted)").
func reportSpec(m *results.Manifest, finished int) report.Spec {
	return report.Spec{Experiment: m.Experiment, Metrics: m.Metrics, Formats: m.Formats, Baseline: m.Baseline,
		Alpha: m.Alpha, RankTimings: m.RankTimings, Predictions: m.Predictions, ConfusionRows: m.ConfusionRows,
		Partial: m.Partial(finished), Setup: reportSetup(m, finished), Rope: m.Rope, BayesPairs: m.BayesPairs, Seed: m.Seed, Warnings: m.Warnings}
}

// reportSetup returns the set-up section of the report: what the
// manifest records of the run's inputs.
func reportSetup(m *results.Manifest, finished int) *report.Setup {
	s := &report.Setup{File: m.File, FileSHA256: m.FileSHA256, Seed: m.Seed, GoVersion: m.GoVersion,
		Status: string(m.Status), Cells: m.Cells, Finished: finished, Failed: m.FailedCells, Rows: m.Rows, Source: m.Source}
	if cv := m.CV; cv != nil {
		s.CV = report.CVInfo{Folds: cv.Folds, Repeats: cv.Repeats, Stratified: cv.Stratified, Iterative: cv.Iterative,
			Holdout: cv.Holdout, FoldsFile: cv.FoldsFile}
	}
	for _, d := range m.Datasets {
		info := report.DatasetInfo{Name: d.Name, Path: d.Path, SHA256: d.SHA256, TestPath: d.TestPath,
			Rows: d.Rows, Numeric: d.NumericFeatures, Categorical: d.CategoricalFeatures, MultiLabel: d.MultiLabel}
		for _, c := range d.Classes {
			info.Classes = append(info.Classes, report.ClassCount{Name: c.Name, Count: c.Count})
		}
		s.Datasets = append(s.Datasets, info)
	}
	for _, p := range m.Plugins {
		s.Plugins = append(s.Plugins, report.PluginInfo{Name: p.Name, Version: p.Version, SHA256: p.SHA256})
	}
	return s
}

// computedBy names the programs that computed cells, from their specs,
// with the number of cells of each: the builds of bench, then the plugins
// (name, version, binary digest, runtime).
func computedBy(cells []*results.Cell) []string {
	benches, plugins := map[string]int{}, map[string]int{}
	unknown := 0
	for _, c := range cells {
		if c.Spec == nil {
			unknown++
			continue
		}
		benches["bench "+c.Spec.Bench.String()]++
		seen := map[string]bool{}
		for _, p := range []cellspec.Plugin{c.Spec.Learner.Plugin, c.Spec.Reduction.Plugin} {
			if line := pluginLine(p); !seen[line] {
				seen[line] = true
				plugins[line]++
			}
		}
	}
	var out []string
	for _, set := range []map[string]int{benches, plugins} {
		for _, line := range slices.Sorted(maps.Keys(set)) {
			out = append(out, fmt.Sprintf("%s: %s", line, plural(set[line], "cell")))
		}
	}
	if unknown > 0 {
		out = append(out, fmt.Sprintf("a bench that did not record what computed them: %s", plural(unknown, "cell")))
	}
	return out
}

// pluginLine names a plugin program: "plugin sklearn 0.1.0 sha256
// 3f2a9c1d0e4b… (python 3.11.2, scikit-learn 1.2.1)". The Go modules of a
// Go plugin's runtime (names with a slash) are left out: its binary's
// digest fixes them.
func pluginLine(p cellspec.Plugin) string {
	line := "plugin " + p.Name
	if p.Version != "" {
		line += " " + p.Version
	}
	if len(p.SHA256) > 12 {
		line += " sha256 " + p.SHA256[:12] + "…"
	}
	if len(p.Runtime) > 0 {
		var rt []string
		for _, k := range slices.Sorted(maps.Keys(p.Runtime)) {
			if !strings.Contains(k, "/") {
				rt = append(rt, k+" "+p.Runtime[k])
			}
		}
		if len(rt) > 0 {
			line += " (" + strings.Join(rt, ", ") + ")"
		}
	}
	return line
}

// plural is "1 cell", "2 cells".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// nOf is "3 of 4 cells", "1 of 1 cell": n of total nouns, the noun
// agreeing with total.
func nOf(n, total int, noun string) string {
	return fmt.Sprintf("%d of %s", n, plural(total, noun))
}
