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
	old, oldFiles, err := results.Load(dir)
	if errors.Is(err, os.ErrNotExist) {
		if n, serr := results.ShardCount(dir); serr == nil && n > 0 {
			return fmt.Errorf("rerun: %s holds shards of a run not merged yet: bench merge %s first (rerun compares a whole run): %w", dir, safetext.Quote(safetext.Path(dir)), err)
		}
	}
	if err != nil {
		return err
	}
	oldCells := results.Results(oldFiles)
	if !o.set["plugins"] {
		// The plugins the run used, where it found them: a --plugins
		// directory is not on the rerun's command line.
		if dirs := recordedPluginDirs(old.Plugins, o.pluginsDir); dirs != o.pluginsDir {
			rh := host.New(dirs, o.pluginLog)
			defer closeHost(ctx, rh)
			h = rh
		}
	}
	changed := 0
	note := func(format string, args ...any) {
		changed++
		fmt.Fprintf(stdout, "changed: "+format+"\n", args...)
	}
	if b, err := regfile.ReadFile(old.File); err != nil {
		return fmt.Errorf("rerun: the recorded experiment file: %w", err)
	} else if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != old.FileSHA256 {
		note("experiment file %s (sha256 %s, recorded %s)", old.File, hex.EncodeToString(sum[:]), old.FileSHA256)
	}
	g, warns, err := prepare(ctx, h, old.File, &old.Seed, int64(o.denseBudget), stderr)
	if err != nil {
		return err
	}
	printCodeWarnings(stderr, g)
	recorded := map[string]string{}
	for _, d := range old.Datasets {
		recorded["dataset "+d.Name] = d.SHA256
	}
	runtimes := map[string][]software.Component{}
	for _, p := range old.Plugins {
		recorded["plugin "+p.Name] = p.SHA256
		runtimes[p.Name] = p.Runtime
	}
	for _, d := range g.Datasets {
		if want, ok := recorded["dataset "+d.Config.Name]; ok && want != d.SHA256 {
			note("dataset %s (%s): sha256 %s, recorded %s", d.Config.Name, d.Config.Path, d.SHA256, want)
		}
	}
	for _, p := range g.Plugins() {
		if want, ok := recorded["plugin "+p.Name]; ok && want != p.SHA256 {
			note("plugin %s: sha256 %s, recorded %s", p.Name, p.SHA256, want)
		}
		// A manifest from before runtime reports records none.
		if was, ok := runtimes[p.Name]; ok && was != nil {
			if changes := software.Changes(was, p.Runtime()); changes != nil {
				note("plugin %s: runtime %s", p.Name, strings.Join(changes, ", "))
			}
		}
	}
	out := o.out
	if out == "" {
		// DIR/rerun is an entry of DIR: made there, never followed.
		if out, err = results.Subdir(dir, results.RerunDir); err != nil {
			return fmt.Errorf("rerun: %w", err)
		}
	}
	sub := *o
	sub.out = out
	sub.quiet = true
	sub.fresh = true // a rerun computes every cell again
	sub.args = []string{old.File}
	runErr := runExperiment(ctx, &sub, old.File, g, warns, stdout, stderr)
	_, newFiles, err := results.Load(out)
	newCells := results.Results(newFiles)
	if err != nil {
		return fmt.Errorf("rerun: %w (run: %v)", err, runErr)
	}
	// Timings differ from run to run; every other metric must not.
	var compared []string
	for _, name := range old.Metrics {
		if m, err := metrics.Lookup(name); err == nil && !m.Kind.Has(metrics.Timing) {
			compared = append(compared, name)
		}
	}
	diffs := report.Compare(oldCells, newCells, compared)
	if len(diffs) > 0 {
		if err := report.WriteDifferences(stdout, diffs); err != nil {
			return err
		}
	}
	if len(diffs) > 0 || changed > 0 {
		return fmt.Errorf("rerun of %s: %d result difference(s), %d changed input(s)", dir, len(diffs), changed)
	}
	fmt.Fprintf(stdout, "rerun of %s: identical results (%d cells; timings not compared)\n", dir, len(newCells))
	return runErr
}

// recordedPluginDirs is the plugins directory list of a rerun without
// --plugins: the directories of the plugin binaries the run recorded that
// still exist, in the order first recorded, then dflt (bench's own
// directory).
func recordedPluginDirs(plugins []results.PluginRecord, dflt string) string {
	var dirs []string
	for _, p := range plugins {
		d := filepath.Dir(p.Path)
		if p.Path == "" || slices.Contains(dirs, d) || d == dflt {
			continue
		}
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			dirs = append(dirs, d)
		}
	}
	return strings.Join(append(dirs, dflt), string(os.PathListSeparator))
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
