package codes

import (
	"reflect"
	"testing"
)

func TestDiagnoseDefects(t *testing.T) {
	// Columns: 0 fine, 1 constant (no −1), 2 = column 0, 3 = −column 0,
	// 4 all zero. Row 3 is all zero; rows 1 and 2 are identical.
	m, err := NewMatrix(4, 5, []int8{
		1, 1, 1, -1, 0,
		-1, 0, -1, 1, 0,
		-1, 0, -1, 1, 0,
		0, 0, 0, 0, 0,
	})
	if err != nil {
		t.Fatal(err)
	}
	d := Diagnose(m)
	want := Diagnostics{
		K: 4, L: 5,
		// d(0,1) = (5 − (−1+0−1−1+0))/2 = 4; d(0,2) = 4; d(1,2) = (5−3)/2 = 1;
		// d(k,3) = 5/2.
		MinDistance:          1,
		MeanDistance:         (4 + 4 + 2.5 + 1 + 2.5 + 2.5) / 6,
		Correcting:           0,
		ConstantColumns:      []int{1, 4},
		DuplicateColumns:     []Pair{{0, 2}},
		ComplementaryColumns: []Pair{{0, 3}, {2, 3}},
		IdenticalRows:        []Pair{{1, 2}},
		ZeroRows:             []int{3},
		Unseparated:          []Pair{{0, 3}, {1, 2}, {1, 3}, {2, 3}},
	}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("Diagnose =\n%+v\nwant\n%+v", d, want)
	}
	if !d.Degenerate() {
		t.Error("not Degenerate")
	}
	if got := len(d.Warnings(nil)); got != 2+1+2+1+4 {
		t.Errorf("%d warnings, want 10: %v", got, d.Warnings(nil))
	}
}

func TestDiagnoseClean(t *testing.T) {
	// The 7-column Hadamard-like code of the OVA example.
	m := mustRows(t, [][]float64{
		{1, -1, -1, -1, 1, 1, 1},
		{-1, 1, -1, -1, 1, -1, -1},
		{-1, -1, 1, -1, -1, 1, -1},
		{-1, -1, -1, 1, -1, -1, 1},
	})
	d := Diagnose(m)
	if d.Degenerate() || len(d.Warnings(nil)) != 0 {
		t.Errorf("clean matrix flagged: %v", d.Warnings(nil))
	}
	if d.MinDistance != 4 || d.Correcting != 1 {
		t.Errorf("d_min %v correcting %d, want 4 and 1", d.MinDistance, d.Correcting)
	}
	// Exhaustive(5): d = 8, corrects 3.
	if d := Diagnose(must(t)(Exhaustive(5))); d.MinDistance != 8 || d.Correcting != 3 {
		t.Errorf("Exhaustive(5): d_min %v correcting %d, want 8 and 3", d.MinDistance, d.Correcting)
	}
}
