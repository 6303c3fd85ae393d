package encode

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/sparse"
)

// catFrame returns a frame of one categorical column built from values
// ("" = missing), with levels in order of first appearance.
func catCol(name string, values ...string) CatCol {
	c := CatCol{Name: name, Codes: make([]int32, len(values))}
	idx := map[string]int32{}
	for i, v := range values {
		if v == "" {
			c.Codes[i] = -1
			continue
		}
		code, ok := idx[v]
		if !ok {
			code = int32(len(c.Levels))
			idx[v] = code
			c.Levels = append(c.Levels, v)
		}
		c.Codes[i] = code
	}
	return c
}

// dense returns the design of f as rows of named values.
func designMap(t *testing.T, f *Frame) (names []string, rows [][]float64) {
	t.Helper()
	m, fn, err := f.Design()
	if err != nil {
		t.Fatalf("Design: %v", err)
	}
	names = fn.List()
	rows = make([][]float64, f.Rows)
	for i := range rows {
		rows[i] = make([]float64, len(names))
		for j := range names {
			if m.Dense != nil {
				rows[i][j] = m.Dense.At(i, j)
			} else {
				rows[i][j] = m.CSR.At(i, j)
			}
		}
	}
	return names, rows
}

func num(f *Frame, name string) []float64 {
	for _, c := range f.Num {
		if c.Name == name {
			return c.Vals
		}
	}
	return nil
}

func close(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}

// TestCountsHandTable checks the counters' formula on a hand-computed
// table with K = 3 classes.
//
// Training rows 0–5 (value, class): red 0, red 1, red 0, blue 2, blue 2,
// green 1. Test rows: 6 red, 7 yellow (unseen), 8 missing.
//
//	red:   counts 3, successes (2, 1, 0)
//	blue:  counts 2, successes (0, 0, 2)
//	green: counts 1, successes (0, 1, 0)
//
// With priors c = (1, 1, 1), Σc = 3: red → (3/6, 2/6, 1/6), blue →
// (1/5, 1/5, 3/5), green → (1/4, 2/4, 1/4); yellow and missing are
// unseen, so rare with no training rows → (1/3, 1/3, 1/3).
// With priors c = (1, 2, 3), Σc = 6: red → (3/9, 3/9, 3/9), blue → (1/8,
// 2/8, 5/8), green → (1/7, 3/7, 3/7), unseen → (1/6, 2/6, 3/6).
func TestCountsHandTable(t *testing.T) {
	f := &Frame{Rows: 9, Cat: []CatCol{catCol("color", "red", "red", "red", "blue", "blue", "green", "red", "yellow", "")}}
	ctx := &Context{Train: []int{0, 1, 2, 3, 4, 5}, Labels: []int{0, 1, 0, 2, 2, 1, 1, 0, 2}, K: 3}
	third := 1.0 / 3
	tests := []struct {
		name string
		step *Counts
		cols map[string][]float64
	}{
		{"priors 1", &Counts{}, map[string][]float64{
			"color#k0": {3. / 6, 3. / 6, 3. / 6, 1. / 5, 1. / 5, 1. / 4, 3. / 6, third, third},
			"color#k1": {2. / 6, 2. / 6, 2. / 6, 1. / 5, 1. / 5, 2. / 4, 2. / 6, third, third},
			"color#k2": {1. / 6, 1. / 6, 1. / 6, 3. / 5, 3. / 5, 1. / 4, 1. / 6, third, third},
		}},
		{"two prior sets with counts", &Counts{Priors: [][]float64{{1}, {1, 2, 3}}, IncludeCounts: true}, map[string][]float64{
			"color#s0k0": {3. / 6, 3. / 6, 3. / 6, 1. / 5, 1. / 5, 1. / 4, 3. / 6, third, third},
			"color#s1k0": {3. / 9, 3. / 9, 3. / 9, 1. / 8, 1. / 8, 1. / 7, 3. / 9, 1. / 6, 1. / 6},
			"color#s1k1": {3. / 9, 3. / 9, 3. / 9, 2. / 8, 2. / 8, 3. / 7, 3. / 9, 2. / 6, 2. / 6},
			"color#s1k2": {3. / 9, 3. / 9, 3. / 9, 5. / 8, 5. / 8, 3. / 7, 3. / 9, 3. / 6, 3. / 6},
			"color#n":    {3, 3, 3, 2, 2, 1, 3, 0, 0},
			"color#n_k0": {2, 2, 2, 0, 0, 0, 2, 0, 0},
			"color#n_k2": {0, 0, 0, 2, 2, 0, 0, 0, 0},
		}},
		// min_count 2: green (1 row) joins the rare level with yellow and
		// missing; rare = {green: class 1} → counts 1, successes (0,1,0).
		{"min_count 2", &Counts{MinCount: 2}, map[string][]float64{
			"color#k1": {2. / 6, 2. / 6, 2. / 6, 1. / 5, 1. / 5, 2. / 4, 2. / 6, 2. / 4, 2. / 4},
			"color#k2": {1. / 6, 1. / 6, 1. / 6, 3. / 5, 3. / 5, 1. / 4, 1. / 6, 1. / 4, 1. / 4},
		}},
		// Hashing into 1 bucket pools every seen value: counts 6,
		// successes (2, 2, 2) → 3/9 each; missing has its own key, unseen
		// in training → rare → 1/3.
		{"hash_buckets 1", &Counts{HashBuckets: 1}, map[string][]float64{
			"color#k0": {3. / 9, 3. / 9, 3. / 9, 3. / 9, 3. / 9, 3. / 9, 3. / 9, 3. / 9, third},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := tc.step.FitTransform(f, ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Cat) != 0 {
				t.Fatalf("categorical columns left: %d", len(out.Cat))
			}
			for name, want := range tc.cols {
				if got := num(out, name); !close(got, want, 1e-15) {
					t.Errorf("%s = %v, want %v", name, got, want)
				}
			}
		})
	}
}

