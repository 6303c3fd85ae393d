package results

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/cellspec"
)

// entry is a good cell file: cell i of digest(d), failed or not.
func entry(i, d int, failed bool) Entry {
	c := cell(i)
	if failed {
		c.Error, c.Folds = "boom", nil
	}
	return Entry{Name: CellFileName(i, digest(d)), Index: i, Cell: &Cell{Schema: CellSchema, Digest: digest(d), CellResult: c}}
}

// describe renders a plan as "name:action[→to][ aside][: reason]" lines
// and the kept and run indices, for comparison.
func describe(p Plan) string {
	var b strings.Builder
	names := map[Action]string{Leave: "leave", Keep: "keep", Renumber: "renumber", MoveAside: "aside"}
	for _, d := range p.Decisions {
		fmt.Fprintf(&b, "%s:%s", d.Name[:min(len(d.Name), 6)], names[d.Action])
		if d.Action == Keep || d.Action == Renumber {
			fmt.Fprintf(&b, "→%d", d.To)
		}
		if d.Aside {
			b.WriteString(" aside")
		}
		if d.Action == MoveAside {
			fmt.Fprintf(&b, ": %s", d.Reason)
		}
		b.WriteString("\n")
	}
	var kept []int
	for i := range p.Kept {
		kept = append(kept, i)
	}
	slices.Sort(kept)
	fmt.Fprintf(&b, "kept %v run %v", kept, p.Run)
	return b.String()
}

// TestReconcile: the one rule of resume, shard start and merge, on the
// cases each meets.
func TestReconcile(t *testing.T) {
	noPreds := entry(1, 1, false)
	bad := Entry{Name: CellFileName(2, digest(2)), Index: 2, Bad: "its content does not match its checksum"}
	tests := []struct {
		name    string
		entries []Entry
		want    Want
		out     string
	}{
		{"resume keeps matching cells and runs the rest",
			[]Entry{entry(0, 0, false), entry(2, 2, false)},
			Want{Digests: digests(4)},
			"0000-6:keep→0\n0002-d:keep→2\nkept [0 2] run [1 3]"},
		{"other inputs, failed cells, bad files and strays go aside",
			[]Entry{entry(0, 9, false), entry(1, 1, true), bad, {Name: "notes.txt", Index: -1}},
			Want{Digests: digests(3)},
			"0000-2:aside: " + reasonChanged + "\n0001-4:aside: " + failedAgain + "\n0002-d:aside: its content does not match its checksum\nnotes.:aside: " + reasonNotCell + "\nkept [] run [0 1 2]"},
		{"predictions asked for",
			[]Entry{entry(0, 0, false), noPreds},
			Want{Digests: digests(2), Predictions: true},
			"0000-6:aside: " + reasonPredictions + "\n0001-4:aside: " + reasonPredictions + "\nkept [] run [0 1]"},
		{"a block added in front: renumbered, the old file aside",
			[]Entry{entry(0, 0, false), entry(1, 1, false)},
			Want{Digests: []string{digest(7), digest(0), digest(1)}},
			"0000-6:renumber→1 aside\n0001-4:renumber→2 aside\nkept [1 2] run [0]"},
		{"a killed renumbering: the copy wins, the stale original goes",
			[]Entry{entry(0, 0, false), entry(1, 0, false), entry(1, 1, false)},
			Want{Digests: []string{digest(7), digest(0), digest(1)}},
			"0000-6:aside: cell 1 again\n0001-6:keep→1\n0001-4:renumber→2 aside\nkept [1 2] run [0]"},
		{"fresh moves everything aside",
			[]Entry{entry(0, 0, false), {Name: "x", Index: -1}},
			Want{Digests: digests(2), Fresh: true},
			"0000-6:aside: --fresh\nx:aside: --fresh\nkept [] run [0 1]"},
		{"fresh for the caller's reason",
			[]Entry{entry(0, 0, false), {Name: "x", Index: -1}},
			Want{Digests: digests(2), Fresh: true, FreshReason: "a rerun computes every cell again"},
			"0000-6:aside: a rerun computes every cell again\nx:aside: a rerun computes every cell again\nkept [] run [0 1]"},
		{"a shard touches its own cells only",
			[]Entry{entry(0, 0, false), entry(1, 9, false), {Name: "x", Index: -1}, entry(2, 3, false), entry(4, 2, false)},
			Want{Digests: digests(4), Own: func(i int) bool { return i == 0 || i == 2 }},
			// 1 and x are another shard's; 2 holds cell 3 (another
			// shard's): a copy for it, the file aside; 4 (beyond the grid)
			// holds cell 2: copied and kept, the file left to its owner.
			"0000-6:keep→0\n0001-2:leave\nx:leave\n0002-0:renumber→3 aside\n0004-d:renumber→2\nkept [0 2] run []"},
		{"a merge keeps failed cells",
			[]Entry{entry(0, 0, true), entry(1, 1, false)},
			Want{Digests: []string{digest(0), ""}, KeepFailed: true},
			"0000-6:keep→0\n0001-4:aside: " + reasonChanged + "\nkept [0] run [1]"},
		{"a file in two directories: the first wins",
			[]Entry{entry(0, 0, false), entry(0, 0, false)},
			Want{Digests: digests(1)},
			"0000-6:keep→0\n0000-6:aside: cell 0 again\nkept [0] run []"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := describe(Reconcile(tt.entries, tt.want)); got != tt.out {
				t.Errorf("got\n%s\nwant\n%s", got, tt.out)
			}
		})
	}
}

