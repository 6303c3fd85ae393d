package data

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/cases"

	"github.com/polyclass/polyclass/framework/safetext"
)

// ErrClassLabel reports a class label that tables and file names cannot
// show: one holding a newline, a tab or another control character.
var ErrClassLabel = errors.New("class label holds a control character")

// ErrHiddenLabel reports a class label holding a character that does not
// show, or changes how the text around it shows: a zero-width character
// or a bidi control (safetext.Hidden).
var ErrHiddenLabel = errors.New("class label holds a bidi control or other invisible (default-ignorable) character")

// ErrLabelSpellings reports class labels that a person reads as one but
// that differ as text: equal after Unicode NFC normalisation and the
// removal of leading and trailing blanks (safetext.Fold).
var ErrLabelSpellings = errors.New("class labels read as one but are spelled differently")

// Spelling is one way a class is written in a column: its text and the
// 0-based data row where it first occurs (−1: declared, as an ARFF
// nominal value, but on no row).
type Spelling struct {
	Text string
	Row  int
}

// ClassMerge is one class of a column whose values are numbers, named by
// the canonical form of its number, with the spellings that became it.
type ClassMerge struct {
	// Class is the canonical form: in a column of whole numbers written
	// in digits, the number's digits ("1" for "01", "+1"; exact at any
	// size); else strconv.FormatFloat(v, 'g', -1, 64), the shortest text
	// that reads back as v ("1" for "1.0", "1e0").
	Class string
	// Spellings are the column's levels that hold the number, in level
	// order.
	Spellings []Spelling
}

// ClassNames is what Column.CanonicalClasses did to a column's levels.
type ClassNames struct {
	// Merged lists, when every level is a number and two levels are the
	// same number, each class whose name changed: every level was renamed
	// to its canonical form and levels of one number merged. It is nil
	// when nothing changed.
	Merged []ClassMerge
	// Apart lists, when some level is not a number, the groups of levels
	// that spell one number in several ways and so stay distinct classes
	// (Text names the first level that is not a number); nil otherwise.
	Apart []ClassMerge
	Text  Spelling
	// TextOutOfRange reports that Text is a number beyond float64's range
	// ("1e-400", "1e999"), which counts as text; Apart then groups the
	// spellings of one such number ("1e-400", "1.0e-400", "10e-401") by
	// its decimal value, named by its shortest form (decimalForm).
	TextOutOfRange bool
	// Booleans reports that Merged holds booleans: every level is true or
	// false in some case, with blanks around it or not, and the classes
	// are named "true" and "false".
	Booleans bool
	// Confusable lists the groups of classes (after any merge) whose
	// labels differ as text but look alike (one safetext.Skeleton:
	// "setosa" with a Cyrillic ѕ or an Armenian օ, "−1" with a minus sign
	// beside "-1"), each named by the skeleton; they stay distinct
	// classes. Nil when there is none.
	Confusable []ClassMerge
	// CaseVariants lists the groups of classes (after any merge) whose
	// labels differ only in case under Unicode case folding ("Setosa"
	// beside "setosa"), each named by the folded form; they stay
	// distinct classes, since "A" and "a" may be two. A group whose
	// labels are Confusable too is left to Confusable. Nil when there is
	// none.
	CaseVariants []ClassMerge
}

// LabelError is the error of a class label that Column.CanonicalClasses
// refuses; it wraps ErrClassLabel.
type LabelError struct {
	Row   int    // 0-based data row of its first occurrence; −1: declared only
	Value string // the label
	Err   error
}

// Error names the row (1-based) and the label, quoted (Quoted).
func (e *LabelError) Error() string {
	at := fmt.Sprintf("data row %d", e.Row+1)
	if e.Row < 0 {
		at = "declared value"
	}
	return fmt.Sprintf("%s: %v: %s", at, e.Err, e.Quoted())
}

// Quoted is the label Go-quoted, in ASCII when it holds an invisible
// character (ErrHiddenLabel), so that the character shows.
func (e *LabelError) Quoted() string {
	if errors.Is(e.Err, ErrHiddenLabel) {
		return safetext.ShowASCII(e.Value)
	}
	return safetext.Show(e.Value)
}

// Unwrap returns the cause.
func (e *LabelError) Unwrap() error { return e.Err }

// SpellingError is the error of class labels that Column.CanonicalClasses
// refuses because they read as one (safetext.Fold): each group's Class is
// the form they share, its Spellings the labels; it wraps
// ErrLabelSpellings.
type SpellingError struct {
	Groups []ClassMerge
}

