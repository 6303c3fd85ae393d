package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestTestDepsWithAndWithoutSudo: make test-deps, which the README's
// set-up runs as it is (no "sudo make": a root container has no sudo),
// and make hsu-lin-data, which installs r-cran-mlbench and python3-rdata,
// call apt-get through sudo for a user other than root and directly as
// root, on every apt-get line (hsu-lin-data called apt-get bare, which
// fails for any other user).
func TestTestDepsWithAndWithoutSudo(t *testing.T) {
	readme := readFile(t, "../../README.md")
	if strings.Contains(readme, "sudo make") {
		t.Error("the README runs make through sudo")
	}
	if !strings.Contains(readme, "\nmake test-deps ") {
		t.Error("the README's set-up does not run make test-deps")
	}
	aptCall := regexp.MustCompile(`(\S*) ?apt-get (update|install)`)
	for _, tc := range []struct {
		target   string
		minCalls int    // apt-get lines in make -n TARGET at least
		packages string // a package the target installs
		uid      string
		want     string // what runs apt-get
	}{
		{"test-deps", 6, "liblinear-tools", "1000", "sudo"},
		{"test-deps", 6, "liblinear-tools", "0", ""},
		{"hsu-lin-data", 2, "r-cran-mlbench python3-rdata", "1000", "sudo"},
		{"hsu-lin-data", 2, "r-cran-mlbench python3-rdata", "0", ""},
	} {
		t.Run(tc.target+" uid "+tc.uid, func(t *testing.T) {
			out, err := exec.Command("make", "-C", "../..", "-n", "--no-print-directory", tc.target, "USER_ID="+tc.uid).CombinedOutput()
			if err != nil {
				t.Fatalf("make -n %s: %v\n%s", tc.target, err, out)
			}
			if !strings.Contains(string(out), tc.packages) {
				t.Errorf("make -n %s installs no %s:\n%s", tc.target, tc.packages, out)
			}
			calls := aptCall.FindAllStringSubmatch(string(out), -1)
			if len(calls) < tc.minCalls {
				t.Fatalf("%d apt-get calls in make -n %s, want at least %d:\n%s", len(calls), tc.target, tc.minCalls, out)
			}
			for _, c := range calls {
				if prefix := strings.Trim(c[1], "{&;"); prefix != tc.want {
					t.Errorf("%q, want apt-get run by %q", c[0], tc.want)
				}
			}
		})
	}
}
