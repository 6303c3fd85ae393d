package data

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// colMode says how a column builder treats its values.
type colMode uint8

const (
	modeInfer colMode = iota // numeric while every value parses, else categorical
	modeNum                  // numeric; other values are errors
	modeCat                  // categorical
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
	// of src, or in extra (by row) when it is not a substring of src.
	// Spans hold no pointers, which keeps the garbage collector out.
	src   string
	spans []span
	extra map[int]string
	hint  int // expected row count, for preallocation
}

// span locates a value in colBuilder.src; off < 0 means "see extra".
type span struct{ off, end int }

// newBuilder returns a builder; capHint is the expected row count.
func newBuilder(name string, mode colMode, capHint int) *colBuilder {
	b := &colBuilder{name: name, mode: mode, hint: capHint}
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
	return b.addAt(s, -1, missing)
}

// addAt appends one value; off ≥ 0 says that s == b.src[off:off+len(s)].
func (b *colBuilder) addAt(s string, off int, missing bool) error {
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
		code, err := b.intern(s)
		if err != nil {
			return err
		}
		b.codes = append(b.codes, code)
		return nil
	}
	v, ok := parseNum(s)
	if ok {
		if cap(b.num) < b.hint && len(b.num) < 64 {
			// The first numbers: from here on the column is likely
			// numeric throughout, so reserve room for every row.
			b.num = append(make([]float64, 0, b.hint), b.num...)
			if b.mode == modeInfer {
				b.spans = append(make([]span, 0, b.hint), b.spans...)
			}
		}
		if b.mode == modeInfer {
			if off < 0 {
				if b.extra == nil {
					b.extra = make(map[int]string)
				}
				b.extra[len(b.num)] = s
			}
			b.spans = append(b.spans, span{off, off + len(s)})
		}
		b.num = append(b.num, v)
		return nil
	}
	if b.mode == modeNum {
		return fmt.Errorf("%w: %q", ErrNotNumeric, s)
	}
	// An inferred column met text: it is categorical after all.
	b.toCategorical()
	return b.addAt(s, off, false)
}

// toCategorical turns an inferred column read so far as numbers into a
// categorical one, using the original text as levels.
func (b *colBuilder) toCategorical() {
	b.cat = true
	b.index = make(map[string]int32)
	codes := make([]int32, len(b.num), max(b.hint, len(b.num)))
	for i, v := range b.num {
		if v != v {
			codes[i] = -1
			continue
		}
		sp := b.spans[i]
		var text string
		if sp.off < 0 {
			text = b.extra[i]
		} else {
			text = b.src[sp.off:sp.end]
		}
		codes[i], _ = b.intern(text)
	}
	b.codes = codes
	b.num, b.spans, b.extra = nil, nil, nil
}

// intern returns the code of level s, adding it unless the set is closed.
func (b *colBuilder) intern(s string) (int32, error) {
	if c, ok := b.index[s]; ok {
		return c, nil
	}
	if b.closed {
		return -1, fmt.Errorf("%w %q (declared: %s)", ErrUndeclared, s, levelList(b.levels))
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
		levels := b.levels
		if levels == nil {
			levels = []string{}
		}
		codes := b.codes
		if codes == nil {
			codes = []int32{}
		}
		return Column{Name: b.name, Kind: Categorical, Levels: levels, Codes: codes}
	}
	num := b.num
	if num == nil {
		num = []float64{}
	}
	return Column{Name: b.name, Kind: Numeric, Num: num}
}

// levelList formats a level list for an error message, truncated.
func levelList(levels []string) string {
	const maxShown = 10
	var b strings.Builder
	b.WriteByte('{')
	for i, l := range levels {
		if i == maxShown {
			fmt.Fprintf(&b, ", … %d more", len(levels)-maxShown)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(l))
	}
	b.WriteByte('}')
	return b.String()
}

// parseNum parses a finite decimal number, ignoring surrounding blanks.
// NaN, infinities, hexadecimal and out-of-range values are not numbers.
func parseNum(s string) (float64, bool) {
	if len(s) > 0 && (s[0] == ' ' || s[0] == '\t' || s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = strings.Trim(s, " \t")
	}
	if len(s) == 0 {
		return 0, false
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
			return float64(n), true
		}
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == 'x' || c == 'X' || c == '_' {
			return 0, false
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}
