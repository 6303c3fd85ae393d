package report

import "testing"

// TestDifferenceStringEscapes: a difference's line shows the cell's key
// and the metric's name with escape sequences, carriage returns, bidi
// controls, newlines and tabs escaped (campaign 10's B08k: bench rerun
// printed an edited cell's key raw, "ova^[[31mRED…: missing"), and plain
// keys as they are.
func TestDifferenceStringEscapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    Difference
		want string
	}{
		{"plain", Difference{Kind: Missing, Cell: "iris|none|lr|C=1|ova–x", Repeat: -1, Fold: -1}, "iris|none|lr|C=1|ova–x: missing"},
		{"ESC in the key", Difference{Kind: Missing, Cell: "iris|none|lr|C=1|ova\x1b[31mRED", Repeat: -1, Fold: -1}, `iris|none|lr|C=1|ova\x1b[31mRED: missing`},
		{"OSC, BEL and RLO in the key", Difference{Kind: Added, Cell: "i|n|l|\x1b]0;t\a|\u202eavo", Repeat: 0, Fold: 2}, `i|n|l|\x1b]0;t\a|\u202eavo repeat 0 fold 2: added`},
		{"CR, newline and tab in a metric", Difference{Kind: Value, Cell: "i|n|l||ova", Repeat: 0, Fold: 1, Metric: "acc\r\n\tx", A: 0.5, B: 0.75}, `i|n|l||ova repeat 0 fold 1 acc\r\n\tx: 0.5 → 0.75 (Δ 0.25)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.d.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
		})
	}
}
