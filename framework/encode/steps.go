package encode

import (
	"fmt"
	"math"
	"sort"

	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/sparse"
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
	// Last tells a step that no step follows it: its frame goes to
	// Frame.Design as it is.
	Last bool
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
	// Takes is the kind of column the type encodes: the columns its
	// columns option may name.
	Takes   Takes
	Options []param.ParamSpec
	New     func(opts param.Params) (Step, error)
}

// Takes is the kind of feature column an encoder type encodes.
type Takes int

const (
	// TakesNumeric is an encoder of numeric columns (standardize, minmax).
	TakesNumeric Takes = iota + 1
	// TakesCategorical is an encoder of categorical columns (onehot,
	// hash, counts, cross).
	TakesCategorical
	// TakesBoth is an encoder of either kind (impute).
	TakesBoth
)

// String names the columns t takes, as a message says it: "numeric",
// "categorical" or "feature".
func (t Takes) String() string {
	switch t {
	case TakesNumeric:
		return "numeric"
	case TakesCategorical:
		return "categorical"
	}
	return "feature"
}

// Taken returns the names of f's columns that an encoder of t may
// encode, in frame order (numeric columns first).
func (t Takes) Taken(f *Frame) []string {
	var names []string
	if t != TakesCategorical {
		for _, c := range f.Num {
			names = append(names, c.Name)
		}
	}
	if t != TakesNumeric {
		for _, c := range f.Cat {
			names = append(names, c.Name)
		}
	}
	return names
}

// Unselected is an entry of an encoder's columns option that names no
// column of a frame the encoder takes: OtherKind is the kind of the
// frame's column of that name when it is of the other kind ("numeric" or
// "categorical"), "" when the frame has no column of that name.
type Unselected struct {
	Name      string
	OtherKind string
}

// Unselected returns the entries of columns, the columns option of an
// encoder that takes t, that name no column of f (the frame the step
// gets) of a kind t takes, in the order given: the step would leave each
// alone without a word.
func (t Takes) Unselected(columns []string, f *Frame) []Unselected {
	kinds := map[string]string{}
	for _, c := range f.Num {
		kinds[c.Name] = "numeric"
	}
	for _, c := range f.Cat {
		kinds[c.Name] = "categorical"
	}
	var out []Unselected
	for _, n := range columns {
		k, found := kinds[n]
		switch {
		case !found:
			out = append(out, Unselected{Name: n})
		case t != TakesBoth && k != t.String():
			out = append(out, Unselected{Name: n, OtherKind: k})
		}
	}
	return out
}

