// Package results owns a run's results directory: its layout, and every
// file in it. No other package writes there.
//
//	DIR/manifest.json    the run: status, inputs with their SHA-256, what the
//	                     tables show; written first ("running"), updated last
//	DIR/run.log          one section per run, appended (failed cells, plugin
//	                     restarts and stderr, cells kept or moved aside)
//	DIR/cells/IIII-D.json one file per finished cell, with its digest
//	DIR/summary.csv, folds.csv, tuning.csv, per_class.csv, NAME.md|.tex|.html|.json
//	DIR/predictions/DATASET.csv per-row predictions (output.predictions)
//	DIR/plots/           figures (PNG and SVG)
//	DIR/superseded/TIME/ cell files (and the manifest) a run moved aside:
//	                     never deleted
//
// Every file but the run log is written to a temporary name and renamed, so
// a crash or a full disk leaves the old version or the new one, never a
// truncated file. A run resumes: the cells whose file exists and whose digest
// matches are kept and not computed again (see Reconcile, the one rule of
// resuming, of starting a shard and of merging shards). The package stores
// results and renders nothing: the outputs (tables, figures) come from the
// caller's Renderer.
package results

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/polyclass/polyclass/framework/cellspec"
	"github.com/polyclass/polyclass/framework/outcome"
)

// The layout of a results directory.
const (
	ManifestFile  = "manifest.json"
	LogFile       = "run.log"
	CellsDir      = "cells"
	SupersededDir = "superseded"
	lockFile      = ".lock"
	// oldPredictionsFile is where a bench from before the per-dataset
	// files (predictions/DATASET.csv) wrote every prediction.
	oldPredictionsFile = "predictions.csv"
)

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// freshReason is o.FreshReason, "--fresh" when empty.
func (o Options) freshReason() string {
	if o.FreshReason == "" {
		return reasonFresh
	}
	return o.FreshReason
}

// Options configure Begin.
type Options struct {
	// Fresh starts over: the cells (and manifest) of an earlier run are
	// moved aside to superseded/TIME/ instead of being resumed.
	Fresh bool
	// FreshReason is the reason the notes give for what Fresh moves
	// aside, in the words of the command that asked for it; "--fresh"
	// when empty.
	FreshReason string
	// Notes receives what Begin did with an earlier run's files, and the
	// news that a cell could not be written during the run (besides the
	// run log); nil means the run log only.
	Notes io.Writer
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Shard, when set, makes the run one shard of the grid: it computes
	// the shard's cells only and records them in DIR/shards/I-of-N.json
	// (see beginShard); bench merge writes the tables.
	Shard *Shard
	// Render makes the run's outputs when it finishes (a shard has none);
	// nil writes none.
	Render Renderer
	// Stop, when set, is called once, with the error, when a finished
	// cell's file cannot be written (a full disk): the caller stops the
	// run there instead of computing cells it could not save. The cell
	// is kept for Finish to write again.
	Stop func(error)
	// Specs are the cells' specs, by index: each cell file holds its own,
	// and a cell whose inputs changed is moved aside naming what changed
	// (cellspec.Diff). nil: none.
	Specs []*cellspec.Spec
	// KeepOtherBench keeps a cell whose spec differs from this run's only
	// by the build of bench that computed it (Want.KeepOtherBench), noting
	// each; without it such cells are computed again.
	KeepOtherBench bool
	// Inputs are the experiment's inputs: Begin refuses a results
	// directory where one of them is a file the run writes, or lies inside
	// a directory bench manages (each named where the experiment file
	// names it).
	Inputs []Input
	// Adopt lets the run write into a directory that is not bench's (see
	// Owned): each file the run replaces there is moved to
	// superseded/TIME/ first.
	Adopt bool
	// Within, when set, is the results directory that dir is an entry of
	// (a rerun's DIR/rerun): Begin makes and opens dir through Within's
	// Root, so that a symbolic link put in dir's place after the caller
	// checked it is refused, never followed.
	Within string
}

// Output is one output file of a run: its path relative to the results
// directory ("summary.csv", "plots/box_accuracy.png") and what to write
// into it.
type Output struct {
	Name  string
	Write func(io.Writer) error
}

// Renderer makes the outputs of a run (tables, figures, predictions
// files) from its manifest and its cells in index order (each with its
// spec, when known: which builds computed the tables). The package writes
// them into the results directory; it renders nothing itself.
type Renderer func(m *Manifest, cells []*Cell) ([]Output, error)

