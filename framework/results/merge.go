package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/polyclass/polyclass/framework/cellspec"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/internal/regfile"
)

// StatusIncomplete is the status of a merge that lacks cells: a shard has
// not run, or not finished. Its tables say they are partial.
const StatusIncomplete Status = "incomplete"

// MissingCell is a cell a merge did not find: its index, name and the
// shard that owns it.
type MissingCell struct {
	Index int
	Name  string
	Shard int
}

// Merged is what Merge did.
type Merged struct {
	// Manifest is the merged run's manifest, written to OUT/manifest.json.
	Manifest *Manifest
	// Written lists the files written: tables, then the manifest.
	Written []string
	// Shards is the number of shards of the run; Found lists, by shard,
	// whether a manifest of it was found.
	Shards int
	Found  []bool
	// Cells is the number of cells merged; Missing lists those not found
	// of the shards that were; MissingUnknown counts the cells of the
	// shards without a manifest (their names are unknown).
	Cells          int
	Missing        []MissingCell
	MissingUnknown int
	// Notes says what the merge did to files of OUT besides writing: cell
	// files of another grid, outputs edited since they were written or
	// no longer made, moved aside to superseded/TIME/, with why.
	Notes []string
}

// Complete reports whether every cell of the grid was merged.
func (m *Merged) Complete() bool { return len(m.Missing) == 0 && m.MissingUnknown == 0 }

// shardRun is one shard manifest as found in a directory.
type shardRun struct {
	dir string
	m   *Manifest
}

func (s shardRun) String() string { return fmt.Sprintf("shard %s (%s)", s.m.Shard, s.dir) }

// Merge merges the shards of one run, found in the results directories
// dirs (a shared one, or one per shard), into the results directory out,
// which may be one of dirs. It refuses shards of different runs, naming
// the difference: experiment, number of shards, experiment file, seed,
// dataset and plugin digests, and at last the grid (run digest). Every
// cell file is found by the digest its shard recorded and checked; the
// cells are copied into out/cells (the source directories are only
// read), and the outputs render makes and the manifest are written as
// bench run writes them, so that they are byte-identical to a single
// run's. Missing cells
// make partial tables (status "incomplete"), not an error: the caller
// reports Merged.Missing. When out holds shards of its own, they are
// merged too, listed among dirs or not (their cells would otherwise be
// moved aside as not the merged shards').
func Merge(out string, dirs []string, render Renderer) (*Merged, error) {
	return mergeAs(out, dirs, render, os.Geteuid())
}

// mergeAs is Merge run as user uid: shard directories, cells/ and cell
// files that another user owns or others may write are warned of in the
// notes (warnForeignShards).
func mergeAs(out string, dirs []string, render Renderer, uid int) (*Merged, error) {
	dirs, runs, err := shardsOfOneRun(out, dirs)
	if err != nil {
		return nil, err
	}
	ref := runs[0]
	n := ref.m.Shard.Count
	res := &Merged{Shards: n, Found: make([]bool, n)}
	owned, owner, err := ownedCells(runs, res.Found)
	if err != nil {
		return nil, err
	}
	lock, root, err := openMergeDir(out, ref.m.Experiment)
	if err != nil {
		return nil, err
	}
	defer unlockDir(lock)
	defer root.Close()
	digests := make([]string, ref.m.Cells)
	for i, c := range owned {
		digests[i] = c.Digest
	}
	cells, notes, err := gatherCells(root, out, dirs, Want{Digests: digests, Predictions: ref.m.Predictions, KeepFailed: true}, uid)
	if err != nil {
		return nil, mergeGone(root, out, err)
	}
	for _, i := range sortedKeys(owned) {
		if cells[i] == nil {
			res.Missing = append(res.Missing, MissingCell{Index: i, Name: owned[i].Name, Shard: owner[i]})
		}
	}
	res.MissingUnknown = ref.m.Cells - len(owned)
	if err := placeShardManifests(root, out, runs); err != nil {
		return nil, mergeGone(root, out, err)
	}
	res.Notes = notes
	if err := appendLog(root, out, notes); err != nil {
		return nil, mergeGone(root, out, err)
	}
	if err := writeMerged(root, out, dirs, runs, cells, digests, render, res); err != nil {
		return nil, mergeGone(root, out, err)
	}
	if err := dirGone(root, out, "merge"); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	return res, nil
}

