package safetext

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// VisibleRule is the rule CheckVisible enforces, in words, for the
// messages of those who call it.
const VisibleRule = "a name or label may hold no bidi control or other invisible (default-ignorable) character: it would show as another text than it is"

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

// defaultIgnorable is Unicode's Default_Ignorable_Code_Point property:
// the code points that a renderer shows as nothing when it does not
// support them (soft hyphen, combining grapheme joiner, Hangul fillers,
// variation selectors, invisible operators, tag characters, and the
// reserved code points set aside for more). Source: the Unicode
// Character Database, DerivedCoreProperties.txt, version 16.0.0
// (https://www.unicode.org/Public/16.0.0/ucd/DerivedCoreProperties.txt),
// whose ranges it copies; the property has been stable since 15.0.
var defaultIgnorable = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x00AD, Hi: 0x00AD, Stride: 1}, // SOFT HYPHEN
		{Lo: 0x034F, Hi: 0x034F, Stride: 1}, // COMBINING GRAPHEME JOINER
		{Lo: 0x061C, Hi: 0x061C, Stride: 1}, // ARABIC LETTER MARK
		{Lo: 0x115F, Hi: 0x1160, Stride: 1}, // HANGUL CHOSEONG FILLER..HANGUL JUNGSEONG FILLER
		{Lo: 0x17B4, Hi: 0x17B5, Stride: 1}, // KHMER VOWEL INHERENT AQ..AA
		{Lo: 0x180B, Hi: 0x180F, Stride: 1}, // MONGOLIAN FREE VARIATION SELECTORS, VOWEL SEPARATOR
		{Lo: 0x200B, Hi: 0x200F, Stride: 1}, // ZERO WIDTH SPACE..RIGHT-TO-LEFT MARK
		{Lo: 0x202A, Hi: 0x202E, Stride: 1}, // LEFT-TO-RIGHT EMBEDDING..RIGHT-TO-LEFT OVERRIDE
		{Lo: 0x2060, Hi: 0x206F, Stride: 1}, // WORD JOINER..NOMINAL DIGIT SHAPES (2065 reserved)
		{Lo: 0x3164, Hi: 0x3164, Stride: 1}, // HANGUL FILLER
		{Lo: 0xFE00, Hi: 0xFE0F, Stride: 1}, // VARIATION SELECTOR-1..16
		{Lo: 0xFEFF, Hi: 0xFEFF, Stride: 1}, // ZERO WIDTH NO-BREAK SPACE
		{Lo: 0xFFA0, Hi: 0xFFA0, Stride: 1}, // HALFWIDTH HANGUL FILLER
		{Lo: 0xFFF0, Hi: 0xFFF8, Stride: 1}, // reserved
	},
	R32: []unicode.Range32{
		{Lo: 0x1BCA0, Hi: 0x1BCA3, Stride: 1}, // SHORTHAND FORMAT LETTER OVERLAP..UP STEP
		{Lo: 0x1D173, Hi: 0x1D17A, Stride: 1}, // MUSICAL SYMBOL BEGIN BEAM..END PHRASE
		{Lo: 0xE0000, Hi: 0xE0FFF, Stride: 1}, // LANGUAGE TAG, TAG SPACE..CANCEL TAG, VARIATION SELECTOR-17..256, reserved
	},
}

// Hidden reports whether r does not show, or changes how the text around
// it shows, without showing: a Default_Ignorable_Code_Point of Unicode
// (zero-width characters, bidi marks and embeddings, soft hyphen,
// variation selectors, invisible operators, Hangul fillers, tags), or a
// bidi control (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C,
// all default-ignorable too).
func Hidden(r rune) bool {
	if _, ok := hidden[r]; ok {
		return true
	}
	return unicode.Is(defaultIgnorable, r)
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
// Unicode NFC normalisation without leading and trailing white space,
// each run of white space inside it one space (an HTML page and a
// rendered Markdown table show a run as one space; U+00A0 and the other
// spaces of Unicode's Z categories are white space too). Two labels with
// one Fold read as one ("é" precomposed and e followed by U+0301;
// "setosa" and "setosa "; "New York" and "New  York").
func Fold(s string) string {
	return collapseSpace(norm.NFC.String(s))
}

// collapseSpace is s without leading and trailing white space, each run
// of white space inside it one space. U+2800, the braille pattern blank,
// shows as a space and counts as one.
func collapseSpace(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '\u2800' }), " ")
}

// confusable maps characters that show as an ASCII letter, digit or
// sign in common fonts to it: the Cyrillic, Greek, Armenian and Latin
// homoglyphs of ASCII letters, and the minus signs and dashes that show
// as a hyphen-minus. Source: Unicode's confusables list, UTS #39
// (https://www.unicode.org/Public/security/latest/confusables.txt), its
// entries whose prototype is one ASCII character, for the scripts
// named; compatibility forms (fullwidth "ｓ", mathematical bold "𝐬",
// "ﬁ") are left to NFKC, which Skeleton applies first.
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
	// Armenian
	'\u0585': 'o', '\u0555': 'O', '\u057D': 'u', '\u054D': 'U', '\u0578': 'n',
	'\u0570': 'h', '\u0581': 'g', '\u054F': 'S',
	// Latin letters that show as other Latin letters
	'\u0131': 'i', '\u0251': 'a', '\u0261': 'g', '\u01C0': 'l',
	// minus signs and dashes that show as a hyphen-minus
	'\u2015': '\u2014', // the horizontal bar, which LaTeX prints as an em dash
	'\u02C6': '^',      // a modifier letter that LaTeX prints as ^ (U+02DC, ˜: see Skeleton)
	'\u2212': '-', '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-',
	'\u02D7': '-', '\u2043': '-', '\u2796': '-', '\u06D4': '-',
}

// Skeleton returns the form of s that names two texts a reader may take
// for one: its NFKC normalisation (fullwidth "ｉ" is "i", "ﬁ" is "fi")
// with each homoglyph of an ASCII character (Cyrillic, Greek, Armenian
// and Latin letters, minus signs and dashes: see confusable) replaced by
// it, each quote as one or two apostrophes (quoteSkeletons), without
// leading and trailing white space and each run of white space inside one
// space (as Fold). Two names with one Skeleton are confusable.
func Skeleton(s string) string {
	return strings.Map(func(r rune) rune {
		if l, ok := confusable[r]; ok {
			return l
		}
		return r
	}, collapseSpace(quoteReplacer.Replace(norm.NFKC.String(
		// The small tilde, which LaTeX prints as ~ and NFKC would make a
		// space and a combining tilde.
		strings.ReplaceAll(s, "\u02DC", "~")))))
}

// quoteSkeletons are the quotes that print alike in LaTeX's fonts and in
// many others: a double quote as two single ones, curly or straight.
var quoteSkeletons = []string{"‘", "'", "’", "'", "“", "''", "”", "''", `"`, "''", "`", "'"}

// quoteReplacer replaces the quoteSkeletons; a strings.Replacer is safe
// for concurrent use and is never changed.
var quoteReplacer = strings.NewReplacer(quoteSkeletons...)
