package host

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/internal/wire"
	"github.com/polyclass/polyclass/framework/sharedmem"
)

// TestPluginEnvironment is campaign 12's PF4: a POLYCLASS_PROFILE_DIR
// left exported in the shell reached the plugins of a run without
// --profile, which wrote their profiles there (into cells/, where the
// next run refused its own results directory). A plugin's environment is
// the host's without the variables only the host sets, then the host's
// own values of them, when it has some.
func TestPluginEnvironment(t *testing.T) {
	t.Setenv(wire.ProfileDirEnv, "/tmp/left-over")
	t.Setenv(sharedmem.Env, "7:0:0")
	t.Setenv("POLYCLASS_TEST_KEPT", "yes")
	for _, tc := range []struct {
		profileDir string
		want       []string // the reserved variables in the plugin's environment
	}{
		{"", nil},
		{"/results/profile", []string{wire.ProfileDirEnv + "=/results/profile"}},
	} {
		h := &Host{profileDir: tc.profileDir}
		cmd := exec.Command("true")
		h.setEnv(cmd, nil, "")
		var got []string
		for _, kv := range cmd.Env {
			if name, _, _ := strings.Cut(kv, "="); name == wire.ProfileDirEnv || name == sharedmem.Env {
				got = append(got, kv)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("profile directory %q: the plugin is told %q, want %q", tc.profileDir, got, tc.want)
		}
		if !slices.Contains(cmd.Env, "POLYCLASS_TEST_KEPT=yes") {
			t.Errorf("profile directory %q: the host's other variables are not passed on", tc.profileDir)
		}
	}
}
