package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestFuncAlign(t *testing.T) {
	tests := []struct {
		name     string
		settings []debug.BuildSetting
		want     string
	}{
		{"make build's plugins", []debug.BuildSetting{{Key: "-ldflags", Value: "-s -w -funcalign=64"}}, "64"},
		{"value as the next argument", []debug.BuildSetting{{Key: "-ldflags", Value: "-funcalign 128 -s"}}, "128"},
		{"two dashes", []debug.BuildSetting{{Key: "-ldflags", Value: "--funcalign=32"}}, "32"},
		{"other link flags", []debug.BuildSetting{{Key: "-ldflags", Value: "-s -w"}}, defaultAlign},
		{"no link flags", []debug.BuildSetting{{Key: "CGO_ENABLED", Value: "0"}}, defaultAlign},
		{"a dangling flag", []debug.BuildSetting{{Key: "-ldflags", Value: "-funcalign"}}, defaultAlign},
		{"another setting's value", []debug.BuildSetting{{Key: "-gcflags", Value: "-funcalign=64"}}, defaultAlign},
	}
	for _, tt := range tests {
		if got := funcAlign(tt.settings); got != tt.want {
			t.Errorf("%s: funcAlign = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestSameLinkAlign builds a small program as plugin binaries linked with
// and without -funcalign=64 and checks them against builds of peerbench
// linked either way.
func TestSameLinkAlign(t *testing.T) {
	src := t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	aligned, plain := t.TempDir(), t.TempDir()
	build := func(dir string, ldflags ...string) {
		args := append([]string{"build", "-o", filepath.Join(dir, "bench-plugin-x")}, ldflags...)
		cmd := exec.Command("go", append(args, "main.go")...)
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "GO111MODULE=off", "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	}
	build(aligned, "-ldflags=-s -w -funcalign=64")
	build(plain)
	self64 := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "-ldflags", Value: "-funcalign=64"}}}
	selfPlain := &debug.BuildInfo{}

	if got, err := sameLinkAlign(self64, aligned, []string{"x"}); err != nil || got != "64" {
		t.Errorf("aligned alike: %q, %v; want 64 and no error", got, err)
	}
	if got, err := sameLinkAlign(selfPlain, plain, []string{"x"}); err != nil || got != defaultAlign {
		t.Errorf("both default: %q, %v; want the default and no error", got, err)
	}
	_, err := sameLinkAlign(selfPlain, aligned, []string{"x"})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(aligned, "bench-plugin-x")+" is linked with function alignment 64 and peerbench with the linker's default") || !strings.Contains(err.Error(), "make bench") {
		t.Errorf("plugins aligned, peerbench not: error %v", err)
	}
	_, err = sameLinkAlign(self64, plain, []string{"x"})
	if err == nil || !strings.Contains(err.Error(), "alignment the linker's default and peerbench with 64") {
		t.Errorf("peerbench aligned, plugins not: error %v", err)
	}
	_, err = sameLinkAlign(self64, aligned, []string{"x", "missing"})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(aligned, "bench-plugin-missing")) {
		t.Errorf("a missing plugin binary: error %v", err)
	}
}

func TestAlignText(t *testing.T) {
	if got, want := alignText("64"), "64 bytes (`-ldflags=-funcalign=64`)"; got != want {
		t.Errorf("alignText(64) = %q, want %q", got, want)
	}
	if got := alignText(defaultAlign); got != defaultAlign {
		t.Errorf("alignText(default) = %q", got)
	}
}
