package plugin

import "testing"

// TestClassIndex: an experiment file's class name finds the data's class
// by its spelling, else as the same decimal number (campaign 12: a
// class_weight key, an ecoc classes list or an ordered order of "1.0",
// "+2" were refused where the data's classes, compared as numbers, are
// named 1 and 2).
func TestClassIndex(t *testing.T) {
	classes := []string{"1", "2", "10", "9007199254740992", "0.5"}
	for _, tc := range []struct {
		name string
		want int
	}{
		{"1", 0}, {"1.0", 0}, {"+1", 0}, {"01", 0}, {" 1 ", 0}, {"1e0", 0},
		{"+2", 1}, {"2.00", 1}, {"1e1", 2}, {"10", 2},
		{"9007199254740992", 3}, {"9007199254740993", -1}, // digits, not float64
		{".5", 4}, {"5e-1", 4},
		{"0x1p0", -1}, {"1_0", -1}, {"inf", -1}, {"one", -1}, {"", -1}, {"3", -1},
	} {
		if got := ClassIndex(tc.name, classes); got != tc.want {
			t.Errorf("ClassIndex(%q) = %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := ClassIndex("1.0", []string{"1.0", "1"}); got != 0 {
		t.Errorf("a class spelled as named comes first: %d, want 0", got)
	}
	if got := ClassIndex("a", []string{"b", "a"}); got != 1 {
		t.Errorf("text: %d, want 1", got)
	}
}
