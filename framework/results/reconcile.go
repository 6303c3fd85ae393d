package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/polyclass/polyclass/framework/cellspec"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/safetext"
)

// Entry is one file of a cells directory as Reconcile sees it.
type Entry struct {
	// Name is the file's name in the cells directory.
	Name string
	// Index is the cell index its name starts with; -1 for a name that is
	// not a cell file's (IIII-DIGEST.json).
	Index int
	// Cell is the file's cell, read and checked (ReadCell); nil when the
	// file was not read or is bad.
	Cell *Cell
	// Bad says why the file is not a good cell file; "" when it is good
	// or was not read.
	Bad string
}

// Want is what a run, a shard or a merge wants of a cells directory.
type Want struct {
	// Digests are the digests of the grid's cells, by index: the whole
	// grid's, so that a cell that moved to another index is found. An
	// empty digest is a cell whose digest is not known (a merge of shards
	// that did not all run).
	Digests []string
	// Specs are the cells' specs, by index, when known: a file whose
	// inputs changed is moved aside naming the inputs (cellspec.Diff
	// between its spec and the spec of the cell of the same key).
	Specs []*cellspec.Spec
	// Own reports whether the cell at an index is the caller's: its file
	// may be kept, moved aside or written. Files at other indices are left
	// alone, except as the source of a renumbered copy. nil: every index.
	Own func(index int) bool
	// Predictions asks for cells that hold their per-row predictions
	// (output.predictions): a cell without them runs again.
	Predictions bool
	// Fresh moves aside every file of the caller's instead of keeping it.
	Fresh bool
	// FreshReason is the reason a Decision gives for what Fresh moves
	// aside; "--fresh" when empty.
	FreshReason string
	// KeepFailed keeps failed cells (a merge shows them); without it they
	// run again, as missing ones do (their cause may have been fixed).
	KeepFailed bool
	// KeepOtherBench keeps a cell whose spec differs from the wanted one
	// only by the build of bench that computed it (needs Specs); without
	// it the cell runs again.
	KeepOtherBench bool
}

// Action is what Reconcile decides for one file.
type Action int

// The actions on a file of the cells directory.
const (
	// Leave: not the caller's to touch (another shard's cell), or not read.
	Leave Action = iota
	// Keep: the file is cell Index's: it is not computed again.
	Keep
	// Renumber: the file holds the cell now at index To (blocks were
	// added or removed): a copy is written under the new index, and the
	// file itself is moved aside when Aside is set.
	Renumber
	// MoveAside: the file is moved aside to superseded/, for Reason.
	MoveAside
)

// Decision is what to do with one entry.
type Decision struct {
	Entry
	Action Action
	// To is the index the cell is kept at (Keep, Renumber).
	To int
	// Aside, for Renumber, also moves the file itself aside (it sits at one
	// of the caller's indices).
	Aside bool
	// Reason says why a file is moved aside.
	Reason string
	// Again marks a file moved aside as a second file of a cell that
	// another file provides.
	Again bool
	// Note, for a kept or renumbered cell, says why it is taken although
	// its digest is not the wanted one (KeepOtherBench).
	Note string
}

// Plan is Reconcile's answer: a decision per entry (in entry order), the
// cells kept (by index: the entry that provides each) and the caller's
// cells to compute, in index order.
type Plan struct {
	Decisions []Decision
	Kept      map[int]*Cell
	Run       []int
}

// Reasons a file is moved aside.
const (
	reasonFresh       = "--fresh"
	reasonChanged     = "its inputs changed (digest differs), or its block left the grid"
	reasonPredictions = "output.predictions is set and the cell file holds no predictions (computed without it): the cell runs again"
	failedAgain       = "it failed in the earlier run: it runs again"
	reasonNotCell     = "not a cell file (cells/ holds IIII-DIGEST.json files only)"
)

// Reconcile decides, for the files of a cells directory and what the caller
// wants of it, which cells are kept, which files are moved aside (and
// why), which are renumbered, and which cells must be computed. It is the
// one rule of resuming a run (Begin), starting a shard and merging shards;
// it does no I/O.
//
// A good file at one of the caller's indices is kept when its digest is
// that index's; a good file whose digest is another index's is renumbered
// (copied there) when either index is the caller's and that index has no
// file of its own; failed cells and, with Want.Predictions, cells without
// predictions run again; bad files and those of other inputs are moved
// aside, the inputs that changed named when the specs tell; the first
// file of a cell wins over its duplicates. With Want.KeepOtherBench, a
// cell whose spec differs from its index's only by the build of bench is
// taken as that index's, with a note.
func Reconcile(entries []Entry, w Want) Plan {
	r := newReconciler(w, len(entries))
	// First the files under their own index, then the renumbered ones: a
	// cell's own file wins over a copy from elsewhere.
	for pass := range 2 {
		for k, e := range entries {
			i, note := r.m.target(e)
			isDirect := i >= 0 && i == e.Index
			if (pass == 0) != isDirect {
				continue
			}
			r.p.Decisions[k] = r.decide(e, i, note, isDirect)
		}
	}
	for i := range w.Digests {
		if r.own(i) && r.p.Kept[i] == nil {
			r.p.Run = append(r.p.Run, i)
		}
	}
	return r.p
}

