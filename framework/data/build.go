package data

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/polyclass/polyclass/framework/safetext"
)

// colMode says how a column builder treats its values.
type colMode uint8

const (
	modeInfer  colMode = iota // numeric while every value parses, else categorical
	modeCat                   // categorical
	modeNum                   // numeric; other values are errors
	modeIgnore                // not read (Options.Ignore)
)

// colBuilder accumulates the values of one column.
type colBuilder struct {
	name   string
	mode   colMode
	cat    bool // values are interned as levels
	closed bool // levels are fixed; other values are errors (ARFF nominal)
	num    []float64
	levels []string
	index  map[string]int32
	codes  []int32

	// While an inferred column is numeric, the text of each value is kept
	// (to become its level should the column turn categorical) as a span
	// of text. Spans hold no pointers, which keeps the garbage collector
	// out.
	text  []byte
	spans []span
	hint  int // expected row count, for preallocation

	// firstBad is the row of the first infinite or out-of-range number of
	// an inferred column (−1: none): an error if the column ends numeric.
	// addAt sets justBad when it records one, for the reader to fill in
	// badLine and badByte.
	firstBad, badLine, badByte int
	badText                    string
	justBad                    bool

	// firstText is the row of the value that turned an inferred column
	// categorical (−1: none), kept for the warning of a column that is
	// mostly numbers (mixedWarning); addAt sets justText when it records
	// it, for the reader to fill in textLine and textByte.
	firstText, textLine, textByte int
	textValue                     string
	justText                      bool

	// formRow is the row of the value that the warning of a column of
	// numbers in written forms the reader does not take names
	// (writtenNumber: "1 212,75", "14%"; −1: none): of an inferred column
	// turned categorical, the first such value of the most marks
	// (formMarks: "1 212,75" has two, "906,72" one), whose fix shows the
	// most. addAt sets justForm when it records one, for the reader to
	// fill in formLine and formByte.
	formRow, formMarks, formLine, formByte int
	justForm                               bool

	// unit is the unit word written with no space after the number
	// ("cm" of "1.4cm"; unitSuffix) that is on most values of an inferred
	// column turned categorical, if one is (a majority vote over its
	// values: unitVotes; "" stands for values without one), and unitRow
	// a row of a value with it. addAt sets justUnit when it records one,
	// for the reader to fill in unitLine and unitByte.
	unit                                   string
	unitVotes, unitRow, unitLine, unitByte int
	justUnit                               bool
}

// span locates a value in colBuilder.text.
type span struct{ off, end int }

// newBuilder returns a builder; capHint is the expected row count.
func newBuilder(name string, mode colMode, capHint int) *colBuilder {
	b := &colBuilder{name: name, mode: mode, hint: capHint, firstBad: -1, firstText: -1, formRow: -1, unitRow: -1}
	switch mode {
	case modeCat:
		b.cat = true
		b.index = make(map[string]int32)
		b.codes = make([]int32, 0, capHint)
	case modeNum:
		b.num = make([]float64, 0, capHint)
	case modeInfer:
		// Grown by append: most inferred columns that turn out
		// categorical do so at once, and a preallocation would be wasted.
	}
	return b
}

// declare adds fixed levels (ARFF nominal values) and closes the level set.
func (b *colBuilder) declare(levels []string) {
	for _, l := range levels {
		b.index[l] = int32(len(b.levels))
		b.levels = append(b.levels, l)
	}
	b.closed = true
}

// add appends one value; missing values become NaN or −1.
func (b *colBuilder) add(s string, missing bool) error {
	return b.addAt(s, missing, -1)
}

