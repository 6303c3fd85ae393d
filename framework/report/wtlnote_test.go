package report

import (
	"strings"
	"testing"
)

// TestWTLLegendNoTest: the w/t/l legend under a table with a baseline says
// that a dataset without a test counts in none of the three only when some
// entry has no test (the third new-user trial: ridge's 0/1/1 over three
// datasets, wine's entry "no test: zero variance", and a legend that said
// nothing of it).
func TestWTLLegendNoTest(t *testing.T) {
	const clause = "w/t/l counts the datasets won, tied and lost (a dataset without a test, its entry saying why, counts in none of them)."
	for _, tc := range []struct {
		name   string
		noTest string
		want   bool
	}{
		{"an entry without a test", "zero variance (all 5 differences equal)", true},
		{"every entry tested", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Comparison{
				Metric: "accuracy", Alpha: 0.05, Baseline: 0,
				Rows:     []Row{{Label: "base"}, {Label: "other"}},
				Datasets: []string{"d"},
				Entries:  [][]Entry{{{}}, {{NoTest: tc.noTest}}},
			}
			text := strings.Join(statLines(c, mdFlavor), "\n")
			if got := strings.Contains(text, clause); got != tc.want {
				t.Errorf("legend holds the clause: %v, want %v:\n%s", got, tc.want, text)
			}
			if !strings.Contains(text, "w/t/l counts the datasets won, tied and lost") {
				t.Errorf("no w/t/l legend:\n%s", text)
			}
		})
	}
}
