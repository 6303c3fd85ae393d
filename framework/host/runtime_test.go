package host

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/sdk"
)

// libLearner is meanLearner reporting a library it loads at run time.
type libLearner struct{ meanLearner }

func (libLearner) Info() sdk.LearnerInfo {
	info := meanLearner{}.Info()
	info.Runtime = []sdk.Component{{Name: "libfoo", Version: "2.0", Path: "/opt/libfoo.so"}}
	return info
}

// TestPluginRuntime: a Go plugin's runtime report, read back through the
// protocol, starts with the Go toolchain that built it and ends with what
// its Info adds. (A test binary records no module dependencies; the real
// plugins' are checked by cmd/bench's TestPluginsCommand.)
func TestPluginRuntime(t *testing.T) {
	h := New("", nil)
	h.Register("lib", InProcess{Learner: libLearner{}})
	defer h.Close()
	p, err := h.Get(context.Background(), "lib")
	if err != nil {
		t.Fatal(err)
	}
	rt := p.Runtime()
	if len(rt) < 2 {
		t.Fatalf("runtime %v: want go, then libfoo", rt)
	}
	if want := strings.TrimPrefix(runtime.Version(), "go"); rt[0] != (sdk.Component{Name: "go", Version: want}) {
		t.Errorf("first component %v, want go %s", rt[0], want)
	}
	if got := rt[len(rt)-1]; got.String() != "libfoo 2.0 (/opt/libfoo.so)" {
		t.Errorf("last component %v, want the learner's libfoo", got)
	}
}
