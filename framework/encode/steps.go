package encode

import (
	"fmt"
	"math"
	"sort"

	"github.com/polyclass/polyclass/framework/sdk"
)

// Context is what a step may know while fitting: the training rows of the
// fold and, for target-aware encoders, their classes.
type Context struct {
	// Train lists the training rows.
	Train []int
	// Labels holds the class of every row (only the training rows may be
	// read) and K the number of classes.
	Labels []int
	K      int
	Seed   uint64
}

// Step is one encoding step. FitTransform fits on the training rows of f
// and returns the encoded frame over all rows.
type Step interface {
	FitTransform(f *Frame, ctx *Context) (*Frame, error)
}

// Kind describes one encoder type.
type Kind struct {
	Name        string
	Description string
	Options     []sdk.ParamSpec
	New         func(opts sdk.Params) (Step, error)
}

// Kinds returns the encoder types by name.
func Kinds() map[string]Kind {
	return map[string]Kind{
		"standardize": {
			Name:        "standardize",
			Description: "numeric columns: (x − mean) / std with the training rows' mean and population std (std 0 → 1)",
			Options:     []sdk.ParamSpec{columnsSpec},
			New: func(o sdk.Params) (Step, error) {
				return &Standardize{Columns: o.Strings("columns")}, nil
			},
		},
		"onehot": {
			Name:        "onehot",
			Description: "categorical columns: one indicator per level seen in the training rows; unseen levels → all zeros",
			Options: []sdk.ParamSpec{columnsSpec,
				{Name: "drop_first", Type: sdk.BoolParam, Default: sdk.Bool(false), Description: "leave out the first level's indicator"},
				{Name: "unknown", Type: sdk.BoolParam, Default: sdk.Bool(false), Description: "add an indicator for levels unseen in training"},
			},
			New: func(o sdk.Params) (Step, error) {
				return &OneHot{Columns: o.Strings("columns"), DropFirst: o.Bool("drop_first", false), Unknown: o.Bool("unknown", false)}, nil
			},
		},
	}
}

var columnsSpec = sdk.ParamSpec{Name: "columns", Type: sdk.StringListParam, Description: "columns to encode (default: every column of the kind the encoder applies to)"}

func selected(names []string, name string) bool {
	if names == nil {
		return true
	}
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// Standardize centres and scales numeric columns.
type Standardize struct {
	// Columns limits the step to these columns; nil means every numeric one.
	Columns []string
}

// FitTransform implements Step.
func (s *Standardize) FitTransform(f *Frame, ctx *Context) (*Frame, error) {
	out := *f
	out.Num = make([]NumCol, len(f.Num))
	for j, c := range f.Num {
		if !selected(s.Columns, c.Name) {
			out.Num[j] = c
			continue
		}
		var sum float64
		n := 0
		for _, i := range ctx.Train {
			if v := c.Vals[i]; !math.IsNaN(v) {
				sum += v
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("standardize: column %q has no value in the training rows", c.Name)
		}
		mean := sum / float64(n)
		var ss float64
		for _, i := range ctx.Train {
			if v := c.Vals[i]; !math.IsNaN(v) {
				ss += (v - mean) * (v - mean)
			}
		}
		std := math.Sqrt(ss / float64(n))
		if std < 10*math.SmallestNonzeroFloat64 || std <= 1e-12*math.Abs(mean) {
			std = 1 // a constant column, as scikit-learn's StandardScaler
		}
		vals := make([]float64, len(c.Vals))
		for i, v := range c.Vals {
			vals[i] = (v - mean) / std
		}
		out.Num[j] = NumCol{Name: c.Name, Vals: vals}
	}
	return &out, nil
}

// OneHot replaces categorical columns by indicator columns.
type OneHot struct {
	Columns   []string
	DropFirst bool
	// Unknown adds an indicator for levels not seen in the training rows.
	Unknown bool
}

// FitTransform implements Step.
func (o *OneHot) FitTransform(f *Frame, ctx *Context) (*Frame, error) {
	out := *f
	out.Cat = nil
	out.Num = append([]NumCol(nil), f.Num...)
	for _, c := range f.Cat {
		if !selected(o.Columns, c.Name) {
			out.Cat = append(out.Cat, c)
			continue
		}
		seen := make([]bool, len(c.Levels))
		for _, i := range ctx.Train {
			if code := c.Codes[i]; code >= 0 {
				seen[code] = true
			}
		}
		// Levels in sorted order, as scikit-learn's OneHotEncoder.
		var levels []int
		for code, s := range seen {
			if s {
				levels = append(levels, code)
			}
		}
		sort.Slice(levels, func(a, b int) bool { return c.Levels[levels[a]] < c.Levels[levels[b]] })
		if o.DropFirst && len(levels) > 0 {
			levels = levels[1:]
		}
		col := make(map[int32]int, len(levels))
		for _, code := range levels {
			col[int32(code)] = len(out.Num)
			out.Num = append(out.Num, NumCol{Name: c.Name + "=" + c.Levels[code], Vals: make([]float64, f.Rows)})
		}
		unknown := -1
		if o.Unknown {
			unknown = len(out.Num)
			out.Num = append(out.Num, NumCol{Name: c.Name + "=<unknown>", Vals: make([]float64, f.Rows)})
		}
		for i, code := range c.Codes {
			if j, ok := col[code]; ok {
				out.Num[j].Vals[i] = 1
			} else if unknown >= 0 && code >= 0 && !seen[code] {
				out.Num[unknown].Vals[i] = 1
			}
		}
	}
	return &out, nil
}