// shardsOfOneRun reads the shard manifests of the directories to merge
// (out's first when it holds some), sorted by shard index, and checks
// that they are of one run; it returns the directories, each once.
func shardsOfOneRun(out string, dirs []string) ([]string, []shardRun, error) {
	if ms, err := readShardManifests(out); err == nil && len(ms) > 0 {
		dirs = append([]string{out}, dirs...)
	}
	dirs = uniqueDirs(dirs)
	if len(dirs) == 0 {
		return nil, nil, errors.New("merge: no results directory to merge")
	}
	runs, err := readShardRuns(dirs)
	if err != nil {
		return nil, nil, err
	}
	sort.SliceStable(runs, func(a, b int) bool { return runs[a].m.Shard.Index < runs[b].m.Shard.Index })
	for _, r := range runs[1:] {
		if diff := differ(runs[0], r); diff != "" {
			return nil, nil, fmt.Errorf("merge: the shards are not of one run: %s", diff)
		}
	}
	return dirs, runs, nil
}

// openMergeDir makes out ready to hold the merged run of experiment,
// locks it and opens it as the Root the merge writes through (see
// writeAt): bench's own directory, of no other experiment.
func openMergeDir(out, experiment string) (*os.File, *os.Root, error) {
	if err := checkLayout(out); err != nil {
		return nil, nil, fmt.Errorf("merge: %w", err)
	}
	if err := Owned(out); err != nil {
		return nil, nil, fmt.Errorf("merge: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(out, CellsDir), 0o755); err != nil {
		return nil, nil, fmt.Errorf("merge: %w", err)
	}
	lock, err := lockDir(out)
	if err != nil {
		return nil, nil, fmt.Errorf("merge: %w (are shards still running there? bench merge OTHER %s writes the tables elsewhere meanwhile)", err, out)
	}
	if old, err := ReadManifest(out); err == nil && old.Experiment != experiment {
		unlockDir(lock)
		return nil, nil, fmt.Errorf("merge: results directory %s holds experiment %q, not %q: choose another output directory", out, old.Experiment, experiment)
	}
	root, err := openRoot(out)
	if err != nil {
		unlockDir(lock)
		return nil, nil, fmt.Errorf("merge: %w", err)
	}
	return lock, root, nil
}

// mergeGone is err, an error of the merge into out, or, when out was
// removed or replaced meanwhile, the error that says so.
func mergeGone(root *os.Root, out string, err error) error {
	if gone := dirGone(root, out, "merge"); gone != nil {
		return fmt.Errorf("merge: %w", gone)
	}
	return err
}

// writeMerged writes the outputs and the manifest of the merged run of
// cells (by index) into out, and records them in res.
func writeMerged(root *os.Root, out string, dirs []string, runs []shardRun, cells map[int]*Cell, digests []string, render Renderer, res *Merged) error {
	m := mergedManifest(runs, cells, out, dirs)
	if !res.Complete() {
		m.Status = StatusIncomplete
	}
	m.CellDigests = digests
	results := make([]*Cell, 0, len(cells))
	for _, i := range sortedKeys(cells) {
		results = append(results, cells[i])
	}
	res.Cells = len(results)
	aside := newSetup(out, time.Now, nil)
	written, err := writeOutputs(root, out, m, results, render, nil, nil, aside)
	res.Notes = append(res.Notes, aside.notes...)
	lerr := appendLog(root, out, aside.notes) // what was moved, even after an error
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	if lerr != nil {
		return lerr
	}
	if err := writeManifest(root, out, m); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	res.Manifest = m
	res.Written = append(written, filepath.Join(out, ManifestFile))
	return nil
}

// readShardRuns reads the shard manifests of each directory of dirs; a
// directory without one is an error.
func readShardRuns(dirs []string) ([]shardRun, error) {
	var runs []shardRun
	for _, d := range dirs {
		ms, err := readShardManifests(d)
		if err != nil {
			return nil, err
		}
		if len(ms) == 0 {
			if _, err := os.Stat(d); err != nil {
				return nil, fmt.Errorf("merge: %w", err)
			}
			return nil, fmt.Errorf("merge: %s holds no shard manifest (%s/I-of-N.json): no bench run --shard wrote into it", d, ShardsDir)
		}
		for _, m := range ms {
			runs = append(runs, shardRun{d, m})
		}
	}
	return runs, nil
}

// ownedCells returns the cells of the grid the shards of runs own, each
// with its digest, and the shard owning each; it sets found[i] for each
// shard i present. A cell outside the grid, or owned by two shards, is
// an error.
func ownedCells(runs []shardRun, found []bool) (owned map[int]ShardCell, owner map[int]int, err error) {
	ref := runs[0]
	owned, owner = map[int]ShardCell{}, map[int]int{}
	for _, r := range runs {
		found[r.m.Shard.Index] = true
		for _, c := range r.m.Shard.Cells {
			if c.Index < 0 || c.Index >= ref.m.Cells {
				return nil, nil, fmt.Errorf("merge: %s owns cell %d of a grid of %d", r, c.Index, ref.m.Cells)
			}
			if prev, ok := owned[c.Index]; ok && (prev.Digest != c.Digest || owner[c.Index] != r.m.Shard.Index) {
				return nil, nil, fmt.Errorf("merge: cell %d (%s) is owned by shard %d/%d and by %s", c.Index, c.Name, owner[c.Index], ref.m.Shard.Count, r)
			}
			owned[c.Index] = c
			owner[c.Index] = r.m.Shard.Index
		}
	}
	return owned, owner, nil
}

// gatherCells finds the cells w wants in the cells directories of out
// and dirs (out's first, then dirs in order; the first file of a cell
// wins) by Reconcile's rule, and puts them into out/cells: a copy of each
// found elsewhere, renumbered when it sits under another index. A file
// that claims a wanted cell (its name is the cell's) and fails the rule is
// an error naming it: bad, or without the predictions w asks for. A file
// of out that is no wanted cell (another grid's, left by an earlier run)
// is moved aside, so that out holds the merged run alone; the other
// directories are only read. It returns the cells by index and notes on
// what it moved, and a warning when another user than uid owns, or others
// may write, a directory or a file the cells are read from.
func gatherCells(root *os.Root, out string, dirs []string, w Want, uid int) (map[int]*Cell, []string, error) {
	dirs = uniqueDirs(append([]string{out}, dirs...))
	entries, from, err := readAllEntries(dirs, w)
	if err != nil {
		return nil, nil, err
	}
	if err := badFiles(entries, from); err != nil {
		return nil, nil, err
	}
	plan := Reconcile(entries, w)
	if err := claimedCellErrors(plan, from, w); err != nil {
		return nil, nil, err
	}
	s := newSetup(out, time.Now, nil)
	warnForeignShards(s, dirs, plan, from, uid)
	ownDir := filepath.Clean(dirs[0])
	if err := placeCells(root, out, plan, from, ownDir); err != nil {
		return nil, nil, err
	}
	if err := moveAsideInOut(s, out, plan, from, ownDir); err != nil {
		return nil, nil, err
	}
	return plan.Kept, s.notes, nil
}

// readAllEntries reads the entries of the cells directories of dirs, in
// order (a directory without one has none), and the results directory of
// each entry.
func readAllEntries(dirs []string, w Want) (entries []Entry, from []string, err error) {
	for _, d := range dirs {
		es, err := readEntries(filepath.Join(d, CellsDir), w.relevance())
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("merge: %w", err)
		}
		entries = append(entries, es...)
		for range es {
			from = append(from, d)
		}
	}
	return entries, from, nil
}