// addAt appends the value of row; missing values become NaN or −1. An
// infinite or out-of-range number is an error in a numeric column; in an
// inferred column it is recorded in firstBad (when row ≥ 0) and becomes
// an error only if the column ends numeric (see finish).
func (b *colBuilder) addAt(s string, missing bool, row int) error {
	if missing {
		if b.cat {
			b.codes = append(b.codes, -1)
			return nil
		}
		b.num = append(b.num, math.NaN())
		if b.mode == modeInfer {
			b.spans = append(b.spans, span{})
		}
		return nil
	}
	if b.cat {
		return b.addLevel(s, row)
	}
	v, kind := parseNum(s)
	if kind == numInfinite && row < 0 && b.mode == modeInfer {
		kind = numText // no row to report it at: keep the text
	}
	switch {
	case kind == numText && b.mode == modeNum:
		return fmt.Errorf("%w: %s", ErrNotNumeric, safetext.Excerpt(s))
	case kind == numText:
		// An inferred column met text: it is categorical after all.
		if row >= 0 {
			b.firstText, b.textValue, b.justText = row, strings.Clone(s), true
		}
		b.toCategorical()
		return b.addAt(s, false, row)
	case kind == numInfinite && b.mode == modeNum:
		return fmt.Errorf("%w: %s (infinite or out of range)", ErrNotNumeric, safetext.Excerpt(s))
	case kind == numInfinite:
		if b.firstBad < 0 {
			b.firstBad, b.badText, b.justBad = row, strings.Clone(s), true
		}
		v = math.NaN()
	}
	if cap(b.num) < b.hint && len(b.num) < 64 {
		// The first numbers: from here on the column is likely numeric
		// throughout, so reserve room for every row.
		b.num = append(make([]float64, 0, b.hint), b.num...)
		if b.mode == modeInfer {
			b.spans = append(make([]span, 0, b.hint), b.spans...)
		}
	}
	if b.mode == modeInfer {
		b.spans = append(b.spans, span{len(b.text), len(b.text) + len(s)})
		b.text = append(b.text, s...)
	}
	b.num = append(b.num, v)
	return nil
}

// addLevel appends value s of row of a categorical column. In an
// inferred column, it records the first value of the most marks that is
// a number in a written form the reader does not take (formRow).
func (b *colBuilder) addLevel(s string, row int) error {
	n := len(b.levels)
	code, err := b.intern(s)
	if err != nil {
		return err
	}
	b.codes = append(b.codes, code)
	if b.mode == modeInfer && row >= 0 {
		b.voteUnit(unitSuffix(s), row)
	}
	if b.mode == modeInfer && row >= 0 && int(code) == n && b.formMarks < maxMarks {
		// A new level: the first row of its value. A unit word with no
		// space counts only when most values have it (unitRow).
		if _, marks := writtenNumber(s); len(marks) > b.formMarks && !slices.Contains(marks, noSpaceUnit) {
			b.formRow, b.formMarks, b.justForm = row, len(marks), true
		}
	}
	return nil
}

// voteUnit counts the unit word with no space of the value of row (""
// for none) in the majority vote (Boyer and Moore's) of unit: at the end,
// the unit on most values, if any, is unit.
func (b *colBuilder) voteUnit(u string, row int) {
	switch {
	case u == b.unit:
		b.unitVotes++
	case b.unitVotes == 0:
		b.unit, b.unitVotes = u, 1
		if u != "" {
			b.unitRow, b.justUnit = row, true
		}
	default:
		b.unitVotes--
	}
}

// majorityUnit returns unit when it is on most of the column's values
// (counted, as the vote only names a candidate), else "".
func (b *colBuilder) majorityUnit() string {
	if b.unit == "" || b.unitRow < 0 {
		return ""
	}
	on := make([]bool, len(b.levels))
	for l, s := range b.levels {
		on[l] = unitSuffix(s) == b.unit
	}
	with, values := 0, 0
	for _, c := range b.codes {
		if c >= 0 {
			values++
			if on[c] {
				with++
			}
		}
	}
	if 2*with > values {
		return b.unit
	}
	return ""
}

// finish returns the error an inferred column that ends numeric owes for
// an infinite or out-of-range value, and drops the kept text.
func (b *colBuilder) finish() error {
	if !b.cat && b.firstBad >= 0 {
		return fmt.Errorf("%w: %s (infinite or out of range; data row %d) in a column of numbers: give a finite value, leave the field empty for a missing value, or list the column in categorical", ErrNotNumeric, safetext.Excerpt(b.badText), b.firstBad+1)
	}
	b.text, b.spans = nil, nil
	return nil
}

