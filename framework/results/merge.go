package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/host"
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
	// files of another grid moved aside to superseded/TIME/, with why.
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
// read), and the tables and manifest are written as bench run writes
// them, so that they are byte-identical to a single run's. Missing cells
// make partial tables (status "incomplete"), not an error: the caller
// reports Merged.Missing. When out holds shards of its own, they are
// merged too, listed among dirs or not (their cells would otherwise be
// moved aside as not the merged shards').
func Merge(out string, dirs []string) (*Merged, error) {
	if ms, err := readShardManifests(out); err == nil && len(ms) > 0 {
		dirs = append([]string{out}, dirs...)
	}
	dirs = uniqueDirs(dirs)
	if len(dirs) == 0 {
		return nil, errors.New("merge: no results directory to merge")
	}
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
	sort.SliceStable(runs, func(a, b int) bool { return runs[a].m.Shard.Index < runs[b].m.Shard.Index })
	ref := runs[0]
	for _, r := range runs[1:] {
		if diff := differ(ref, r); diff != "" {
			return nil, fmt.Errorf("merge: the shards are not of one run: %s", diff)
		}
	}
	n := ref.m.Shard.Count
	res := &Merged{Shards: n, Found: make([]bool, n)}

	// The cells of the grid the shards own, each with its digest.
	owned := map[int]ShardCell{}
	owner := map[int]int{}
	for _, r := range runs {
		res.Found[r.m.Shard.Index] = true
		for _, c := range r.m.Shard.Cells {
			if c.Index < 0 || c.Index >= ref.m.Cells {
				return nil, fmt.Errorf("merge: %s owns cell %d of a grid of %d", r, c.Index, ref.m.Cells)
			}
			if prev, ok := owned[c.Index]; ok && (prev.Digest != c.Digest || owner[c.Index] != r.m.Shard.Index) {
				return nil, fmt.Errorf("merge: cell %d (%s) is owned by shard %d/%d and by %s", c.Index, c.Name, owner[c.Index], n, r)
			}
			owned[c.Index] = c
			owner[c.Index] = r.m.Shard.Index
		}
	}

	cells, err := findCells(dirs, owned, ref.m.Cells)
	if err != nil {
		return nil, err
	}
	for _, i := range sortedKeys(owned) {
		if cells[i] == nil {
			res.Missing = append(res.Missing, MissingCell{Index: i, Name: owned[i].Name, Shard: owner[i]})
		}
	}
	res.MissingUnknown = ref.m.Cells - len(owned)

	if err := os.MkdirAll(filepath.Join(out, CellsDir), 0o755); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	lock, err := lockDir(out)
	if err != nil {
		return nil, fmt.Errorf("merge: %w (are shards still running there? bench merge OTHER %s writes the tables elsewhere meanwhile)", err, out)
	}
	defer unlockDir(lock)
	if old, err := ReadManifest(out); err == nil && old.Experiment != ref.m.Experiment {
		return nil, fmt.Errorf("merge: results directory %s holds experiment %q, not %q: choose another output directory", out, old.Experiment, ref.m.Experiment)
	}
	if ref.m.Predictions {
		for _, i := range sortedKeys(cells) {
			if !hasPredictions(cells[i].cell.CellResult) {
				return nil, fmt.Errorf("merge: %s holds no predictions, which output.predictions asks for (written by a bench that did not keep them?): run its shard again with --fresh", cells[i].path)
			}
		}
	}
	notes, err := placeCells(out, cells, runs)
	if err != nil {
		return nil, err
	}
	res.Notes = notes
	if err := appendLog(out, notes); err != nil {
		return nil, err
	}

	m := mergedManifest(runs, cells, out, dirs)
	if !res.Complete() {
		m.Status = StatusIncomplete
	}
	results := make([]*engine.CellResult, 0, len(cells))
	for _, i := range sortedKeys(cells) {
		results = append(results, cells[i].cell.CellResult)
	}
	res.Cells = len(results)
	written, err := render(out, m, results)
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	if err := writeManifest(out, m); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	res.Manifest = m
	res.Written = append(written, filepath.Join(out, ManifestFile))
	return res, nil
}

