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

	// badAt is the first infinite or out-of-range number of an inferred
	// column (row −1: none), badText its text: an error if the column
	// ends numeric.
	badAt   valueAt
	badText string

	// textAt is the value that turned an inferred column categorical
	// (row −1: none), textValue its text, kept for the warning of a
	// column that is mostly numbers (mixedWarning).
	textAt    valueAt
	textValue string

	// formAt is the value that the warning of a column of numbers in
	// written forms the reader does not take names (writtenNumber:
	// "1 212,75", "14%"; row −1: none): of an inferred column turned
	// categorical, the first such value of the most marks (formMarks:
	// "1 212,75" has two, "906,72" one), whose fix shows the most.
	formAt    valueAt
	formMarks int

	// unit is the unit word written with no space after the number
	// ("cm" of "1.4cm"; unitSuffix) that is on most values of an inferred
	// column turned categorical, if one is (a majority vote over its
	// values: unitVotes; "" stands for values without one), and unitAt
	// a value with it.
	unit      string
	unitVotes int
	unitAt    valueAt
}

// valueAt is a value of a column that a message may name: its row
// (noRow: none) and, in a file with positions, its line and byte column.
// addAt records the row and marks the value pending; the reader then
// fills in the position of the field it passed (placePending).
type valueAt struct {
	row, line, col int
	pending        bool
}

// noRow is the row of a valueAt that names no value.
const noRow = -1

// at records row, pending its position.
func (v *valueAt) at(row int) { *v = valueAt{row: row, pending: true} }

// placePending fills in the position (line, byte column) of the values
// of b that addAt recorded for the field it was last given.
func (b *colBuilder) placePending(line, col int) {
	for _, v := range [...]*valueAt{&b.badAt, &b.textAt, &b.formAt, &b.unitAt} {
		if v.pending {
			v.line, v.col, v.pending = line, col, false
		}
	}
}

// span locates a value in colBuilder.text.
type span struct{ off, end int }

// newBuilder returns a builder; capHint is the expected row count.
func newBuilder(name string, mode colMode, capHint int) *colBuilder {
	b := &colBuilder{name: name, mode: mode, hint: capHint, badAt: valueAt{row: noRow}, textAt: valueAt{row: noRow}, formAt: valueAt{row: noRow}, unitAt: valueAt{row: noRow}}
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
// inferred column it is recorded in badAt (when row ≥ 0) and becomes
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
			b.textAt.at(row)
			b.textValue = strings.Clone(s)
		}
		b.toCategorical()
		return b.addAt(s, false, row)
	case kind == numInfinite && b.mode == modeNum:
		return fmt.Errorf("%w: %s (infinite or out of range)", ErrNotNumeric, safetext.Excerpt(s))
	case kind == numInfinite:
		if b.badAt.row < 0 {
			b.badAt.at(row)
			b.badText = strings.Clone(s)
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
// a number in a written form the reader does not take (formAt).
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
		// space counts only when most values have it (unitAt).
		if _, marks := writtenNumber(s); len(marks) > b.formMarks && !slices.Contains(marks, noSpaceUnit) {
			b.formAt.at(row)
			b.formMarks = len(marks)
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
			b.unitAt.at(row)
		}
	default:
		b.unitVotes--
	}
}

// majorityUnit returns unit when it is on most of the column's values
// (counted, as the vote only names a candidate), else "".
func (b *colBuilder) majorityUnit() string {
	if b.unit == "" || b.unitAt.row < 0 {
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
	if !b.cat && b.badAt.row >= 0 {
		return fmt.Errorf("%w: %s (infinite or out of range; data row %d) in a column of numbers: give a finite value, leave the field empty for a missing value, or list the column in categorical", ErrNotNumeric, safetext.Excerpt(b.badText), b.badAt.row+1)
	}
	b.text, b.spans = nil, nil
	return nil
}

// mixedWarning returns the warning (ErrMixedColumn) of an inferred column
// that turned categorical although more of its values are numbers than
// not, else nil, with the line and byte column of the value it names. A
// number written in a form the reader does not take (writtenNumber:
// "5,1", "1 212,75", "14%") counts as a number; when such numbers make
// the column mostly numbers, the warning names one (formAt), with the
// number to write instead, and tallies the forms; otherwise it names
// the value that turned the column.
func (b *colBuilder) mixedWarning() (line, col int, err error) {
	if !b.cat || b.mode != modeInfer || b.textAt.row < 0 {
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
	at := b.formAt
	if at.row < 0 && unit != "" {
		at = b.unitAt
	}
	if written > 0 && nums+written > values-nums-written && at.row >= 0 {
		counts := make([]string, len(order))
		for i, f := range order {
			counts[i] = fmt.Sprintf("%d with %s", tally[f], f)
		}
		ex := b.levels[b.codes[at.row]]
		num, marks := writtenNumber(ex)
		return at.line, at.col, fmt.Errorf("%w: %s (data row %d) is a number written with %s, read as text; %d of the column's %d values are numbers when such forms count (%s): the reader takes plain numbers only (a decimal point, no thousands separator, no unit sign), so the column stays categorical, one level per distinct value; write %s, not %s, before loading, or list the column in categorical to keep it categorical without this warning",
			ErrMixedColumn, safetext.Excerpt(ex), at.row+1, markList(marks), nums+written, values, safetext.Few(counts, safetext.Listed, nil), safetext.Excerpt(num), safetext.Excerpt(ex))
	}
	if nums <= values-nums {
		return 0, 0, nil
	}
	return b.textAt.line, b.textAt.col, fmt.Errorf("%w: %s (data row %d) is not a number, yet %d of the column's %d values are: list the column in numeric to make such a value an error, or in categorical to keep it categorical without this warning", ErrMixedColumn, safetext.Excerpt(b.textValue), b.textAt.row+1, nums, values)
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
	b.badAt = valueAt{row: noRow}
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