// Error lists each group's spellings (Go-quoted in ASCII, so that the
// difference shows) with their rows (1-based).
func (e *SpellingError) Error() string {
	var b strings.Builder
	b.WriteString(ErrLabelSpellings.Error())
	for k, g := range e.Groups {
		sep := "; "
		if k == 0 {
			sep = ": "
		}
		b.WriteString(sep)
		for i, sp := range g.Spellings {
			if i > 0 {
				b.WriteString(", ")
			}
			at := fmt.Sprintf("data row %d", sp.Row+1)
			if sp.Row < 0 {
				at = "declared"
			}
			fmt.Fprintf(&b, "%s (%s)", safetext.ShowASCII(sp.Text), at)
		}
	}
	return b.String()
}

// Unwrap returns ErrLabelSpellings.
func (e *SpellingError) Unwrap() error { return ErrLabelSpellings }

// CanonicalClasses prepares categorical column c to hold class labels, in
// place, as pandas reads a column of numbers: when every level is a
// finite number (see Read's rules for numbers) and two levels are the same
// number ("1", "1.0", "01", "+1", " 1"), every level is renamed to the
// canonical form of its number and levels of one number become one, in
// the order of their first level. Levels are compared as text otherwise,
// and left as they are: a column with no such collision keeps its names
// ("+1" and "-1" stay so), and a column holding some text keeps "1" and
// "1.0" apart (ClassNames.Apart tells). A level holding a control
// character (a newline, a tab), a zero-width character or a bidi control
// is a *LabelError. In a column holding some text, levels that differ
// only by Unicode normalisation or by blanks around them ("é" written
// precomposed and as e + U+0301, "setosa" and "setosa ") are a
// *SpellingError listing them. A column whose every level is true or
// false in some case ("true", "True", "TRUE", " false") is merged the same
// way into the classes "true" and "false" (ClassNames.Booleans), as
// pandas reads a column of booleans. Classes whose labels look alike
// (ClassNames.Confusable) or differ only in case (ClassNames.CaseVariants)
// are listed, and kept. A numeric column is left as it is.
func (c *Column) CanonicalClasses() (ClassNames, error) {
	out, err := c.canonicalClasses()
	if err == nil && c.Kind == Categorical {
		first := firstRows(c)
		out.Confusable = skeletonCollisions(c.Levels, first)
		out.CaseVariants = caseCollisions(c.Levels, first)
	}
	return out, err
}

// canonicalClasses is CanonicalClasses but for ClassNames.Confusable.
func (c *Column) canonicalClasses() (ClassNames, error) {
	var out ClassNames
	if c.Kind != Categorical {
		return out, nil
	}
	first := firstRows(c)
	if err := checkLabels(c.Levels, first); err != nil {
		return out, err
	}
	canon, text := canonicalIntegers(c.Levels), -1
	if canon == nil {
		canon = make([]string, len(c.Levels))
		for l, s := range c.Levels {
			var ok bool
			if canon[l], ok = canonicalNumber(s); !ok {
				// Beyond float64's range: text, grouped by its value.
				canon[l], _ = decimalForm(s)
				if text < 0 {
					text = l
				}
			}
		}
	}
	if text >= 0 {
		if bools, ok := canonicalBooleans(c.Levels); ok {
			canon, text, out.Booleans = bools, -1, true
		}
	}
	if text >= 0 {
		if err := foldCollisions(c.Levels, first); err != nil {
			return out, err
		}
	}
	groups, order := groupLevels(c.Levels, canon, first)
	collide := false
	for _, g := range groups {
		collide = collide || len(g.Spellings) > 1
	}
	switch {
	case !collide:
		return out, nil
	case text >= 0:
		out.Text = Spelling{c.Levels[text], first[text]}
		_, out.TextOutOfRange = decimalForm(c.Levels[text])
		for _, name := range order {
			if g := groups[name]; len(g.Spellings) > 1 {
				out.Apart = append(out.Apart, *g)
			}
		}
		return out, nil
	}
	out.Merged = c.merge(canon, groups, order)
	return out, nil
}

// canonicalBooleans returns the canonical forms, "true" and "false", of
// levels when each one is true or false in some case ("True", "TRUE",
// " false"), as bench reads a multi-label column's values; else nil,
// false.
func canonicalBooleans(levels []string) ([]string, bool) {
	canon := make([]string, len(levels))
	for l, s := range levels {
		switch t := strings.TrimSpace(s); {
		case strings.EqualFold(t, "true"):
			canon[l] = "true"
		case strings.EqualFold(t, "false"):
			canon[l] = "false"
		default:
			return nil, false
		}
	}
	return canon, true
}

