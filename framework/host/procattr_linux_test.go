package host

import (
	"testing"
	"time"
)

func TestStatCPU(t *testing.T) {
	for _, tt := range []struct {
		line string
		want time.Duration
		err  bool
	}{
		// utime 150 ticks, stime 25 ticks: 1.75 s.
		{"4242 (python3 my plugin) S 1 4242 4242 0 -1 4194560 1234 0 0 0 150 25 0 0 20 0 4 0 100 0 0", 1750 * time.Millisecond, false},
		{"1 (init) S 0 1 1 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 1 0 0", 0, false},
		{"1 init S 0 1", 0, true},
		{"1 (x) S 0 1 1", 0, true},
		{"1 (x) S 0 1 1 0 -1 4194560 0 0 0 0 a 0 0", 0, true},
	} {
		got, err := statCPU([]byte(tt.line))
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("statCPU(%q) = %v, %v; want %v (error %v)", tt.line, got, err, tt.want, tt.err)
		}
	}
}
