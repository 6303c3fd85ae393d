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
	"github.com/polyclass/polyclass/framework/outcome"
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
	if err := checkRerunOut(dir, o.out); err != nil {
		return err
	}
	old, oldFiles, held, err := loadRecorded(dir)
	if err != nil {
		return err
	}
	defer held.Release()
	oldCells := results.Results(oldFiles)
	partial := recordedPartial(old, len(oldFiles))
	if partial != "" {
		fmt.Fprintln(stdout, partial)
	}
	if rh := rerunHost(o); rh != nil {
		defer closeHost(ctx, rh)
		h = rh
	}
	if err := checkRecordedPlugins(h, old.Plugins, dir, givenPlugins(o)); err != nil {
		return err
	}
	changed := 0
	note := func(change string) {
		changed++
		fmt.Fprintf(stdout, "changed: %s\n", change)
	}
	if err := checkRecordedFile(dir, old); err != nil {
		return err
	}
	g, warns, err := prepare(ctx, h, old.File, old.FileSHA256, &old.Seed, engine.ResolveOptions{DenseBudget: int64(o.denseBudget), FailUnstarted: true}, stderr)
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
	if partial != "" {
		newCells = finishedIn(newCells, oldCells)
	}
	diffs := report.Compare(oldCells, newCells, comparedMetrics(old.Metrics))
	return rerunVerdict(stdout, dir, diffs, changed, len(newCells), runErr)
}

// loadRecorded loads the run a results directory holds, holding the
// directory (results.Hold) until the caller releases it: a directory a
// bench run is writing into is refused, as bench table refuses it, and a
// directory of shards not merged yet is refused, saying so. A manifest
// that still says "running" once the directory is held records a run
// that is gone: it is returned as interrupted.
func loadRecorded(dir string) (*results.Manifest, []*results.Cell, *results.Held, error) {
	held, err := results.Hold(dir)
	if errors.Is(err, os.ErrNotExist) {
		if n, serr := results.ShardCount(dir); serr == nil && n > 0 {
			return nil, nil, nil, fmt.Errorf("rerun: %s holds shards of a run not merged yet: bench merge %s first (rerun compares a whole run): %w", dir, safetext.Quote(safetext.Path(dir)), err)
		}
	}
	if err != nil {
		return nil, nil, nil, err
	}
	old, oldFiles, err := results.Load(dir)
	if err != nil {
		held.Release()
		return nil, nil, nil, err
	}
	if old.Status == results.StatusRunning {
		old.Status = results.StatusInterrupted
	}
	return old, oldFiles, held, nil
}

// recordedPartial says, for a recorded run that finished fewer than all
// of its cells (finished of them), what it is and that the cells it never
// finished are not compared; "" when it finished every cell.
func recordedPartial(m *results.Manifest, finished int) string {
	if finished >= m.Cells {
		return ""
	}
	how := "is " + string(m.Status)
	switch m.Status {
	case results.StatusFailed:
		how = "failed"
	case results.StatusComplete:
		how = "is partial"
	}
	return fmt.Sprintf("the recorded run %s: %s; cells it never finished are not compared", how, nOf(finished, m.Cells, "cell"))
}

// finishedIn is the cells of cs that recorded also holds (by cell key),
// in cs's order: a rerun of a partial run compares those alone.
func finishedIn(cs, recorded []*outcome.CellResult) []*outcome.CellResult {
	keys := make(map[string]bool, len(recorded))
	for _, c := range recorded {
		keys[c.Key()] = true
	}
	var out []*outcome.CellResult
	for _, c := range cs {
		if keys[c.Key()] {
			out = append(out, c)
		}
	}
	return out
}

// rerunHost is the host of a rerun's plugins when it is not h: with
// --plugins, its directories then bench's own (a plugin the run found in
// bench's directory is found again); nil without --plugins. A recorded
// plugin directory is never searched on the manifest's word (see
// checkRecordedPlugins).
func rerunHost(o *options) *host.Host {
	own := ownPluginsDir()
	if !o.set["plugins"] || own == "" || slices.Contains(o.plugins, own) {
		return nil
	}
	return host.NewDirs(append(slices.Clone(o.plugins), own), o.pluginLog)
}

// ownPluginsDir is bench's own plugins directory (its executable's), ""
// when it cannot be told.
func ownPluginsDir() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return filepath.Dir(exe)
}

// givenPlugins is the directories of the --plugins given now, nil when
// none is.
func givenPlugins(o *options) []string {
	if !o.set["plugins"] {
		return nil
	}
	return o.plugins
}