// canonicalIntegers returns the canonical forms of levels when each one is
// a whole number written in decimal digits (an optional sign, blanks
// around it: "01", "+1", " 7"): the digits without leading zeros, "-"
// before a negative one, "0" for −0. Such a column is compared exactly, as
// pandas reads it as int64, so that 9007199254740993 and 9007199254740992
// stay two classes, which float64 cannot tell apart. Else nil.
func canonicalIntegers(levels []string) []string {
	canon := make([]string, len(levels))
	for l, s := range levels {
		var ok bool
		if canon[l], ok = canonicalInteger(s); !ok {
			return nil
		}
	}
	return canon
}

// canonicalInteger is canonicalIntegers of one level.
func canonicalInteger(s string) (string, bool) {
	t := strings.Trim(s, " \t")
	neg := strings.HasPrefix(t, "-")
	if neg || strings.HasPrefix(t, "+") {
		t = t[1:]
	}
	if t == "" || strings.TrimLeft(t, "0123456789") != "" {
		return "", false
	}
	if t = strings.TrimLeft(t, "0"); t == "" {
		return "0", true
	}
	if neg {
		t = "-" + t
	}
	return t, true
}

// canonicalNumber returns the canonical form of s when s is a finite
// number: strconv.FormatFloat(v, 'g', -1, 64), 0 for −0; else "", false.
func canonicalNumber(s string) (string, bool) {
	v, kind := parseNum(s)
	if kind != numFinite {
		return "", false
	}
	if v == 0 {
		v = 0 // −0 is 0
	}
	return strconv.FormatFloat(v, 'g', -1, 64), true
}

// decimalForm returns the shortest decimal form of s when s is a number
// written in decimal that float64 cannot hold (parseNum's numInfinite,
// overflow or underflow: "1e-400", "1.0e-400", "-12e999"): its digits without leading and
// trailing zeros, a decimal point after the first, and the exponent
// ("1e-400", "-1.2e1000"), so that two spellings of one such number have
// one form; "", false for any other s, and for an exponent of more than
// 18 digits.
func decimalForm(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if _, kind := parseNum(t); kind != numInfinite {
		return "", false
	}
	sign := ""
	if t != "" && (t[0] == '-' || t[0] == '+') {
		sign, t = strings.TrimPrefix(t[:1], "+"), t[1:]
	}
	mant, exp, found := strings.Cut(strings.ToLower(t), "e")
	e := int64(0)
	if found {
		var err error
		if e, err = strconv.ParseInt(exp, 10, 64); err != nil || len(strings.TrimLeft(exp, "+-")) > 18 {
			return "", false
		}
	}
	whole, frac, _ := strings.Cut(mant, ".")
	if strings.Trim(whole+frac, "0123456789") != "" || whole+frac == "" {
		return "", false // inf, nan, hexadecimal, underscores
	}
	digits := strings.TrimLeft(whole+frac, "0")
	e += int64(len(whole)) - int64(len(whole+frac)-len(digits)) - 1 // the exponent of the first digit
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return "", false // zero is in range
	}
	form := digits[:1]
	if len(digits) > 1 {
		form += "." + digits[1:]
	}
	return sign + form + "e" + strconv.FormatInt(e, 10), true
}

// checkLabels returns a *LabelError for the first of levels (first
// occurring at first[l]) holding a control character (ErrClassLabel), or
// a zero-width character or bidi control (ErrHiddenLabel).
func checkLabels(levels []string, first []int) error {
	for l, s := range levels {
		if i := controlIndex(s); i >= 0 {
			return &LabelError{Row: first[l], Value: s, Err: fmt.Errorf("%w U+%04X", ErrClassLabel, []rune(s[i:])[0])}
		}
	}
	for l, s := range levels {
		for _, r := range s {
			if safetext.Hidden(r) {
				return &LabelError{Row: first[l], Value: s, Err: fmt.Errorf("%w U+%04X", ErrHiddenLabel, r)}
			}
		}
	}
	return nil
}

// foldCollisions returns a *SpellingError when two of levels have one
// safetext.Fold, listing every such group in the order of its first
// level; nil when there is none.
func foldCollisions(levels []string, first []int) error {
	if groups := levelGroups(levels, first, safetext.Fold); groups != nil {
		return &SpellingError{Groups: groups}
	}
	return nil
}