// Kinds returns the encoder types by name.
func Kinds() map[string]Kind {
	return map[string]Kind{
		"standardize": {
			Name:        "standardize",
			Description: "numeric columns: (x − mean) / std with the training rows' mean and population std (std 0 → 1)",
			Takes:       TakesNumeric,
			Options:     []param.ParamSpec{columnsSpec},
			New: func(o param.Params) (Step, error) {
				return &Standardize{Columns: o.Strings("columns")}, nil
			},
		},
		"minmax": {
			Name:        "minmax",
			Description: "numeric columns: lower + (upper − lower)·(x − min)/(max − min) with the training rows' min and max (svm-scale's formula; scikit-learn's MinMaxScaler; a constant column → lower)",
			Takes:       TakesNumeric,
			Options: []param.ParamSpec{columnsSpec,
				{Name: "lower", Type: param.NumberParam, Default: param.Number(0), Description: "value of the training minimum (svm-scale's -l; scikit-learn's feature_range[0])"},
				{Name: "upper", Type: param.NumberParam, Default: param.Number(1), Description: "value of the training maximum (svm-scale's -u; scikit-learn's feature_range[1])"},
			},
			New: func(o param.Params) (Step, error) {
				lo, hi := o.Float("lower"), o.Float("upper")
				if !(lo < hi) {
					return nil, param.WithParam("upper", fmt.Errorf("minmax: upper = %v must exceed lower = %v", hi, lo))
				}
				return &MinMax{Columns: o.Strings("columns"), Lower: lo, Upper: hi}, nil
			},
		},
		"impute": {
			Name:        "impute",
			Description: "missing values: numeric → training mean or median; categorical → a level of its own (or the training mode)",
			Takes:       TakesBoth,
			Options: []param.ParamSpec{columnsSpec,
				{Name: "strategy", Type: param.StringParam, Default: param.String("mean"), Allowed: []string{"mean", "median"}, Description: "fill value of numeric columns"},
				{Name: "categorical", Type: param.StringParam, Default: param.String("level"), Allowed: []string{"level", "mode"}, Description: "categorical columns: a new level \"<missing>\" or the most frequent training level"},
			},
			New: func(o param.Params) (Step, error) {
				return &Impute{Columns: o.Strings("columns"), Strategy: o.Str("strategy"), Categorical: o.Str("categorical")}, nil
			},
		},
		"onehot": {
			Name:        "onehot",
			Description: "categorical columns: one indicator per level seen in the training rows; unseen levels → all zeros; sparse beyond 64 indicators",
			Takes:       TakesCategorical,
			Options: []param.ParamSpec{columnsSpec,
				{Name: "drop_first", Type: param.BoolParam, Default: param.Bool(false), Description: "leave out the first level's indicator"},
				{Name: "unknown", Type: param.BoolParam, Default: param.Bool(false), Description: "add an indicator for levels unseen in training"},
				{Name: "sparse", Type: param.StringParam, Default: param.String("auto"), Allowed: []string{"auto", "always", "never"}, Description: "emit a sparse block: auto = when the step makes more than 64 indicators, or is the pipeline's last and leaves a design under 30 % non-zeros"},
			},
			New: func(o param.Params) (Step, error) {
				return &OneHot{Columns: o.Strings("columns"), DropFirst: o.Bool("drop_first"), Unknown: o.Bool("unknown"), Sparse: o.Str("sparse")}, nil
			},
		},
		"hash": {
			Name:        "hash",
			Description: "categorical columns: hashing trick into one sparse block of `buckets` features (FNV-1a 64 + fmix64 of \"column=value\")",
			Takes:       TakesCategorical,
			Options: []param.ParamSpec{columnsSpec,
				{Name: "buckets", Type: param.IntegerParam, Default: param.Number(1024), Min: param.Bound(1), Max: param.Bound(1 << 26), Description: "number of hash buckets B"},
				{Name: "signed", Type: param.BoolParam, Default: param.Bool(false), Description: "signed hashing: each entry is ±1 by another hash bit"},
				{Name: "seed", Type: param.IntegerParam, Default: param.Number(0), Min: param.Bound(0), Max: param.Bound(1 << 53), Description: "hash seed"},
			},
			New: func(o param.Params) (Step, error) {
				return &Hash{Columns: o.Strings("columns"), Buckets: o.Int("buckets"), Signed: o.Bool("signed"), Seed: uint64(o.Int("seed"))}, nil
			},
		},
		"counts": {
			Name:        "counts",
			Description: "categorical columns: smoothed class frequencies (successes_k + c_k)/(counts + Σc) from the training rows, optionally out-of-fold",
			Takes:       TakesCategorical,
			Options: []param.ParamSpec{columnsSpec,
				{Name: "priors", Type: param.NumberListParam, Description: "prior counts c_1..c_K (one number = the same for every class); default all 1"},
				{Name: "prior_sets", Type: param.NumberMatrixParam, Description: "several prior sets, one feature group each (instead of priors)"},
				{Name: "include_counts", Type: param.BoolParam, Default: param.Bool(false), Description: "add counts(u) and successes_k(u) as features"},
				{Name: "folds", Type: param.NumberOrStringParam, Default: param.Number(0), Min: param.Bound(0), Allowed: []string{"loo"}, Description: "training rows' statistics: 0 = in-sample, m ≥ 2 = out-of-fold over m parts, \"loo\" = leave-one-out"},
				{Name: "min_count", Type: param.IntegerParam, Default: param.Number(0), Min: param.Bound(0), Description: "values seen in fewer training rows (and unseen values) share one rare level"},
				{Name: "hash_buckets", Type: param.IntegerParam, Default: param.Number(0), Min: param.Bound(0), Max: param.Bound(1 << 26), Description: "keep statistics per hashed value in this many buckets (0 = per value)"},
			},
			New: newCounts,
		},
		"cross": {
			Name:        "cross",
			Description: "categorical columns: add every pairwise cross a×b as a new categorical column",
			Takes:       TakesCategorical,
			Options: []param.ParamSpec{columnsSpec,
				{Name: "keep", Type: param.BoolParam, Default: param.Bool(true), Description: "keep the crossed columns beside their crosses"},
			},
			New: func(o param.Params) (Step, error) {
				cols := o.Strings("columns")
				if cols != nil && len(cols) < 2 {
					return nil, fmt.Errorf("cross needs at least two columns, got %d", len(cols))
				}
				if err := checkCrosses(len(cols), "listed columns"); err != nil {
					return nil, err
				}
				return &Cross{Columns: cols, Drop: !o.Bool("keep")}, nil
			},
		},
	}
}