// checkRecordedFile refuses, before anything reads it as an experiment,
// the experiment file the manifest of dir records unless it is a regular
// file with the recorded SHA-256: a manifest is anyone's to edit, and a
// file it names is parsed, its lines quoted in the diagnostics, only when
// it is the file the run read (else a manifest naming /etc/shadow would
// print its lines). The digests are cut to 12 digits, as the plugins'
// are: enough to tell them apart, and no more of another file's. A file
// edited since the run is not the run's experiment: bench run runs it.
func checkRecordedFile(dir string, old *results.Manifest) error {
	manifest := filepath.Join(dir, results.ManifestFile)
	if err := safetext.CheckVisible(old.File); err != nil {
		return fmt.Errorf("rerun: %s records an experiment file %s that %w: not a path bench records", manifest, safetext.Show(old.File), err)
	}
	file := safetext.Quote(old.File)
	if old.FileSHA256 == "" {
		return fmt.Errorf("rerun: %s records the experiment file %s without its sha256: not a manifest bench wrote", manifest, file)
	}
	sum, err := fileSHA256(old.File)
	if err != nil {
		return fmt.Errorf("rerun: %s records the experiment file %s: %w", manifest, file, err)
	}
	if sum != old.FileSHA256 {
		return fmt.Errorf("rerun: %s records the experiment file %s with sha256 %s…; %s now has sha256 %s…: not the recorded experiment file (edited since the run, or the manifest edited); to run it as it is now: bench run -o NEWDIR %s",
			manifest, file, shortDigest(old.FileSHA256), file, shortDigest(sum), safetext.Quote(safetext.Path(old.File)))
	}
	return nil
}

// shortDigest is the first 12 hex digits of a SHA-256 (all of a shorter
// string).
func shortDigest(sum string) string { return sum[:min(len(sum), 12)] }

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
// else DIR/rerun, an entry of DIR made there and never followed. An out
// that is dir itself (by name, or the same directory by another name) is
// refused: the rerun's run would move the recorded results aside, as
// --fresh does, and compare the run with itself.
func rerunDir(dir, out string) (string, error) {
	if out != "" {
		return out, checkRerunOut(dir, out)
	}
	out, err := results.Subdir(dir, results.RerunDir)
	if err != nil {
		return "", fmt.Errorf("rerun: %w", err)
	}
	return out, nil
}

// rerunFreshReason is why a rerun's run moves the files of an earlier
// rerun aside, in its notes.
const rerunFreshReason = "a rerun computes every cell again (the earlier rerun's files are kept there)"

// rerunOptions are the options of a rerun's run of file into out: quiet,
// and fresh, since a rerun computes every cell again.
func rerunOptions(o *options, out, file string) *options {
	sub := *o
	sub.out = out
	sub.quiet = true
	sub.fresh = true
	sub.freshReason = rerunFreshReason
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
	fmt.Fprintf(stdout, "rerun of %s: identical results (%s; timings not compared)\n", dir, plural(cells, "cell"))
	return runErr
}

// checkRecordedPlugins checks, before anything starts, each plugin the
// run in resultsDir recorded against the binary of that name h finds in
// the directories searched now (bench's own, and --plugins given). A
// results directory is data, perhaps from elsewhere, and its manifest
// anyone's to edit, so the directory it records for a binary is never
// searched on its word: when h has no binary of the name, or one with
// another digest while the recorded file still has the recorded one, the
// rerun fails, naming the plugin, the recorded directory and the command
// that searches it (bench rerun --plugins DIR RESULTS), for the user to
// type if they trust it. A binary that resolves (links followed) into
// resultsDir is refused: bench runs no program that comes with results.
// A binary found with another digest and no recorded file that has the
// recorded one is run: the rerun reports the change (inputChanges).
// given is the directories of the --plugins given now, nil for none.
func checkRecordedPlugins(h *host.Host, plugins []results.PluginRecord, resultsDir string, given []string) error {
	bins, err := h.Binaries()
	if err != nil {
		return fmt.Errorf("rerun: %w", err)
	}
	found := map[string]string{}
	for _, b := range bins {
		found[b.Name] = b.Path
	}
	var problems, trust []string
	for _, p := range plugins {
		if p.Name == "" {
			continue
		}
		problem, dir := checkRecordedPlugin(p, found[p.Name], h.Dir(), resultsDir)
		if problem != "" {
			problems = append(problems, problem)
		}
		if dir != "" && !slices.Contains(trust, dir) {
			trust = append(trust, dir)
		}
	}
	if len(problems) == 0 {
		return nil
	}
	msg := "rerun: " + strings.Join(problems, "\nrerun: ")
	if len(trust) > 0 {
		dirs := append(slices.Clone(given), trust...)
		msg += fmt.Sprintf("\nrerun: a results directory's manifest is not trusted to name programs to run; if you trust %s, say so: ", listDirs(trust))
		if list, err := host.JoinDirs(dirs); err == nil {
			msg += fmt.Sprintf("bench rerun --plugins %s %s", safetext.Quote(safetext.Path(list)), safetext.Quote(safetext.Path(resultsDir)))
		} else {
			msg += fmt.Sprintf("bench rerun --plugins names a list of directories separated by %q, and %v; move or link the directory to a path without it", string(os.PathListSeparator), err)
		}
	}
	return errors.New(msg)
}