// TestCountsOutOfFold checks the out-of-fold and leave-one-out variants on
// a 6-row training part with K = 2 and priors c = (1, 1).
//
// Training rows (value, class): 0 A 1, 1 A 1, 2 A 0, 3 A 1, 4 B 0, 5 B 1;
// test rows 6 A, 7 C (unseen). Whole training part: A counts 4,
// successes (1, 3); B counts 2, successes (1, 1).
//
// Out-of-fold, m = 3, seed 2: the parts are {3, 0}, {1, 4}, {5, 2}.
//
//	part {3,0}: others A = rows 1,2 → counts 2, succ (1,1) → rows 0, 3: (2/4, 2/4)
//	part {1,4}: others A = rows 0,2,3 → 3, (1,2) → row 1: (2/5, 3/5)
//	            others B = row 5 → 1, (0,1) → row 4: (1/3, 2/3)
//	part {5,2}: others A = rows 0,1,3 → 3, (0,3) → row 2: (1/5, 4/5)
//	            others B = row 4 → 1, (1,0) → row 5: (2/3, 1/3)
//	test: row 6 A → 4, (1,3) → (2/6, 4/6); row 7 C → rare, empty → (1/2, 1/2)
//
// Leave-one-out: row 0 (A,1): others 3, (1,2) → (2/5, 3/5); likewise rows
// 1, 3; row 2 (A,0): others 3, (0,3) → (1/5, 4/5); row 4 (B,0): others
// 1, (0,1) → (1/3, 2/3); row 5 (B,1): others 1, (1,0) → (2/3, 1/3).
func TestCountsOutOfFold(t *testing.T) {
	f := &Frame{Rows: 8, Cat: []CatCol{catCol("v", "A", "A", "A", "A", "B", "B", "A", "C")}}
	ctx := &Context{Train: []int{0, 1, 2, 3, 4, 5}, Labels: []int{1, 1, 0, 1, 0, 1, 0, 1}, K: 2, Seed: 2}
	if got, want := oofParts(ctx.Train, 3, 2), [][]int{{3, 0}, {1, 4}, {5, 2}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("parts = %v, want %v (the PCG stream changed; redo the hand computation)", got, want)
	}
	tests := []struct {
		name   string
		step   *Counts
		k0, k1 []float64
	}{
		{"folds 3", &Counts{Folds: 3},
			[]float64{2. / 4, 2. / 5, 1. / 5, 2. / 4, 1. / 3, 2. / 3, 2. / 6, 1. / 2},
			[]float64{2. / 4, 3. / 5, 4. / 5, 2. / 4, 2. / 3, 1. / 3, 4. / 6, 1. / 2}},
		{"loo", &Counts{LOO: true},
			[]float64{2. / 5, 2. / 5, 1. / 5, 2. / 5, 1. / 3, 2. / 3, 2. / 6, 1. / 2},
			[]float64{3. / 5, 3. / 5, 4. / 5, 3. / 5, 2. / 3, 1. / 3, 4. / 6, 1. / 2}},
		{"in-sample", &Counts{},
			[]float64{2. / 6, 2. / 6, 2. / 6, 2. / 6, 2. / 4, 2. / 4, 2. / 6, 1. / 2},
			[]float64{4. / 6, 4. / 6, 4. / 6, 4. / 6, 2. / 4, 2. / 4, 4. / 6, 1. / 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := tc.step.FitTransform(f, ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got := num(out, "v#k0"); !close(got, tc.k0, 1e-15) {
				t.Errorf("v#k0 = %v, want %v", got, tc.k0)
			}
			if got := num(out, "v#k1"); !close(got, tc.k1, 1e-15) {
				t.Errorf("v#k1 = %v, want %v", got, tc.k1)
			}
		})
	}
}

func TestCountsErrors(t *testing.T) {
	f := &Frame{Rows: 3, Cat: []CatCol{catCol("v", "a", "b", "a")}}
	tests := []struct {
		name string
		step *Counts
		ctx  *Context
	}{
		{"no labels", &Counts{}, &Context{Train: []int{0, 1}, K: 0}},
		{"prior length", &Counts{Priors: [][]float64{{1, 1, 1}}}, &Context{Train: []int{0, 1}, Labels: []int{0, 1, 0}, K: 2}},
		{"zero prior sum", &Counts{Priors: [][]float64{{0}}}, &Context{Train: []int{0, 1}, Labels: []int{0, 1, 0}, K: 2}},
		{"more parts than rows", &Counts{Folds: 3}, &Context{Train: []int{0, 1}, Labels: []int{0, 1, 0}, K: 2}},
		{"class out of range", &Counts{}, &Context{Train: []int{0, 1}, Labels: []int{0, 2, 0}, K: 2}},
	}
	for _, tc := range tests {
		if _, err := tc.step.FitTransform(f, tc.ctx); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// TestHashGolden checks HashString against values computed by an
// independent implementation (testdata/gen_hash.py) and against the
// standard library's FNV-1a followed by fmix64.
func TestHashGolden(t *testing.T) {
	tests := []struct {
		seed   uint64
		s      string
		h      uint64
		bucket int
		sign   float64
	}{
		// Generated by testdata/gen_hash.py (B = 1024).
		{0, "", 0x7bd3144f29c0cc9e, 158, 1},
		{0, "color=red", 0xc6aa9c3212a46f8d, 909, -1},
		{1, "color=red", 0x5206971ff08bd273, 627, 1},
		{0, "diag_1=250.83", 0xa699c290d895c87f, 127, -1},
		{42, "safety=high", 0xefba3969c3b8d4c0, 192, -1},
		{0, "a×b=x×y", 0xc786f8e5cd22ed9a, 410, -1},
	}
	for _, tc := range tests {
		if got := HashString(tc.seed, tc.s); got != tc.h {
			t.Errorf("HashString(%d, %q) = %#x, want %#x", tc.seed, tc.s, got, tc.h)
		}
		std := fnv.New64a()
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], tc.seed)
		std.Write(b[:])
		std.Write([]byte(tc.s))
		if got := fmix64(std.Sum64()); got != tc.h {
			t.Errorf("fmix64(fnv64a(%d, %q)) = %#x, want %#x", tc.seed, tc.s, got, tc.h)
		}
		col, val, _ := strings.Cut(tc.s, "=")
		if tc.s == "" {
			continue
		}
		b2, s2 := HashBucket(tc.seed, col, val, 1024)
		if b2 != tc.bucket || s2 != tc.sign {
			t.Errorf("HashBucket(%d, %q) = %d, %v; want %d, %v", tc.seed, tc.s, b2, s2, tc.bucket, tc.sign)
		}
	}
}

// TestHashEncode checks the hashed block: color=red → bucket 909 with
// sign −1 (golden above); two columns in one bucket add up, and signed
// entries that cancel are not stored.
func TestHashEncode(t *testing.T) {
	f := &Frame{Rows: 3, Cat: []CatCol{catCol("color", "red", "", "red")}}
	out, err := (&Hash{Buckets: 1024, Signed: true}).FitTransform(f, &Context{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Cat) != 0 || len(out.Sparse) != 1 {
		t.Fatalf("got %d categorical, %d sparse", len(out.Cat), len(out.Sparse))
	}
	m := out.Sparse[0].M
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if m.Cols != 1024 || m.NNZ() != 2 || m.At(0, 909) != -1 || m.At(2, 909) != -1 {
		t.Errorf("block %d cols, %d nnz, (0,909) = %v", m.Cols, m.NNZ(), m.At(0, 909))
	}
	// One bucket: every value lands in bucket 0 and adds up.
	g := &Frame{Rows: 2, Cat: []CatCol{catCol("a", "x", "y"), catCol("b", "u", "")}}
	out, err = (&Hash{Buckets: 1}).FitTransform(g, &Context{})
	if err != nil {
		t.Fatal(err)
	}
	if m := out.Sparse[0].M; m.At(0, 0) != 2 || m.At(1, 0) != 1 {
		t.Errorf("one bucket: rows %v, %v; want 2, 1", m.At(0, 0), m.At(1, 0))
	}
	// Signed, one bucket: find two values of opposite sign; they cancel.
	var pos, neg string
	for _, v := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		if _, s := HashBucket(0, "a", v, 1); s > 0 && pos == "" {
			pos = v
		} else if s < 0 && neg == "" {
			neg = v
		}
	}
	h := &Frame{Rows: 1, Cat: []CatCol{catCol("a", pos), catCol("a", neg)}}
	out, err = (&Hash{Buckets: 1, Signed: true}).FitTransform(h, &Context{})
	if err != nil {
		t.Fatal(err)
	}
	if nnz := out.Sparse[0].M.NNZ(); nnz != 0 {
		t.Errorf("cancelled entries stored: nnz = %d", nnz)
	}
}

func TestCross(t *testing.T) {
	f := &Frame{Rows: 4, Cat: []CatCol{
		catCol("a", "x", "x", "y", ""),
		catCol("b", "u", "v", "u", "u"),
		catCol("c", "p", "p", "p", "q"),
	}}
	tests := []struct {
		name  string
		step  *Cross
		names []string
		want  map[string]CatCol
	}{
		{"all, keep", &Cross{}, []string{"a", "b", "c", "a×b", "a×c", "b×c"}, map[string]CatCol{
			"a×b": {Name: "a×b", Levels: []string{"x×u", "x×v", "y×u"}, Codes: []int32{0, 1, 2, -1}},
			"b×c": {Name: "b×c", Levels: []string{"u×p", "v×p", "u×q"}, Codes: []int32{0, 1, 0, 2}},
		}},
		{"listed, drop", &Cross{Columns: []string{"c", "b"}, Drop: true}, []string{"a", "b×c"}, nil},
	}
	for _, tc := range tests {
		out, err := tc.step.FitTransform(f, &Context{})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, c := range out.Cat {
			names = append(names, c.Name)
			if want, ok := tc.want[c.Name]; ok && !reflect.DeepEqual(c, want) {
				t.Errorf("%s: %s = %+v, want %+v", tc.name, c.Name, c, want)
			}
		}
		if !reflect.DeepEqual(names, tc.names) {
			t.Errorf("%s: columns %v, want %v", tc.name, names, tc.names)
		}
	}
	if _, err := (&Cross{Columns: []string{"a", "zz"}}).FitTransform(f, &Context{}); err == nil {
		t.Error("unknown column: no error")
	}
}

// TestCrossLimit: a cross of MaxCrossColumns columns (4,950 crosses) is
// made; one more column, listed or found in the data, is refused before
// any cross is made, naming the count and the bound.
func TestCrossLimit(t *testing.T) {
	if MaxCrosses != 4950 {
		t.Fatalf("MaxCrosses = %d, want 4950, the pairs of %d columns", MaxCrosses, MaxCrossColumns)
	}
	frame := func(n int) (*Frame, []string) {
		f := &Frame{Rows: 2}
		names := make([]string, n)
		for i := range n {
			names[i] = fmt.Sprintf("c%d", i)
			f.Cat = append(f.Cat, catCol(names[i], "x", "y"))
		}
		return f, names
	}
	kind := Kinds()["cross"]
	for _, tt := range []struct {
		columns int
		fit     string // FitTransform's error over every categorical column
		listed  string // New's error with the columns listed
	}{
		{2, "", ""},
		{MaxCrossColumns, "", ""},
		{MaxCrossColumns + 1,
			"cross: the 101 categorical columns make 5050 crosses, more than the limit of 4950 (the pairs of 100 columns); list at most 100 columns to cross in columns",
			"cross: the 101 listed columns make 5050 crosses, more than the limit of 4950 (the pairs of 100 columns); list at most 100 columns to cross in columns"},
		{300,
			"cross: the 300 categorical columns make 44850 crosses, more than the limit of 4950 (the pairs of 100 columns); list at most 100 columns to cross in columns",
			"cross: the 300 listed columns make 44850 crosses, more than the limit of 4950 (the pairs of 100 columns); list at most 100 columns to cross in columns"},
	} {
		f, names := frame(tt.columns)
		out, err := (&Cross{}).FitTransform(f, &Context{})
		if got := errText(err); got != tt.fit {
			t.Errorf("%d columns: FitTransform error %q, want %q", tt.columns, got, tt.fit)
		}
		if want := tt.columns + tt.columns*(tt.columns-1)/2; err == nil && len(out.Cat) != want {
			t.Errorf("%d columns: %d columns out, want %d", tt.columns, len(out.Cat), want)
		}
		cols := make([]param.Value, len(names))
		for i, n := range names {
			cols[i] = param.String(n)
		}
		_, err = kind.New(param.WithDefaults(kind.Options, param.Params{"columns": param.List(cols...)}))
		if got := errText(err); got != tt.listed {
			t.Errorf("%d columns listed: New error %q, want %q", tt.columns, got, tt.listed)
		}
	}
}

// errText is err's message, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestImpute(t *testing.T) {
	nan := math.NaN()
	f := &Frame{Rows: 6,
		Num: []NumCol{{Name: "x", Vals: []float64{1, nan, 2, 10, nan, 100}}},
		Cat: []CatCol{catCol("c", "a", "", "b", "b", "a", "")},
	}
	ctx := &Context{Train: []int{0, 1, 2, 3, 4}} // row 5 (x = 100) is a test row
	tests := []struct {
		name   string
		step   *Impute
		x      []float64
		levels []string
		codes  []int32
	}{
		// Training values 1, 2, 10: mean 13/3, median 2.
		{"mean, level", &Impute{}, []float64{1, 13. / 3, 2, 10, 13. / 3, 100}, []string{"a", "b", MissingLevel}, []int32{0, 2, 1, 1, 0, 2}},
		{"median, mode", &Impute{Strategy: "median", Categorical: "mode"}, []float64{1, 2, 2, 10, 2, 100}, []string{"a", "b"}, []int32{0, 0, 1, 1, 0, 0}},
	}
	for _, tc := range tests {
		out, err := tc.step.FitTransform(f, ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !close(out.Num[0].Vals, tc.x, 1e-15) {
			t.Errorf("%s: x = %v, want %v", tc.name, out.Num[0].Vals, tc.x)
		}
		if c := out.Cat[0]; !reflect.DeepEqual(c.Levels, tc.levels) || !reflect.DeepEqual(c.Codes, tc.codes) {
			t.Errorf("%s: c = %v %v, want %v %v", tc.name, c.Levels, c.Codes, tc.levels, tc.codes)
		}
	}
	// Median of an even count: training values 1, 2, 10, 100 → 6.
	ctx4 := &Context{Train: []int{0, 2, 3, 5, 1}}
	out, err := (&Impute{Strategy: "median"}).FitTransform(f, ctx4)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Num[0].Vals[1]; got != 6 {
		t.Errorf("even median = %v, want 6", got)
	}
	// A level named like the missing level already exists.
	g := &Frame{Rows: 2, Cat: []CatCol{catCol("c", MissingLevel, "")}}
	out, err = (&Impute{}).FitTransform(g, &Context{Train: []int{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if lv := out.Cat[0].Levels; len(lv) != 2 || lv[1] != MissingLevel+"_" || out.Cat[0].Codes[1] != 1 {
		t.Errorf("levels %v codes %v", lv, out.Cat[0].Codes)
	}
}

// TestOneHotSparseEqualsDense encodes the same frame dense and sparse and
// compares the design matrices by feature name.
func TestOneHotSparseEqualsDense(t *testing.T) {
	vals := func(n int, mod int, prefix string) []string {
		s := make([]string, n)
		for i := range s {
			if i%7 == 3 {
				continue // missing
			}
			s[i] = prefix + string(rune('a'+(i*i+3*i)%mod))
		}
		return s
	}
	f := &Frame{Rows: 40,
		Num: []NumCol{{Name: "x", Vals: make([]float64, 40)}},
		Cat: []CatCol{catCol("p", vals(40, 5, "p")...), catCol("q", vals(40, 11, "q")...)},
	}
	for i := range f.Num[0].Vals {
		f.Num[0].Vals[i] = float64(i%3) - 1
	}
	train := []int{}
	for i := 0; i < 30; i++ {
		train = append(train, i)
	}
	for _, o := range []OneHot{{}, {DropFirst: true}, {Unknown: true}, {Columns: []string{"q"}}} {
		dense, sp := o, o
		dense.Sparse, sp.Sparse = "never", "always"
		fd, err := dense.FitTransform(f, &Context{Train: train})
		if err != nil {
			t.Fatal(err)
		}
		fs, err := sp.FitTransform(f, &Context{Train: train})
		if err != nil {
			t.Fatal(err)
		}
		if len(fs.Sparse) != 1 || len(fd.Sparse) != 0 {
			t.Fatalf("%+v: sparse blocks %d / %d", o, len(fs.Sparse), len(fd.Sparse))
		}
		if err := fs.Sparse[0].M.Validate(); err != nil {
			t.Fatal(err)
		}
		if len(o.Columns) > 0 {
			fd.Cat, fs.Cat = nil, nil // p stays categorical
		}
		dn, dr := designMap(t, fd)
		sn, sr := designMap(t, fs)
		if len(dn) != len(sn) || len(dn) < 3 {
			t.Fatalf("%+v: %d dense vs %d sparse features", o, len(dn), len(sn))
		}
		pos := map[string]int{}
		for j, n := range sn {
			pos[n] = j
		}
		for j, n := range dn {
			js, ok := pos[n]
			if !ok {
				t.Fatalf("%+v: feature %s missing from the sparse design", o, n)
			}
			for i := range dr {
				if dr[i][j] != sr[i][js] {
					t.Errorf("%+v: %s row %d: dense %v, sparse %v", o, n, i, dr[i][j], sr[i][js])
				}
			}
		}
	}
	// "auto": 5 + 11 indicators stay dense; more than SparseThreshold go sparse.
	out, _ := (&OneHot{}).FitTransform(f, &Context{Train: train})
	if len(out.Sparse) != 0 {
		t.Error("auto made a sparse block for 16 indicators")
	}
	wide := make([]string, 100)
	for i := range wide {
		wide[i] = string(rune(0x100 + i))
	}
	g := &Frame{Rows: 100, Cat: []CatCol{catCol("w", wide...)}}
	all := make([]int, 100)
	for i := range all {
		all[i] = i
	}
	out, _ = (&OneHot{}).FitTransform(g, &Context{Train: all})
	if len(out.Sparse) != 1 || out.Sparse[0].M.Cols != 100 || out.Sparse[0].M.NNZ() != 100 {
		t.Error("auto kept 100 indicators dense")
	}
}

// TestDesignMixed checks Frame.Design on dense columns plus two sparse
// blocks against the matrix assembled by hand, including empty rows,
// zeros in dense columns and an all-zero block.
func TestDesignMixed(t *testing.T) {
	b1 := &sparse.CSR{Rows: 4, Cols: 3, Indptr: []int64{0, 2, 2, 3, 5},
		Indices: []int32{0, 2, 1, 0, 2}, Values: []float64{1, -2, 3, 4, 5}}
	b2 := &sparse.CSR{Rows: 4, Cols: 2, Indptr: []int64{0, 0, 1, 1, 1}, Indices: []int32{1}, Values: []float64{7}}
	empty := &sparse.CSR{Rows: 4, Cols: 2, Indptr: make([]int64, 5)}
	f := &Frame{Rows: 4,
		Num:    []NumCol{{Name: "x", Vals: []float64{0, 1.5, 0, -1}}, {Name: "y", Vals: []float64{2, 0, 0, 0}}},
		Sparse: []SparseBlock{{Names: []string{"a", "b", "c"}, M: b1}, {Names: []string{"e1", "e2"}, M: empty}, {Names: []string{"d", "e"}, M: b2}},
	}
	want := [][]float64{
		{0, 2, 1, 0, -2, 0, 0, 0, 0},
		{1.5, 0, 0, 0, 0, 0, 0, 0, 7},
		{0, 0, 0, 3, 0, 0, 0, 0, 0},
		{-1, 0, 4, 0, 5, 0, 0, 0, 0},
	}
	m, fn, err := f.Design()
	names := fn.List()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"x", "y", "a", "b", "c", "e1", "e2", "d", "e"}; !reflect.DeepEqual(names, want) {
		t.Errorf("names %v, want %v", names, want)
	}
	if m.CSR == nil || m.Dense != nil {
		t.Fatal("mixed design is not CSR")
	}
	if err := m.CSR.Validate(); err != nil {
		t.Fatal(err)
	}
	if m.CSR.NNZ() != 9 {
		t.Errorf("nnz = %d, want 9 (zeros not stored)", m.CSR.NNZ())
	}
	for i, row := range want {
		for j, v := range row {
			if got := m.CSR.At(i, j); got != v {
				t.Errorf("(%d,%d) = %v, want %v", i, j, got, v)
			}
		}
	}
	// Only dense columns: a dense matrix; only an empty frame: an error;
	// a categorical column left: an error; a NaN: an error.
	g := &Frame{Rows: 2, Num: []NumCol{{Name: "x", Vals: []float64{1, 2}}}}
	if m, _, err := g.Design(); err != nil || m.Dense == nil || m.Dense.At(1, 0) != 2 {
		t.Errorf("dense design: %v", err)
	}
	for name, bad := range map[string]*Frame{
		"empty":       {Rows: 2},
		"categorical": {Rows: 2, Num: g.Num, Cat: []CatCol{catCol("c", "a", "b")}},
		"nan":         {Rows: 2, Num: []NumCol{{Name: "x", Vals: []float64{1, math.NaN()}}}},
	} {
		if _, _, err := bad.Design(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// allSteps returns one configured instance of every step built through
// Kinds, so the options path is exercised too.
func allSteps(t *testing.T) map[string]Step {
	t.Helper()
	kinds := Kinds()
	cfg := map[string]param.Params{
		"standardize":  {},
		"impute":       {"strategy": param.String("median")},
		"onehot":       {"sparse": param.String("always"), "unknown": param.Bool(true)},
		"hash":         {"buckets": param.Number(16), "signed": param.Bool(true)},
		"counts":       {"folds": param.Number(3), "include_counts": param.Bool(true), "min_count": param.Number(2)},
		"counts_loo":   {"folds": param.String("loo"), "prior_sets": param.List(param.List(param.Number(1)), param.List(param.Number(0.5), param.Number(2)))},
		"counts_hash":  {"hash_buckets": param.Number(4), "priors": param.List(param.Number(2))},
		"cross":        {"keep": param.Bool(false)},
		"cross_listed": {"columns": param.List(param.String("id"), param.String("c"))},
	}
	steps := map[string]Step{}
	for name, p := range cfg {
		kind, _, _ := strings.Cut(name, "_") // counts_loo → counts
		k, ok := kinds[kind]
		if !ok {
			t.Fatalf("no kind %q", kind)
		}
		if errs := param.CheckParams(k.Options, p); len(errs) > 0 {
			t.Fatalf("%s: %v", name, errs)
		}
		s, err := k.New(param.WithDefaults(k.Options, p))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		steps[name] = s
	}
	if len(steps) < len(kinds) {
		t.Fatalf("%d steps for %d kinds", len(steps), len(kinds))
	}
	return steps
}

// mixedFrame returns a 30-row frame with missing values everywhere.
func mixedFrame() (*Frame, *Context) {
	n := 30
	x := make([]float64, n)
	id, c := make([]string, n), make([]string, n)
	labels := make([]int, n)
	for i := range x {
		x[i] = float64((i*7)%11) - 3
		if i%9 == 4 {
			x[i] = math.NaN()
		}
		id[i] = string(rune('A' + (i*5)%13))
		if i%8 != 2 {
			c[i] = string(rune('a' + i%3))
		}
		labels[i] = (i * 3) % 2
	}
	f := &Frame{Rows: n, Num: []NumCol{{Name: "x", Vals: x}}, Cat: []CatCol{catCol("id", id...), catCol("c", c...)}}
	var train []int
	for i := 0; i < n; i++ {
		if i%5 != 0 {
			train = append(train, i)
		}
	}
	return f, &Context{Train: train, Labels: labels, K: 2, Seed: 9}
}

func deepCopy(f *Frame) *Frame {
	g := &Frame{Rows: f.Rows}
	for _, c := range f.Num {
		g.Num = append(g.Num, NumCol{Name: c.Name, Vals: append([]float64(nil), c.Vals...)})
	}
	for _, c := range f.Cat {
		g.Cat = append(g.Cat, CatCol{Name: c.Name, Levels: append([]string(nil), c.Levels...), Codes: append([]int32(nil), c.Codes...)})
	}
	g.Sparse = append(g.Sparse, f.Sparse...)
	return g
}

// equalFrames compares frames treating NaN as equal to NaN.
func equalFrames(a, b *Frame) bool {
	if a.Rows != b.Rows || len(a.Num) != len(b.Num) || !reflect.DeepEqual(a.Cat, b.Cat) || len(a.Sparse) != len(b.Sparse) {
		return false
	}
	for j := range a.Sparse {
		if !reflect.DeepEqual(a.Sparse[j], b.Sparse[j]) {
			return false
		}
	}
	for j := range a.Num {
		if a.Num[j].Name != b.Num[j].Name || len(a.Num[j].Vals) != len(b.Num[j].Vals) {
			return false
		}
		for i, v := range a.Num[j].Vals {
			w := b.Num[j].Vals[i]
			if v != w && !(math.IsNaN(v) && math.IsNaN(w)) {
				return false
			}
		}
	}
	return true
}

// TestStepsContract checks every step for: no mutation of its input
// frame, determinism, test-row labels never read (perturbing them leaves
// the output unchanged), and an output over all rows.
func TestStepsContract(t *testing.T) {
	for name, s := range allSteps(t) {
		t.Run(name, func(t *testing.T) {
			f, ctx := mixedFrame()
			// Give the input spare capacity so that an append on a shared
			// slice would show up as a mutation.
			f.Num = append(make([]NumCol, 0, 8), f.Num...)
			f.Cat = append(make([]CatCol, 0, 8), f.Cat...)
			f.Sparse = make([]SparseBlock, 0, 8)
			before := deepCopy(f)
			out1, err := s.FitTransform(f, ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !equalFrames(f, before) || cap(f.Num) != 8 {
				t.Fatal("input frame mutated")
			}
			for _, c := range f.Num[len(f.Num):cap(f.Num)] {
				if c.Name != "" {
					t.Fatal("step wrote into the input's spare capacity")
				}
			}
			for _, c := range f.Cat[len(f.Cat):cap(f.Cat)] {
				if c.Name != "" {
					t.Fatal("step wrote into the input's spare capacity")
				}
			}
			out2, err := s.FitTransform(f, ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !equalFrames(out1, out2) {
				t.Fatal("not deterministic")
			}
			perturbed := *ctx
			perturbed.Labels = append([]int(nil), ctx.Labels...)
			for i := 0; i < len(perturbed.Labels); i += 5 { // the test rows
				perturbed.Labels[i] = 1 - perturbed.Labels[i]
			}
			out3, err := s.FitTransform(f, &perturbed)
			if err != nil {
				t.Fatal(err)
			}
			if !equalFrames(out1, out3) {
				t.Fatal("output depends on test-row labels")
			}
			// Perturbing a training label must change a target-aware step.
			if _, ok := s.(*Counts); ok {
				perturbed.Labels[1] = 1 - perturbed.Labels[1]
				out4, _ := s.FitTransform(f, &perturbed)
				if equalFrames(out1, out4) {
					t.Fatal("counts ignores the training labels")
				}
			}
			for _, c := range out1.Num {
				if len(c.Vals) != f.Rows {
					t.Fatalf("column %s has %d rows", c.Name, len(c.Vals))
				}
			}
			for _, b := range out1.Sparse {
				named := len(b.Names) == b.M.Cols || (b.Names == nil && b.Prefix != "")
				if b.M.Rows != f.Rows || !named || b.M.Validate() != nil {
					t.Fatalf("bad sparse block %d×%d, %d names, prefix %q", b.M.Rows, b.M.Cols, len(b.Names), b.Prefix)
				}
			}
		})
	}
}

// TestKindsOptions checks that every kind's options have valid defaults
// and that invalid option combinations are refused by New.
func TestKindsOptions(t *testing.T) {
	for name, k := range Kinds() {
		if k.Name != name || k.Description == "" || k.New == nil {
			t.Errorf("kind %q incomplete", name)
		}
		for _, s := range k.Options {
			if !s.Default.IsNull() {
				if err := s.Check(s.Default); err != nil {
					t.Errorf("%s.%s default: %v", name, s.Name, err)
				}
			}
		}
		if _, err := k.New(param.WithDefaults(k.Options, param.Params{})); err != nil {
			t.Errorf("%s with defaults: %v", name, err)
		}
	}
	counts := Kinds()["counts"]
	for name, p := range map[string]param.Params{
		"folds 1":     {"folds": param.Number(1)},
		"folds 2.5":   {"folds": param.Number(2.5)},
		"both priors": {"priors": param.List(param.Number(1)), "prior_sets": param.List(param.List(param.Number(1)))},
		"empty set":   {"prior_sets": param.List(param.List())},
		"neg prior":   {"priors": param.List(param.Number(-1))},
	} {
		if _, err := counts.New(param.WithDefaults(counts.Options, p)); err == nil {
			t.Errorf("counts %s: no error", name)
		}
	}
	if errs := param.CheckParams(counts.Options, param.Params{"folds": param.String("lo")}); len(errs) == 0 {
		t.Error(`folds = "lo" accepted`)
	}
}

// TestDesignDensity: Frame.Design gives a frame of dense columns alone
// in CSR form when fewer than SparseDensity of its entries are non-zero
// (scikit-learn's sparse_threshold), with the same values and column
// order; the few indicators onehot makes stay dense columns for the steps
// after it (standardize then makes them dense in the design too).
func TestDesignDensity(t *testing.T) {
	const rows = 40
	levels := func(name string, k int) CatCol {
		v := make([]string, rows)
		for i := range v {
			v[i] = fmt.Sprintf("l%02d", i%k)
		}
		return catCol(name, v...)
	}
	nums := func(n int) []NumCol {
		out := make([]NumCol, n)
		for j := range out {
			out[j] = NumCol{Name: fmt.Sprintf("x%d", j), Vals: make([]float64, rows)}
			for i := range rows {
				out[j].Vals[i] = float64(i+j) + 0.5 // no zeros
			}
		}
		return out
	}
	train := make([]int, rows)
	for i := range train {
		train[i] = i
	}
	onehot := func(f *Frame) *Frame {
		out, err := (&OneHot{}).FitTransform(f, &Context{Train: train})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	std := func(f *Frame) *Frame {
		out, err := (&Standardize{}).FitTransform(f, &Context{Train: train})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	halfZero := nums(3)
	for j := range halfZero {
		for i := 0; i < rows; i += 2 {
			halfZero[j].Vals[i] = 0
		}
	}
	for _, tt := range []struct {
		name string
		f    *Frame
		csr  bool
	}{
		// 12 non-zeros a row in 10 + 4 + 40 columns: 0.22.
		{"covertype-like", onehot(&Frame{Rows: rows, Num: nums(10), Cat: []CatCol{levels("w", 4), levels("s", 40)}}), true},
		// The same standardized after the one-hot: no zeros left.
		{"covertype-like, then standardize", std(onehot(&Frame{Rows: rows, Num: nums(10), Cat: []CatCol{levels("w", 4), levels("s", 40)}})), false},
		// 11 in 14: 0.79.
		{"mostly numeric", onehot(&Frame{Rows: rows, Num: nums(10), Cat: []CatCol{levels("w", 4)}}), false},
		// 2 in 6: 0.33, at the threshold or above.
		{"two 3-level columns", onehot(&Frame{Rows: rows, Cat: []CatCol{levels("a", 3), levels("b", 3)}}), false},
		// 2 in 8: 0.25.
		{"two 4-level columns", onehot(&Frame{Rows: rows, Cat: []CatCol{levels("a", 4), levels("b", 4)}}), true},
		// Numeric columns half zeros: 0.5.
		{"half zeros", &Frame{Rows: rows, Num: halfZero}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.f.Sparse) != 0 {
				t.Fatalf("onehot made %d sparse blocks of a few indicators", len(tt.f.Sparse))
			}
			m, fn, err := tt.f.Design()
			names := fn.List()
			if err != nil {
				t.Fatal(err)
			}
			if (m.CSR != nil) != tt.csr {
				t.Fatalf("design CSR %v, want %v", m.CSR != nil, tt.csr)
			}
			if r, c := m.Dims(); r != rows || c != len(tt.f.Num) || len(names) != c {
				t.Fatalf("design %d×%d with %d names, want %d×%d", r, c, len(names), rows, len(tt.f.Num))
			}
			d := m.AsDense().Dense
			for j, col := range tt.f.Num {
				if names[j] != col.Name {
					t.Errorf("column %d is %s, want %s", j, names[j], col.Name)
				}
				for i, v := range col.Vals {
					if d.At(i, j) != v {
						t.Fatalf("%s, row %d: %v, want %v", col.Name, i, d.At(i, j), v)
					}
				}
			}
		})
	}
}

// TestOneHotLastSameDesign: as a pipeline's last step (Context.Last),
// onehot "auto" makes a sparse block of the indicators of a design bound
// to be under SparseDensity, where elsewhere it makes dense columns; the
// design is the same matrix either way, in the same form, names and
// column order. After a sparse block (whose columns would then come
// before the indicators) or for a denser design it keeps dense columns.
func TestOneHotLastSameDesign(t *testing.T) {
	const rows = 30
	cat := func(name string, k int) CatCol {
		v := make([]string, rows)
		for i := range v {
			if i%11 != 5 { // some missing
				v[i] = fmt.Sprintf("l%02d", (i*7)%k)
			}
		}
		return catCol(name, v...)
	}
	num := func(name string) NumCol {
		c := NumCol{Name: name, Vals: make([]float64, rows)}
		for i := range c.Vals {
			c.Vals[i] = float64(i%5) - 2 // a zero every fifth row
		}
		return c
	}
	block := &sparse.CSR{Rows: rows, Cols: 3, Indptr: make([]int64, rows+1)}
	for i := range rows {
		block.Indices, block.Values = append(block.Indices, int32(i%3)), append(block.Values, 2)
		block.Indptr[i+1] = int64(i + 1)
	}
	train := make([]int, 20)
	for i := range train {
		train[i] = i
	}
	for _, tt := range []struct {
		name   string
		f      *Frame
		sparse bool // the last step makes a sparse block
	}{
		{"covertype-like", &Frame{Rows: rows, Num: []NumCol{num("a"), num("b")}, Cat: []CatCol{cat("w", 4), cat("s", 12)}}, true},
		{"dense enough", &Frame{Rows: rows, Num: []NumCol{num("a"), num("b"), num("c")}, Cat: []CatCol{cat("w", 3)}}, false},
		{"after a sparse block", &Frame{Rows: rows, Num: []NumCol{num("a")}, Cat: []CatCol{cat("s", 12)}, Sparse: []SparseBlock{{Names: []string{"h0", "h1", "h2"}, M: block}}}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var designs [2]matrix.Matrix
			var names [2][]string
			for k, last := range []bool{false, true} {
				out, err := (&OneHot{}).FitTransform(tt.f, &Context{Train: train, Last: last})
				if err != nil {
					t.Fatal(err)
				}
				if made := len(out.Sparse) > len(tt.f.Sparse); made != (last && tt.sparse) {
					t.Errorf("last %v: sparse block %v", last, made)
				}
				var fn FeatureNames
				if designs[k], fn, err = out.Design(); err != nil {
					t.Fatal(err)
				}
				names[k] = fn.List()
			}
			if !reflect.DeepEqual(designs[0], designs[1]) || !reflect.DeepEqual(names[0], names[1]) {
				t.Errorf("designs differ:\n%+v %v\n%+v %v", designs[0].CSR, names[0], designs[1].CSR, names[1])
			}
			if tt.sparse && designs[1].CSR == nil {
				t.Error("the design of a sparse block is dense")
			}
		})
	}
}
