package problem

import (
	"slices"
	"testing"
)

// A problem's targets read the same through Rows, Target, Uses and Dense
// whether they are dense or compact (from CodeColumn).
func TestCompactTargets(t *testing.T) {
	// One-vs-one code of 3 classes; rows of classes 2, 0, 1, 1, 0.
	code := CodeMatrix{Rows: 3, Cols: 3, Entries: []int8{1, 1, 0, -1, 0, 1, 0, -1, -1}}
	groups := []int32{2, 0, 1, 1, 0}
	for j, want := range [][]float64{{0, 1, -1, -1, 1}, {-1, 1, 0, 0, 1}, {-1, 0, 1, 1, 0}} {
		dense := Problem{Kind: Binary, Targets: want, Seed: uint64(j)}
		compact := Problem{Kind: Binary, Compact: CodeColumn(code, j, groups), Seed: uint64(j)}
		if got := compact.Compact.Code; !slices.Equal(got, []int8{code.At(0, j), code.At(1, j), code.At(2, j)}) {
			t.Fatalf("column %d: code %v", j, got)
		}
		for _, p := range []Problem{dense, compact} {
			if p.Rows() != len(want) {
				t.Errorf("column %d: %d rows, want %d", j, p.Rows(), len(want))
			}
			for i, w := range want {
				if p.Target(i) != w || p.Uses(i) != (w != 0) {
					t.Errorf("column %d, row %d: target %v, uses %v; want %v", j, i, p.Target(i), p.Uses(i), w)
				}
			}
			d := p.Dense()
			if d.Compact != nil || !slices.Equal(d.Targets, want) || d.Seed != p.Seed || d.Kind != Binary {
				t.Errorf("column %d: dense form %+v, want targets %v", j, d, want)
			}
		}
	}
	if d := (Problem{Kind: Binary, Targets: []float64{1}}).Dense(); len(d.Targets) != 1 {
		t.Errorf("dense problem's dense form %+v", d)
	}
}

// CheckRows names the first problem without a target for each training
// row: too few or too many, dense or compact, or none at all.
func TestCheckRows(t *testing.T) {
	groups := []int32{0, 1, 1}
	dense := Problem{Kind: Binary, Targets: []float64{1, -1, 0}}
	compact := Problem{Kind: Binary, Compact: &CompactTargets{Groups: groups, Code: []int8{1, -1}}}
	for _, tt := range []struct {
		name string
		ps   []Problem
		n    int
		want string // "" for no error
	}{
		{"dense and compact", []Problem{dense, compact}, 3, ""},
		{"none", nil, 3, ""},
		{"no rows", []Problem{{Kind: Binary}}, 0, ""},
		{"short dense", []Problem{dense, {Kind: Regression, Targets: []float64{1}}}, 3, "problem 1 has 1 targets for the 3 training rows"},
		{"long compact", []Problem{compact}, 2, "problem 0 has 3 targets for the 2 training rows"},
		{"no targets", []Problem{dense, {Kind: Binary}}, 3, "problem 1 has no targets (neither dense nor compact ones) for the 3 training rows"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckRows(tt.ps, tt.n)
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || err.Error() != tt.want) {
				t.Errorf("CheckRows: %v, want %q", err, tt.want)
			}
		})
	}
}

// TestGroupsID: targets that share their Groups slice have one ID; a copy
// of the same indices, a shorter view of the slice or another slice does
// not, and every empty Groups has the zero ID.
func TestGroupsID(t *testing.T) {
	groups := []int32{0, 1, 1, 0}
	same := &CompactTargets{Groups: groups, Code: []int8{1, -1}}
	base := (&CompactTargets{Groups: groups, Code: []int8{-1, 1}}).GroupsID()
	for _, c := range []struct {
		name string
		c    *CompactTargets
		want bool
	}{
		{"same slice, another code", same, true},
		{"copy of the indices", &CompactTargets{Groups: append([]int32(nil), groups...)}, false},
		{"shorter view", &CompactTargets{Groups: groups[:2]}, false},
		{"view from the second index", &CompactTargets{Groups: groups[1:]}, false},
		{"empty", &CompactTargets{}, false},
	} {
		if got := c.c.GroupsID() == base; got != c.want {
			t.Errorf("%s: same ID = %v, want %v", c.name, got, c.want)
		}
	}
	if (&CompactTargets{}).GroupsID() != (&CompactTargets{Groups: groups[:0]}).GroupsID() {
		t.Error("empty Groups slices have different IDs")
	}
}
