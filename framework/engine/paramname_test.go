package engine

import "testing"

// TestParamName: a parameter name a plugin reports shows as it is, or
// Go-quoted when it holds a character that would break the message's
// line, act on a terminal or not show.
func TestParamName(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"C", "C"},
		{"svc__gamma", "svc__gamma"},
		{"a b", "a b"},
		{"C\u202e\n", `"C\u202e\n"`},
		{"x\x1b]0;pwned\a\x1b[31mred", `"x\x1b]0;pwned\a\x1b[31mred"`},
		{"zero\u200bwidth", `"zero\u200bwidth"`},
	} {
		if got := paramName(tc.name); got != tc.want {
			t.Errorf("paramName(%q) = %s, want %s", tc.name, got, tc.want)
		}
	}
}
