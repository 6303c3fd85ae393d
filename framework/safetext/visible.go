package safetext

import (
	"strings"

	"golang.org/x/text/unicode/norm"
)

// VisibleRule is the rule CheckVisible enforces, in words, for the
// messages of those who call it.
const VisibleRule = "a name or label may hold no bidi control or zero-width character: it would show as another text than it is"

// hidden are the characters CheckVisible refuses beyond those of Check,
// with their names: the zero-width characters and the bidi controls
// (Unicode's explicit embeddings, overrides and isolates, and the
// implicit marks), which change how a text shows without showing.
var hidden = map[rune]string{
	0x200B: "a zero-width space", 0x200C: "a zero-width non-joiner", 0x200D: "a zero-width joiner",
	0x2060: "a word joiner", 0xFEFF: "a zero-width no-break space (BOM)",
	0x200E: "a left-to-right mark", 0x200F: "a right-to-left mark", 0x061C: "an Arabic letter mark",
	0x202A: "a left-to-right embedding", 0x202B: "a right-to-left embedding",
	0x202C: "a pop directional formatting", 0x202D: "a left-to-right override",
	0x202E: "a right-to-left override", 0x2066: "a left-to-right isolate",
	0x2067: "a right-to-left isolate", 0x2068: "a first strong isolate",
	0x2069: "a pop directional isolate",
}

// Hidden reports whether r is a zero-width character (U+200B–U+200D,
// U+2060, U+FEFF) or a bidi control (U+202A–U+202E, U+2066–U+2069,
// U+200E, U+200F, U+061C).
func Hidden(r rune) bool {
	_, ok := hidden[r]
	return ok
}

// CheckVisible returns an *Error for the first character of s that Check
// refuses or that Hidden reports, nil when there is none.
func CheckVisible(s string) error {
	if err := Check(s); err != nil {
		return err
	}
	pos := 0
	for _, r := range s {
		pos++
		if Hidden(r) {
			return &Error{Char: r, Pos: pos}
		}
	}
	return nil
}

// Fold returns the form of s that a reader cannot tell from s: its
// Unicode NFC normalisation without leading and trailing white space.
// Two labels with one Fold read as one ("é" precomposed and e followed by
// U+0301; "setosa" and "setosa ").
func Fold(s string) string {
	return strings.TrimSpace(norm.NFC.String(s))
}

// confusable maps letters of other scripts that show as a Latin letter
// in common fonts to that letter: the Cyrillic and Greek homoglyphs of
// Unicode's confusables list (UTS #39) that map to one ASCII letter.
var confusable = map[rune]rune{
	// Cyrillic
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x',
	'і': 'i', 'ј': 'j', 'ѕ': 's', 'һ': 'h', 'ӏ': 'l', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w',
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P',
	'С': 'C', 'Т': 'T', 'Х': 'X', 'У': 'Y', 'І': 'I', 'Ј': 'J', 'Ѕ': 'S', 'Ԁ': 'D',
	'Ԛ': 'Q', 'Ԝ': 'W', 'Ү': 'Y', 'ү': 'y',
	// Greek
	'α': 'a', 'ο': 'o', 'ν': 'v', 'ι': 'i', 'κ': 'k', 'ρ': 'p', 'τ': 't', 'υ': 'u',
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M',
	'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
}

// Skeleton returns the form of s that names two texts a reader may take
// for one: its NFKC normalisation (fullwidth "ｉ" is "i", "ﬁ" is "fi")
// with each Cyrillic or Greek homoglyph of a Latin letter replaced by
// that letter, without leading and trailing white space. Two names with
// one Skeleton are confusable.
func Skeleton(s string) string {
	return strings.Map(func(r rune) rune {
		if l, ok := confusable[r]; ok {
			return l
		}
		return r
	}, strings.TrimSpace(norm.NFKC.String(s)))
}