// reconciler is the state of one Reconcile: what is wanted, the plan so
// far and the indices provided.
type reconciler struct {
	w Want
	// own reports whether an index is the caller's (every index when
	// Want.Own is nil).
	own func(int) bool
	m   *matcher
	p   Plan
	// provided holds the indices with a usable file of their own, the
	// caller's or not: no copy is written over it.
	provided map[int]bool
}

func newReconciler(w Want, entries int) *reconciler {
	own := w.Own
	if own == nil {
		own = func(int) bool { return true }
	}
	return &reconciler{w: w, own: own, m: newMatcher(w),
		p: Plan{Decisions: make([]Decision, entries), Kept: map[int]*Cell{}}, provided: map[int]bool{}}
}

// ours reports whether the caller may move e aside: a file of no cell
// when the caller owns every index, else a file of one of its indices.
func (r *reconciler) ours(e Entry) bool {
	return e.Index < 0 && r.w.Own == nil || e.Index >= 0 && r.own(e.Index)
}

// unusable says why a good cell runs again ("" when it does not): it
// failed, or it lacks the predictions wanted.
func (r *reconciler) unusable(c *Cell) string {
	switch {
	case c.Failed() && !r.w.KeepFailed:
		return failedAgain
	case r.w.Predictions && !hasPredictions(c.CellResult):
		return reasonPredictions
	}
	return ""
}

// decide decides entry e, whose cell belongs to index i (−1: none; note
// from the matcher), isDirect when i is its own index.
func (r *reconciler) decide(e Entry, i int, note string, isDirect bool) Decision {
	d := Decision{Entry: e, Note: note}
	aside := func(why string) {
		if r.ours(e) {
			d.Action, d.Reason = MoveAside, why
		}
	}
	switch {
	case r.w.Fresh && r.w.FreshReason != "":
		aside(r.w.FreshReason)
	case r.w.Fresh:
		aside(reasonFresh)
	case e.Index < 0:
		aside(reasonNotCell)
	case e.Bad != "":
		aside(e.Bad)
	case e.Cell == nil:
		// not read: left alone
	case i < 0:
		aside(r.m.changed(e))
	case r.unusable(e.Cell) != "":
		aside(r.unusable(e.Cell))
	case r.provided[i]:
		aside(fmt.Sprintf("cell %d again", i))
		d.Again = true
	case isDirect:
		r.provided[i] = true
		if r.own(i) {
			d.Action, d.To = Keep, i
			r.p.Kept[i] = e.Cell
		}
	case r.own(i) || r.ours(e):
		d.Action, d.To, d.Aside = Renumber, i, r.ours(e)
		d.Reason = fmt.Sprintf("renumbered: cell %d is now cell %d", e.Index, i)
		r.provided[i] = true
		if r.own(i) {
			r.p.Kept[i] = e.Cell
		}
	}
	if d.Action != Keep && d.Action != Renumber {
		d.Note = ""
	}
	return d
}

// matcher finds the index a cell file belongs to: by its digest, or, for
// KeepOtherBench, by its key and a spec that differs only by bench's build.
type matcher struct {
	w        Want
	byDigest map[string]int
	byKey    map[string]int
}

func newMatcher(w Want) *matcher {
	m := &matcher{w: w, byDigest: make(map[string]int, len(w.Digests)), byKey: map[string]int{}}
	for i := len(w.Digests) - 1; i >= 0; i-- {
		if d := w.Digests[i]; d != "" {
			m.byDigest[d] = i // the first index of a digest
		}
		if i < len(w.Specs) && w.Specs[i] != nil {
			m.byKey[w.Specs[i].Cell] = i
		}
	}
	return m
}

// target returns the index e's cell belongs to, or -1, and a note when it
// was taken for KeepOtherBench.
func (m *matcher) target(e Entry) (int, string) {
	if e.Cell == nil {
		return -1, ""
	}
	if i, ok := m.byDigest[e.Cell.Digest]; ok {
		return i, ""
	}
	j, ok := m.byKey[e.Cell.Key()]
	if !m.w.KeepOtherBench || !ok || e.Cell.Spec == nil {
		return -1, ""
	}
	// The digests differ: when they agree with bench's build set alike, the
	// build is the only difference.
	old, now := *e.Cell.Spec, *m.w.Specs[j]
	old.Bench = now.Bench
	if old.Digest() != now.Digest() {
		return -1, ""
	}
	return j, fmt.Sprintf("kept, computed by bench %s (this is bench %s; --keep-other-bench)", e.Cell.Spec.Bench, m.w.Specs[j].Bench)
}