// mixedWarning returns the warning (ErrMixedColumn) of an inferred column
// that turned categorical although more of its values are numbers than
// not, else nil, with the line and byte column of the value it names. A
// number written in a form the reader does not take (writtenNumber:
// "5,1", "1 212,75", "14%") counts as a number; when such numbers make
// the column mostly numbers, the warning names one (formRow), with the
// number to write instead, and tallies the forms; otherwise it names
// the value that turned the column.
func (b *colBuilder) mixedWarning() (line, col int, err error) {
	if !b.cat || b.mode != modeInfer || b.firstText < 0 {
		return 0, 0, nil
	}
	unit := b.majorityUnit()
	plain := make([]bool, len(b.levels))
	forms := make([]string, len(b.levels)) // writtenNumber's form; "": none
	for l, s := range b.levels {
		if _, kind := parseNum(s); kind == numFinite {
			plain[l] = true
		} else if _, marks := writtenNumber(s); marks != nil && (!slices.Contains(marks, noSpaceUnit) || unit != "" && unitSuffix(s) == unit) {
			forms[l] = markList(marks)
		}
	}
	var nums, written, values int
	tally := map[string]int{}
	var order []string // the forms of tally, in the order first met
	for _, c := range b.codes {
		if c < 0 {
			continue
		}
		values++
		switch f := forms[c]; {
		case plain[c]:
			nums++
		case f != "":
			written++
			if tally[f] == 0 {
				order = append(order, f)
			}
			tally[f]++
		}
	}
	row, line, col := b.formRow, b.formLine, b.formByte
	if row < 0 && unit != "" {
		row, line, col = b.unitRow, b.unitLine, b.unitByte
	}
	if written > 0 && nums+written > values-nums-written && row >= 0 {
		counts := make([]string, len(order))
		for i, f := range order {
			counts[i] = fmt.Sprintf("%d with %s", tally[f], f)
		}
		ex := b.levels[b.codes[row]]
		num, marks := writtenNumber(ex)
		return line, col, fmt.Errorf("%w: %s (data row %d) is a number written with %s, read as text; %d of the column's %d values are numbers when such forms count (%s): the reader takes plain numbers only (a decimal point, no thousands separator, no unit sign), so the column stays categorical, one level per distinct value; write %s, not %s, before loading, or list the column in categorical to keep it categorical without this warning",
			ErrMixedColumn, safetext.Excerpt(ex), row+1, markList(marks), nums+written, values, safetext.Few(counts, safetext.Listed, nil), safetext.Excerpt(num), safetext.Excerpt(ex))
	}
	if nums <= values-nums {
		return 0, 0, nil
	}
	return b.textLine, b.textByte, fmt.Errorf("%w: %s (data row %d) is not a number, yet %d of the column's %d values are: list the column in numeric to make such a value an error, or in categorical to keep it categorical without this warning", ErrMixedColumn, safetext.Excerpt(b.textValue), b.firstText+1, nums, values)
}

// maxMarks is the most marks that writtenNumber undoes in one number: a
// spreadsheet form, full-width digits, a minus sign such as U+2212, a unit
// sign, separators between thousands and a decimal comma.
const maxMarks = 6

// spreadsheetForms are the forms in which spreadsheets and their exports
// write a number around its digits, each with its name for messages and
// whether it makes the number negative: accounting negatives "(1.4)", a
// leading apostrophe that forces a cell to text "'1.4", a trailing minus
// "1.4-" (SAP and COBOL reports), an exported formula "=1.4". A form with
// a suffix needs the number before it to end in other than a letter, so
// that "1.5D-" and "(3A)" stay text.
var spreadsheetForms = []struct {
	prefix, suffix, name string
	negative             bool
}{
	{"(", ")", "accounting parentheses (a negative number)", true},
	{"'", "", "a leading apostrophe (a spreadsheet's mark of text)", false},
	{"", "-", "a trailing minus", true},
	{"=", "", "a formula sign", false},
}

// cutSpreadsheetForm returns s without its spreadsheet form (one of
// spreadsheetForms), the form's name and whether it makes the number
// negative; s and "" when s has none.
func cutSpreadsheetForm(s string) (rest, name string, negative bool) {
	for _, f := range spreadsheetForms {
		inner, found := strings.CutPrefix(s, f.prefix)
		if found {
			inner, found = strings.CutSuffix(inner, f.suffix)
		}
		if found && inner != "" && (f.suffix == "" || !isLetter(rune(inner[len(inner)-1]))) {
			return inner, f.name, f.negative
		}
	}
	return s, "", false
}

