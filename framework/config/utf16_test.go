package config

import (
	"strings"
	"testing"
	"unicode/utf16"
)

// encodeUTF16 is s in UTF-16, little-endian or big-endian, after the
// bytes mark (a byte order mark, or none).
func encodeUTF16(s string, little bool, mark ...byte) string {
	b := append([]byte(nil), mark...)
	for _, u := range utf16.Encode([]rune(s)) {
		if little {
			b = append(b, byte(u), byte(u>>8))
		} else {
			b = append(b, byte(u>>8), byte(u))
		}
	}
	return string(b)
}

// TestUTF16ExperimentFile: an experiment file saved as UTF-16 (with a
// byte order mark or without one) is one error at its first byte that
// says so and how to save it as UTF-8, with no source line printed; the
// HCL parser gave 167 "Invalid character encoding" and "Invalid
// character" errors for an 8-line file (campaign 16). A UTF-8 file with
// its own byte order mark parses as before.
func TestUTF16ExperimentFile(t *testing.T) {
	const advice = "; an experiment file must be UTF-8. Save it as UTF-8 (in your editor's Save As, or: iconv -f UTF-16 -t UTF-8 FILE > NEW)."
	tests := []struct {
		name, src, enc string
	}{
		{"little-endian with a mark", encodeUTF16(base, true, 0xFF, 0xFE), "UTF-16 little-endian, with a byte order mark (FF FE)"},
		{"big-endian with a mark", encodeUTF16(base, false, 0xFE, 0xFF), "UTF-16 big-endian, with a byte order mark (FE FF)"},
		{"little-endian without a mark", encodeUTF16(base, true), "UTF-16 little-endian (a NUL byte after each ASCII character)"},
		{"big-endian without a mark", encodeUTF16(base, false), "UTF-16 big-endian (a NUL byte before each ASCII character)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exp, diags := parse(t, tt.src)
			want := "exp.hcl:1:1: error: Experiment file in UTF-16\n  on exp.hcl line 1:\n  (source code not available)\n\nThe file is encoded as " + tt.enc + advice + "\n\n"
			if exp != nil || diags != want {
				t.Errorf("experiment %v, diagnostics:\n%q\nwant\n%q", exp != nil, diags, want)
			}
		})
	}
	exp, diags := parse(t, "\uFEFF"+base)
	if exp == nil || strings.Contains(diags, "error") {
		t.Errorf("UTF-8 with a byte order mark: %s", diags)
	}
}
