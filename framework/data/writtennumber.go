package data

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxMarks is the number of marks after which a column stops looking for
// a value that writtenNumber finds more marks in (addLevel): enough for a
// spreadsheet form, digits of another script, a minus sign such as
// U+2212, a unit sign, separators between thousands and a decimal comma.
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

// wideDigitsMark names the mark of full-width digits (asciiDigits).
const wideDigitsMark = "full-width digits (U+FF10-U+FF19)"

// asciiDigits returns s with its decimal digits of other scripts (Unicode
// category Nd: full-width digits U+FF10-U+FF19 as East Asian input
// methods write them, Arabic-Indic digits U+0660-U+0669, Devanagari
// digits, ...) as the ASCII ones, and its full-width full stops (U+FF0E)
// and Arabic decimal separators (U+066B) as decimal points, with the
// name of the mark ("full-width digits (U+FF10-U+FF19)", "digits of
// another script (U+0660-U+0669)", after the first such character); ""
// when s has none.
func asciiDigits(s string) (string, string) {
	mark := ""
	name := func(zero rune) {
		switch {
		case mark != "":
		case zero == '\uff10':
			mark = wideDigitsMark
		default:
			mark = fmt.Sprintf("digits of another script (U+%04X-U+%04X)", zero, zero+9)
		}
	}
	n := strings.Map(func(r rune) rune {
		switch {
		case r < utf8.RuneSelf:
		case r == '\uff0e':
			name('\uff10')
			return '.'
		case r == '\u066b':
			name('\u0660')
			return '.'
		case unicode.IsDigit(r):
			zero := digitZero(r)
			name(zero)
			return '0' + r - zero
		}
		return r
	}, s)
	return n, mark
}

// digitZero returns the digit zero of decimal digit r (Unicode category
// Nd), which Unicode encodes in runs of ten from zero to nine.
func digitZero(r rune) rune {
	z := r
	for unicode.IsDigit(z - 1) {
		z--
	}
	return z + (r-z)/10*10
}

// trimBlank returns s without the white space around it (Unicode's: a
// no-break space U+00A0 and a thin space U+2009 as spreadsheets and web
// pages paste them, as well as spaces and tabs), with the name of the
// mark when other than spaces and tabs were trimmed; "" when none were.
func trimBlank(s string) (string, string) {
	t := strings.TrimFunc(s, unicode.IsSpace)
	if t == strings.Trim(s, " \t") {
		return t, ""
	}
	i := strings.Index(s, t)
	for _, r := range s[:i] + s[i+len(t):] {
		if r != ' ' && r != '\t' {
			return t, fmt.Sprintf("white space other than a space (U+%04X) around it", r)
		}
	}
	return t, ""
}

// cutFootnote returns s without the footnote marks that published tables
// put after a number ("1.4*", "0.93†", "12‡", "1.4 **"), with the
// name of the mark; s and "" when it has none.
func cutFootnote(s string) (string, string) {
	t := strings.TrimRight(s, "*\u2020\u2021")
	if t == s || t == "" {
		return s, ""
	}
	return strings.TrimRight(t, " "), "a footnote mark"
}

// cutUncertainty returns s without the uncertainty that copied summary
// tables write after a number ("1.4 ± 0.1", "1,4±0,1", "1.4 +/- 0.1": a
// plus-minus sign and an unsigned number), with the name of the mark; s
// and "" when it has none.
func cutUncertainty(s string) (string, string) {
	for _, pm := range []string{"\u00b1", "+/-"} {
		before, after, found := strings.Cut(s, pm)
		before, after = strings.TrimRight(before, " "), strings.TrimLeft(after, " ")
		if _, kind := parseNum(strings.Replace(after, ",", ".", 1)); found && before != "" && kind == numFinite && after[0] != '-' && after[0] != '+' {
			return before, "an uncertainty after it (\u00b1)"
		}
	}
	return s, ""
}

// cutApprox returns s without the approximation sign before it ("~1.4",
// "≈ 1.4", "∼1.4"), with the name of the mark; s and "" when it has none.
func cutApprox(s string) (string, string) {
	for _, a := range []string{"~", "\u2248", "\u223c"} {
		if rest, found := strings.CutPrefix(s, a); found {
			return strings.TrimLeft(rest, " "), "an approximation sign"
		}
	}
	return s, ""
}

