package host

import (
	"context"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
)

// infoLearner is meanLearner with its Info answer changed by edit.
type infoLearner struct {
	meanLearner
	edit func(*sdk.LearnerInfo)
}

func (l infoLearner) Info() sdk.LearnerInfo {
	i := l.meanLearner.Info()
	i.Params = []sdk.ParamSpec{{Name: "shift", Type: sdk.NumberParam, Default: sdk.Number(0)}}
	l.edit(&i)
	return i
}

// infoReducer is the reducers plugin with its Info answer changed by edit.
type infoReducer struct {
	sdk.Reducer
	edit func(*sdk.ReducerInfo)
}

func (r infoReducer) Info() sdk.ReducerInfo {
	i := r.Reducer.Info()
	r.edit(&i)
	return i
}

// TestInfoControlCharactersFailStart: a plugin whose Info answer holds a
// newline or another control character in a name, a version, a
// description or a scheme name, or a bidi control or other invisible
// character in its name, its version, a parameter's or a scheme's name
// (campaign 10 E18, E19: they reach the report) or a runtime component's
// name, version or path, does not start (campaign 5 p_nlversion,
// p_nlparam: the newline split the report's Markdown rows), and the error
// names the plugin, the field and the character.
func TestInfoControlCharactersFailStart(t *testing.T) {
	learner := func(edit func(*sdk.LearnerInfo)) InProcess {
		return InProcess{Learner: infoLearner{edit: edit}}
	}
	reducerWith := func(edit func(*sdk.ReducerInfo)) InProcess {
		return InProcess{Reducer: infoReducer{Reducer: reducer.New(), edit: edit}}
	}
	tests := []struct {
		name string
		p    InProcess
		want string
	}{
		{"version", learner(func(i *sdk.LearnerInfo) { i.Version = "0.1.0\n| injected | row |" }),
			`plugin x (in-process): the Info answer's learner version "0.1.0\n| injected | row |" holds a newline (U+000A) at character 6`},
		{"learner name", learner(func(i *sdk.LearnerInfo) { i.Name = "me\ran" }),
			`the Info answer's learner name "me\ran" holds a carriage return (U+000D) at character 3`},
		{"description", learner(func(i *sdk.LearnerInfo) { i.Description = "a\x00b" }),
			`the Info answer's learner description "a\x00b" holds a NUL (U+0000) at character 2`},
		{"param name", learner(func(i *sdk.LearnerInfo) { i.Params[0].Name = "shift\n| injected |" }),
			`the Info answer's learner mean parameter name "shift\n| injected |" holds a newline (U+000A) at character 6`},
		{"param description", learner(func(i *sdk.LearnerInfo) { i.Params[0].Description = "x\u2028y" }),
			`the Info answer's learner mean parameter shift description "x\u2028y" holds a line separator (U+2028) at character 2`},
		{"allowed", learner(func(i *sdk.LearnerInfo) {
			i.Params[0] = sdk.ParamSpec{Name: "kind", Type: sdk.StringParam, Default: sdk.String("a"), Allowed: []string{"a", "b\tc"}}
		}), `the Info answer's learner mean parameter kind allowed value "b\tc" holds a tab (U+0009) at character 2`},
		{"reducer version", reducerWith(func(i *sdk.ReducerInfo) { i.Version = "1\n2" }),
			`the Info answer's reducer version "1\n2" holds a newline (U+000A) at character 2`},
		{"scheme name", reducerWith(func(i *sdk.ReducerInfo) { i.Schemes[0].Name = "o\nva" }),
			`the Info answer's scheme name "o\nva" holds a newline (U+000A) at character 2`},
		{"runtime component RLO", learner(func(i *sdk.LearnerInfo) { i.Runtime = []sdk.Component{{Name: "np", Version: "1\u202e2"}} }),
			`the Info answer's runtime component np version "1\u202e2" holds a right-to-left override (U+202E) at character 2`},
		{"runtime component path", learner(func(i *sdk.LearnerInfo) { i.Runtime = []sdk.Component{{Name: "np", Path: "/a\x1b[2J"}} }),
			`the Info answer's runtime component np path "/a\x1b[2J" holds an escape (U+001B) at character 3`},
		{"version zero-width space", learner(func(i *sdk.LearnerInfo) { i.Version = "0.\u200b1" }),
			`the Info answer's learner version "0.\u200b1" holds a zero-width space (U+200B) at character 3`},
		{"param name Hangul filler (campaign 10 E18)", learner(func(i *sdk.LearnerInfo) { i.Params[0].Name = "al\u3164pha" }),
			`the Info answer's learner mean parameter name "al\u3164pha" holds an invisible (default-ignorable) character (U+3164) at character 3`},
		{"param name RLO (campaign 10 E19)", learner(func(i *sdk.LearnerInfo) { i.Params[0].Name = "zz\u202eateb" }),
			`the Info answer's learner mean parameter name "zz\u202eateb" holds a right-to-left override (U+202E) at character 3`},
		{"scheme name RLO", reducerWith(func(i *sdk.ReducerInfo) { i.Schemes[0].Name = "o\u202eva" }),
			`the Info answer's scheme name "o\u202eva" holds a right-to-left override (U+202E) at character 2`},
		{"scheme parameter name Hangul filler", reducerWith(func(i *sdk.ReducerInfo) {
			i.Schemes[0].Params = append(i.Schemes[0].Params, sdk.ParamSpec{Name: "k\u3164", Type: sdk.NumberParam, Default: sdk.Number(1)})
		}), `the Info answer's scheme ova parameter name "k\u3164" holds an invisible (default-ignorable) character (U+3164) at character 2`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := New("", nil)
			h.Register("x", tt.p)
			defer h.Close()
			_, err := h.Get(context.Background(), "x")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v\nwant it to hold %s", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("the error holds a newline: %q", err)
			}
		})
	}
}

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