// specOf is a spec of cell i (its key, learner and classes) with seed and
// bench revision rev.
func specOf(i int, seed uint64, rev string) *cellspec.Spec {
	return &cellspec.Spec{Format: cellspec.Format, Cell: cell(i).Key(), Seed: seed,
		Dataset: cellspec.Dataset{Name: "iris", SHA256: strings.Repeat("3f2a", 16), Classes: cell(i).Classes},
		Learner: cellspec.Learner{Name: cell(i).Learner},
		Bench:   cellspec.Build{Version: "(devel)", Revision: rev}}
}

// specEntry is a good cell file of cell i holding spec s.
func specEntry(i int, s *cellspec.Spec) Entry {
	return Entry{Name: CellFileName(i, s.Digest()), Index: i, Cell: &Cell{Schema: CellSchema, Digest: s.Digest(), Spec: s, CellResult: cell(i)}}
}

// TestReconcileEscapesWhatChanged: the values of a changed spec come
// from its cell file, which anyone who can write it may edit consistently
// (spec digest, file name, checksum recomputed); the reason that names
// them shows an ESC, a CR or an RLO escaped, never raw (campaign 10b
// V27-V29: "its inputs changed" printed a target "class<ESC>…" raw).
func TestReconcileEscapesWhatChanged(t *testing.T) {
	now := specOf(0, 1, "bbbb")
	edited := specOf(0, 1, "bbbb")
	edited.Dataset.Target = "class\x1b]0;title\x07\r\u202e\nbench: all cells verified"
	p := Reconcile([]Entry{specEntry(0, edited)}, Want{Digests: []string{now.Digest()}, Specs: []*cellspec.Spec{now}})
	d := p.Decisions[0]
	want := `its inputs changed: dataset "iris": target class\x1b]0;title\a\r\u202e\nbench: all cells verified → `
	if d.Action != MoveAside || d.Reason != want {
		t.Errorf("%v %q, want moved aside: %q", d.Action, d.Reason, want)
	}
}

// TestReconcileSaysWhatChanged: a cell whose spec changed is moved aside
// naming the input; one that only another build of bench computed runs
// again, or is kept with a note under KeepOtherBench; a cell no longer in
// the experiment says so.
func TestReconcileSaysWhatChanged(t *testing.T) {
	now := []*cellspec.Spec{specOf(0, 1, "bbbb"), specOf(1, 1, "bbbb")}
	w := Want{Digests: []string{now[0].Digest(), now[1].Digest()}, Specs: now}
	seed := specEntry(0, specOf(0, 2, "bbbb"))
	bench := specEntry(1, specOf(1, 1, "aaaa"))
	gone := specEntry(2, specOf(2, 1, "bbbb"))
	p := Reconcile([]Entry{seed, bench, gone}, w)
	for k, want := range []string{"its inputs changed: seed: 2 → 1", "its inputs changed: bench: revision aaaa → bbbb",
		"cell iris|none|logreg|C=3|ova is not in the experiment any more"} {
		if d := p.Decisions[k]; d.Action != MoveAside || d.Reason != want {
			t.Errorf("%s: %v %q, want moved aside: %q", d.Name, d.Action, d.Reason, want)
		}
	}
	w.KeepOtherBench = true
	p = Reconcile([]Entry{seed, bench}, w)
	if d := p.Decisions[1]; d.Action != Keep || d.To != 1 || !strings.Contains(d.Note, "computed by bench (devel) aaaa (this is bench (devel) bbbb; --keep-other-bench)") {
		t.Errorf("--keep-other-bench: %+v", d)
	}
	if d := p.Decisions[0]; d.Action != MoveAside {
		t.Errorf("--keep-other-bench keeps a cell of another seed: %+v", d)
	}
	if got := p.digests(w.Digests); got[1] != bench.Cell.Digest || got[0] != w.Digests[0] {
		t.Errorf("digests %v: the kept cell keeps its own", got)
	}
}

// TestVerify: bench table's check refuses a cell copied in from a run
// with another seed (its digest is not the manifest's for its index) and a
// cell whose numbers disagree (n_test against its confusion matrix), each
// named with its reason; the good cells are returned.
func TestVerify(t *testing.T) {
	dir := t.TempDir()
	cells := filepath.Join(dir, CellsDir)
	specs := []*cellspec.Spec{specOf(0, 1, "bb"), specOf(1, 1, "bb"), specOf(2, 1, "bb")}
	m := manifest("exp")
	m.Cells = 3
	for i, s := range specs {
		m.CellDigests = append(m.CellDigests, s.Digest())
		c := cell(i)
		c.Classes = []string{"a", "b"}
		for k := range c.Folds {
			c.Folds[k].Confusion = [][]int{{25, 0}, {0, 25}}
			c.Folds[k].Metrics["accuracy"] = 1
		}
		if i == 2 {
			c.Folds[1].NTest = 49
		}
		if i == 1 {
			s = specOf(1, 2, "bb") // another seed's run
		}
		if _, err := WriteCell(cells, c, s.Digest(), s); err != nil {
			t.Fatal(err)
		}
	}
	good, err := Verify(dir, m)
	if len(good) != 1 || good[0].Index != 0 {
		t.Errorf("good cells %v, want cell 0", good)
	}
	for _, want := range []string{
		CellFileName(1, specOf(1, 2, "bb").Digest()) + ": not a cell of this run: its digest",
		CellFileName(2, specs[2].Digest()) + ": fold 1: n_test is 49 but the confusion matrix counts 50 rows",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v\nlacks %q", err, want)
		}
	}
}
