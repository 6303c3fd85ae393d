package config

import (
	"fmt"
	"strings"
	"testing"
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
// and the 45,000 a 1 MiB file holds, hours). The 3,000 here pass the
// evaluation limit (DefaultEvalLimit, 10 s) on the code before, which
// fails the file; they take milliseconds now. (A chain of 20,000, timed
// by the test itself, came near the limit on a loaded machine.)
// Their values, and the diagnostics of those that cannot resolve, are
// what they were.
func TestLocalsInDependencyOrder(t *testing.T) {
	for _, tc := range []struct {
		name, locals, seed string
		want               uint64
		diags              []string
	}{
		{"a chain of 3000 needed last-first", chainedLocals(3000), "local.a0", 3000, nil},
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
			exp, diags := parse(t, strings.Replace(base, "seed = 3", "seed = "+tc.seed, 1)+tc.locals)
			for _, d := range tc.diags {
				if !strings.Contains(diags, d) {
					t.Errorf("diagnostics lack %q:\n%s", d, diags)
				}
			}
			if tc.diags == nil && (diags != "" || exp == nil || exp.Seed != tc.want) {
				t.Fatalf("seed of %+v, want %d; diagnostics:\n%s", exp, tc.want, diags)
			}
		})
	}
}
