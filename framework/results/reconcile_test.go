package results

import (
	"fmt"
	"slices"
	"strings"
	"testing"
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
