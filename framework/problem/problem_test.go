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
