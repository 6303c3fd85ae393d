//go:build unix

package main

import "testing"

func TestVmstat(t *testing.T) {
	const text = "nr_free_pages 5771046\nthp_fault_alloc 233194\nthp_fault_alloc_x 7\nthp_fault_fallback 12\nbroken\nodd 1 2\nbad x\n"
	for _, tc := range []struct {
		name string
		want int64
	}{
		{"thp_fault_alloc", 233194},
		{"thp_fault_fallback", 12},
		{"nr_free_pages", 5771046},
		{"thp_fault", 0},
		{"odd", 0},
		{"bad", 0},
		{"missing", 0},
	} {
		if got := vmstat(text, tc.name); got != tc.want {
			t.Errorf("vmstat(%q) = %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := vmstat("", "thp_fault_alloc"); got != 0 {
		t.Errorf("vmstat of no text = %d, want 0", got)
	}
}
