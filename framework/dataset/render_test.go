package dataset

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// TestRender pins how errorf and warnf show the text of a dataset's
// files: an excerpt stops at a control character and names it, a shown
// name is quoted whole with its escapes, a list shows its first ten
// names and counts the rest, and other args pass as they are.
func TestRender(t *testing.T) {
	twelve := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}
	tests := []struct {
		name string
		arg  any
		want string
	}{
		{"excerpt", excerpt("ab\ncd"), `"ab", then a newline (U+000A) at character 3`},
		{"excerpt plain", excerpt("setosa"), `"setosa"`},
		{"shown", shown("Total\t"), `"Total\t"`},
		{"listed as they are", listed{names: []string{"x", "y z"}}, "x, y z"},
		{"listed bounded", listed{names: twelve}, "a, b, c, d, e, f, g, h, i, j and 2 more"},
		{"listed excerpts", listed{names: []string{"x", "y\x00"}, excerpts: true}, `"x", "y", then a NUL (U+0000) at character 2`},
		{"other", "plain", "plain"},
		{"number", 7, "7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fmt.Sprint(render([]any{tt.arg})...)
			if got != tt.want {
				t.Errorf("render(%#v) = %q, want %q", tt.arg, got, tt.want)
			}
		})
	}
}

// TestErrorfRenders checks that errorf and warnf render their args: the
// detail shows a file's value as render shows it, not as %s alone would.
func TestErrorfRenders(t *testing.T) {
	var ck checker
	ck.errorf(hcl.Range{}, "S", "class %s", excerpt("a\x1b[31m"))
	ck.warnf(hcl.Range{}, "S", "classes %s", listed{names: []string{"a\x1b"}, excerpts: true})
	want := []string{`class "a", then an escape (U+001B) at character 2`, `classes "a", then an escape (U+001B) at character 2`}
	if len(ck.diags) != len(want) {
		t.Fatalf("%d diagnostics, want %d", len(ck.diags), len(want))
	}
	for i, d := range ck.diags {
		if d.Detail != want[i] {
			t.Errorf("diagnostic %d: detail %q, want %q", i, d.Detail, want[i])
		}
	}
}