// minusSigns are the characters other than "-" written for a minus sign,
// each with its name for messages: U+2212 by word processors, copies from
// PDF files and the number formats of some locales, dashes by
// autocorrection (" -" becomes an en dash), the small and full-width
// hyphen-minus by East Asian input methods (NFKC makes them "-").
var minusSigns = []struct{ sign, name string }{
	{"\u2212", "a minus sign (U+2212)"},
	{"\u2012", "a figure dash (U+2012)"},
	{"\u2013", "an en dash (U+2013)"},
	{"\ufe63", "a small hyphen-minus (U+FE63)"},
	{"\uff0d", "a full-width hyphen-minus (U+FF0D)"},
}

// wideDigitsMark names the mark narrowDigits undoes.
const wideDigitsMark = "full-width digits (U+FF10-U+FF19)"

// narrowDigits returns s with its full-width digits and full-width full
// stops (U+FF10-U+FF19, U+FF0E, as East Asian input methods write them)
// as the ASCII ones NFKC makes of them, and whether it had any.
func narrowDigits(s string) (string, bool) {
	wide := false
	n := strings.Map(func(r rune) rune {
		switch {
		case '\uff10' <= r && r <= '\uff19':
			wide = true
			return r - '\uff10' + '0'
		case r == '\uff0e':
			wide = true
			return '.'
		}
		return r
	}, s)
	return n, wide
}

// groupSeparators are the characters that a number may have between the
// groups of three digits of its whole part, as spreadsheets and locales
// write them ("1,212.75", "1.254,88", "1 212,75", "1'212.75"), each with
// its name for messages.
var groupSeparators = []struct{ sep, name string }{
	{",", "commas"}, {".", "points"}, {" ", "spaces"},
	{"\u00a0", "no-break spaces (U+00A0)"}, {"\u202f", "narrow no-break spaces (U+202F)"},
	{"'", "apostrophes"}, {"\u2019", "apostrophes (U+2019)"},
}

// unitSigns are the signs that a number may carry ("14%", "$0.2", "3 €"):
// a currency sign before or after the digits, a percent sign after them.
var unitSigns = []struct {
	sign    string
	leading bool // may come before the digits
	name    string
}{
	{"%", false, "a percent sign"},
	{"$", true, "a currency sign"}, {"€", true, "a currency sign"},
	{"£", true, "a currency sign"}, {"¥", true, "a currency sign"},
}

// writtenNumber reports whether s is a finite number that parseNum does
// not take as written but would once its written form is undone: an
// optional sign ("+", "-" or one of minusSigns: U+2212, dashes, the small
// and full-width hyphen-minus) and a unit sign
// (unitSigns: before the digits, after the sign or not, or after them, a
// space between allowed), then digits with a decimal comma ("5,1", ",5")
// or with one of groupSeparators between each group of three digits of
// the whole part and an optional decimal point or comma ("1,212.75",
// "1.254,88", "1 212,75", "12.345.678"; not "1.201", a number as
// written; a unit word or a currency code in place of the unit sign:
// cutUnitWord), or digits with a decimal point and a Fortran D exponent
// ("1.5D-03"; fortranNumber), all in one of spreadsheetForms or not
// ("(1.4)", "'1.4", "1.4-", "=1.4"); full-width digits and full stops count as
// the ASCII ones (narrowDigits: "\uff10\uff0e\uff12"). It returns the number as parseNum takes it
// ("1212.75", "-0.2", "1.5e-03") and the names of the marks undone, for
// messages ("a minus sign (U+2212)", "spaces between thousands", "a
// decimal comma"; maxMarks at most); no marks when s is no such number. A
// group of other than three digits is no number: "1,2,3", "12 3", "1'2"
// are text, as are a unit sign alone, two signs and a D without a decimal
// point ("12D4", a code).
func writtenNumber(s string) (num string, marks []string) {
	if !strings.ContainsAny(s, "0123456789\uff10\uff11\uff12\uff13\uff14\uff15\uff16\uff17\uff18\uff19") {
		return "", nil // text, at once: most levels of a categorical column
	}
	if _, kind := parseNum(s); kind == numFinite {
		return "", nil
	}
	s, wide := narrowDigits(s)
	s, form, negative := cutSpreadsheetForm(strings.Trim(s, " \t"))
	unit := ""
	sign, body, minus := cutSign(s)
	for _, u := range unitSigns {
		if rest, found := strings.CutSuffix(body, u.sign); found {
			body, unit = strings.TrimRight(rest, " \u00a0\u202f"), u.name
			break
		}
		if rest, found := strings.CutPrefix(body, u.sign); found && u.leading {
			body, unit = strings.TrimLeft(rest, " \u00a0\u202f"), u.name
			break
		}
	}
	if unit == "" {
		body, unit = cutUnitWord(body)
	}
	if sign == "" {
		sign, body, minus = cutSign(body)
	}
	if negative && sign != "" {
		return "", nil // two signs: "(-1.4)", "-1.4-"
	} else if negative {
		sign = "-"
	}
	digits, marks := ungroup(body)
	if digits == "" {
		digits, marks = fortranNumber(body)
	}
	if unit != "" {
		marks = append([]string{unit}, marks...)
	}
	if minus != "" {
		marks = append([]string{minus}, marks...)
	}
	if wide {
		marks = append([]string{wideDigitsMark}, marks...)
	}
	if form != "" {
		marks = append([]string{form}, marks...)
	}
	if _, kind := parseNum(sign + digits); kind != numFinite || len(marks) == 0 {
		return "", nil
	}
	return sign + digits, marks
}

