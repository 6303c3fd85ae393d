package host

import (
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/plugin"
)

// TestBadInfoTextShowsNamesEscaped: a refused string of an Info answer is
// named by a label that holds other names of the answer (a component's,
// a parameter's, a scheme's); a name with a terminal's controls in it is
// shown quoted there, never raw.
func TestBadInfoTextShowsNamesEscaped(t *testing.T) {
	const hostile = "np\x1b]0;t\x07\u202e"
	li := &plugin.LearnerInfo{Name: "l", Version: "1",
		Runtime: []plugin.Component{{Name: hostile, Version: "1\x1b[2J"}},
		Params:  []plugin.ParamSpec{{Name: hostile, Description: "d\x1b[2J"}}}
	ri := &plugin.ReducerInfo{Name: "r", Version: "1", Schemes: []plugin.Scheme{{Name: hostile, Description: "s\x1b[2J"}}}
	err := badInfoText(li, ri)
	if err == nil {
		t.Fatal("no error for an Info answer with control characters")
	}
	msg := err.Error()
	for _, raw := range []string{"\x1b", "\x07", "\u202e"} {
		if strings.Contains(msg, raw) {
			t.Errorf("the error holds %q raw:\n%q", raw, msg)
		}
	}
	for _, want := range []string{`runtime component "np\x1b]0;t\a\u202e" version`, `parameter "np\x1b]0;t\a\u202e" description`, `scheme "np\x1b]0;t\a\u202e" description`} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not name %s:\n%s", want, msg)
		}
	}
}