// Run is a run writing into a results directory. It implements engine.Sink.
type Run struct {
	dir     string
	m       *Manifest
	digests []string
	specs   []*cellspec.Spec
	lock    *os.File
	log     *os.File
	// shard is the shard the run computes (nil: the whole grid), and
	// shardLock its lock.
	shard     *Shard
	shardLock *os.File
	kept      map[int]*outcome.CellResult
	// keptFiles are the kept cells' files (their digests and specs).
	keptFiles map[int]*Cell
	// uid is the user the run runs as: kept cells in files another user
	// owns are warned of (warnForeignCells).
	uid    int
	render Renderer
	now    func() time.Time
	// notes receives, once, the news that a cell could not be written,
	// and stop is then called (Options.Stop).
	notes    io.Writer
	stop     func(error)
	mu       sync.Mutex
	finished map[int]*outcome.CellResult
	// unwritten holds the finished cells whose files could not be written
	// (a full disk, say), to be written again when the run finishes;
	// writeErr is the first such error.
	unwritten map[int]*outcome.CellResult
	writeErr  error
	// ident is the results directory as Begin found it: a run whose
	// directory is no longer this one (removed, replaced), or whose
	// cells/ folder was removed, writes nothing more, and goneErr says
	// why.
	ident   fs.FileInfo
	goneErr error
	// root is the results directory as Begin opened it: every file of
	// the run is written through it (see writeAt).
	root *os.Root
	// inputs are the experiment's (Options.Inputs): no output is written
	// over one.
	inputs []Input
}

// Begin opens dir for a run of the grid whose cell digests are digests
// (by cell index) and whose manifest is m (m.Experiment set; Begin fills
// status, digests, counts and start time). It locks the directory against a
// second run, refuses a directory that holds another experiment, moves
// aside (never deletes) what cannot be resumed, writes the manifest with
// status "running" and opens the run log. Cells of an earlier run of the
// same experiment whose digest matches are kept: see Kept.
func Begin(dir string, m *Manifest, digests []string, opt Options) (*Run, error) {
	now := opt.Now
	if now == nil {
		now = time.Now
	}
	if opt.Shard != nil {
		return beginShard(dir, m, digests, opt, now)
	}
	adopted, err := checkOwner(dir, m.Experiment, opt)
	if err != nil {
		return nil, err
	}
	root, lock, err := openLocked(dir, opt.Within)
	if err != nil {
		return nil, err
	}
	r := newRun(dir, m, digests, opt, now, lock)
	r.render, r.inputs, r.root = opt.Render, opt.Inputs, root
	ok := false
	defer func() {
		if !ok {
			r.close()
		}
	}()
	if err := r.hold(); err != nil {
		return nil, err
	}
	// Refused before anything is moved (appendAt checks it again); an
	// adopting run moves the user's run log aside instead.
	if !adopted {
		if err := checkOneNames(root, dir, oneName{LogFile, logOneName, "bench starts a new one"}); err != nil {
			return nil, err
		}
	}
	s := newSetup(dir, now, opt.Notes)
	old, err := r.takeOver(adopted, m, digests, opt, s)
	if err != nil {
		return nil, err
	}

	startManifest(m, digests, len(r.kept), now())
	m.CellDigests = r.digests
	if old != nil && len(old.Outputs) > 0 {
		// Still on disk until this run's Finish replaces them (and removes
		// those it no longer writes: see render).
		m.Outputs, m.OutputSHA256, m.OutputBytes, m.OutputPendingSHA256 = old.Outputs, old.OutputSHA256, old.OutputBytes, old.OutputPendingSHA256
	}
	if m.Outputs == nil {
		m.Outputs = map[string]string{}
	}
	if err := writeManifest(r.root, dir, m); err != nil {
		return nil, err
	}
	if err := r.openLog(LogFile, s, "=== %s: run of %s started (%d cells, run digest %.16s)\n",
		m.Start.Format(time.RFC3339), m.Experiment, m.Cells, m.RunDigest); err != nil {
		return nil, err
	}
	if err := r.still(); err != nil {
		return nil, err // replaced while the run started: its log went to the one held
	}
	ok = true
	return r, nil
}

// openLocked opens the results directory dir (through within, when set),
// makes its cells/ and takes its lock against a second run.
func openLocked(dir, within string) (*os.Root, *os.File, error) {
	root, err := openRunDir(dir, within)
	if err != nil {
		return nil, nil, err
	}
	if err := mkdirsAt(root, CellsDir); err != nil {
		root.Close()
		return nil, nil, fmt.Errorf("results directory: %w", linkError(root, dir, CellsDir+"/x", err))
	}
	lock, err := lockAt(root, dir)
	if err != nil {
		root.Close()
		return nil, nil, err
	}
	return root, lock, nil
}