// markList joins the names of marks for a message: "a currency sign,
// commas between thousands and a decimal comma".
func markList(marks []string) string {
	if len(marks) < 2 {
		return strings.Join(marks, "")
	}
	return strings.Join(marks[:len(marks)-1], ", ") + " and " + marks[len(marks)-1]
}

// cutUnitWord returns s without its unit word, one to three ASCII letters
// after the number and a space or no-break space (U+00A0) ("1.4 cm",
// "3 kg", "1.4 USD"), or its currency code, three capital ASCII letters
// and a space or no-break space before the number ("USD 1.4"), with the
// name of the mark, or its unit word with no space (unitSuffix: "1.4cm",
// but also "3A", which the column counts only when most of its values
// have the same one); s and "" when s has none. Longer words and codes of
// other than three capitals are no unit.
func cutUnitWord(s string) (rest, name string) {
	isLetters := func(t string, lower bool) bool {
		for i := 0; i < len(t); i++ {
			c := t[i]
			if !('A' <= c && c <= 'Z' || lower && 'a' <= c && c <= 'z') {
				return false
			}
		}
		return true
	}
	startsBlank := func(t string) bool { return t == "" || t[0] == ' ' || strings.HasPrefix(t, "\u00a0") }
	endsBlank := func(t string) bool { return t == "" || t[len(t)-1] == ' ' || strings.HasSuffix(t, "\u00a0") }
	for _, blank := range []string{" ", "\u00a0"} {
		if i := strings.LastIndex(s, blank); i >= 0 {
			word, num := s[i+len(blank):], s[:i]
			if len(word) >= 1 && len(word) <= 3 && isLetters(word, true) && !endsBlank(num) {
				return num, "a unit word"
			}
		}
		if code, num, found := strings.Cut(s, blank); found && len(code) == 3 && isLetters(code, false) && !startsBlank(num) {
			return num, "a currency code"
		}
	}
	if u := unitSuffix(s); u != "" {
		return s[:len(s)-len(u)], noSpaceUnit
	}
	return s, ""
}

// isLetter reports whether r is an ASCII letter.
func isLetter(r rune) bool { return 'a' <= r|0x20 && r|0x20 <= 'z' }

// noSpaceUnit names the mark of a unit word written with no space after
// the number ("1.4cm"; unitSuffix).
const noSpaceUnit = "a unit word with no space"

// unitSuffix returns the one to three ASCII letters that end s, spaces
// around it aside, right after a digit or a decimal point or comma
// ("cm" of "1.4cm", "A" of "3A"); "" when s ends otherwise. Such a
// suffix is a unit only when most of a column's values have it: on a
// few values it is a code ("3A", "12B": flat numbers, grades). A number
// with a letter before the suffix ("1.5D3D", "1e3cm") has none.
func unitSuffix(s string) string {
	s = strings.Trim(s, " ")
	i := len(s)
	for i > 0 && len(s)-i < 4 && isLetter(rune(s[i-1])) {
		i--
	}
	if n := len(s) - i; n < 1 || n > 3 || i == 0 || !strings.ContainsRune("0123456789.,", rune(s[i-1])) || strings.IndexFunc(s[:i], isLetter) >= 0 {
		return ""
	}
	return s[i:]
}

