// Package software names the software that computes a plugin's numbers
// beyond its binary: its language runtime or interpreter and the
// libraries it runs on, as the plugin protocol's runtime report carries
// them (LearnerInfo.runtime, ReducerInfo.runtime) and a run's manifest
// records them. A Python plugin's file is the same whatever scikit-learn
// and numpy it imports; its runtime report says which.
//
// The package depends on the standard library alone, so that the packages
// that store and render results use it without the RPC machinery.
package software

import (
	"runtime/debug"
	"slices"
	"strings"
)

// Component is one piece of software a plugin computes with.
type Component struct {
	// Name is "go", "python", a Python distribution's name
	// ("scikit-learn", "numpy") or a Go module path.
	Name string `json:"name"`
	// Version is the version the component reports ("3.11.2", "1.2.1",
	// "v0.17.0"); empty when it reports none.
	Version string `json:"version,omitempty"`
	// Path is where the component is installed when that tells two
	// installations apart (an interpreter's executable); usually empty.
	// It is for people: two installations of one version compute the same.
	Path string `json:"path,omitempty"`
}

// String returns "NAME VERSION (PATH)", leaving out what is empty.
func (c Component) String() string {
	s := c.Name
	if c.Version != "" {
		s += " " + c.Version
	}
	if c.Path != "" {
		s += " (" + c.Path + ")"
	}
	return s
}

// Build returns the components of the running Go binary, from the build
// information the Go toolchain embeds (runtime/debug.ReadBuildInfo): the
// Go version ("go", "1.26.8"), the main module with its version and, when
// the build recorded one, its VCS revision ("(devel) rev 0123abcd…",
// "+modified" when the tree had changes), then every module it depends
// on, in the build information's order (sorted by path). It returns nil
// for a binary built without module support.
func Build() []Component {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	return fromBuildInfo(bi)
}

func fromBuildInfo(bi *debug.BuildInfo) []Component {
	out := []Component{{Name: "go", Version: strings.TrimPrefix(bi.GoVersion, "go")}}
	if bi.Main.Path != "" {
		out = append(out, Component{Name: bi.Main.Path, Version: mainVersion(bi)})
	}
	for _, d := range bi.Deps {
		if d.Replace != nil {
			d = d.Replace
		}
		out = append(out, Component{Name: d.Path, Version: d.Version})
	}
	return out
}

// mainVersion is the main module's version, with the VCS revision the
// build stamped (go build -buildvcs) when there is one.
func mainVersion(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	var rev string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return v
	}
	v += " rev " + rev
	if modified {
		v += "+modified"
	}
	return strings.TrimSpace(v)
}

// Changes describes how the runtime report now differs from was, one
// entry a component, in now's order then was's: "scikit-learn 1.2.1 →
// 1.4.2", "python 3.11.2 → 3.12.1", "xgboost 1.7.4 (new)", "imbalanced-learn
// 0.10.1 (gone)". Paths are left out: two installations of one version
// compute the same. It returns nil when the names and versions agree.
func Changes(was, now []Component) []string {
	old := map[string]string{}
	for _, c := range was {
		old[c.Name] = c.Version
	}
	var out []string
	seen := map[string]bool{}
	for _, c := range now {
		seen[c.Name] = true
		v, ok := old[c.Name]
		switch {
		case !ok:
			out = append(out, Component{Name: c.Name, Version: c.Version}.String()+" (new)")
		case v != c.Version:
			out = append(out, c.Name+" "+orNone(v)+" → "+orNone(c.Version))
		}
	}
	for _, c := range was {
		if !seen[c.Name] {
			seen[c.Name] = true
			out = append(out, Component{Name: c.Name, Version: c.Version}.String()+" (gone)")
		}
	}
	return out
}

func orNone(v string) string {
	if v == "" {
		return "(no version)"
	}
	return v
}

// Union returns list followed by the components of more that list lacks,
// in more's order.
func Union(list, more []Component) []Component {
	for _, c := range more {
		if !slices.Contains(list, c) {
			list = append(list, c)
		}
	}
	return list
}
