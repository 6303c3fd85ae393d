package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version prints what versionText says of the running binary.
func version(args []string, stdout io.Writer) error {
	if len(args) != 0 {
		return usageError{"version takes no arguments"}
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	fmt.Fprint(stdout, versionText(bi))
	return nil
}

// versionText describes a build: the module version, the VCS commit it
// was built from (vcs.revision, "modified" when vcs.modified is true), the
// commit time, and the Go version and platform. bi may be nil (a binary
// built without module support).
func versionText(bi *debug.BuildInfo) string {
	mod, goVersion := "unknown", runtime.Version()
	settings := map[string]string{}
	if bi != nil {
		if bi.Main.Version != "" {
			mod = bi.Main.Version
		}
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
	}
	commit := "unknown (built without VCS information; go build in a git checkout records it)"
	if rev := settings["vcs.revision"]; rev != "" {
		commit = rev
		if settings["vcs.modified"] == "true" {
			commit += " (modified)"
		}
	}
	s := fmt.Sprintf("bench %s\ncommit: %s\n", mod, commit)
	if t := settings["vcs.time"]; t != "" {
		s += "commit time: " + t + "\n"
	}
	return s + fmt.Sprintf("go: %s %s/%s\n", goVersion, runtime.GOOS, runtime.GOARCH)
}
