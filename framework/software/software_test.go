package software

import (
	"runtime/debug"
	"slices"
	"testing"
)

func TestString(t *testing.T) {
	for _, tc := range []struct {
		c    Component
		want string
	}{
		{Component{Name: "python", Version: "3.11.2", Path: "/usr/bin/python3"}, "python 3.11.2 (/usr/bin/python3)"},
		{Component{Name: "scikit-learn", Version: "1.2.1"}, "scikit-learn 1.2.1"},
		{Component{Name: "mystery"}, "mystery"},
	} {
		if got := tc.c.String(); got != tc.want {
			t.Errorf("%#v: %q, want %q", tc.c, got, tc.want)
		}
	}
}

func TestFromBuildInfo(t *testing.T) {
	bi := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/polyclass/polyclass", Version: "(devel)"},
		Deps: []*debug.Module{
			{Path: "gonum.org/v1/gonum", Version: "v0.17.0"},
			{Path: "example.com/old", Version: "v1.0.0", Replace: &debug.Module{Path: "example.com/fork", Version: "v1.0.1"}},
		},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.modified", Value: "true"}},
	}
	want := []Component{
		{Name: "go", Version: "1.26.8"},
		{Name: "github.com/polyclass/polyclass", Version: "(devel) rev 0123abcd+modified"},
		{Name: "gonum.org/v1/gonum", Version: "v0.17.0"},
		{Name: "example.com/fork", Version: "v1.0.1"},
	}
	if got := fromBuildInfo(bi); !slices.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	bi.Settings = nil
	if got := fromBuildInfo(bi)[1].Version; got != "(devel)" {
		t.Errorf("without VCS stamp: %q, want (devel)", got)
	}
}

// TestBuild: a test binary has build information; its first component is
// the Go toolchain that built it.
func TestBuild(t *testing.T) {
	got := Build()
	if len(got) == 0 || got[0].Name != "go" || got[0].Version == "" {
		t.Fatalf("Build() = %v, want the go toolchain first", got)
	}
}

func TestChanges(t *testing.T) {
	py := Component{Name: "python", Version: "3.11.2", Path: "/usr/bin/python3"}
	sk := Component{Name: "scikit-learn", Version: "1.2.1"}
	for _, tc := range []struct {
		name     string
		was, now []Component
		want     []string
	}{
		{"same", []Component{py, sk}, []Component{py, sk}, nil},
		{"another venv, same versions", []Component{py}, []Component{{Name: "python", Version: "3.11.2", Path: "/tmp/v/bin/python"}}, nil},
		{"upgrade", []Component{py, sk}, []Component{py, {Name: "scikit-learn", Version: "1.4.2"}}, []string{"scikit-learn 1.2.1 → 1.4.2"}},
		{"added and gone", []Component{py, sk}, []Component{py, {Name: "xgboost", Version: "1.7.4"}},
			[]string{"xgboost 1.7.4 (new)", "scikit-learn 1.2.1 (gone)"}},
		{"version lost", []Component{sk}, []Component{{Name: "scikit-learn"}}, []string{"scikit-learn 1.2.1 → (no version)"}},
	} {
		if got := Changes(tc.was, tc.now); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestUnion(t *testing.T) {
	a, b, c := Component{Name: "a"}, Component{Name: "b", Version: "1"}, Component{Name: "b", Version: "2"}
	if got := Union([]Component{a, b}, []Component{b, c, a}); !slices.Equal(got, []Component{a, b, c}) {
		t.Errorf("Union: %v", got)
	}
	if got := Union(nil, []Component{c, c}); !slices.Equal(got, []Component{c}) {
		t.Errorf("Union of repeats: %v", got)
	}
}
