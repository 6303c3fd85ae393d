package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestTestDepsWithAndWithoutSudo: make test-deps, which the README's
// set-up runs as it is (no "sudo make": a root container has no sudo),
// calls apt-get through sudo for a user other than root and directly as
// root, on every apt-get line.
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
		uid, want string
	}{{"1000", "sudo"}, {"0", ""}} {
		out, err := exec.Command("make", "-C", "../..", "-n", "--no-print-directory", "test-deps", "USER_ID="+tc.uid).CombinedOutput()
		if err != nil {
			t.Fatalf("make -n test-deps: %v\n%s", err, out)
		}
		calls := aptCall.FindAllStringSubmatch(string(out), -1)
		if len(calls) < 6 {
			t.Fatalf("uid %s: %d apt-get calls in make -n test-deps:\n%s", tc.uid, len(calls), out)
		}
		for _, c := range calls {
			if prefix := strings.Trim(c[1], "{&;"); prefix != tc.want {
				t.Errorf("uid %s: %q, want apt-get run by %q", tc.uid, c[0], tc.want)
			}
		}
	}
}