// cutSign returns the leading + or - of s, if any, and the rest; a
// leading one of minusSigns is returned as "-", with its name.
func cutSign(s string) (sign, rest, minus string) {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		return s[:1], s[1:], ""
	}
	for _, m := range minusSigns {
		if rest, found := strings.CutPrefix(s, m.sign); found {
			return "-", rest, m.name
		}
	}
	return "", s, ""
}

// fortranNumber returns s, unsigned digits with a decimal point and a
// Fortran D exponent ("1.5D-03", "2.000d+01", as Fortran programs write
// double precision), with the exponent written E ("1.5e-03") and the
// name of the mark it undid; "" when s is not so written. The decimal
// point is required, so that codes such as "12D4" and "3D" stay text.
func fortranNumber(s string) (num string, marks []string) {
	mant, exp, found := strings.Cut(s, "D")
	if !found {
		mant, exp, found = strings.Cut(s, "d")
	}
	whole, frac, point := strings.Cut(mant, ".")
	isDigits := func(t string) bool { return strings.Trim(t, "0123456789") == "" }
	if !found || !point || whole+frac == "" || !isDigits(whole) || !isDigits(frac) {
		return "", nil
	}
	if exp != "" && (exp[0] == '-' || exp[0] == '+') {
		exp = exp[1:]
	}
	if exp == "" || !isDigits(exp) {
		return "", nil
	}
	return mant + "e" + s[len(mant)+1:], []string{"a Fortran D exponent"}
}

// ungroup returns s, unsigned digits with an optional decimal point or
// comma and optional group separators (see writtenNumber), as digits and
// a decimal point ("1 212,75": "1212.75"), with the names of the marks it
// undid ("spaces between thousands", "a decimal comma"); "" when s is
// not so written.
func ungroup(s string) (digits string, marks []string) {
	if _, kind := parseNum(s); kind == numFinite {
		return s, nil
	}
	isDigits := func(t string) bool { return strings.Trim(t, "0123456789") == "" }
	i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if i < 0 {
		return "", nil
	}
	first, _ := utf8.DecodeRuneInString(s[i:])
	sep := string(first)
	if sep == "," && isDigits(s[:i]) && isDigits(s[i+1:]) {
		return s[:i] + "." + s[i+1:], []string{"a decimal comma"} // no separators
	}
	name := ""
	for _, g := range groupSeparators {
		if g.sep == sep {
			name = g.name
		}
	}
	whole, frac, mark := s, "", ""
	if j := strings.LastIndexAny(s, ".,"); j >= 0 && s[j:j+1] != sep {
		whole, frac, mark = s[:j], s[j+1:], s[j:j+1]
	}
	groups := strings.Split(whole, sep)
	if name == "" || len(groups) < 2 || !isDigits(frac) {
		return "", nil
	}
	for k, g := range groups {
		if g == "" || len(g) > 3 || (k > 0 && len(g) != 3) || !isDigits(g) {
			return "", nil
		}
	}
	digits, marks = strings.Join(groups, ""), []string{name + " between thousands"}
	if mark != "" {
		digits += "." + frac
	}
	if mark == "," {
		marks = append(marks, "a decimal comma")
	}
	return digits, marks
}

// toCategorical turns an inferred column read so far as numbers into a
// categorical one, using the original text as levels.
func (b *colBuilder) toCategorical() {
	b.cat = true
	b.index = make(map[string]int32)
	codes := make([]int32, len(b.num), max(b.hint, len(b.num)))
	for i, sp := range b.spans {
		if sp == (span{}) {
			codes[i] = -1 // missing
			continue
		}
		codes[i], _ = b.intern(string(b.text[sp.off:sp.end]))
	}
	b.codes = codes
	for _, c := range codes {
		if c >= 0 {
			b.voteUnit("", -1) // a number as written: no unit word
		}
	}
	b.num, b.spans, b.text = nil, nil, nil
	b.firstBad, b.justBad = -1, false
}

