package encode

import (
	"fmt"
	"math"
	"sort"
)

// MissingLevel is the level Impute gives missing categorical values (with
// "_" appended as often as needed to differ from the existing levels).
const MissingLevel = "<missing>"

// Impute fills missing values. Numeric columns get the mean or median of
// their training rows' values. Categorical columns get either a level of
// their own (Categorical = "level", the default: a column with any missing
// value gains the level MissingLevel, so later encoders treat "missing" as
// a value; as for any level, onehot and counts learn it from the training
// rows only) or the most frequent level of the training rows ("mode", ties
// to the lower code).
type Impute struct {
	// Columns limits the step to these columns; nil means every column.
	Columns []string
	// Strategy is "mean" (default when empty) or "median" for numeric
	// columns.
	Strategy string
	// Categorical is "level" (default when empty) or "mode".
	Categorical string
}

// FitTransform implements Step.
func (m *Impute) FitTransform(f *Frame, ctx *Context) (*Frame, error) {
	out := f.clone()
	for j, c := range f.Num {
		if !selected(m.Columns, c.Name) || !hasNaN(c.Vals) {
			continue
		}
		col, err := m.fillNumeric(c, ctx.Train)
		if err != nil {
			return nil, err
		}
		out.Num[j] = col
	}
	for j, c := range f.Cat {
		if !selected(m.Columns, c.Name) || !hasMissingCode(c.Codes) {
			continue
		}
		col, err := m.fillCategorical(c, ctx.Train)
		if err != nil {
			return nil, err
		}
		out.Cat[j] = col
	}
	return out, nil
}

// fillNumeric fills the missing values of c with the mean or median
// (Strategy) of its training rows' values.
func (m *Impute) fillNumeric(c NumCol, train []int) (NumCol, error) {
	var vals []float64
	for _, i := range train {
		if v := c.Vals[i]; !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		return NumCol{}, fmt.Errorf("impute: column %q has no value in the training rows", c.Name)
	}
	var fill float64
	switch m.Strategy {
	case "", "mean":
		for _, v := range vals {
			fill += v
		}
		fill /= float64(len(vals))
	case "median":
		sort.Float64s(vals)
		n := len(vals)
		fill = vals[n/2]
		if n%2 == 0 {
			fill = (vals[n/2-1] + vals[n/2]) / 2
		}
	default:
		return NumCol{}, fmt.Errorf("impute: unknown strategy %q (want mean or median)", m.Strategy)
	}
	filled := make([]float64, len(c.Vals))
	for i, v := range c.Vals {
		if math.IsNaN(v) {
			v = fill
		}
		filled[i] = v
	}
	return NumCol{Name: c.Name, Vals: filled}, nil
}

// fillCategorical fills the missing codes of c with a level of their own
// or the training rows' most frequent level (Categorical).
func (m *Impute) fillCategorical(c CatCol, train []int) (CatCol, error) {
	levels := c.Levels
	var fill int32
	switch m.Categorical {
	case "", "level":
		name := MissingLevel
		for contains(c.Levels, name) {
			name += "_"
		}
		fill = int32(len(c.Levels))
		levels = append(append(make([]string, 0, len(c.Levels)+1), c.Levels...), name)
	case "mode":
		fill = modeCode(c, train)
		if fill < 0 {
			return CatCol{}, fmt.Errorf("impute: column %q has no value in the training rows", c.Name)
		}
	default:
		return CatCol{}, fmt.Errorf("impute: unknown categorical strategy %q (want level or mode)", m.Categorical)
	}
	codes := make([]int32, len(c.Codes))
	for i, code := range c.Codes {
		if code < 0 {
			code = fill
		}
		codes[i] = code
	}
	return CatCol{Name: c.Name, Levels: levels, Codes: codes}, nil
}

// modeCode is the most frequent code of c's training rows, ties to the
// lower code; −1 when none has a value.
func modeCode(c CatCol, train []int) int32 {
	counts := make([]int, len(c.Levels))
	for _, i := range train {
		if code := c.Codes[i]; code >= 0 {
			counts[code]++
		}
	}
	fill, best := int32(-1), 0
	for code, n := range counts {
		if n > best {
			fill, best = int32(code), n
		}
	}
	return fill
}

func hasNaN(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) {
			return true
		}
	}
	return false
}

func hasMissingCode(codes []int32) bool {
	for _, c := range codes {
		if c < 0 {
			return true
		}
	}
	return false
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
