package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/polyclass/polyclass/framework/outcome"
)

// ShardsDir holds, in a results directory that shards write, each shard's
// manifest (I-of-N.json), run log (I-of-N.log) and lock.
const ShardsDir = "shards"

// Shard is the part of a grid one run computes (Options.Shard): shard
// Index of Count, and the cells it owns.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
	// Cells are the cells the shard owns, in index order.
	Cells []ShardCell `json:"cells"`
}

// ShardCell is a cell a shard owns, as its manifest records it: a merge
// names the missing ones and checks the others by digest.
type ShardCell struct {
	Index  int    `json:"index"`
	Name   string `json:"name"`
	Digest string `json:"digest"`
}

// String returns "I/N".
func (s *Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// ShardManifestName is the name of shard i of n's manifest in ShardsDir.
func ShardManifestName(i, n int) string { return fmt.Sprintf("%d-of-%d.json", i, n) }

// ShardLogName is the name of shard i of n's run log in ShardsDir.
func ShardLogName(i, n int) string { return fmt.Sprintf("%d-of-%d.log", i, n) }

var shardManifestName = regexp.MustCompile(`^([0-9]+)-of-([0-9]+)\.json$`)

// beginShard is Begin for one shard of a run (opt.Shard set). Several
// shards of one run share a results directory: each holds a shared lock
// on the directory (a whole run, a merge or bench table hold it
// exclusively) and an exclusive one on its shard, touches only its own
// cells' files, and writes its own manifest and run log in DIR/shards/
// instead of DIR/manifest.json and DIR/run.log. It writes no tables
// (bench merge does).
func beginShard(dir string, m *Manifest, digests []string, opt Options, now func() time.Time) (*Run, error) {
	sh := opt.Shard
	cells := filepath.Join(dir, CellsDir)
	shards := filepath.Join(dir, ShardsDir)
	if _, err := checkOwner(dir, m.Experiment, opt); err != nil {
		return nil, err
	}
	for _, d := range []string{cells, shards} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("results directory: %w", err)
		}
	}
	lock, err := lockPath(filepath.Join(dir, lockFile), true,
		fmt.Sprintf("results directory %s is in use by a bench run that is not a shard (or by a merge)", dir))
	if err != nil {
		return nil, err
	}
	shardLock, err := lockPath(filepath.Join(shards, fmt.Sprintf(".lock-%d-of-%d", sh.Index, sh.Count)), false,
		fmt.Sprintf("shard %s is already running in results directory %s", sh, dir))
	if err != nil {
		unlockDir(lock)
		return nil, err
	}
	r := newRun(dir, m, digests, opt, now, lock)
	r.shardLock, r.shard = shardLock, sh
	ok := false
	defer func() {
		if !ok {
			r.unlock()
		}
	}()
	if err := r.identify(); err != nil {
		return nil, err
	}
	own := map[int]string{}
	for _, c := range sh.Cells {
		own[c.Index] = c.Digest
	}
	manifestName := ShardManifestName(sh.Index, sh.Count)
	removeTempsOf(shards, func(target string) bool { return target == manifestName }, opt.Inputs)
	removeTempsOf(cells, func(target string) bool { i, ok := cellIndex(target); return ok && own[i] != "" }, opt.Inputs)

	if err := checkShardStart(r.root, dir, m, sh); err != nil {
		return nil, err
	}
	s := newSetup(dir, now, opt.Notes)
	if err := checkShards(s, dir, m, sh, digests, opt.Fresh, opt.freshReason()); err != nil {
		return nil, err
	}

	want := Want{Digests: digests, Specs: opt.Specs, Own: func(i int) bool { return own[i] != "" }, Predictions: m.Predictions, Fresh: opt.Fresh, FreshReason: opt.freshReason(), KeepOtherBench: opt.KeepOtherBench}
	if _, err := r.keep(cells, want, s); err != nil {
		return nil, err
	}
	for k, c := range sh.Cells {
		sh.Cells[k].Digest = r.digests[c.Index]
	}
	if len(r.kept) > 0 {
		s.note("resuming shard %s: %d of its %d cells kept from an earlier run, %d to run", sh, len(r.kept), len(sh.Cells), len(sh.Cells)-len(r.kept))
	}

	startManifest(m, digests, len(r.kept), now())
	m.Shard = sh
	m.Outputs = map[string]string{}
	if err := r.writeManifest(); err != nil {
		return nil, err
	}
	if err := r.openLog(ShardsDir+"/"+ShardLogName(sh.Index, sh.Count), s, "=== %s: shard %s of a run of %s started (%d of %d cells, run digest %.16s)\n",
		m.Start.Format(time.RFC3339), sh, m.Experiment, len(sh.Cells), m.Cells, m.RunDigest); err != nil {
		return nil, err
	}
	ok = true
	return r, nil
}