// claimedCellErrors names each file that claims a wanted cell (its name
// is the cell's) and that the plan moves aside: bad, failed, or without
// the predictions w asks for.
func claimedCellErrors(plan Plan, from []string, w Want) error {
	var errs []error
	for k, d := range plan.Decisions {
		if d.Action != MoveAside || d.Again || !claimsWanted(d.Entry, w) {
			continue
		}
		path := filepath.Join(from[k], CellsDir, d.Name)
		if d.Reason == reasonPredictions {
			errs = append(errs, fmt.Errorf("%s holds no predictions, which output.predictions asks for (written by a bench that did not keep them?): run its shard again with --fresh", path))
			continue
		}
		errs = append(errs, &CellError{Path: path, Reason: d.Reason})
	}
	if len(errs) > 0 {
		return fmt.Errorf("merge: bad cell files:\n%w", errors.Join(errs...))
	}
	return nil
}

// claimsWanted reports whether e's file name is that of a cell w wants.
func claimsWanted(e Entry, w Want) bool {
	return e.Index >= 0 && e.Index < len(w.Digests) && w.Digests[e.Index] != "" &&
		e.Name == CellFileName(e.Index, w.Digests[e.Index])
}

// placeCells puts the cells the plan keeps into out/cells: a copy of each
// kept from another directory than ownDir (out's), and each renumbered
// one written under its new index.
func placeCells(root *os.Root, out string, plan Plan, from []string, ownDir string) error {
	for k, d := range plan.Decisions {
		switch {
		case d.Action == Keep && filepath.Clean(from[k]) != ownDir:
			raw, err := readIn(filepath.Join(from[k], CellsDir, d.Name))
			if err == nil {
				err = writeAt(root, out, CellsDir+"/"+d.Name, raw, 0o644)
			}
			if err != nil {
				return fmt.Errorf("merge: %w", err)
			}
		case d.Action == Renumber:
			c := *d.Cell.CellResult
			c.Index = d.To
			if err := writeCellIn(root, out, &c, d.Cell.Digest, d.Cell.Spec); err != nil {
				return fmt.Errorf("merge: %w", err)
			}
			d.Cell.CellResult = &c
		}
	}
	return nil
}