// hold records the identity of the directory the run opened, checks that
// dir is still it, and clears a killed run's unfinished writes.
func (r *Run) hold() error {
	var err error
	if r.ident, err = r.root.Stat("."); err != nil {
		return fmt.Errorf("results directory: %w", err)
	}
	// dir replaced (by a link, say) since it was checked and opened:
	// nothing more is done there.
	if err := r.still(); err != nil {
		return err
	}
	// A killed run's unfinished writes, of the files bench writes in
	// each folder; no other file (a user's .tmp-notes.md) is touched.
	for sub, mine := range tempTargets(r.m.Experiment) {
		removeTempsOf(filepath.Join(r.dir, sub), mine, r.inputs)
	}
	return nil
}

// takeOver adopts a directory bench did not start (adopted), reads the
// earlier run's manifest, keeps the cells this run can resume and moves
// aside what it cannot; it returns the earlier manifest (nil if none).
func (r *Run) takeOver(adopted bool, m *Manifest, digests []string, opt Options, s *setup) (*Manifest, error) {
	if adopted {
		if err := adopt(r.dir, s); err != nil {
			return nil, err
		}
	}
	old, err := previousManifest(r.dir, m, opt.Fresh, opt.freshReason(), s)
	if err != nil {
		return nil, err
	}
	want := Want{Digests: digests, Specs: opt.Specs, Predictions: m.Predictions, Fresh: opt.Fresh, FreshReason: opt.freshReason(), KeepOtherBench: opt.KeepOtherBench}
	plan, err := r.keep(filepath.Join(r.dir, CellsDir), want, s)
	if err != nil {
		return nil, err
	}
	r.keptFiles = plan.Kept
	if err := moveOldPredictions(r.dir, s); err != nil {
		return nil, err
	}
	if len(r.kept) > 0 {
		s.note("resuming: %d of %d cells kept from an earlier run, %d to run", len(r.kept), len(digests), len(digests)-len(r.kept))
	}
	return old, nil
}

// moveOldPredictions moves aside the one wide predictions file a bench
// from before predictions/DATASET.csv wrote: it would now sit beside the
// per-dataset files, stale.
func moveOldPredictions(dir string, s *setup) error {
	if old := filepath.Join(dir, oldPredictionsFile); fileExists(old) {
		return s.moveAside(old, "predictions are now written per dataset, to predictions/DATASET.csv")
	}
	return nil
}

// previousManifest returns the manifest of the run that last wrote into
// dir, nil if none did. Another experiment's is an error, as is one that
// cannot be read, unless fresh: a fresh run moves it aside, read or not,
// for the reason why.
func previousManifest(dir string, m *Manifest, fresh bool, why string, s *setup) (*Manifest, error) {
	old, err := ReadManifest(dir)
	switch {
	case err == nil && old.Experiment != m.Experiment:
		return nil, fmt.Errorf("results directory %s holds experiment %q, not %q: choose another directory with -o (or move it away)",
			dir, old.Experiment, m.Experiment)
	case errors.Is(err, os.ErrNotExist):
		return nil, nil
	case err != nil && fresh:
		// Starting over: the damaged manifest goes aside with the cells.
		return nil, s.moveAside(filepath.Join(dir, ManifestFile), why+" (the manifest could not be read)")
	case err != nil:
		return nil, fmt.Errorf("cannot tell what results directory %s holds: %w\n%s", dir, err, damagedManifestAdvice(dir))
	case fresh:
		return old, s.moveAside(filepath.Join(dir, ManifestFile), why)
	}
	return old, nil
}

// Kept returns the cells kept from an earlier run, by index (engine.Options
// Done).
func (r *Run) Kept() map[int]*outcome.CellResult { return r.kept }

// Log is the run log: append-only, one section per run.
func (r *Run) Log() io.Writer { return r.log }

// Dir is the results directory.
func (r *Run) Dir() string { return r.dir }

