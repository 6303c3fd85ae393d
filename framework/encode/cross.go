package encode

import "fmt"

// CrossSep joins column names and level names of a cross: the cross of
// columns a and b is named "a×b" and its level for values u and v is "u×v".
const CrossSep = "×"

// MaxCrossColumns bounds the columns a cross step crosses, and MaxCrosses
// (the pairs of that many columns) the crosses it adds: every cross is a
// categorical column with up to one level per row, which a later onehot
// makes into as many columns. Crossing 300 categorical columns (44,850
// crosses of 400 rows) took validate 35 s and ran the learner out of
// memory on the one-hot design; crosses are made of a few chosen columns,
// a few dozen at most.
const (
	MaxCrossColumns = 100
	MaxCrosses      = MaxCrossColumns * (MaxCrossColumns - 1) / 2
)

// checkCrosses refuses n columns to cross whose pairs are more than
// MaxCrosses, naming the count and the bound; what says what the columns
// are ("categorical columns").
func checkCrosses(n int, what string) error {
	if pairs := n * (n - 1) / 2; pairs > MaxCrosses {
		return fmt.Errorf("cross: the %d %s make %d crosses, more than the limit of %d (the pairs of %d columns); list at most %d columns to cross in columns",
			n, what, pairs, MaxCrosses, MaxCrossColumns, MaxCrossColumns)
	}
	return nil
}

// Cross adds the pairwise crosses f_ij(x) = (f_i(x), f_j(x)) of categorical
// columns as new categorical columns, so that any later encoder (onehot,
// hash, counts) applies to them. For columns c_1, …, c_n (in frame order)
// it adds c_i×c_j for every i < j. A row missing either value is missing
// in the cross. The levels of a cross are the pairs that occur in the data,
// in order of first appearance; nothing is fitted (a row's cross depends on
// that row only), and later encoders learn from the training rows as usual.
// It crosses at most MaxCrossColumns columns.
type Cross struct {
	// Columns lists the columns to cross (at least two); nil means every
	// categorical column.
	Columns []string
	// Drop removes the crossed columns, keeping only the crosses.
	Drop bool
}

// FitTransform implements Step.
func (x *Cross) FitTransform(f *Frame, ctx *Context) (*Frame, error) {
	out := f.clone()
	out.Cat = nil
	var sel []CatCol
	for _, c := range f.Cat {
		if selected(x.Columns, c.Name) {
			sel = append(sel, c)
			if x.Drop {
				continue
			}
		}
		out.Cat = append(out.Cat, c)
	}
	if x.Columns != nil {
		for _, n := range x.Columns {
			found := false
			for _, c := range sel {
				found = found || c.Name == n
			}
			if !found {
				return nil, fmt.Errorf("cross: %q is not a categorical column", n)
			}
		}
	}
	if len(sel) < 2 {
		return nil, fmt.Errorf("cross: needs at least two categorical columns, found %d", len(sel))
	}
	if err := checkCrosses(len(sel), "categorical columns"); err != nil {
		return nil, err
	}
	for a := 0; a < len(sel); a++ {
		for b := a + 1; b < len(sel); b++ {
			out.Cat = append(out.Cat, cross(sel[a], sel[b], f.Rows))
		}
	}
	return out, nil
}

// cross returns the cross of columns a and b.
func cross(a, b CatCol, rows int) CatCol {
	nb := int64(len(b.Levels))
	code := make(map[int64]int32)
	c := CatCol{Name: a.Name + CrossSep + b.Name, Codes: make([]int32, rows)}
	for i := 0; i < rows; i++ {
		ca, cb := a.Codes[i], b.Codes[i]
		if ca < 0 || cb < 0 {
			c.Codes[i] = -1
			continue
		}
		key := int64(ca)*nb + int64(cb)
		k, ok := code[key]
		if !ok {
			k = int32(len(c.Levels))
			code[key] = k
			c.Levels = append(c.Levels, a.Levels[ca]+CrossSep+b.Levels[cb])
		}
		c.Codes[i] = k
	}
	return c
}