// checkShardStart refuses, before shard sh of a run of m moves anything
// in dir (opened as root), a results directory of another experiment,
// and a record or a log of the shard of other names (hard links).
func checkShardStart(root *os.Root, dir string, m *Manifest, sh *Shard) error {
	if old, err := ReadManifest(dir); err == nil && old.Experiment != m.Experiment {
		return fmt.Errorf("results directory %s holds experiment %q, not %q: choose another directory with -o (or move it away)",
			dir, old.Experiment, m.Experiment)
	}
	return checkOneNames(root, dir,
		oneName{ShardsDir + "/" + ShardManifestName(sh.Index, sh.Count), shardRecordOneName, "the shard writes a new one"},
		oneName{ShardsDir + "/" + ShardLogName(sh.Index, sh.Count), logOneName, "bench starts a new one"})
}

// checkShards checks the shard manifests already in dir against shard sh
// of a run of m: another experiment's is an error; sh's own is moved
// aside when fresh, for the reason why; one of another shard count, or of another version of
// the grid, gets a note, as bench merge would refuse it.
func checkShards(s *setup, dir string, m *Manifest, sh *Shard, digests []string, fresh bool, why string) error {
	others, err := readShardManifests(dir)
	if err != nil {
		return err
	}
	shards := filepath.Join(dir, ShardsDir)
	for _, o := range others {
		if o.Experiment != m.Experiment {
			return fmt.Errorf("results directory %s holds shard %s of experiment %q, not %q: choose another directory with -o (or move it away)",
				dir, o.Shard, o.Experiment, m.Experiment)
		}
		if o.Shard.Index == sh.Index && o.Shard.Count == sh.Count {
			if fresh {
				if err := s.moveAside(filepath.Join(shards, ShardManifestName(sh.Index, sh.Count)), why); err != nil {
					return err
				}
			}
			continue
		}
		if o.Shard.Count != sh.Count {
			s.note("note: %s/%s is shard %s of %d shards, this run is one of %d: bench merge takes shards of one count only",
				ShardsDir, ShardManifestName(o.Shard.Index, o.Shard.Count), o.Shard, o.Shard.Count, sh.Count)
		} else if o.RunDigest != RunDigest(m.Experiment, digests) {
			s.note("note: shard %s in %s ran another version of the grid (its inputs differ): run it again before bench merge", o.Shard, dir)
		}
	}
	return nil
}

// finishShard records the end of a shard's run in its manifest: no tables.
func (r *Run) finishShard(status Status, uploads int64) ([]string, error) {
	defer r.close()
	if err := r.still(); err != nil {
		return nil, err
	}
	unwritten := r.writeUnwritten()
	m := r.m
	r.mu.Lock()
	indices := slices.Concat(slices.Collect(maps.Keys(r.kept)), slices.Collect(maps.Keys(r.finished)))
	r.mu.Unlock()
	var lost error
	gone := r.lostCells(indices)
	if len(gone) > 0 {
		lost = lostError(r.dir, gone)
	}
	r.mu.Lock()
	m.Finished, m.FailedCells = 0, 0
	for _, set := range []map[int]*outcome.CellResult{r.kept, r.finished} {
		for i, c := range set {
			if _, found := slices.BinarySearch(gone, i); found {
				continue
			}
			m.Finished++
			if c.Failed() {
				m.FailedCells++
			}
		}
	}
	r.mu.Unlock()
	if status == StatusComplete && m.Finished < len(r.shard.Cells) {
		status = StatusInterrupted
	}
	m.Status = status
	m.End = r.now().UTC()
	m.Uploads = uploads
	err := r.writeManifest()
	for _, e := range []error{unwritten, lost} {
		if e != nil {
			fmt.Fprintln(r.log, e)
		}
	}
	fmt.Fprintf(r.log, "=== %s: shard %s %s, %d of its %d cells (%d failed, %d kept from an earlier run)\n",
		m.End.Format(time.RFC3339), r.shard, m.Status, m.Finished, len(r.shard.Cells), m.FailedCells, m.Resumed)
	r.logGone(filepath.Join(ShardsDir, ShardLogName(r.shard.Index, r.shard.Count)))
	if err != nil {
		return nil, errors.Join(unwritten, lost, err)
	}
	return []string{r.ManifestPath()}, errors.Join(unwritten, lost)
}

// ManifestPath is the path of the run's manifest: DIR/manifest.json, or a
// shard's DIR/shards/I-of-N.json.
func (r *Run) ManifestPath() string {
	if r.shard != nil {
		return filepath.Join(r.dir, ShardsDir, ShardManifestName(r.shard.Index, r.shard.Count))
	}
	return filepath.Join(r.dir, ManifestFile)
}

// LogPath is the path of the run log: DIR/run.log, or a shard's
// DIR/shards/I-of-N.log.
func (r *Run) LogPath() string {
	if r.shard != nil {
		return filepath.Join(r.dir, ShardsDir, ShardLogName(r.shard.Index, r.shard.Count))
	}
	return filepath.Join(r.dir, LogFile)
}