// LookAlikeLevels returns the groups of the levels of categorical column
// c that a reader takes for one but that differ as text (one
// safetext.Skeleton: Unicode normalisation, NFC or NFKC, "é" precomposed
// and as e + U+0301, full-width "ｃａｆｅ" and "cafe"; letters of other
// scripts that look alike, a Cyrillic "е" for a Latin "e"; blanks around
// them or inside, "red" and "red\u00a0"), each named by the form they
// share, with the row where each first occurs, in the order of each
// group's first level; nil when there is none or c is numeric.
func (c *Column) LookAlikeLevels() []ClassMerge {
	if c.Kind != Categorical {
		return nil
	}
	return levelGroups(c.Levels, firstRows(c), safetext.Skeleton)
}

// skeletonCollisions returns the groups of levels (first occurring at
// first[l]) that share one safetext.Skeleton, in the order of each
// group's first level; nil when there is none.
func skeletonCollisions(levels []string, first []int) []ClassMerge {
	return levelGroups(levels, first, safetext.Skeleton)
}

// caseCollisions returns the groups of levels (first occurring at
// first[l]) that share one Unicode case folding (cases.Fold: "Setosa"
// and "setosa", "STRASSE" and "straße"), in the order of each group's
// first level, but for a group whose levels share one safetext.Skeleton
// too (skeletonCollisions lists it); nil when there is none.
func caseCollisions(levels []string, first []int) []ClassMerge {
	fold := cases.Fold()
	out := slices.DeleteFunc(levelGroups(levels, first, fold.String), func(g ClassMerge) bool {
		skeleton := safetext.Skeleton(g.Spellings[0].Text)
		return !slices.ContainsFunc(g.Spellings, func(s Spelling) bool { return safetext.Skeleton(s.Text) != skeleton })
	})
	if len(out) == 0 {
		return nil
	}
	return out
}

// levelGroups returns the groups of two or more levels (first occurring
// at first[l]) that share one key, each named by it, in the order of
// each group's first level; nil when there is none.
func levelGroups(levels []string, first []int, key func(string) string) []ClassMerge {
	groups := map[string]*ClassMerge{}
	var order []string
	for l, s := range levels {
		k := key(s)
		g, ok := groups[k]
		if !ok {
			g = &ClassMerge{Class: k}
			groups[k] = g
			order = append(order, k)
		}
		g.Spellings = append(g.Spellings, Spelling{s, first[l]})
	}
	var out []ClassMerge
	for _, k := range order {
		if g := groups[k]; len(g.Spellings) > 1 {
			out = append(out, *g)
		}
	}
	return out
}

// controlIndex returns the byte index of the first control character of
// s (C0, DEL or C1, tab and newline included, or the line and paragraph
// separators U+2028 and U+2029: safetext.Refused), or −1.
func controlIndex(s string) int {
	for i, r := range s {
		if safetext.Refused(r) {
			return i
		}
	}
	return -1
}

// firstRows returns, per level of c, the 0-based row of its first
// occurrence (−1: none).
func firstRows(c *Column) []int {
	first := make([]int, len(c.Levels))
	for l := range first {
		first[l] = -1
	}
	left := len(first)
	for i, code := range c.Codes {
		if code >= 0 && first[code] < 0 {
			first[code] = i
			if left--; left == 0 {
				break
			}
		}
	}
	return first
}

// groupLevels groups the levels that have a canonical number form (canon
// non-empty) by it; order holds the canonical names in the order of
// their first level.
func groupLevels(levels, canon []string, first []int) (map[string]*ClassMerge, []string) {
	groups := map[string]*ClassMerge{}
	var order []string
	for l, name := range canon {
		if name == "" {
			continue
		}
		g, ok := groups[name]
		if !ok {
			g = &ClassMerge{Class: name}
			groups[name] = g
			order = append(order, name)
		}
		g.Spellings = append(g.Spellings, Spelling{levels[l], first[l]})
	}
	return groups, order
}

// merge renames every level of c to its canonical form canon[l] and
// merges the levels of one name, and returns the classes whose name
// changed.
func (c *Column) merge(canon []string, groups map[string]*ClassMerge, order []string) []ClassMerge {
	index := make(map[string]int32, len(order))
	for k, name := range order {
		index[name] = int32(k)
	}
	remap := make([]int32, len(c.Levels))
	for l, name := range canon {
		remap[l] = index[name]
	}
	for i, code := range c.Codes {
		if code >= 0 {
			c.Codes[i] = remap[code]
		}
	}
	c.Levels = order
	var merged []ClassMerge
	for _, name := range order {
		if g := groups[name]; len(g.Spellings) > 1 || g.Spellings[0].Text != name {
			merged = append(merged, *g)
		}
	}
	return merged
}
