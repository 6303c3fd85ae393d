package report

import (
	"github.com/polyclass/polyclass/framework/outcome"
	"strings"
	"testing"
)

// TestHigherIsBetter: a known metric's direction; an unknown name is an
// error naming it, not higher-is-better.
func TestHigherIsBetter(t *testing.T) {
	tests := []struct {
		name    string
		want    bool
		wantErr string
	}{
		{"accuracy", true, ""},
		{"log_loss", false, ""},
		{"acuracy", false, `unknown metric "acuracy" (did you mean "accuracy"?)`},
	}
	for _, tt := range tests {
		got, err := HigherIsBetter(tt.name)
		if got != tt.want || (err == nil) != (tt.wantErr == "") || err != nil && !strings.HasPrefix(err.Error(), tt.wantErr) {
			t.Errorf("HigherIsBetter(%q) = %v, %v; want %v, an error starting %q", tt.name, got, err, tt.want, tt.wantErr)
		}
	}
}

// TestUnknownMetricNotRanked: the tables of a run that recorded a metric
// this bench does not know report it without ranks, saying why, instead
// of ranking it as higher-is-better.
func TestUnknownMetricNotRanked(t *testing.T) {
	cells := []*outcome.CellResult{
		mkCell("iris", "a", "", "ova", 120, 30, map[string][]float64{"accuracy": {0.9, 0.8}, "novel": {0.1, 0.2}}),
		mkCell("iris", "b", "", "ova", 120, 30, map[string][]float64{"accuracy": {0.7, 0.8}, "novel": {0.3, 0.4}}),
	}
	tables := BuildTables(Spec{Experiment: "x", Metrics: []string{"accuracy", "novel"}}, cells)
	if len(tables.Metrics) != 2 {
		t.Fatalf("%d comparisons, want 2", len(tables.Metrics))
	}
	if c := tables.Metrics[0]; !c.Ranked || !c.HigherIsBetter {
		t.Errorf("accuracy: ranked %v, higher is better %v; want both", c.Ranked, c.HigherIsBetter)
	}
	c := tables.Metrics[1]
	if c.Ranked {
		t.Errorf("novel: ranked (higher is better %v), want not ranked", c.HigherIsBetter)
	}
	want := `unknown metric "novel"`
	if len(c.Notes) != 1 || !strings.HasPrefix(c.Notes[0], want) || !strings.HasSuffix(c.Notes[0], ": reported, not ranked or tested") {
		t.Errorf("novel: notes %q, want one starting %q and ending \": reported, not ranked or tested\"", c.Notes, want)
	}
}