// moveAsideInOut moves aside the files of out's cells directory (ownDir)
// that the plan moves aside or renumbers away, each with its reason.
func moveAsideInOut(s *setup, out string, plan Plan, from []string, ownDir string) error {
	cellsDir := filepath.Join(out, CellsDir)
	for k, d := range plan.Decisions {
		if filepath.Clean(from[k]) != ownDir || !(d.Action == MoveAside || d.Action == Renumber && d.Aside) {
			continue
		}
		why := d.Reason
		if why == reasonChanged {
			why = "not a cell of the merged shards"
		}
		if err := s.moveAside(filepath.Join(cellsDir, d.Name), why); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
	}
	return nil
}

// badFiles returns an error naming every file of the merged cells
// directories that is not a good cell file (from[k] is entry k's results
// directory), whichever directory holds it: bench table refuses such a
// file, and merge applies the same rule rather than write tables over it
// (or, in another shard's directory, pass it by in silence). A good cell
// of another grid is not bad: gatherCells moves it aside from out.
func badFiles(entries []Entry, from []string) error {
	var errs []error
	for k, e := range entries {
		path := filepath.Join(from[k], CellsDir, e.Name)
		switch {
		case e.Index < 0:
			errs = append(errs, &CellError{Path: path, Reason: "not a cell file (cells/ holds IIII-DIGEST.json files only)"})
		case e.Bad != "":
			errs = append(errs, &CellError{Path: path, Reason: e.Bad})
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("merge: bad cell files (bench table refuses them too; move them away):\n%w", errors.Join(errs...))
}

// placeShardManifests copies the shards' manifests into out/shards, so
// that out can be merged again.
func placeShardManifests(root *os.Root, out string, runs []shardRun) error {
	for _, r := range runs {
		name := ShardManifestName(r.m.Shard.Index, r.m.Shard.Count)
		from := filepath.Join(r.dir, ShardsDir, name)
		to := filepath.Join(out, ShardsDir, name)
		if same, _ := regfile.Same(to, from); same {
			continue
		}
		b, err := readIn(from)
		if err == nil {
			err = writeAt(root, out, ShardsDir+"/"+name, b, 0o644)
		}
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
	}
	return nil
}

// appendLog adds the merge's notes to OUT's run log (through root, OUT's
// Root), under a heading.
func appendLog(root *os.Root, out string, notes []string) error {
	if len(notes) == 0 {
		return nil
	}
	f, err := appendAt(root, out, LogFile)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	fmt.Fprintf(f, "=== %s: merge into %s\n", time.Now().UTC().Format(time.RFC3339), out)
	for _, n := range notes {
		fmt.Fprintln(f, n)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	return nil
}

// mergedManifest is the manifest of the merged run: the shards' inputs
// and table settings, with the counts and times of all of them.
func mergedManifest(runs []shardRun, cells map[int]*Cell, out string, dirs []string) *Manifest {
	m := *runs[0].m
	m.Shard = nil
	m.MergedShards = runs[0].m.Shard.Count
	m.Status = StatusComplete
	m.Args = append([]string{"bench", "merge", out}, dirs...)
	m.Finished = len(cells)
	m.Resumed, m.Uploads, m.FailedCells = 0, 0, 0
	m.Calls = nil
	m.Start, m.End = time.Time{}, time.Time{}
	seen := map[int]bool{}
	for _, r := range runs {
		if seen[r.m.Shard.Index] {
			continue // the same shard in two directories
		}
		seen[r.m.Shard.Index] = true
		m.Resumed += r.m.Resumed
		m.Uploads += r.m.Uploads
		m.Calls = outcome.AddCalls(m.Calls, r.m.Calls)
		if m.Start.IsZero() || r.m.Start.Before(m.Start) {
			m.Start = r.m.Start
		}
		if r.m.End.After(m.End) {
			m.End = r.m.End
		}
	}
	for _, c := range cells {
		if c.Failed() {
			m.FailedCells++
		}
	}
	return &m
}

// differ names the first difference between two shards' runs, or "".
func differ(a, b shardRun) string {
	am, bm := a.m, b.m
	both := func(what, x, y string) string {
		return fmt.Sprintf("%s: %s in %s, %s in %s", what, x, a, y, b)
	}
	switch {
	case am.Experiment != bm.Experiment:
		return both("experiment", fmt.Sprintf("%q", am.Experiment), fmt.Sprintf("%q", bm.Experiment))
	case am.Shard.Count != bm.Shard.Count:
		return both("number of shards", fmt.Sprint(am.Shard.Count), fmt.Sprint(bm.Shard.Count)) +
			fmt.Sprintf(" (the run was cut in %d shards once and in %d another time: move the %s/*-of-N.json and .log files of the cut you drop out of the way, and merge the other)",
				am.Shard.Count, bm.Shard.Count, ShardsDir)
	case am.FileSHA256 != bm.FileSHA256:
		return both("experiment file", fmt.Sprintf("%s (sha256 %.12s…)", am.File, am.FileSHA256), fmt.Sprintf("%s (sha256 %.12s…)", bm.File, bm.FileSHA256))
	case am.Seed != bm.Seed:
		return both("seed", fmt.Sprint(am.Seed), fmt.Sprint(bm.Seed))
	}
	ad, bd := datasetsByName(am), datasetsByName(bm)
	for _, name := range unionKeys(ad, bd) {
		x, y := ad[name], bd[name]
		if x != y {
			return both("dataset "+name, describeDigest(x), describeDigest(y))
		}
	}
	ap, bp := pluginsByName(am), pluginsByName(bm)
	for _, name := range unionKeys(ap, bp) {
		x, y := ap[name], bp[name]
		if x != y {
			return both("plugin "+name, describeDigest(x), describeDigest(y))
		}
	}
	if d := pluginPathsDiffer(a, b); d != "" {
		return d
	}
	if ab, bb := buildName(am.Bench), buildName(bm.Bench); ab != bb {
		return both("bench", ab, bb)
	}
	if am.RunDigest != bm.RunDigest {
		return both("grid", fmt.Sprintf("run digest %.12s…", am.RunDigest), fmt.Sprintf("run digest %.12s…", bm.RunDigest))
	}
	return ""
}

// buildName names the build of bench a manifest records, "unknown" for
// none.
func buildName(b *cellspec.Build) string {
	if b == nil {
		return "unknown"
	}
	return b.String()
}

func describeDigest(s string) string {
	if s == "" {
		return "absent"
	}
	return s
}

func datasetsByName(m *Manifest) map[string]string {
	out := map[string]string{}
	for _, d := range m.Datasets {
		out[d.Name] = fmt.Sprintf("sha256 %.12s…", d.SHA256)
	}
	return out
}

func pluginsByName(m *Manifest) map[string]string {
	out := map[string]string{}
	for _, p := range m.Plugins {
		out[p.Name] = fmt.Sprintf("%s sha256 %.12s…", p.Version, p.SHA256)
	}
	return out
}

// pluginPathsDiffer names the first plugin (by name) that two shards'
// manifests record at different paths, or "". Their digests agree (differ
// compares them first), but the merged manifest keeps one path, and a
// shard's manifest, perhaps edited, may not slip in another binary's path
// under a digest it claims.
func pluginPathsDiffer(a, b shardRun) string {
	ap, bp := pluginPaths(a.m), pluginPaths(b.m)
	for _, name := range unionKeys(ap, bp) {
		if x, y := ap[name], bp[name]; x != y {
			return fmt.Sprintf("plugin %s: recorded %s in %s, %s in %s (same sha256; a merge keeps one path, so the shards must agree: run the shards with the same plugins directory)",
				name, describePath(x), a, describePath(y), b)
		}
	}
	return ""
}

// describePath quotes a recorded path, "absent" for none.
func describePath(p string) string {
	if p == "" {
		return "absent"
	}
	return fmt.Sprintf("as %q", p)
}

// pluginPaths maps each plugin a manifest records to its binary's path.
func pluginPaths(m *Manifest) map[string]string {
	out := map[string]string{}
	for _, p := range m.Plugins {
		out[p.Name] = p.Path
	}
	return out
}

func unionKeys(a, b map[string]string) []string {
	var out []string
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func sortedKeys[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// uniqueDirs drops repeated directories (the same path twice).
func uniqueDirs(dirs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, d := range dirs {
		key := filepath.Clean(d)
		if abs, err := filepath.Abs(d); err == nil {
			key = abs
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, d)
		}
	}
	return out
}
