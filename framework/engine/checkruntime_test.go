package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/sdk"
	knn "github.com/polyclass/polyclass/plugins/knn/learner"
)

// runtimeLearner is knn whose CheckParams answers with one runtime
// component, c.
type runtimeLearner struct {
	sdk.Learner
	c sdk.Component
}

func (l runtimeLearner) CheckParams(context.Context, sdk.Params) ([]sdk.Component, error) {
	return []sdk.Component{l.c}, nil
}

// TestCheckParamsRuntimeTextRefused: a runtime component of a learner's
// CheckParams answer whose name, version or path holds a terminal's
// escape, an OSC title ended by BEL, a carriage return, a right-to-left
// override or a zero-width space refuses the learner at its params, with
// the character shown escaped (campaign 9 E04: the run completed, and
// the report's "Computed by" line and manifest.json held them raw); a
// plain component does not.
func TestCheckParamsRuntimeTextRefused(t *testing.T) {
	const at = "exp.hcl:4:12: error: Plugin answer refused"
	const learner = `Learner "knn" (plugin knn) could not check its parameters: the CheckParams answer's runtime component `
	for _, tc := range []struct {
		name string
		c    sdk.Component
		want string // "": no error
	}{
		{"plain", sdk.Component{Name: "libk", Version: "1.2", Path: "/opt/libk"}, ""},
		{"ESC in a name", sdk.Component{Name: "lib\x1b[31mred", Version: "1"},
			`name "lib\x1b[31mred" holds an escape (U+001B) at character 4`},
		{"OSC title and BEL in a version", sdk.Component{Name: "libk", Version: "1\x1b]0;pwned\a"},
			`libk version "1\x1b]0;pwned\a" holds an escape (U+001B) at character 2`},
		{"CR in a version", sdk.Component{Name: "libk", Version: "1.2\rOK"},
			`libk version "1.2\rOK" holds a carriage return (U+000D) at character 4`},
		{"RLO in a name", sdk.Component{Name: "lib\u202ekbil", Version: "1"},
			`name "lib\u202ekbil" holds a right-to-left override (U+202E) at character 4`},
		{"zero-width space in a version", sdk.Component{Name: "libk", Version: "1.\u200b2"},
			`libk version "1.\u200b2" holds a zero-width space (U+200B) at character 3`},
		{"RLO in a path", sdk.Component{Name: "libk", Version: "1", Path: "/opt/\u202egol"},
			`libk path "/opt/\u202egol" holds a right-to-left override (U+202E) at character 6`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `experiment "x" { seed = 1 }
dataset "d" { path = "d.csv" }
learner "knn" {
  params = { k = 3 }
}
reduction "ova" {}
cv { folds = 3 }
`
			text, hasErrors := resolveSource(t, map[string]string{"d.csv": fuzzData["d.csv"]}, "knn", runtimeLearner{Learner: knn.New(), c: tc.c}, src)
			if tc.want == "" {
				if hasErrors {
					t.Fatalf("a plain component refused:\n%s", text)
				}
				return
			}
			if want := learner + tc.want; strings.Count(text, ": error: ") != 1 || !strings.Contains(text, at) || !strings.Contains(text, want) {
				t.Errorf("diagnostics:\n%s\nwant one error, %q, holding %q", text, at, want)
			}
			if strings.ContainsAny(text, "\x1b\a\r\u202e\u200b") {
				t.Errorf("the diagnostics hold the characters raw: %q", text)
			}
		})
	}
}