// CellFinished writes a finished cell's file (engine.Sink).
func (r *Run) CellFinished(c *outcome.CellResult) error {
	if c.Index < 0 || c.Index >= len(r.digests) {
		return fmt.Errorf("cell index %d out of range [0, %d)", c.Index, len(r.digests))
	}
	if err := r.still(); err != nil {
		r.lose(err)
		return nil // Finish reports it
	}
	if err := writeCellIn(r.root, r.dir, c, r.digests[c.Index], r.spec(c.Index)); err != nil {
		r.keepUnwritten(c, err)
		return nil // Finish writes it again, or reports it
	}
	r.mu.Lock()
	r.finished[c.Index] = c
	r.mu.Unlock()
	return nil
}

// spec returns cell i's spec, or nil.
func (r *Run) spec(i int) *cellspec.Spec {
	if i < len(r.specs) {
		return r.specs[i]
	}
	return nil
}

// keepUnwritten keeps a finished cell whose file could not be written, for
// Finish to write again, and at the first such failure says so and stops
// the run (Options.Stop): with a full disk every later cell would be lost
// too. Without Stop the run goes on (the disk may have room again by the
// time it ends).
func (r *Run) keepUnwritten(c *outcome.CellResult, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.unwritten[c.Index] = c
	if r.log != nil {
		fmt.Fprintf(r.log, "cell %d could not be written (written again when the run ends): %v\n", c.Index, err)
	}
	if r.writeErr != nil {
		return
	}
	r.writeErr = err
	if r.stop != nil {
		if r.notes != nil {
			fmt.Fprintf(r.notes, "bench: %v\nbench: stopping the run: the cells already written are kept; make room and run the same command again to resume\n", err)
		}
		r.stop(fmt.Errorf("cell %d could not be saved: %w", c.Index, err))
		return
	}
	if r.notes != nil {
		fmt.Fprintf(r.notes, "bench: %v\nbench: the run goes on and writes the cells it cannot write now when it ends; make room meanwhile\n", err)
	}
}

// writeUnwritten writes again the cells CellFinished could not write; those
// it writes become finished. It returns an error naming the cells still
// unwritten and what to do.
func (r *Run) writeUnwritten() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var last error
	for i, c := range r.unwritten {
		if err := writeCellIn(r.root, r.dir, c, r.digests[i], r.spec(i)); err != nil {
			last = err
			continue
		}
		r.finished[i] = c
		delete(r.unwritten, i)
	}
	if len(r.unwritten) == 0 {
		return nil
	}
	return fmt.Errorf("%d finished cell(s) could not be written (%w); they are left out of the results: make room and run the same command again, which keeps the cells on disk and computes these again", len(r.unwritten), last)
}

// Finish writes the tables of the cells on disk (kept and finished in this
// run) and then the manifest with its final status and outputs, and closes
// the run. status is StatusComplete, StatusInterrupted or StatusFailed;
// StatusComplete becomes StatusInterrupted when cells are missing. A
// cell whose file was removed during the run is missing: the tables and
// the manifest leave it out, and the error returned names it (lostError).
// A run log removed during the run is a warning on Options.Notes. It
// returns the paths written, the manifest last. uploads is recorded in the
// manifest.
func (r *Run) Finish(status Status, uploads int64) ([]string, error) {
	if r.shard != nil {
		return r.finishShard(status, uploads)
	}
	defer r.close()
	if err := r.still(); err != nil {
		return nil, err
	}
	unwritten := r.writeUnwritten()
	r.mu.Lock()
	cells := make([]*Cell, 0, len(r.kept)+len(r.finished))
	for i, c := range r.kept {
		f := r.keptFiles[i]
		if f == nil {
			f = &Cell{Digest: r.digests[i]}
		}
		cells = append(cells, &Cell{Schema: f.Schema, Digest: f.Digest, Spec: f.Spec, CellResult: c})
	}
	for i, c := range r.finished {
		cells = append(cells, &Cell{Schema: CellSchema, Digest: r.digests[i], Spec: r.spec(i), CellResult: c})
	}
	r.mu.Unlock()
	sort.Slice(cells, func(i, j int) bool { return cells[i].Index < cells[j].Index })
	var lost error
	if gone := r.lostCells(cellIndices(cells)); len(gone) > 0 {
		cells = slices.DeleteFunc(cells, func(c *Cell) bool { _, found := slices.BinarySearch(gone, c.Index); return found })
		lost = lostError(r.dir, gone)
	}
	m := r.m
	if status == StatusComplete && len(cells) < m.Cells {
		status = StatusInterrupted
	}
	m.Status = status
	m.End = r.now().UTC()
	m.Uploads = uploads
	m.Finished = len(cells)
	m.FailedCells = 0
	for _, c := range cells {
		if c.Failed() {
			m.FailedCells++
		}
	}
	aside := newSetup(r.dir, r.now, r.notes)
	written, err := writeOutputs(r.root, r.dir, m, cells, r.render, r.replacer(aside), r.inputs, aside)
	for _, note := range aside.notes {
		fmt.Fprintln(r.log, note)
	}
	if gone := r.still(); gone != nil {
		// Removed while the tables were rendered or written: nothing
		// more is written, the manifest neither.
		fmt.Fprintf(r.log, "%v\n", gone)
		return written, gone
	}
	if err != nil {
		m.Status = StatusFailed
		fmt.Fprintf(r.log, "writing the tables: %v\n", err)
	}
	werr := writeManifest(r.root, r.dir, m)
	if werr == nil {
		written = append(written, filepath.Join(r.dir, ManifestFile))
	}
	for _, e := range []error{unwritten, lost} {
		if e != nil {
			fmt.Fprintln(r.log, e)
		}
	}
	fmt.Fprintf(r.log, "=== %s: run %s, %d of %d cells (%d failed, %d kept from an earlier run)\n",
		m.End.Format(time.RFC3339), m.Status, m.Finished, m.Cells, m.FailedCells, m.Resumed)
	r.logGone(LogFile)
	return written, errors.Join(unwritten, lost, err, werr)
}

