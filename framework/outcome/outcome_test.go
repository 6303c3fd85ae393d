package outcome

import "testing"

// TestAllTied: a fold is all tied when every one of its test rows, and at
// least one, was decided by the tie-breaking rule.
func TestAllTied(t *testing.T) {
	for _, tt := range []struct {
		ties, nTest int
		want        bool
	}{{50, 50, true}, {49, 50, false}, {0, 50, false}, {0, 0, false}} {
		f := FoldResult{Ties: tt.ties, NTest: tt.nTest}
		if got := f.AllTied(); got != tt.want {
			t.Errorf("ties %d of %d test rows: AllTied = %v, want %v", tt.ties, tt.nTest, got, tt.want)
		}
	}
}

// TestOneClass: a fold is of one class when its confusion matrix has one
// non-zero column and several non-zero rows; a fold whose scores were all
// tied is AllTied instead, and a test part of one class predicted as that
// class is no constant model.
func TestOneClass(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    FoldResult
		want bool
	}{
		{"one column, three rows", FoldResult{NTest: 30, Confusion: Confusion{{10, 0, 0}, {10, 0, 0}, {10, 0, 0}}}, true},
		{"middle column", FoldResult{NTest: 4, Confusion: Confusion{{0, 3}, {0, 1}}}, true},
		{"two columns", FoldResult{NTest: 30, Confusion: Confusion{{9, 1, 0}, {10, 0, 0}, {10, 0, 0}}}, false},
		{"all tied", FoldResult{NTest: 30, Ties: 30, Confusion: Confusion{{10, 0, 0}, {10, 0, 0}, {10, 0, 0}}}, false},
		{"test rows of one class", FoldResult{NTest: 10, Confusion: Confusion{{0, 0}, {0, 10}}}, false},
		{"no confusion matrix (multi-label)", FoldResult{NTest: 10}, false},
		{"no test rows", FoldResult{Confusion: Confusion{{0, 0}, {0, 0}}}, false},
	} {
		if got := tc.f.OneClass(); got != tc.want {
			t.Errorf("%s: OneClass() = %v, want %v", tc.name, got, tc.want)
		}
	}
}