// newCounts builds a Counts step from checked options.
func newCounts(o param.Params) (Step, error) {
	s := &Counts{Columns: o.Strings("columns"), IncludeCounts: o.Bool("include_counts"),
		MinCount: o.Int("min_count"), HashBuckets: o.Int("hash_buckets")}
	if p := o.Floats("priors"); p != nil {
		s.Priors = [][]float64{p}
	}
	if ps := o.Matrix("prior_sets"); ps != nil {
		if s.Priors != nil {
			return nil, fmt.Errorf("give priors or prior_sets, not both")
		}
		s.Priors = ps
	}
	for i, p := range s.Priors {
		if len(p) == 0 {
			return nil, fmt.Errorf("prior set %d is empty", i+1)
		}
		for _, c := range p {
			if !(c >= 0) {
				return nil, fmt.Errorf("prior set %d has a negative prior %v", i+1, c)
			}
		}
	}
	if v, ok := o["folds"]; ok {
		switch v.Kind() {
		case param.StringValue:
			if v.Str() != "loo" {
				return nil, fmt.Errorf("folds = %q: want a number or \"loo\"", v.Str())
			}
			s.LOO = true
		case param.NumberValue:
			m := v.Num()
			if m != math.Trunc(m) || m == 1 || m < 0 {
				return nil, fmt.Errorf("folds = %v: want 0 (in-sample), a whole number ≥ 2 or \"loo\"", m)
			}
			s.Folds = int(m)
		}
	}
	return s, nil
}

var columnsSpec = param.ParamSpec{Name: "columns", Type: param.StringListParam, Description: "columns to encode (default: every column of the kind the encoder applies to)"}

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

// MinMax scales numeric columns linearly so that the training rows' minimum
// and maximum of each become Lower and Upper, as LIBSVM's svm-scale:
//
//	x' = Lower + (Upper − Lower)·(x − min)/(max − min),
//
// the same transform as scikit-learn's MinMaxScaler(feature_range=(Lower,
// Upper)) up to rounding. Values outside the training range map outside
// [Lower, Upper]; a constant column maps to Lower (scikit-learn's
// choice; svm-scale leaves it out, i.e. 0); missing values stay missing.
type MinMax struct {
	// Columns limits the step to these columns; nil means every numeric one.
	Columns      []string
	Lower, Upper float64
}

