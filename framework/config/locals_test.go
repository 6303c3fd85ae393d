package config

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// chainedLocals returns a locals block of n locals each naming the next
// (a0 = local.a1 + 1, …, a(n-1) = local.an + 1, an = 0), written in that
// order: the one needed first comes last.
func chainedLocals(n int) string {
	var b strings.Builder
	b.WriteString("locals {\n")
	for i := range n {
		fmt.Fprintf(&b, "  a%d = local.a%d + 1\n", i, i+1)
	}
	fmt.Fprintf(&b, "  a%d = 0\n}\n", n)
	return b.String()
}

// TestLocalsInDependencyOrder: locals are evaluated after the locals they
// name, each once, so that the time grows with the file, not its square
// (campaign 5 h01: 3,000 locals needed last-first took 39 s to validate,
// and the 45,000 a 1 MiB file holds, hours; the 20,000 here, half an
// hour on the code before: past the test's minute and go test's timeout).
// Their values, and the diagnostics of those that cannot resolve, are
// what they were.
func TestLocalsInDependencyOrder(t *testing.T) {
	for _, tc := range []struct {
		name, locals, seed string
		want               uint64
		diags              []string
	}{
		{"a chain of 20000 needed last-first", chainedLocals(20000), "local.a0", 20000, nil},
		{"file order", "locals {\n  a = 2\n  b = local.a * 3\n}\n", "local.b", 6, nil},
		{"named through an index", "locals {\n  c = local[\"b\"] + 1\n  b = local.a + 1\n  a = 1\n}\n", "local.c", 3, nil},
		{"the object whole", "variable \"k\" { default = \"a\" }\nlocals {\n  c = local[var.k] + 1\n  a = 4\n}\n", "local.c", 5, nil},
		{"a cycle", "locals {\n  a = local.b\n  b = local.a\n}\n", "1", 0, []string{
			"exp.hcl:5:12: error: Unsupported attribute", `This object does not have an attribute named "b".`,
			"exp.hcl:6:12: error: Unsupported attribute", `This object does not have an attribute named "a".`}},
		{"an unknown name", "locals {\n  alpha = 1\n  b = local.alpah\n}\n", "1", 0, []string{
			"exp.hcl:6:12: error: Unsupported attribute", `This object does not have an attribute named "alpah".`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			exp, diags := parse(t, strings.Replace(base, "seed = 3", "seed = "+tc.seed, 1)+tc.locals)
			if took := time.Since(start); took > time.Minute {
				t.Errorf("parsed in %v", took)
			}
			for _, d := range tc.diags {
				if !strings.Contains(diags, d) {
					t.Errorf("diagnostics lack %q:\n%s", d, diags)
				}
			}
			if tc.diags == nil && (diags != "" || exp.Seed != tc.want) {
				t.Errorf("seed %d, want %d; diagnostics:\n%s", exp.Seed, tc.want, diags)
			}
		})
	}
}
