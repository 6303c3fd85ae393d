package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/engine"
)

// TestWritePhases: the run log's phase table gives each phase's seconds
// summed over the workers and its share of the worker time (workers ×
// wall), then the time in no phase, then the writer's time beside the
// workers; a run without phases writes none.
func TestWritePhases(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stats engine.Stats
		wall  time.Duration
		want  string
	}{
		{"two workers", engine.Stats{Workers: 2, Phases: []engine.PhaseTime{{Name: "encode", Seconds: 0.5}, {Name: "fit", Seconds: 2.5}, {Name: "wait for shared fits", Seconds: 0.25}}, WriteSeconds: 1.5}, 2 * time.Second,
			"phases (seconds summed over the workers; 4.000 s of worker time: 2 workers × 2.000 s):\n" +
				"  encode                      0.500 s   12.5%\n" +
				"  fit                         2.500 s   62.5%\n" +
				"  wait for shared fits        0.250 s    6.2%\n" +
				"  in no phase                 0.750 s   18.8%\n" +
				"  write                       1.500 s  (the writer of cell files, beside the workers)\n"},
		// Predictions overlap decoding within a fold: the phases may add
		// up to more than the worker time, and no time is in no phase.
		{"overlapping", engine.Stats{Workers: 1, Phases: []engine.PhaseTime{{Name: "predict", Seconds: 1}, {Name: "decode", Seconds: 0.5}}}, time.Second,
			"phases (seconds summed over the workers; 1.000 s of worker time: 1 worker × 1.000 s):\n" +
				"  predict                     1.000 s  100.0%\n" +
				"  decode                      0.500 s   50.0%\n" +
				"  in no phase                 0.000 s    0.0%\n" +
				"  write                       0.000 s  (the writer of cell files, beside the workers)\n"},
		{"no run", engine.Stats{}, time.Second, ""},
	} {
		var b bytes.Buffer
		writePhases(&b, tc.stats, tc.wall)
		if b.String() != tc.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.name, b.String(), tc.want)
		}
	}
}