// writeManifest writes the run's manifest where it belongs.
func (r *Run) writeManifest() error {
	if r.shard == nil {
		return writeManifest(r.root, r.dir, r.m)
	}
	r.m.Schema = ManifestSchema
	b, err := json.MarshalIndent(r.m, "", "  ")
	if err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	return writeAt(r.root, r.dir, ShardsDir+"/"+ShardManifestName(r.shard.Index, r.shard.Count), append(b, '\n'), 0o644)
}

// readShardManifests reads every shard manifest of dir (none when dir has
// no shards directory), in the order of their count and index.
func readShardManifests(dir string) ([]*Manifest, error) {
	entries, err := os.ReadDir(filepath.Join(dir, ShardsDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("results directory %s: %w", dir, err)
	}
	var out []*Manifest
	for _, e := range entries {
		sm := shardManifestName.FindStringSubmatch(e.Name())
		if sm == nil || e.IsDir() {
			continue
		}
		path := filepath.Join(dir, ShardsDir, e.Name())
		i, _ := strconv.Atoi(sm[1])
		n, _ := strconv.Atoi(sm[2])
		m, err := readManifestFile(path)
		var newer newerSchemaError
		if err != nil && !errors.As(err, &newer) && !errors.Is(err, errLink) && !errors.Is(err, os.ErrNotExist) {
			return nil, notShardRecord(path, i, n, err)
		}
		if err != nil {
			return nil, err
		}
		if m.Shard == nil || m.Shard.Index != i || m.Shard.Count != n {
			return nil, notShardRecord(path, i, n, fmt.Errorf("%s: not the manifest of shard %d/%d", path, i, n))
		}
		out = append(out, m)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Shard.Count != out[b].Shard.Count {
			return out[a].Shard.Count < out[b].Shard.Count
		}
		return out[a].Shard.Index < out[b].Shard.Index
	})
	return out, nil
}

// The reasons checkOneNames gives for a shard's record and a run log of
// more than one name.
const (
	shardRecordOneName = "this is not a shard record as bench wrote it (bench writes each under one name); nothing was moved or written"
	logOneName         = "bench appends only to a run log of its own; nothing was moved or written"
)

// notShardRecord is the error of the file path, at the place of shard i
// of n's record, that err says is not one: what it is not, and what to do,
// since bench neither reads it nor moves it aside (it may be the user's).
func notShardRecord(path string, i, n int, err error) error {
	return fmt.Errorf("%w\n%s is not a shard record bench wrote (the manifest of shard %d/%d), and bench moves nothing aside while it is there, --fresh or not: if it is a file of yours, move it out of %s; if it is that shard's record, damaged, delete it and run the shard again (its cell files are checked one by one and kept)",
		err, path, i, n, filepath.Dir(path))
}

// ShardCount returns the number of shards the shard manifests in dir were
// written for: 0 when there are none, an error when there are several.
func ShardCount(dir string) (int, error) {
	ms, err := readShardManifests(dir)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, m := range ms {
		if n != 0 && m.Shard.Count != n {
			return 0, fmt.Errorf("results directory %s holds shards of %d and of %d shards", dir, n, m.Shard.Count)
		}
		n = m.Shard.Count
	}
	return n, nil
}

// cellIndex returns the index a cell file's name starts with.
func cellIndex(name string) (int, bool) {
	digits, rest, ok := strings.Cut(name, "-")
	if !ok || !strings.HasSuffix(rest, ".json") {
		return 0, false
	}
	i, err := strconv.Atoi(digits)
	if err != nil || i < 0 {
		return 0, false
	}
	return i, true
}

// setup is what Begin does with an earlier run's files: notes for the run
// log, and files moved aside to DIR/superseded/TIME/.
type setup struct {
	dir, stamp string
	w          io.Writer
	notes      []string
}

func newSetup(dir string, now func() time.Time, w io.Writer) *setup {
	return &setup{dir: dir, stamp: now().UTC().Format("20060102T150405.000000000Z"), w: w}
}

func (s *setup) note(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	s.notes = append(s.notes, line)
	if s.w != nil {
		fmt.Fprintln(s.w, line)
	}
}

// moveAside moves path (inside dir) to the same place under
// superseded/TIME/, saying why.
func (s *setup) moveAside(path, why string) error {
	rel, _ := filepath.Rel(s.dir, path)
	to := filepath.Join(s.dir, SupersededDir, s.stamp, rel)
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return fmt.Errorf("moving aside %s: %w", path, err)
	}
	if err := os.Rename(path, to); err != nil {
		return fmt.Errorf("moving aside %s: %w", path, err)
	}
	s.note("moved %s aside to %s: %s", rel, filepath.Join(SupersededDir, s.stamp, rel), why)
	return nil
}
