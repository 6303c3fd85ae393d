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

// TestDiagnoseClosedForms: the closed forms of the fixed codes return
// exactly what Diagnose computes pair by pair, and their worked values.
func TestDiagnoseClosedForms(t *testing.T) {
	for K := 2; K <= 14; K++ {
		order := make([]int, K)
		for i := range order {
			order[i] = (i*5 + 3) % K // a permutation where gcd(5, K) = 1
		}
		if K%5 == 0 {
			for i := range order {
				order[i] = K - 1 - i
			}
		}
		tests := []struct {
			name string
			m    *Matrix
			fast Diagnostics
		}{
			{"ova", must(t)(OVA(K)), DiagnoseOVA(K)},
			{"ovo", must(t)(OVO(K, false)), DiagnoseOVO(K, false)},
			{"ovo asymmetric", must(t)(OVO(K, true)), DiagnoseOVO(K, true)},
			{"ordered", must(t)(Ordered(order)), DiagnoseOrdered(K)},
		}
		for _, tt := range tests {
			if want := Diagnose(tt.m); !reflect.DeepEqual(tt.fast, want) {
				t.Errorf("K = %d, %s: closed form\n%+v\nDiagnose\n%+v", K, tt.name, tt.fast, want)
			}
		}
	}
	worked := []struct {
		name           string
		d              Diagnostics
		min, mean      float64
		correcting, nc int
	}{
		// Every pair of one-vs-all rows differs in its two own columns.
		{"ova 5", DiagnoseOVA(5), 2, 2, 0, 0},
		// 6 columns; a pair is opposite in 1 and meets a 0 in 5: 1 + 5/2.
		{"ovo 4", DiagnoseOVO(4, false), 3.5, 3.5, 1, 0},
		// 12 columns: opposite in 2, a 0 in 10.
		{"ovo 4 asymmetric", DiagnoseOVO(4, true), 7, 7, 3, 6},
		// Distances (K−p)/2 over K−1−p pairs: 3·2 + 2·1.5 + 1·1 = 10 over 6.
		{"ordered 4", DiagnoseOrdered(4), 1, 10.0 / 6, 0, 0},
		// 3000 classes: 4,498,500 columns, no matrix made.
		{"ovo 3000", DiagnoseOVO(3000, false), 2249250.5, 2249250.5, 1124624, 0},
	}
	for _, w := range worked {
		if w.d.MinDistance != w.min || w.d.MeanDistance != w.mean || w.d.Correcting != w.correcting || len(w.d.ComplementaryColumns) != w.nc {
			t.Errorf("%s: min %v mean %v correcting %d complementary %d, want %v %v %d %d", w.name,
				w.d.MinDistance, w.d.MeanDistance, w.d.Correcting, len(w.d.ComplementaryColumns), w.min, w.mean, w.correcting, w.nc)
		}
	}
	// One-vs-all and ordered on 5,000 classes: no allocation at all, where
	// Diagnose holds a 25,000,000-entry matrix's columns twice.
	var sink Diagnostics
	if n := testing.AllocsPerRun(3, func() { sink = DiagnoseOVA(5000); sink = DiagnoseOrdered(5000) }); n != 0 || sink.K != 5000 {
		t.Errorf("DiagnoseOVA and DiagnoseOrdered(5000) allocate %v times, want 0", n)
	}
}
