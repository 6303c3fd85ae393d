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
