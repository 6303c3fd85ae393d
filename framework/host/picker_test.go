package host

import (
	"errors"
	"testing"
)

// TestPickerErrors: the messages of a scheme no plugin offers (with the
// nearest scheme offered, and the plugins that failed to start) and of
// one that several offer, as Resolve reports them.
func TestPickerErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"unknown, none offered", &UnknownSchemeError{Scheme: "ovo"},
			`No plugin offers scheme "ovo"; no plugin serves a reducer.`},
		{"unknown, a near one", &UnknownSchemeError{Scheme: "ovx", Schemes: []string{"ova", "ovo"}},
			`No plugin offers scheme "ovx" (did you mean "ova" or "ovo"?); the plugins offer: ova, ovo.`},
		{"unknown, a plugin failed", &UnknownSchemeError{Scheme: "ecoc", Schemes: []string{"ova"}, StartErrs: errors.New("plugin svm: exit status 2")},
			`No plugin offers scheme "ecoc"; the plugins offer: ova; and some plugins failed to start: plugin svm: exit status 2.`},
		{"ambiguous", &AmbiguousSchemeError{Scheme: "ova", Plugins: []string{"reducers", "myred"}},
			`Plugins reducers and myred all offer scheme "ova"; choose one with plugin = "...".`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
