package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/metrics"
	"github.com/polyclass/polyclass/framework/report"
	"github.com/polyclass/polyclass/framework/results"
	"github.com/polyclass/polyclass/framework/safetext"
	"github.com/polyclass/polyclass/framework/software"
	"github.com/polyclass/polyclass/internal/regfile"
)

// rerun runs the experiment a results directory records again, with the
// recorded seed, and reports what changed: inputs (experiment file,
// datasets, plugin binaries) and every differing result.
func rerun(ctx context.Context, h *host.Host, o *options, stdout, stderr io.Writer) error {
	dir := o.args[0]
	old, oldFiles, err := loadRecorded(dir)
	if err != nil {
		return err
	}
	oldCells := results.Results(oldFiles)
	if rh := recordedHost(o, old.Plugins, dir, stderr); rh != nil {
		defer closeHost(ctx, rh)
		h = rh
	}
	changed := 0
	note := func(change string) {
		changed++
		fmt.Fprintf(stdout, "changed: %s\n", change)
	}
	change, err := experimentFileChange(old)
	if err != nil {
		return err
	}
	if change != "" {
		note(change)
	}
	g, warns, err := prepare(ctx, h, old.File, &old.Seed, int64(o.denseBudget), stderr)
	if err != nil {
		return err
	}
	printCodeWarnings(stderr, g)
	for _, change := range inputChanges(old, g) {
		note(change)
	}
	out, err := rerunDir(dir, o.out)
	if err != nil {
		return err
	}
	sub := rerunOptions(o, out, old.File)
	if o.out == "" {
		sub.within = dir // DIR/rerun: opened through DIR, never through a link put there
	}
	runErr := runExperiment(ctx, sub, old.File, g, warns, stdout, stderr)
	_, newFiles, err := results.Load(out)
	newCells := results.Results(newFiles)
	if err != nil {
		return fmt.Errorf("rerun: %w (run: %v)", err, runErr)
	}
	diffs := report.Compare(oldCells, newCells, comparedMetrics(old.Metrics))
	return rerunVerdict(stdout, dir, diffs, changed, len(newCells), runErr)
}

// loadRecorded loads the run a results directory holds; a directory of
// shards not merged yet is refused, saying so.
func loadRecorded(dir string) (*results.Manifest, []*results.Cell, error) {
	old, oldFiles, err := results.Load(dir)
	if errors.Is(err, os.ErrNotExist) {
		if n, serr := results.ShardCount(dir); serr == nil && n > 0 {
			return nil, nil, fmt.Errorf("rerun: %s holds shards of a run not merged yet: bench merge %s first (rerun compares a whole run): %w", dir, safetext.Quote(safetext.Path(dir)), err)
		}
	}
	return old, oldFiles, err
}

// recordedHost is the host of the plugins the run used, where it found
// them (a --plugins directory is not on the rerun's command line), or nil
// when --plugins is given or the recorded directories are bench's own.
// dir is the results directory rerun; a recorded directory not searched
// (see recordedPluginDirs) is named on stderr.
func recordedHost(o *options, plugins []results.PluginRecord, dir string, stderr io.Writer) *host.Host {
	if o.set["plugins"] {
		return nil
	}
	dirs, skipped := recordedPluginDirs(plugins, o.pluginsDir, dir)
	for _, s := range skipped {
		fmt.Fprintf(stderr, "rerun: %s\n", s)
	}
	if dirs == o.pluginsDir {
		return nil
	}
	return host.New(dirs, o.pluginLog)
}

