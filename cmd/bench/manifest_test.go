package main

import "testing"

// TestRelativeTo: dataset files are recorded as the experiment file names
// them, whether bench was given the file by a relative or an absolute path.
func TestRelativeTo(t *testing.T) {
	for _, tc := range []struct{ dir, path, want string }{
		{"experiments", "experiments/data/iris.csv", "data/iris.csv"},
		{"/repo/experiments", "/repo/experiments/data/iris.csv", "data/iris.csv"},
		{"/repo/experiments", "/srv/data/iris.csv", "../../srv/data/iris.csv"},
		{".", "iris.csv", "iris.csv"},
		{"experiments", "", ""},
	} {
		if got := relativeTo(tc.dir, tc.path); got != tc.want {
			t.Errorf("relativeTo(%q, %q) = %q, want %q", tc.dir, tc.path, got, tc.want)
		}
	}
}