// FitTransform implements Step.
func (s *MinMax) FitTransform(f *Frame, ctx *Context) (*Frame, error) {
	out := *f
	out.Num = make([]NumCol, len(f.Num))
	for j, c := range f.Num {
		if !selected(s.Columns, c.Name) {
			out.Num[j] = c
			continue
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, i := range ctx.Train {
			if v := c.Vals[i]; !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
		if lo > hi {
			return nil, fmt.Errorf("minmax: column %q has no value in the training rows", c.Name)
		}
		vals := make([]float64, len(c.Vals))
		for i, v := range c.Vals {
			switch {
			case math.IsNaN(v):
				vals[i] = v
			case hi == lo:
				vals[i] = s.Lower
			default:
				vals[i] = s.Lower + (s.Upper-s.Lower)*(v-lo)/(hi-lo)
			}
		}
		out.Num[j] = NumCol{Name: c.Name, Vals: vals}
	}
	return &out, nil
}

// SparseThreshold is the indicator count above which onehot (with Sparse
// "auto") emits a sparse block instead of dense columns.
const SparseThreshold = 64

// OneHot replaces categorical columns by indicator columns
// g_j(x) = [f(x) = u_j], one per level u_j seen in the training rows, in
// sorted level order (as scikit-learn's OneHotEncoder). Levels unseen in
// training and missing values give all zeros (or, with Unknown, a 1 in an
// extra "col=<unknown>" indicator for unseen non-missing levels).
//
// The indicators are dense numeric columns when the step makes at most
// SparseThreshold of them (Sparse "auto") or always (Sparse "never"), and
// otherwise one sparse CSR block holding every indicator of the step, in
// the same order; both give the same design matrix up to column order
// (dense columns come before sparse blocks in Frame.Design). As the last
// step of a pipeline (Context.Last) on a frame without sparse blocks,
// "auto" also makes the block when the design's density is bound to be
// under SparseDensity: Frame.Design would give that design in CSR form
// from the dense columns, the same matrix, in the same column order.
type OneHot struct {
	// Columns limits the step to these columns; nil means every
	// categorical one.
	Columns   []string
	DropFirst bool
	// Unknown adds an indicator for levels not seen in the training rows.
	Unknown bool
	// Sparse is "auto" (default when empty), "always" or "never".
	Sparse string
}

// designDensity bounds the density of the design of frame f, whose
// encoded columns are gone and which has no sparse blocks, once it has
// the indicators of encoded columns: every dense numeric column counts
// as non-zero on every row, and each encoded column as one indicator.
func designDensity(f *Frame, encoded, indicators int) float64 {
	if cols := len(f.Num) + indicators; cols > 0 {
		return float64(len(f.Num)+encoded) / float64(cols)
	}
	return 1
}

// FitTransform implements Step.
func (o *OneHot) FitTransform(f *Frame, ctx *Context) (*Frame, error) {
	out := f.clone()
	out.Cat = nil
	var cols []codedColumn
	var names []string
	for _, c := range f.Cat {
		if !selected(o.Columns, c.Name) {
			out.Cat = append(out.Cat, c)
			continue
		}
		var cc codedColumn
		cc, names = o.codeColumn(c, ctx.Train, names)
		cols = append(cols, cc)
	}
	dense, err := o.dense(out, ctx, len(cols), len(names))
	if err != nil {
		return nil, err
	}
	switch {
	case len(cols) == 0:
	case dense:
		denseIndicators(out, cols, names)
	default:
		out.Sparse = append(out.Sparse, SparseBlock{Names: names, M: sparseIndicators(f.Rows, cols, len(names))})
	}
	return out, nil
}

// codedColumn is a categorical column's codes and the indicator of each
// of its levels (an offset in the step's indicators), −1 for none.
type codedColumn struct {
	codes []int32
	col   []int32
}

// codeColumn gives an indicator to each level of c seen in the training
// rows, in level order (the first dropped with DropFirst), and with
// Unknown one more that every unseen level shares; it returns the column
// and names with the indicators' names appended.
func (o *OneHot) codeColumn(c CatCol, train []int, names []string) (codedColumn, []string) {
	seen := make([]bool, len(c.Levels))
	for _, i := range train {
		if code := c.Codes[i]; code >= 0 {
			seen[code] = true
		}
	}
	var levels []int
	for code, s := range seen {
		if s {
			levels = append(levels, code)
		}
	}
	sort.Slice(levels, func(a, b int) bool { return c.Levels[levels[a]] < c.Levels[levels[b]] })
	cc := codedColumn{codes: c.Codes, col: make([]int32, len(c.Levels))}
	for code := range cc.col {
		cc.col[code] = -1
	}
	if o.DropFirst && len(levels) > 0 {
		levels = levels[1:]
	}
	for _, code := range levels {
		cc.col[code] = int32(len(names))
		names = append(names, c.Name+"="+c.Levels[code])
	}
	if o.Unknown {
		for code, s := range seen {
			if !s {
				cc.col[code] = int32(len(names))
			}
		}
		names = append(names, c.Name+"=<unknown>")
	}
	return cc, names
}

// dense reports whether the step's indicators (of encoded columns) are
// dense columns of out rather than a sparse block (see OneHot.Sparse).
func (o *OneHot) dense(out *Frame, ctx *Context, encoded, indicators int) (bool, error) {
	switch o.Sparse {
	case "", "auto":
		return indicators <= SparseThreshold &&
			(!ctx.Last || len(out.Sparse) > 0 || designDensity(out, encoded, indicators) >= SparseDensity), nil
	case "never":
		return true, nil
	case "always":
		return false, nil
	}
	return false, fmt.Errorf("onehot: sparse = %q: want auto, always or never", o.Sparse)
}

// denseIndicators appends the indicators of cols to out as dense numeric
// columns named names.
func denseIndicators(out *Frame, cols []codedColumn, names []string) {
	base := len(out.Num)
	for _, n := range names {
		out.Num = append(out.Num, NumCol{Name: n, Vals: make([]float64, out.Rows)})
	}
	for _, c := range cols {
		for i, code := range c.codes {
			if code >= 0 && c.col[code] >= 0 {
				out.Num[base+int(c.col[code])].Vals[i] = 1
			}
		}
	}
}

// sparseIndicators is the CSR matrix of the indicators of cols, rows by
// n. Each column's indicators follow the previous column's, so a row's
// entries come out in increasing column order.
func sparseIndicators(rows int, cols []codedColumn, n int) *sparse.CSR {
	m := &sparse.CSR{Rows: rows, Cols: n, Indptr: make([]int64, rows+1)}
	m.Indices = make([]int32, 0, rows*len(cols))
	for i := 0; i < rows; i++ {
		for _, c := range cols {
			if code := c.codes[i]; code >= 0 && c.col[code] >= 0 {
				m.Indices = append(m.Indices, c.col[code])
			}
		}
		m.Indptr[i+1] = int64(len(m.Indices))
	}
	m.Values = make([]float64, len(m.Indices))
	for j := range m.Values {
		m.Values[j] = 1
	}
	return m
}