// controlChar returns an ErrControl error when s holds a control
// character other than tab, newline and carriage return (a NUL byte in a
// class label, say, which a binary file or a bad conversion leaves, and
// which tables and file names cannot show).
func controlChar(s string) error {
	for _, r := range s {
		if (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0x7f {
			return fmt.Errorf("%w U+%04X in value %s (data files are text)", ErrControl, r, safetext.Show(s))
		}
	}
	return nil
}

// hiddenName returns an ErrHiddenName error when the column name s holds
// a character that safetext.Hidden reports, naming it; s is shown in
// ASCII, so that the character shows.
func hiddenName(s string) error {
	if i := strings.IndexFunc(s, safetext.Hidden); i >= 0 {
		return fmt.Errorf("%w (U+%04X) in %s: rename the column", ErrHiddenName, []rune(s[i:])[0], safetext.ShowASCII(s))
	}
	return nil
}

// intern returns the code of level s, adding it unless the set is closed.
func (b *colBuilder) intern(s string) (int32, error) {
	if c, ok := b.index[s]; ok {
		return c, nil
	}
	if b.closed {
		return -1, fmt.Errorf("%w %s (declared: %s)", ErrUndeclared, safetext.Excerpt(s), levelList(b.levels))
	}
	if !utf8.ValidString(s) {
		return -1, fmt.Errorf("%w: %s", ErrEncoding, safetext.Show(s))
	}
	if err := controlChar(s); err != nil {
		return -1, err
	}
	if len(b.levels) >= math.MaxInt32 {
		return -1, fmt.Errorf("%w: too many levels", ErrUnsupported)
	}
	s = strings.Clone(s)
	c := int32(len(b.levels))
	b.index[s] = c
	b.levels = append(b.levels, s)
	return c, nil
}

// column returns the finished column.
func (b *colBuilder) column() Column {
	if b.cat {
		return Column{Name: b.name, Kind: Categorical, Levels: nonNil(b.levels), Codes: nonNil(b.codes)}
	}
	return Column{Name: b.name, Kind: Numeric, Num: nonNil(b.num)}
}

// nonNil returns s, or an empty slice when s is nil.
func nonNil[S ~[]E, E any](s S) S {
	if s == nil {
		return S{}
	}
	return s
}

// levelList formats a level list for an error message, its first
// safetext.Listed levels quoted, then how many more.
func levelList(levels []string) string {
	return "{" + safetext.Few(levels, safetext.Listed, safetext.Excerpt) + "}"
}

// numKind classifies a field's text.
type numKind uint8

const (
	numFinite   numKind = iota // a finite decimal number
	numInfinite                // "inf", "-Infinity", 1e400, 1e-400: infinite or out of range
	numText                    // anything else
)

// parseNum parses a decimal number, ignoring surrounding blanks.
// Infinities and out-of-range values are numInfinite: those too large for
// a float64 (1e400) and the non-zero ones too small for its smallest
// subnormal (1e-400, which strconv rounds to 0 without an error; as a
// label value it would read as 0). NaN, hexadecimal and underscores are
// text.
func parseNum(s string) (float64, numKind) {
	if len(s) > 0 && (s[0] == ' ' || s[0] == '\t' || s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = strings.Trim(s, " \t")
	}
	if len(s) == 0 {
		return 0, numText
	}
	// Fast path for short unsigned integers, the most common case.
	if len(s) <= 9 {
		var n int64
		ok := true
		for i := 0; i < len(s); i++ {
			c := s[i] - '0'
			if c > 9 {
				ok = false
				break
			}
			n = n*10 + int64(c)
		}
		if ok {
			return float64(n), numFinite
		}
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == 'x' || c == 'X' || c == '_' {
			return 0, numText
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case math.IsInf(v, 0):
		return v, numInfinite // also ErrRange
	case err != nil || math.IsNaN(v):
		return 0, numText
	case v == 0 && nonZeroMantissa(s):
		return v, numInfinite // underflow
	}
	return v, numFinite
}

// nonZeroMantissa reports whether decimal number s, which parsed, has a
// non-zero digit before its exponent.
func nonZeroMantissa(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == 'e' || c == 'E':
			return false
		case c >= '1' && c <= '9':
			return true
		}
	}
	return false
}
