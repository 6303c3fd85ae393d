package safetext

import (
	"testing"
	"unicode"
)

// TestCheckVisible checks that CheckVisible refuses what Check refuses
// and each zero-width character and bidi control, naming it and its
// position, and accepts letters of any script.
func TestCheckVisible(t *testing.T) {
	tests := []struct {
		name, in, want string // want "" for no error
	}{
		{"plain", "iris", ""},
		{"letters beyond ASCII", "résultats/実験 іris", ""},
		{"newline", "a\nb", "holds a newline (U+000A) at character 2"},
		{"zero-width space", "ir\u200Bis", "holds a zero-width space (U+200B) at character 3"},
		{"zero-width non-joiner", "\u200Ciris", "holds a zero-width non-joiner (U+200C) at character 1"},
		{"zero-width joiner", "iris\u200D", "holds a zero-width joiner (U+200D) at character 5"},
		{"word joiner", "a\u2060b", "holds a word joiner (U+2060) at character 2"},
		{"BOM", "\uFEFFa", "holds a zero-width no-break space (BOM) (U+FEFF) at character 1"},
		{"RLO", "a\u202Eb", "holds a right-to-left override (U+202E) at character 2"},
		{"LRE", "a\u202Ab", "holds a left-to-right embedding (U+202A) at character 2"},
		{"PDF", "a\u202Cb", "holds a pop directional formatting (U+202C) at character 2"},
		{"LRI", "\u2066a", "holds a left-to-right isolate (U+2066) at character 1"},
		{"PDI", "a\u2069", "holds a pop directional isolate (U+2069) at character 2"},
		{"RLM", "a\u200Fb", "holds a right-to-left mark (U+200F) at character 2"},
		{"soft hyphen", "set\u00ADosa", "holds an invisible (default-ignorable) character (U+00AD) at character 4"},
		{"combining grapheme joiner", "seto\u034Fsa", "holds an invisible (default-ignorable) character (U+034F) at character 5"},
		{"Mongolian vowel separator", "a\u180Eb", "holds an invisible (default-ignorable) character (U+180E) at character 2"},
		{"Hangul filler", "\u3164a", "holds an invisible (default-ignorable) character (U+3164) at character 1"},
		{"halfwidth Hangul filler", "a\uFFA0", "holds an invisible (default-ignorable) character (U+FFA0) at character 2"},
		{"variation selector 16", "a\uFE0F", "holds an invisible (default-ignorable) character (U+FE0F) at character 2"},
		{"invisible times", "a\u2062b", "holds an invisible (default-ignorable) character (U+2062) at character 2"},
		{"tag letter s", "a\U000E0073", "holds an invisible (default-ignorable) character (U+E0073) at character 2"},
		{"variation selector 256", "a\U000E01EF", "holds an invisible (default-ignorable) character (U+E01EF) at character 2"},
		{"no-break space shows", "a\u00A0b", ""},
		{"ideographic space shows", "a\u3000b", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckVisible(tt.in)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("CheckVisible(%q) = %v, want nil", tt.in, err)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Errorf("CheckVisible(%q) = %v, want %q", tt.in, err, tt.want)
			}
		})
	}
}