// cellIndices returns the indices of cells.
func cellIndices(cells []*Cell) []int {
	out := make([]int, len(cells))
	for k, c := range cells {
		out[k] = c.Index
	}
	return out
}

func (r *Run) close() {
	if r.log != nil {
		r.log.Close()
	}
	if r.root != nil {
		r.root.Close()
	}
	r.unlock()
}

// hasPredictions reports whether a finished cell holds the per-row
// predictions of every fold; a failed cell has none to hold.
func hasPredictions(c *outcome.CellResult) bool {
	for _, f := range c.Folds {
		if f.Predictions == nil {
			return false
		}
	}
	return true
}

// writeOutputs writes the outputs render makes of m's run for cells into
// dir and records them in m.Outputs, with the SHA-256 of each in
// m.OutputSHA256 (nil render: none); before, when
// set, is called first with each output's path and whether an earlier
// run lists it (Run.replacer: a file there no run lists is the user's, in
// a directory adopted, and an input is never written over). An output
// file that changed since the earlier run wrote it (keepEdited: edited by
// hand) is moved aside through aside before it is written again. The outputs an earlier run recorded in dir's manifest that
// this one does not write (a format dropped, no tuned cell any more) are
// moved aside through aside (nil: a setup of its own, its notes
// unsaid): they are made from the cells, which stay, and would otherwise
// sit beside the new outputs, stale (see removeStale: only names a run of
// the experiment writes, never one of inputs).
func writeOutputs(root *os.Root, dir string, m *Manifest, cells []*Cell, render Renderer, before func(path string, listed bool) error, inputs []Input, aside *setup) ([]string, error) {
	if aside == nil {
		aside = newSetup(dir, time.Now, nil)
	}
	var files []Output
	if render != nil {
		var err error
		if files, err = render(m, cells); err != nil {
			return nil, err
		}
	}
	// disk is the manifest in dir as the outputs are written (nil: none
	// read), whose digests the next command checks the outputs against
	// should this one be killed before it writes m.
	var previous, sums, pending map[string]string
	var sizes map[string]int64
	disk, err := ReadManifest(dir)
	if err == nil {
		previous, sums, sizes, pending = disk.Outputs, disk.OutputSHA256, disk.OutputBytes, disk.OutputPendingSHA256
	} else {
		disk = nil
	}
	m.Outputs, m.OutputSHA256, m.OutputBytes, m.OutputPendingSHA256 = map[string]string{}, map[string]string{}, map[string]int64{}, nil
	var written []string
	for _, f := range files {
		path, err := inside(dir, f.Name)
		if err != nil {
			return written, err
		}
		if err := ownName(f.Name, m.Outputs); err != nil {
			return written, err
		}
		if _, listed := previous[f.Name]; before != nil {
			if err := before(path, listed); err != nil {
				return written, err
			}
		}
		recorded := Written{SHA256: sums[f.Name], Size: -1}
		if n, ok := sizes[f.Name]; ok {
			recorded.Size = n
		}
		have, err := keepEdited(root, f.Name, path, recorded, pending[f.Name], aside)
		if err != nil {
			return written, err
		}
		b, sum, err := renderOutput(dir, f)
		if err == nil {
			err = pend(root, dir, disk, f.Name, have, sum)
		}
		if err == nil {
			err = writeAt(root, dir, f.Name, b, 0o644)
		}
		if err != nil {
			// The earlier outputs not yet written again stay, whole, and
			// listed: the tables of the last run that got to write them.
			for name, path := range previous {
				if _, ok := m.Outputs[name]; !ok {
					m.Outputs[name] = path
					if recorded, ok := sums[name]; ok {
						m.OutputSHA256[name] = recorded
					}
					if n, ok := sizes[name]; ok {
						m.OutputBytes[name] = n
					}
					if p, ok := pending[name]; ok {
						if m.OutputPendingSHA256 == nil {
							m.OutputPendingSHA256 = map[string]string{}
						}
						m.OutputPendingSHA256[name] = p
					}
				}
			}
			return written, err
		}
		m.Outputs[f.Name], m.OutputSHA256[f.Name], m.OutputBytes[f.Name] = path, sum, int64(len(b))
		written = append(written, path)
	}
	removeStale(root, dir, m.Experiment, previous, m.Outputs, inputs, aside)
	return written, nil
}

