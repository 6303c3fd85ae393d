package main

import (
	"debug/buildinfo"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// defaultAlign stands for a binary linked without -funcalign: the Go
// linker's own alignment of functions (32 bytes on amd64).
const defaultAlign = "the linker's default"

// funcAlign returns the function alignment a binary was linked with, from
// its build settings: the value of -funcalign in -ldflags ("64"), or
// defaultAlign.
func funcAlign(settings []debug.BuildSetting) string {
	for _, s := range settings {
		if s.Key != "-ldflags" {
			continue
		}
		f := strings.Fields(s.Value)
		for i, a := range f {
			a = strings.TrimLeft(a, "-")
			if v, ok := strings.CutPrefix(a, "funcalign="); ok {
				return v
			}
			if a == "funcalign" && i+1 < len(f) {
				return f[i+1]
			}
		}
	}
	return defaultAlign
}

// sameLinkAlign checks that the plugin binaries (bench-plugin-NAME in dir,
// for each of names) were linked with the function alignment of self, the
// build of this program, which runs the linked-in side of the plugin tax:
// where a hot loop falls within a cache line moves a fit's CPU time by a
// few percent (the svm plugin's fits: 2.5-3 %, see the Makefile), which
// would be reported as the processes' tax. It returns the alignment.
func sameLinkAlign(self *debug.BuildInfo, dir string, names []string) (string, error) {
	want := defaultAlign
	if self != nil {
		want = funcAlign(self.Settings)
	}
	for _, name := range names {
		path := filepath.Join(dir, "bench-plugin-"+name)
		bi, err := buildinfo.ReadFile(path)
		if err != nil {
			return "", fmt.Errorf("reading the build settings of %s: %w", path, err)
		}
		if got := funcAlign(bi.Settings); got != want {
			return "", fmt.Errorf("%s is linked with function alignment %s and peerbench with %s: the plugin tax would measure where hot loops fall in cache lines; build both with make (make build, make bench: -ldflags=-funcalign=64)", path, got, want)
		}
	}
	return want, nil
}

// alignText says how functions are aligned, for the report: "64 bytes
// (-ldflags=-funcalign=64)", or the linker's default.
func alignText(align string) string {
	if align == defaultAlign {
		return align
	}
	return fmt.Sprintf("%s bytes (`-ldflags=-funcalign=%s`)", align, align)
}