// experimentFileChange describes how the recorded experiment file changed
// since the run ("" when its SHA-256 is the one recorded).
func experimentFileChange(old *results.Manifest) (string, error) {
	b, err := regfile.ReadFile(old.File)
	if err != nil {
		return "", fmt.Errorf("rerun: the recorded experiment file: %w", err)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != old.FileSHA256 {
		return fmt.Sprintf("experiment file %s (sha256 %s, recorded %s)", old.File, hex.EncodeToString(sum[:]), old.FileSHA256), nil
	}
	return "", nil
}

// inputChanges describes each dataset and plugin of the grid g whose
// SHA-256 differs from the one the run recorded, and each plugin whose
// runtime changed, in the grid's order.
func inputChanges(old *results.Manifest, g *engine.Grid) []string {
	recorded := map[string]string{}
	for _, d := range old.Datasets {
		recorded["dataset "+d.Name] = d.SHA256
	}
	runtimes := map[string][]software.Component{}
	for _, p := range old.Plugins {
		recorded["plugin "+p.Name] = p.SHA256
		runtimes[p.Name] = p.Runtime
	}
	var changes []string
	for _, d := range g.Datasets {
		if want, ok := recorded["dataset "+d.Config.Name]; ok && want != d.SHA256 {
			changes = append(changes, fmt.Sprintf("dataset %s (%s): sha256 %s, recorded %s", d.Config.Name, d.Config.Path, d.SHA256, want))
		}
	}
	for _, p := range g.Plugins() {
		if want, ok := recorded["plugin "+p.Name]; ok && want != p.SHA256 {
			changes = append(changes, fmt.Sprintf("plugin %s: sha256 %s, recorded %s", p.Name, p.SHA256, want))
		}
		// A manifest from before runtime reports records none.
		if was, ok := runtimes[p.Name]; ok && was != nil {
			if c := software.Changes(was, p.Runtime()); c != nil {
				changes = append(changes, fmt.Sprintf("plugin %s: runtime %s", p.Name, strings.Join(c, ", ")))
			}
		}
	}
	return changes
}

// rerunDir is the results directory of a rerun of dir: out when given,
// else DIR/rerun, an entry of DIR made there and never followed.
func rerunDir(dir, out string) (string, error) {
	if out != "" {
		return out, nil
	}
	out, err := results.Subdir(dir, results.RerunDir)
	if err != nil {
		return "", fmt.Errorf("rerun: %w", err)
	}
	return out, nil
}

// rerunOptions are the options of a rerun's run of file into out: quiet,
// and fresh, since a rerun computes every cell again.
func rerunOptions(o *options, out, file string) *options {
	sub := *o
	sub.out = out
	sub.quiet = true
	sub.fresh = true
	sub.args = []string{file}
	return &sub
}

// comparedMetrics are the metrics of names a rerun compares: timings
// differ from run to run; every other metric must not.
func comparedMetrics(names []string) []string {
	var compared []string
	for _, name := range names {
		if m, err := metrics.Lookup(name); err == nil && !m.Kind.Has(metrics.Timing) {
			compared = append(compared, name)
		}
	}
	return compared
}

// rerunVerdict writes the differences of a rerun of dir and its verdict:
// an error when a result or an input (changed of them) differs, else the
// run's own error, if any, after the line saying the results of its
// cells are identical.
func rerunVerdict(stdout io.Writer, dir string, diffs []report.Difference, changed, cells int, runErr error) error {
	if len(diffs) > 0 {
		if err := report.WriteDifferences(stdout, diffs); err != nil {
			return err
		}
	}
	if len(diffs) > 0 || changed > 0 {
		return fmt.Errorf("rerun of %s: %d result difference(s), %d changed input(s)", dir, len(diffs), changed)
	}
	fmt.Fprintf(stdout, "rerun of %s: identical results (%d cells; timings not compared)\n", dir, cells)
	return runErr
}

// recordedPluginDirs is the plugins directory list of a rerun without
// --plugins: the directories of the plugin binaries the run recorded that
// still exist, in the order first recorded, then dflt (bench's own
// directory). A results directory is data, perhaps from elsewhere, so a
// recorded binary is trusted only as far as bench can check it: its
// directory is searched only when its path is absolute, lies outside
// the results directory resultsDir (a binary shipped with the results is
// never run) and its file still has the SHA-256 the run recorded (a
// manifest edited to name another program is not followed). skipped
// says, for each recorded binary whose directory exists but fails a
// check, why it is not searched.
func recordedPluginDirs(plugins []results.PluginRecord, dflt, resultsDir string) (dirs string, skipped []string) {
	var list []string
	for _, p := range plugins {
		d := filepath.Dir(p.Path)
		if p.Path == "" || slices.Contains(list, d) || d == dflt {
			continue
		}
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			continue
		}
		if why := untrustedPlugin(p, resultsDir); why != "" {
			skipped = append(skipped, fmt.Sprintf("not searching %s for plugins: the run recorded plugin %s as %s, %s; name the plugins directory with --plugins to use it",
				safetext.Quote(safetext.Path(d)), safetext.Quote(p.Name), safetext.Quote(safetext.Path(p.Path)), why))
			continue
		}
		list = append(list, d)
	}
	return strings.Join(append(list, dflt), string(os.PathListSeparator)), skipped
}

// untrustedPlugin says why the plugin binary a manifest records (see
// recordedPluginDirs) may not be run from where it records it, "" when
// it may.
func untrustedPlugin(p results.PluginRecord, resultsDir string) string {
	switch {
	case !filepath.IsAbs(p.Path):
		return "a relative path (bench records absolute ones)"
	case inResults(p.Path, resultsDir):
		return "inside the results directory " + safetext.Quote(safetext.Path(resultsDir)) + " (bench runs no program that comes with results)"
	}
	sum, err := fileSHA256(p.Path)
	switch {
	case err != nil:
		return fmt.Sprintf("which cannot be read (%v)", err)
	case p.SHA256 == "" || sum != p.SHA256:
		return fmt.Sprintf("but that file's sha256 is %.12s…, not the %.12s… recorded", sum, p.SHA256)
	}
	return ""
}

// inResults reports whether path lies inside the results directory dir,
// as written or with their links resolved.
func inResults(path, dir string) bool {
	if results.Inside(path, dir) {
		return true
	}
	rp, err1 := filepath.EvalSymlinks(filepath.Dir(path))
	rd, err2 := filepath.EvalSymlinks(dir)
	return err1 == nil && err2 == nil && results.Inside(rp, rd)
}

// fileSHA256 is the hex SHA-256 of the regular file at path.
func fileSHA256(path string) (string, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// closeHost stops h's plugins: at once when ctx is done (interrupted),
// else with their grace.
func closeHost(ctx context.Context, h *host.Host) {
	if ctx.Err() != nil {
		h.Abort()
		return
	}
	h.Close()
}