// keepEdited moves aside, through aside, the output file name (at path)
// that an earlier run wrote as recorded (its SHA-256, and its size when
// the manifest records it), or was about to write with the SHA-256
// pending (a run killed before its manifest), and that has neither: the
// user edited it (notes added to the Markdown report, say), and writing
// the output again would lose the edits. Sizes are compared first
// (asWritten): a file replaced by a huge one is moved aside unread. It
// returns the file's content when the file stays (as bench wrote it),
// zero Written otherwise. Nothing is moved when recorded.SHA256 is "" (a
// manifest of a bench from before the digests), when the file is as
// written, or when it is not a regular file reached through real folders
// (a link put there is replaced, never followed: writeAt). A file that
// cannot be read or moved is an error: it is not written over.
func keepEdited(root *os.Root, name, path string, recorded Written, pending string, aside *setup) (Written, error) {
	if recorded.SHA256 == "" || !plainFile(root, name) {
		return Written{}, nil
	}
	want := []Written{recorded}
	if pending != "" {
		want = append(want, Written{SHA256: pending, Size: -1})
	}
	have, how, err := asWritten(root, name, want)
	if err != nil {
		return Written{}, fmt.Errorf("reading %s before writing it again: %w", path, err)
	}
	if how == sameAsWritten {
		return have, nil
	}
	return Written{}, aside.moveAside(path, editedReason(how, have.Size, ManifestFile, "an output of the run replaces it"))
}

// pend records in disk, the manifest in dir (nil: none), before output
// name is written with the SHA-256 sum, that its file may have that
// digest, when the next command would otherwise take the file written
// for one edited by hand (its recorded digest another, nor sum pending
// already): the digest and size the file has now (have, checked by
// keepEdited; zero when there is none to keep) become the recorded ones
// and sum the pending one, so that the file is bench's whether or not the command is
// killed before it writes it, or after and before its manifest.
func pend(root *os.Root, dir string, disk *Manifest, name string, have Written, sum string) error {
	if disk == nil {
		return nil
	}
	recorded := disk.OutputSHA256[name]
	if recorded == "" || sum == recorded || sum == disk.OutputPendingSHA256[name] {
		return nil
	}
	if have.SHA256 != "" {
		disk.OutputSHA256[name] = have.SHA256
		if disk.OutputBytes == nil {
			disk.OutputBytes = map[string]int64{}
		}
		disk.OutputBytes[name] = have.Size
	}
	if disk.OutputPendingSHA256 == nil {
		disk.OutputPendingSHA256 = map[string]string{}
	}
	disk.OutputPendingSHA256[name] = sum
	return rewriteManifest(root, dir, disk)
}

// ownName refuses output name when it is a file of the results directory
// that the run itself writes (the manifest, the log, the lock) or an
// output already written (written, by name), so that no output takes the
// place of another and none is listed twice (the parser's callers refuse
// an experiment name that would make one: NameClash).
func ownName(name string, written map[string]string) error {
	for _, own := range []string{ManifestFile, LogFile, lockFile} {
		if strings.EqualFold(name, own) {
			return fmt.Errorf("output %s would overwrite the results directory's %s: rename the experiment", name, own)
		}
	}
	if _, dup := written[name]; dup {
		return fmt.Errorf("output %s would be written twice", name)
	}
	return nil
}