// hexFloat returns s, an unsigned hexadecimal float with a binary
// exponent as C99's printf("%a") and Python's float.hex write it
// ("0x1.6666666666666p+0"), as a decimal number with the name of the
// mark; "" when s is no such number.
func hexFloat(s string) (num string, marks []string) {
	if len(s) < 2 || s[0] != '0' || s[1]|0x20 != 'x' || !strings.ContainsAny(s, "pP") {
		return "", nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return "", nil
	}
	return strconv.FormatFloat(v, 'g', -1, 64), []string{"a hexadecimal float"}
}

// groupSeparators are the characters that a number may have between the
// groups of three digits of its whole part, as spreadsheets and locales
// write them ("1,212.75", "1.254,88", "1 212,75", "1'212.75"), each with
// its name for messages.
var groupSeparators = []struct{ sep, name string }{
	{",", "commas"}, {".", "points"}, {" ", "spaces"},
	{"\u00a0", "no-break spaces (U+00A0)"}, {"\u202f", "narrow no-break spaces (U+202F)"},
	{"'", "apostrophes"}, {"\u2019", "apostrophes (U+2019)"},
	{"\u066c", "Arabic thousands separators (U+066C)"},
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
// not take as written but would once its written form is undone, and
// returns the number as parseNum takes it ("1212.75", "-0.2",
// "1.5e-03") with the names of the marks undone, for messages ("a minus
// sign (U+2212)", "spaces between thousands", "a decimal comma"); no
// marks when s is no such number. The forms, outermost first:
//   - digits of another script (asciiDigits: "\uff10\uff0e\uff12",
//     "\u0661\u066b\u0664") and white space other than spaces around it
//     (trimBlank: "1.4\u00a0");
//   - a footnote mark after it (cutFootnote: "1.4*"), one of
//     spreadsheetForms ("(1.4)", "'1.4", "1.4-", "=1.4"), an uncertainty
//     after it (cutUncertainty: "1.4 \u00b1 0.1"), an approximation sign
//     before it (cutApprox: "~1.4");
//   - an optional sign ("+", "-" or one of minusSigns: U+2212, dashes, the
//     small and full-width hyphen-minus; "+ 1.4", a space after it, is a
//     mark) and a unit sign (unitSigns: before the digits, after the sign
//     or not, or after them, a space between allowed) or a unit word or a
//     currency code (cutUnitWord: "1.4 cm", "USD 1.4");
//   - then digits with a decimal comma ("5,1", ",5") or with one of
//     groupSeparators between each group of three digits of the whole part
//     and an optional decimal point or comma ("1,212.75", "1.254,88",
//     "1 212,75", "12.345.678"; not "1.201", a number as written; ungroup),
//     or digits with a decimal point and a Fortran D exponent ("1.5D-03";
//     fortranNumber), or a hexadecimal float (hexFloat: "0x1.8p+0").
//
// A group of other than three digits is no number: "1,2,3", "12 3", "1'2"
// are text, as are a unit sign alone, two signs and a D without a decimal
// point ("12D4", a code).
func writtenNumber(s string) (num string, marks []string) {
	if strings.IndexFunc(s, unicode.IsDigit) < 0 {
		return "", nil // text, at once: most levels of a categorical column
	}
	if _, kind := parseNum(s); kind == numFinite {
		return "", nil
	}
	s, script := asciiDigits(s)
	s, blank := trimBlank(s)
	s, foot := cutFootnote(s)
	s, form, negative := cutSpreadsheetForm(s)
	s, spread := cutUncertainty(s)
	s, approx := cutApprox(s)
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
	spaced := ""
	if t := strings.TrimLeft(body, " "); sign != "" && t != body {
		body, spaced = t, "a space after the sign"
	}
	if negative && sign != "" {
		return "", nil // two signs: "(-1.4)", "-1.4-"
	} else if negative {
		sign = "-"
	}
	digits, inner := ungroup(body)
	if digits == "" {
		digits, inner = fortranNumber(body)
	}
	if digits == "" {
		digits, inner = hexFloat(body)
	}
	marks = append(present(form, script, blank, approx, minus, spaced, unit), inner...)
	marks = append(marks, present(foot, spread)...)
	if _, kind := parseNum(sign + digits); kind != numFinite || len(marks) == 0 {
		return "", nil
	}
	return sign + digits, marks
}

// present returns the names that are not "", in order.
func present(names ...string) []string {
	var p []string
	for _, n := range names {
		if n != "" {
			p = append(p, n)
		}
	}
	return p
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
