package batchsched

import "testing"

func TestDisabled(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  bool
	}{
		{"", false},
		{"on", false},
		{"off", true},
		{" OFF ", true},
		{"0", true},
		{"false", true},
		{"1", false},
	} {
		getenv := func(name string) string {
			if name == Env {
				return tc.value
			}
			return ""
		}
		if got := Disabled(getenv); got != tc.want {
			t.Errorf("Disabled with %s=%q = %v, want %v", Env, tc.value, got, tc.want)
		}
	}
}
