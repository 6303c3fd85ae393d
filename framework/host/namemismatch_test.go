package host

import (
	"testing"

	"github.com/polyclass/polyclass/framework/plugin"
)

// TestNameMismatch: a plugin whose Info declares a name other than its
// file's is told so, naming the file and the declared name; one whose
// names agree is not.
func TestNameMismatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    *Plugin
		want string
	}{
		{"agree", &Plugin{Binary: Binary{Name: "knn", Path: "/p/bench-plugin-knn"}, LearnerInfo: &plugin.LearnerInfo{Name: "knn"}}, ""},
		{"learner", &Plugin{Binary: Binary{Name: "gocentroid", Path: "/p/bench-plugin-gocentroid"}, LearnerInfo: &plugin.LearnerInfo{Name: "centroid"}},
			`bench-plugin-gocentroid declares itself learner "centroid", but the host knows a plugin by its file name: experiment files and reports call it "gocentroid"; rename the file bench-plugin-centroid or the name in its Info to make them agree`},
		{"reducer", &Plugin{Binary: Binary{Name: "my-reducer", Path: "/p/my-reducer"}, ReducerInfo: &plugin.ReducerInfo{Name: "reducers"}},
			`my-reducer declares itself reducer "reducers", but the host knows a plugin by its file name: experiment files and reports call it "my-reducer"; rename the file bench-plugin-reducers or the name in its Info to make them agree`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.p.NameMismatch(); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