// TestFoldAndSkeleton checks which texts Fold and Skeleton make one:
// NFC forms, surrounding blanks and runs of blanks inside for Fold; those and homoglyphs of
// other scripts and NFKC compatibility forms for Skeleton; never two
// texts a reader tells apart.
func TestFoldAndSkeleton(t *testing.T) {
	tests := []struct {
		name, a, b   string
		fold, skelet bool // one Fold, one Skeleton
	}{
		{"precomposed e acute and e with U+0301", "caf\u00e9", "cafe\u0301", true, true},
		{"trailing space", "setosa", "setosa ", true, true},
		{"leading tab", "\tsetosa", "setosa", true, true},
		// campaign 11b's BM6: a run of spaces shows as one.
		{"two spaces inside", "New  York", "New York", true, true},
		{"no-break space inside", "New\u00a0York", "New York", true, true},
		{"tab inside", "New\tYork", "New York", true, true},
		{"a space and none", "NewYork", "New York", false, false},
		// campaign 11c's B03: a braille blank shows as a space.
		{"braille blank inside", "New\u2800York", "New York", true, true},
		// B25, B14: quotes that print alike.
		{"two right single quotes and a right double quote", "\u2019\u2019q", "\u201dq", false, true},
		{"two left single quotes and a left double quote", "\u2018\u2018q", "\u201cq", false, true},
		{"straight and curly double quotes", `"q"`, "\u201cq\u201d", false, true},
		{"a quote and none", `"q"`, "q", false, false},
		// campaign 11d's B18: what LaTeX prints alike.
		{"modifier circumflex and caret", "a\u02c6b", "a^b", false, true},
		{"small tilde and tilde", "a\u02dcb", "a~b", false, true},
		{"two hyphens U+2010 and two hyphen-minus", "a\u2010\u2010b", "a--b", false, true},
		// campaign 11e's B01.
		{"horizontal bar and em dash", "a\u2015b", "a\u2014b", false, true},
		{"Cyrillic i", "\u0456ris", "iris", false, true},
		{"Cyrillic a o e", "d\u0430t\u0430", "data", false, true},
		{"Greek capital omicron", "\u039fNE", "ONE", false, true},
		{"fullwidth letters", "\uff49ris", "iris", false, true},
		{"Armenian oh", "set\u0585sa", "setosa", false, true},
		{"Armenian seh and capital oh", "\u057Dp\u0555", "upO", false, true},
		{"Latin dotless i", "\u0131ris", "iris", false, true},
		{"minus sign", "\u22121", "-1", false, true},
		{"en dash and hyphen", "a\u2013b\u2010c", "a-b-c", false, true},
		{"fullwidth hyphen-minus", "\uff0d1", "-1", false, true},
		{"mathematical bold s", "\U0001D42Cetosa", "setosa", false, true},
		{"minus and plus differ", "-1", "+1", false, false},
		{"case differs", "Iris", "iris", false, false},
		{"different words", "iris", "wine", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Fold(tt.a) == Fold(tt.b); got != tt.fold {
				t.Errorf("Fold(%q) == Fold(%q): %v, want %v", tt.a, tt.b, got, tt.fold)
			}
			if got := Skeleton(tt.a) == Skeleton(tt.b); got != tt.skelet {
				t.Errorf("Skeleton(%q) == Skeleton(%q): %v, want %v", tt.a, tt.b, got, tt.skelet)
			}
		})
	}
}

// TestHiddenHoldsDefaultIgnorables checks the table of Hidden against the
// properties Go's unicode package carries: every
// Other_Default_Ignorable_Code_Point and every Variation_Selector is
// Hidden (both are part of Default_Ignorable_Code_Point), and every
// format character (Cf) is Hidden but those Unicode leaves out of it:
// the prepended concatenation marks, the interlinear annotation
// characters U+FFF9–U+FFFB and the Egyptian hieroglyph format controls,
// which show.
func TestHiddenHoldsDefaultIgnorables(t *testing.T) {
	for _, tab := range []struct {
		name string
		t    *unicode.RangeTable
	}{{"Other_Default_Ignorable_Code_Point", unicode.Other_Default_Ignorable_Code_Point}, {"Variation_Selector", unicode.Variation_Selector}} {
		for r := rune(0); r <= unicode.MaxRune; r++ {
			if unicode.Is(tab.t, r) && !Hidden(r) {
				t.Errorf("U+%04X is %s but not Hidden", r, tab.name)
			}
		}
	}
	shows := func(r rune) bool {
		return unicode.Is(unicode.Prepended_Concatenation_Mark, r) || r >= 0xFFF9 && r <= 0xFFFB || r >= 0x13430 && r <= 0x1345F
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if unicode.Is(unicode.Cf, r) && !shows(r) && !Hidden(r) {
			t.Errorf("U+%04X is a format character (Cf), default-ignorable, but not Hidden", r)
		}
	}
}