// changed says why a good file of no wanted cell is moved aside: the
// inputs of its cell that changed, when both specs are known.
func (m *matcher) changed(e Entry) string {
	j, ok := m.byKey[e.Cell.Key()]
	switch {
	case !ok && m.w.Specs != nil:
		return fmt.Sprintf("cell %s is not in the experiment any more", e.Cell.Key())
	case !ok:
		return reasonChanged
	case e.Cell.Spec == nil:
		return "its inputs changed (digest differs; the file, written by an older bench, does not say which)"
	}
	diff := cellspec.Diff(e.Cell.Spec, m.w.Specs[j])
	if len(diff) == 0 {
		return reasonChanged
	}
	// The spec's values are the cell file's, which ReadCell holds to
	// CheckVisible only where a table shows them: escaped here, so that a
	// value edited into the file (an ESC in a dataset's target) never
	// reaches the terminal raw, nor a newline a line of its own (campaign
	// 10b V27-V29, 10c V30).
	return "its inputs changed: " + safetext.OneLine(strings.Join(diff, "; "))
}

// relevance returns whether Reconcile needs a file of the cells
// directory read, by name: a file at one of the caller's indices, or one
// that may hold another index's cell (its name's digest prefix is a
// wanted digest's). The others are left alone unread.
func (w Want) relevance() func(name string) bool {
	suffixes := make(map[string]bool, len(w.Digests))
	for _, d := range w.Digests {
		if d != "" {
			suffixes[strings.TrimPrefix(CellFileName(0, d), "0000")] = true
		}
	}
	return func(name string) bool {
		i, isCell := cellIndex(name)
		switch {
		case w.Own == nil:
			return true
		case !isCell:
			return false
		case w.Own(i):
			return true
		}
		return suffixes[name[strings.IndexByte(name, '-'):]]
	}
}

// readEntries lists a cells directory (names starting with "." are
// unfinished writes, and skipped) and reads the files relevant accepts.
func readEntries(cellsDir string, relevant func(name string) bool) ([]Entry, error) {
	list, err := os.ReadDir(cellsDir)
	if err != nil {
		return nil, fmt.Errorf("results directory: %w", err)
	}
	var out []Entry
	for _, f := range list {
		name := f.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		e := Entry{Name: name, Index: -1}
		if i, ok := cellIndex(name); ok && strings.HasSuffix(name, ".json") && !f.IsDir() {
			e.Index = i
		}
		if !relevant(name) {
			out = append(out, e)
			continue
		}
		if e.Index >= 0 {
			c, err := ReadCell(filepath.Join(cellsDir, name), -1)
			var ce *CellError
			switch {
			case errors.As(err, &ce):
				e.Bad = ce.Reason
			case err != nil:
				return nil, err
			default:
				e.Cell = c
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// apply carries out plan in the cells directory: the renumbered copies
// first, then the files moved aside (so that a kill between the two
// loses no cell), each said in s's notes. It returns the kept cells.
func apply(cellsDir string, plan Plan, s *setup) (map[int]*outcome.CellResult, error) {
	for _, d := range plan.Decisions {
		if d.Action != Renumber {
			continue
		}
		c := *d.Cell.CellResult
		c.Index = d.To
		if _, err := WriteCell(cellsDir, &c, d.Cell.Digest, d.Cell.Spec); err != nil {
			return nil, err
		}
		if !d.Aside {
			s.note("renumbered: cell %d of an earlier grid is now cell %d (%s)", d.Index, d.To, CellFileName(d.To, d.Cell.Digest))
		}
		d.Cell.CellResult = &c
	}
	for _, d := range plan.Decisions {
		if d.Action == MoveAside || d.Action == Renumber && d.Aside {
			if err := s.moveAside(filepath.Join(cellsDir, d.Name), d.Reason); err != nil {
				return nil, err
			}
		}
	}
	for _, d := range plan.Decisions {
		if d.Note != "" {
			s.note("cell %d (%s): %s", d.To, d.Cell.Key(), d.Note)
		}
	}
	kept := make(map[int]*outcome.CellResult, len(plan.Kept))
	for i, c := range plan.Kept {
		kept[i] = c.CellResult
	}
	return kept, nil
}

// digests returns the wanted digests with those of the kept cells put in:
// a cell kept for Want.KeepOtherBench keeps its own.
func (p Plan) digests(wanted []string) []string {
	out := append([]string(nil), wanted...)
	for i, c := range p.Kept {
		if i < len(out) {
			out[i] = c.Digest
		}
	}
	return out
}