// listDirs quotes dirs for a message.
func listDirs(dirs []string) string {
	q := make([]string, len(dirs))
	for i, d := range dirs {
		q[i] = safetext.Quote(safetext.Path(d))
	}
	return strings.Join(q, " and ")
}

// checkRecordedPlugin is checkRecordedPlugins for the recorded plugin p,
// whose binary in the directories searched (searched) is at path ("" for
// none): what is wrong ("" when nothing is), and the recorded directory
// to suggest ("" for none).
func checkRecordedPlugin(p results.PluginRecord, path, searched, resultsDir string) (problem, suggest string) {
	name := safetext.Quote(p.Name)
	if path != "" {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return fmt.Sprintf("plugin %s: %v", name, err), ""
		}
		if inResults(real, resultsDir) {
			return fmt.Sprintf("plugin %s: %s resolves to %s, inside the results directory %s: bench runs no program that comes with results",
				name, safetext.Quote(path), safetext.Quote(real), safetext.Quote(resultsDir)), ""
		}
		sum, err := fileSHA256(real)
		if err != nil {
			return fmt.Sprintf("plugin %s: %v", name, err), ""
		}
		if p.SHA256 == "" || sum == p.SHA256 || recordedElsewhere(p, path, resultsDir) != "" {
			return "", "" // the rerun reports a changed digest
		}
		return fmt.Sprintf("plugin %s: %s has sha256 %.12s…, not the %.12s… the run recorded; the manifest records the plugin as %s, which has it, in a directory not searched",
			name, safetext.Quote(path), sum, p.SHA256, safetext.Quote(p.Path)), filepath.Dir(p.Path)
	}
	if why := recordedElsewhere(p, "", resultsDir); why != "" {
		return fmt.Sprintf("plugin %s: not found in %s; the manifest records it as %s, %s", name, safetext.Quote(searched), safetext.Quote(p.Path), why), ""
	}
	return fmt.Sprintf("plugin %s: not found in %s; the manifest records it as %s, in a directory not searched", name, safetext.Quote(searched), safetext.Quote(p.Path)), filepath.Dir(p.Path)
}

// recordedElsewhere says why the binary the manifest records for p may not
// be offered to the user instead of the one at found ("" for none):
// "" when it is another file, absolute, named as a plugin binary of p's
// name, outside resultsDir with its links resolved, and has the recorded
// digest.
func recordedElsewhere(p results.PluginRecord, found, resultsDir string) string {
	if !filepath.IsAbs(p.Path) {
		return "a relative path (bench records absolute ones)"
	}
	if base := strings.TrimSuffix(filepath.Base(p.Path), ".exe"); base != host.BinaryPrefix+p.Name {
		// Not read, not even for its digest: the manifest may name any
		// file (/etc/shadow).
		return "which is not named " + host.BinaryPrefix + p.Name + " (bench records plugin binaries only)"
	}
	real, err := filepath.EvalSymlinks(p.Path)
	switch {
	case err != nil:
		return fmt.Sprintf("which cannot be read (%v)", err)
	case inResults(real, resultsDir):
		return fmt.Sprintf("which resolves to %s, inside the results directory %s: bench runs no program that comes with results", safetext.Quote(real), safetext.Quote(resultsDir))
	case found != "" && sameFile(real, found):
		return "the file found"
	}
	sum, err := fileSHA256(real)
	switch {
	case err != nil:
		return fmt.Sprintf("which cannot be read (%v)", err)
	case p.SHA256 == "" || sum != p.SHA256:
		return fmt.Sprintf("whose sha256 is %.12s…, not the %.12s… recorded", sum, p.SHA256)
	}
	return ""
}

// checkRerunOut refuses the -o out of a rerun of dir that names dir
// itself (see rerunDir); nil for any other out, and for none.
func checkRerunOut(dir, out string) error {
	if out == "" || !sameDir(dir, out) {
		return nil
	}
	return fmt.Errorf("rerun: -o %s is the recorded results directory %s: a rerun writes a new run beside the recorded one; give another directory, or no -o for %s",
		safetext.Quote(safetext.Path(out)), safetext.Quote(safetext.Path(dir)), safetext.Quote(safetext.Path(filepath.Join(dir, results.RerunDir))))
}

// sameDir reports whether the paths a and b name one directory: the same
// path once cleaned and made absolute, or one existing directory.
func sameDir(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	ab, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == ab {
		return true
	}
	return sameFile(a, b)
}

// sameFile reports whether the paths a and b name one file.
func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// inResults reports whether path, its links resolved, lies inside the
// results directory dir, as written or with its links resolved.
func inResults(path, dir string) bool {
	if results.Inside(path, dir) {
		return true
	}
	rd, err := filepath.EvalSymlinks(dir)
	return err == nil && results.Inside(path, rd)
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