// foundCell is a checked cell file and where it is.
type foundCell struct {
	cell *Cell
	path string
	raw  []byte
}

// findCells finds, for every owned cell, its file (named by index and
// digest) in the first of dirs that holds it, and checks it. A file that
// fails its check is an error naming it.
func findCells(dirs []string, owned map[int]ShardCell, total int) (map[int]*foundCell, error) {
	have := make([]map[string]bool, len(dirs))
	for k, d := range dirs {
		have[k] = map[string]bool{}
		entries, err := os.ReadDir(filepath.Join(d, CellsDir))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("merge: %w", err)
		}
		for _, e := range entries {
			have[k][e.Name()] = true
		}
	}
	found := map[int]*foundCell{}
	var errs []error
	for _, i := range sortedKeys(owned) {
		c := owned[i]
		name := CellFileName(i, c.Digest)
		for k, d := range dirs {
			if !have[k][name] {
				continue
			}
			path := filepath.Join(d, CellsDir, name)
			cell, err := ReadCell(path, total)
			if err == nil && cell.Digest != c.Digest {
				err = &CellError{Path: path, Reason: fmt.Sprintf("digest %.16s… is not the digest its shard recorded (%.16s…)", cell.Digest, c.Digest)}
			}
			if err != nil {
				errs = append(errs, err)
				break
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				errs = append(errs, err)
				break
			}
			found[i] = &foundCell{cell: cell, path: path, raw: raw}
			break
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("merge: bad cell files:\n%w", errors.Join(errs...))
	}
	return found, nil
}

// placeCells puts the merged cell files into out/cells: copies of those
// found elsewhere; a cell file of out that is not one of them (another
// grid's, left by an earlier run) is moved aside so that the directory
// holds the merged run alone, and a later bench table renders it again.
func placeCells(out string, cells map[int]*foundCell, runs []shardRun) ([]string, error) {
	dir := filepath.Join(out, CellsDir)
	keep := map[string]bool{}
	for i, c := range cells {
		name := CellFileName(i, c.cell.Digest)
		keep[name] = true
		path := filepath.Join(dir, name)
		if same, _ := sameFile(path, c.path); same {
			continue
		}
		if err := writeBytes(path, c.raw); err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
	}
	// The shards' manifests go along, so that out can be merged again.
	for _, r := range runs {
		name := ShardManifestName(r.m.Shard.Index, r.m.Shard.Count)
		from := filepath.Join(r.dir, ShardsDir, name)
		to := filepath.Join(out, ShardsDir, name)
		if same, _ := sameFile(to, from); same {
			continue
		}
		b, err := os.ReadFile(from)
		if err == nil {
			err = writeBytes(to, b)
		}
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	s := newSetup(out, time.Now, nil)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || keep[e.Name()] {
			continue
		}
		if err := s.moveAside(filepath.Join(dir, e.Name()), "not a cell of the merged shards"); err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
	}
	return s.notes, nil
}

// appendLog adds the merge's notes to OUT's run log, under a heading.
func appendLog(out string, notes []string) error {
	if len(notes) == 0 {
		return nil
	}
	f, err := os.OpenFile(filepath.Join(out, LogFile), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
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

// sameFile reports whether a and b are one file.
func sameFile(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}

// mergedManifest is the manifest of the merged run: the shards' inputs
// and table settings, with the counts and times of all of them.
func mergedManifest(runs []shardRun, cells map[int]*foundCell, out string, dirs []string) *Manifest {
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
		m.Calls = host.AddCalls(m.Calls, r.m.Calls)
		if m.Start.IsZero() || r.m.Start.Before(m.Start) {
			m.Start = r.m.Start
		}
		if r.m.End.After(m.End) {
			m.End = r.m.End
		}
	}
	for _, c := range cells {
		if c.cell.Failed() {
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
	if am.RunDigest != bm.RunDigest {
		return both("grid", fmt.Sprintf("run digest %.12s…", am.RunDigest), fmt.Sprintf("run digest %.12s…", bm.RunDigest))
	}
	return ""
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