// removeStale moves aside, to superseded/TIME/ through aside (never
// deleting them), the files of previous (an earlier manifest's outputs,
// by name) that current does not list, and removes the folders they
// leave empty (plots/, predictions/). The manifest is a file anyone may
// edit, so its list only narrows what is moved: a name is moved only when
// a run of experiment writes such a file (see staleOutput: computed from
// the run, not read from the manifest), the file is not one of inputs
// (the data, folds, test or experiment file of the run), and it is a
// regular file reached through real folders of dir (root: no link is
// followed out of it).
func removeStale(root *os.Root, dir, experiment string, previous, current map[string]string, inputs []Input, aside *setup) {
	folders := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(previous)) {
		if _, ok := current[name]; ok || !staleOutput(name, experiment) || !plainFile(root, name) {
			continue
		}
		p, err := inside(dir, name)
		if err != nil || isInput(p, inputs) {
			continue
		}
		if aside.moveAside(p, "an earlier run wrote it and this run does not") == nil {
			if sub := path.Dir(name); sub != "." {
				folders[sub] = true
			}
		}
	}
	for sub := range folders {
		root.Remove(sub) // only when empty
	}
}

// outputExts are the extensions of the files a run writes in plots/ and
// predictions/: figures (PNG, SVG) and tables (CSV and the others).
var outputExts = []string{".md", ".html", ".tex", ".json", ".csv", ".png", ".svg"}

// staleOutput reports whether name (slash-separated, relative to a
// results directory) is a file a run of experiment writes and may stop
// writing: at the top, one of outputNames (the experiment's tables, never
// the manifest, the log or the lock); or a file of plots/ or
// predictions/ with one of outputExts; nothing in cells/, shards/ or
// superseded/, and no other top-level name (the user's notes.md).
func staleOutput(name, experiment string) bool {
	dir, file := path.Split(name)
	switch dir {
	case "":
		return name != ManifestFile && name != LogFile && name != lockFile && slices.Contains(outputNames(experiment), name)
	case "plots/", "predictions/":
		return slices.Contains(outputExts, path.Ext(file))
	}
	return false
}

// plainFile reports whether name, under root, is a regular file in a
// folder of root that is not a link.
func plainFile(root *os.Root, name string) bool {
	if sub := path.Dir(name); sub != "." {
		if fi, err := root.Lstat(sub); err != nil || !fi.IsDir() {
			return false
		}
	}
	fi, err := root.Lstat(name)
	return err == nil && fi.Mode().IsRegular()
}

// isInput reports whether the file at p is one of inputs (the same file,
// by device and inode).
func isInput(p string, inputs []Input) bool {
	fi, err := os.Stat(p)
	if err != nil {
		return false
	}
	for _, in := range inputs {
		if ii, err := os.Stat(in.Path); err == nil && os.SameFile(fi, ii) {
			return true
		}
	}
	return false
}

// Load reads a results directory: its manifest and every cell file,
// checked by Verify. A bad, inconsistent or foreign cell file is an error
// naming it.
func Load(dir string) (*Manifest, []*Cell, error) {
	m, err := readManifestAdvised(dir)
	if err != nil {
		return nil, nil, err
	}
	cells, err := Verify(dir, m)
	return m, cells, err
}

// Verify reads and checks every cell file of a results directory against
// its manifest m, by the rule a merge applies (Reconcile): each file must
// be a good cell file (ReadCell: its checksum, its spec against its
// digest, its numbers consistent with each other) whose digest is the one
// m records for its index. It returns the good cells in index order and
// an error naming every other file with its reason (joined *CellError
// values). A manifest that records no cell digests (an older bench's)
// has its cells checked without them.
func Verify(dir string, m *Manifest) ([]*Cell, error) {
	cellsDir := filepath.Join(dir, CellsDir)
	if len(m.CellDigests) == 0 {
		return ReadCells(cellsDir, m.Cells)
	}
	want := Want{Digests: m.CellDigests, KeepFailed: true}
	entries, err := readEntries(cellsDir, want.relevance())
	if err != nil {
		return nil, err
	}
	plan := Reconcile(entries, want)
	var errs []error
	for _, d := range plan.Decisions {
		if d.Action == Keep {
			continue
		}
		path := filepath.Join(cellsDir, d.Name)
		reason := d.Reason
		switch {
		case d.Bad != "" || d.Index < 0 || d.Again:
		case d.Action == Renumber:
			reason = fmt.Sprintf("it holds cell %d, not cell %d (moved by hand?)", d.To, d.Index)
		case d.Index < len(m.CellDigests):
			reason = fmt.Sprintf("not a cell of this run: its digest %.16s… is not the one %s records for cell %d (%.16s…); a cell of another run (another seed, data, plugin or bench?) copied in", d.Cell.Digest, ManifestFile, d.Index, m.CellDigests[d.Index])
		default:
			reason = fmt.Sprintf("not a cell of this run: cell index %d, the run has %d cells", d.Index, len(m.CellDigests))
		}
		errs = append(errs, &CellError{Path: path, Reason: reason})
	}
	cells := make([]*Cell, 0, len(plan.Kept))
	for _, i := range sortedKeys(plan.Kept) {
		cells = append(cells, plan.Kept[i])
	}
	return cells, errors.Join(errs...)
}

