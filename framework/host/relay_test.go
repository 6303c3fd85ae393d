package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStderrRelayEscaped: the lines a plugin writes to stderr reach the
// run log, and the error of a start that fails quotes them, with every
// control, bidi and invisible character but tab escaped (campaign 8 N12:
// they were relayed raw, and an escape sequence set the terminal's title,
// cleared its screen, overwrote its line).
func TestStderrRelayEscaped(t *testing.T) {
	tests := []struct {
		name, printf, want string // printf: the format of sh's printf; want: the line relayed
	}{
		{"title, colour, clear screen, carriage return, right-to-left override (N12)",
			`bad \033[31mRED\033]0;pwned-title\007 rev\342\200\256esrever \rOVERWRITE\033[2J\n`,
			`bad \x1b[31mRED\x1b]0;pwned-title\a rev\u202eesrever \rOVERWRITE\x1b[2J`},
		{"tab kept", `col1\tcol2\n`, "col1\tcol2"},
		{"C1 control sequence introducer and zero-width space", `a\302\2332Jb\342\200\213c\n`, `a\u009b2Jb\u200bc`},
		{"NUL and a byte that is not UTF-8", `a\000b\377c\n`, `a\x00b\xffc`},
		{"plain text as it is", `Traceback (most recent call last): é\n`, `Traceback (most recent call last): é`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			script := "#!/bin/sh\nprintf '" + tt.printf + "' >&2\nexit 1\n"
			if err := os.WriteFile(filepath.Join(dir, "bench-plugin-noisy"), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			var log syncBuffer
			h := New(dir, &log)
			_, err := h.Get(context.Background(), "noisy")
			h.Close()
			if err == nil || !strings.HasSuffix(err.Error(), "\nplugin stderr:\n"+tt.want) {
				t.Errorf("error %v\nwant one ending in the plugin's stderr %q", err, tt.want)
			}
			if got := log.String(); !strings.Contains(got, "[noisy] "+tt.want+"\n") {
				t.Errorf("run log:\n%q\nwant the line %q", got, "[noisy] "+tt.want)
			}
		})
	}
}

// TestEscapeWriterSplitCharacters: a character that go-plugin hands on
// in two writes (a long line comes in parts) is escaped or kept whole, as
// in one write.
func TestEscapeWriterSplitCharacters(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   string
	}{
		{"right-to-left override cut after its first byte", []string{"a\xe2", "\x80\xaeb", "\n"}, `a\u202eb` + "\n"},
		{"cut after its second byte", []string{"a\xe2\x80", "\xaeb\n"}, `a\u202eb` + "\n"},
		{"visible character cut", []string{"x\xe5", "\xae", "\x9f\n"}, "x実\n"},
		{"a cut that the next write does not complete", []string{"a\xe2", "\n"}, `a\xe2` + "\n"},
		{"escape in a write of its own", []string{"\x1b", "[2J\n"}, `\x1b[2J` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			w := &escapeWriter{w: &b}
			for _, s := range tt.writes {
				if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", s, n, err)
				}
			}
			if b.String() != tt.want {
				t.Errorf("wrote %q, want %q", b.String(), tt.want)
			}
		})
	}
}
