package server

import (
	"testing"

	"github.com/polyclass/polyclass/framework/plugin"
)

// TestLeavesGroupOut: a problem is seen to leave rows out, without
// converting it, only when its compact code is 0 for a group that has
// rows; dense targets and codes that do not fit the groups go to the
// conversion, which says what is wrong.
func TestLeavesGroupOut(t *testing.T) {
	members := groupRows{{0, 3}, {1}, {}, {2, 4}} // group 2 has no rows
	compact := func(code ...int8) plugin.Problem {
		return plugin.Problem{Kind: plugin.Binary, Compact: &plugin.CompactTargets{Groups: []int32{0, 1, 3, 0, 3}, Code: code}}
	}
	for _, tc := range []struct {
		name string
		p    plugin.Problem
		want bool
	}{
		{"one-vs-all column", compact(1, -1, -1, -1), false},
		{"one-vs-one column", compact(1, 0, 0, -1), true},
		{"left out group without rows", compact(1, -1, 0, -1), false},
		{"code shorter than the groups", compact(1, 0), false},
		{"dense targets", plugin.Problem{Kind: plugin.Binary, Targets: []float64{1, 0, -1, 1, 0}}, false},
	} {
		if got := leavesGroupOut(members, tc.p); got != tc.want {
			t.Errorf("%s: leavesGroupOut = %v, want %v", tc.name, got, tc.want)
		}
	}
}