// Results returns the engine results of cells.
func Results(cells []*Cell) []*outcome.CellResult {
	out := make([]*outcome.CellResult, len(cells))
	for i, c := range cells {
		out[i] = c.CellResult
	}
	return out
}

// Render writes the outputs render makes of a results directory's
// manifest and cell files again (bench table) and updates the manifest's
// outputs. Cell files are checked first: any bad one stops it, named with
// its reason. Each file it moves aside (an output edited since it was
// written, one no longer made) is said in one line to notes (nil: none).
func Render(dir string, render Renderer, notes io.Writer) (*Manifest, []string, error) {
	if err := checkLayout(dir); err != nil {
		return nil, nil, err
	}
	if _, err := readManifestAdvised(dir); err != nil {
		return nil, nil, err // before the lock, which would create a file
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, nil, err
	}
	defer unlockDir(lock)
	m, cells, err := Load(dir)
	if err != nil {
		return nil, nil, err
	}
	if m.Status == StatusRunning {
		// We hold the lock: the run that wrote "running" is gone (killed,
		// crashed, a power cut) without finishing.
		m.Status = StatusInterrupted
	}
	root, err := openRoot(dir)
	if err != nil {
		return m, nil, err
	}
	defer root.Close()
	s := newSetup(dir, time.Now, notes)
	byIndex := make(map[int]*Cell, len(cells))
	for _, c := range cells {
		byIndex[c.Index] = c
	}
	warnForeignCells(s, "read from", dir, filepath.Join(dir, CellsDir), cellFileNames(byIndex), os.Geteuid())
	written, err := writeOutputs(root, dir, m, cells, render, nil, nil, s)
	if err != nil {
		return m, written, err
	}
	m.Finished = len(cells)
	if err := writeManifest(root, dir, m); err != nil {
		return m, written, err
	}
	return m, append(written, filepath.Join(dir, ManifestFile)), nil
}

// Held is a results directory locked for reading by Hold.
type Held struct {
	lock *os.File
}

// Hold locks the results directory dir, which must hold a manifest (an
// error wrapping os.ErrNotExist when it holds none), against bench runs
// while its results are read and compared (bench rerun): a directory a
// bench run is writing into is refused with bench table's error ("results
// directory DIR is in use by another bench run"), and no run starts there
// until Release. Load it after Hold: a manifest that still says "running"
// then records a run that is gone.
func Hold(dir string) (*Held, error) {
	if _, err := readManifestAdvised(dir); err != nil {
		return nil, err // before the lock, which would create a file
	}
	lock, err := lockRecorded(dir)
	if err != nil {
		return nil, err
	}
	return &Held{lock: lock}, nil
}

// Release releases the lock Hold took.
func (h *Held) Release() {
	if h != nil && h.lock != nil {
		unlockDir(h.lock)
		h.lock = nil
	}
}

func (r *Run) unlock() {
	if r.shardLock != nil {
		unlockDir(r.shardLock)
		r.shardLock = nil
	}
	if r.lock != nil {
		unlockDir(r.lock)
		r.lock = nil
	}
}

// readManifestAdvised is ReadManifest with, for a manifest that exists but
// cannot be read, what to do about it.
func readManifestAdvised(dir string) (*Manifest, error) {
	m, err := ReadManifest(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w\n%s", err, damagedManifestAdvice(dir))
	}
	return m, err
}

// damagedManifestAdvice says what to do about a results directory whose
// manifest cannot be read (a run killed while writing it on a full disk,
// a hand edit).
func damagedManifestAdvice(dir string) string {
	return fmt.Sprintf("If %s holds this experiment's results, move %s aside (or delete it) and run again: the cell files are checked one by one and kept; or run with --fresh to start over (everything is moved aside, nothing deleted).",
		dir, filepath.Join(dir, ManifestFile))
}
