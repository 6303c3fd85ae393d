package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/polyclass/polyclass/framework/cellspec"
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

// benchBuild is the identity of the running bench in a cell's spec
// (cellspec.Build): see buildIdentity. Reading the executable for its
// digest happens once per process, and only when the build needs it.
var benchBuild = sync.OnceValue(func() cellspec.Build {
	bi, _ := debug.ReadBuildInfo()
	return buildIdentity(bi, executableSHA256)
})

// buildIdentity identifies the build bi: its module version, VCS revision
// and whether the tree was modified, the Go toolchain and the build
// settings (tags, GOAMD64, flags: what changes the compiled code). Where
// the version and revision do not fix the code (no VCS stamp and no
// released version, as go build in a git worktree or go test; or a
// modified tree), the executable's SHA-256 (from sum) is added. The
// revision rather than a digest of the code: Go stamps the revision, its
// time and a pseudo-version made of them into the binary and its build
// IDs, so the executable's bytes change with every commit all the same,
// while the revision says which commit to check out to compute the same
// numbers again.
func buildIdentity(bi *debug.BuildInfo, sum func() string) cellspec.Build {
	b := cellspec.Build{Version: "unknown", Go: runtime.Version()}
	if bi == nil {
		b.SHA256 = sum()
		return b
	}
	if bi.Main.Version != "" {
		b.Version = bi.Main.Version
	}
	if bi.GoVersion != "" {
		b.Go = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		case "vcs", "vcs.time":
		default:
			if b.Settings == nil {
				b.Settings = map[string]string{}
			}
			b.Settings[s.Key] = s.Value
		}
	}
	released := b.Version != "(devel)" && b.Version != "unknown" && !strings.Contains(b.Version, "+dirty")
	if b.Modified || b.Revision == "" && !released {
		b.SHA256 = sum()
	}
	return b
}

// executableSHA256 is the SHA-256 of the running executable, or "" when
// it cannot be read.
func executableSHA256() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}
