package data

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/polyclass/polyclass/framework/safetext"
	"github.com/polyclass/polyclass/framework/sparse"
)

// defaultMaxFeatures bounds LIBSVM feature indices when
// Options.MaxFeatures is 0.
const defaultMaxFeatures = 1 << 22

// ReadLIBSVM loads a LIBSVM/SVMlight file; a path ending in .gz is
// gunzipped. See ParseLIBSVM for the format.
func ReadLIBSVM(path string, opt Options) (*Table, error) {
	return readPath(path, opt, parseLIBSVM)
}

// ParseLIBSVM reads LIBSVM text from r; source names the input in errors.
//
// Each non-blank line is "label idx:val idx:val …" with 1-based, strictly
// increasing feature indices (at most Options.MaxFeatures) and finite
// values; '#' starts a comment. The features go to Table.Sparse (column j
// is index j+1, named "f<j+1>", with as many columns as the largest index).
//
// When every line has exactly one label, the labels form one categorical
// column "label" whose levels keep the label text ("+1", "-1", "3").
// Otherwise the file is multi-label: labels are comma-separated
// ("l1,l2 idx:val …"; a line may have none) and each distinct label l
// becomes a numeric 0/1 column "label_l", ordered numerically when all
// labels are numbers, else by text. Options may drop or retype these
// columns. In a single-label file a label equal to an Options.Missing
// marker is missing.
func ParseLIBSVM(r io.Reader, source string, opt Options) (*Table, error) {
	return parseLIBSVM(r, source, opt, 0)
}

// libsvmReader holds what has been read of a LIBSVM text: the sparse
// features, and the labels of each row (labels[labPtr[i]:labPtr[i+1]]).
type libsvmReader struct {
	source  string
	maxF    int
	indptr  []int64
	indices []int32
	values  []float64
	ncols   int
	labels  []string
	labPtr  []int
	lines   []int // the line of each row
	multi   bool  // some line has no label or several
	bounds  bounds
}

// parseLIBSVM is ParseLIBSVM for an input of about size bytes (0:
// unknown).
func parseLIBSVM(in io.Reader, source string, opt Options, size int64) (*Table, error) {
	lr, ov, err := readLines(in, source, opt, size)
	if err != nil {
		return nil, err
	}
	maxF := min(cmp.Or(opt.MaxFeatures, defaultMaxFeatures), math.MaxInt32)
	r := &libsvmReader{source: source, maxF: maxF, indptr: []int64{0}, labPtr: []int{0}, bounds: opt.limits()}
	for l, ok := lr.next(); ok; l, ok = lr.next() {
		if err := r.readLine(l, lr.line); err != nil {
			return nil, err
		}
	}
	if err := lr.failure(source); err != nil {
		return nil, err
	}
	rows := len(r.lines)
	if rows == 0 {
		return nil, &ParseError{Source: source, Err: fmt.Errorf("%w: no data lines", ErrEmpty)}
	}
	t := &Table{Source: source, NumRows: rows}
	if r.multi {
		if w := r.canonicalLabels(); w != nil {
			t.Warnings = append(t.Warnings, w)
		}
		t.Columns, err = r.labelColumns(ov)
	} else {
		t.Columns, err = r.labelColumn(ov, opt.Missing)
	}
	if err != nil {
		return nil, err
	}
	t.Sparse = &sparse.CSR{Rows: rows, Cols: r.ncols, Indptr: r.indptr, Indices: nonNil(r.indices), Values: nonNil(r.values)}
	t.SparseNames = make([]string, r.ncols)
	for j := range t.SparseNames {
		t.SparseNames[j] = "f" + strconv.Itoa(j+1)
	}
	return t, nil
}

// readLine reads line number n, "labels index:value …"; a line blank up
// to its # comment holds no row.
func (r *libsvmReader) readLine(l string, n int) error {
	l, _, _ = strings.Cut(l, "#")
	perr := func(column string, err error) error {
		return &ParseError{Source: r.source, Line: n, Column: column, Err: err}
	}
	tok, prev := 0, 0
	for w, rest := cutWord(l); w != ""; w, rest = cutWord(rest) {
		tok++
		colon := strings.IndexByte(w, ':')
		if tok == 1 && colon < 0 {
			for lab := range strings.SplitSeq(w, ",") {
				if lab == "" {
					return perr("label", fmt.Errorf("%w: empty label in %s", ErrSyntax, safetext.Excerpt(w)))
				}
				r.labels = append(r.labels, strings.Clone(lab)) // not the whole line
			}
			r.multi = r.multi || strings.Contains(w, ",")
			continue
		}
		if tok == 1 {
			r.multi = true // no label on this line
		}
		if colon < 0 {
			return perr("", fmt.Errorf("%w: token %d %s is not index:value", ErrSyntax, tok, safetext.Excerpt(w)))
		}
		if w[:colon] == "qid" {
			return perr("", fmt.Errorf("%w: qid (ranking) is not supported", ErrUnsupported))
		}
		idx, err := strconv.Atoi(w[:colon])
		if err != nil || idx < 1 || idx > r.maxF {
			return perr("", fmt.Errorf("%w: token %d %s: feature index must be an integer in [1, %d]", ErrSyntax, tok, safetext.Excerpt(w), r.maxF))
		}
		if idx <= prev {
			return perr("f"+strconv.Itoa(idx), fmt.Errorf("%w: token %d: feature index %d not greater than previous %d", ErrSyntax, tok, idx, prev))
		}
		val := w[colon+1:]
		v, kind := parseNum(val)
		if kind != numFinite || val != strings.TrimSpace(val) {
			return perr("f"+strconv.Itoa(idx), fmt.Errorf("%w: token %d: value %s", ErrNotNumeric, tok, safetext.Excerpt(val)))
		}
		prev = idx
		r.ncols = max(r.ncols, idx)
		r.indices = append(r.indices, int32(idx-1))
		r.values = append(r.values, v)
	}
	if tok > 0 {
		if err := r.bounds.check(len(r.lines)+1, int64(len(r.values)+len(r.labels))); err != nil {
			return perr("", err)
		}
		r.indptr = append(r.indptr, int64(len(r.values)))
		r.labPtr = append(r.labPtr, len(r.labels))
		r.lines = append(r.lines, n)
	}
	return nil
}

// labelColumn returns the column "label" of a single-label file (none
// when it is ignored).
func (r *libsvmReader) labelColumn(ov overrides, missing []string) ([]Column, error) {
	if err := ov.unknown(func(n string) bool { return n == "label" }, []string{"label"}); err != nil {
		return nil, &ParseError{Source: r.source, Err: err}
	}
	mode := ov.mode("label", modeCat)
	if mode == modeIgnore {
		return nil, nil
	}
	b := newBuilder("label", mode, len(r.lines))
	for i, lab := range r.labels {
		if err := b.add(lab, isMissing(lab, missing)); err != nil {
			return nil, &ParseError{Source: r.source, Line: r.lines[i], Column: "label", Col: 1, Err: err}
		}
	}
	return []Column{b.column()}, nil
}

// labelColumns returns the 0/1 columns "label_l" of a multi-label file,
// one per distinct label l, ordered by sortLabels, less the ignored ones.
func (r *libsvmReader) labelColumns(ov overrides) ([]Column, error) {
	index := map[string]int{} // label → position in names
	for _, lab := range r.labels {
		index[lab] = 0
	}
	names := slices.Collect(maps.Keys(index))
	sortLabels(names)
	for j, n := range names {
		index[n] = j
	}
	known := func(col string) bool {
		lab, ok := strings.CutPrefix(col, "label_")
		_, has := index[lab]
		return ok && has
	}
	labelCols := make([]string, len(names))
	for j, n := range names {
		labelCols[j] = "label_" + n
	}
	if err := ov.unknown(known, labelCols); err != nil {
		return nil, &ParseError{Source: r.source, Err: err}
	}
	builders := make([]*colBuilder, len(names))
	for j, n := range names {
		if mode := ov.mode("label_"+n, modeNum); mode != modeIgnore {
			builders[j] = newBuilder("label_"+n, mode, len(r.lines))
		}
	}
	has := make([]bool, len(names)) // the labels of the current row
	for i, line := range r.lines {
		clear(has)
		for _, lab := range r.labels[r.labPtr[i]:r.labPtr[i+1]] {
			if has[index[lab]] {
				return nil, &ParseError{Source: r.source, Line: line, Column: "label_" + lab, Err: fmt.Errorf("%w: label %s listed twice", ErrSyntax, safetext.Excerpt(lab))}
			}
			has[index[lab]] = true
		}
		for j, b := range builders {
			if b == nil {
				continue
			}
			v := "0"
			if has[j] {
				v = "1"
			}
			if err := b.add(v, false); err != nil {
				return nil, &ParseError{Source: r.source, Line: line, Column: b.name, Err: err}
			}
		}
	}
	var cols []Column
	for _, b := range builders {
		if b != nil {
			cols = append(cols, b.column())
		}
	}
	return cols, nil
}

// canonicalLabels renames the labels of a multi-label file to the
// canonical form of their number (see Column.CanonicalClasses: whole
// numbers written in digits compared exactly, by their digits) when every
// label is a number and two labels are one number spelled differently
// ("1" and "+1", "1" and "1.0"), so that they give one column, and
// returns the warning (ErrNumberSpellings) that says so, located at the
// first line of a spelling that changed; else it returns nil.
func (r *libsvmReader) canonicalLabels() *ParseError {
	canon := numberForms(r.labels) // label → canonical form
	if canon == nil {
		return nil
	}
	spelled := map[string]string{} // canonical form → a label
	collide := false
	for lab, c := range canon {
		if prev, ok := spelled[c]; ok && prev != lab {
			collide = true
		}
		spelled[c] = lab
	}
	if !collide {
		return nil
	}
	var first *ParseError
	var changed []string
	seen := map[string]bool{}
	for i, line := range r.lines {
		for j := r.labPtr[i]; j < r.labPtr[i+1]; j++ {
			lab := r.labels[j]
			c := canon[lab]
			if c == lab {
				continue
			}
			if !seen[lab] {
				seen[lab] = true
				changed = append(changed, lab)
			}
			if first == nil {
				first = &ParseError{Source: r.source, Line: line, Column: "label"}
			}
			r.labels[j] = c
		}
	}
	asCanon := func(lab string) string { return safetext.Excerpt(lab) + " as " + safetext.Excerpt(canon[lab]) }
	first.Err = fmt.Errorf("%w: every label is a number and some are spelled in several ways, so labels are compared as numbers and named by each number's shortest form: %s", ErrNumberSpellings, safetext.Few(changed, safetext.Listed, asCanon))
	return first
}

// numberForms returns the canonical form of each of labels, as
// Column.CanonicalClasses names a column's levels, when every one is a
// number: the digits when all are whole numbers written in digits
// (canonicalIntegers), else the shortest form of the float64
// (canonicalNumber); nil when some label is not a number.
func numberForms(labels []string) map[string]string {
	var distinct []string
	canon := map[string]string{}
	for _, lab := range labels {
		if _, ok := canon[lab]; !ok {
			canon[lab] = ""
			distinct = append(distinct, lab)
		}
	}
	forms := canonicalIntegers(distinct)
	for i, lab := range distinct {
		if forms != nil {
			canon[lab] = forms[i]
			continue
		}
		c, ok := canonicalNumber(lab)
		if !ok {
			return nil
		}
		canon[lab] = c
	}
	return canon
}

// sortLabels orders labels numerically when all are numbers (exactly
// when all are whole numbers written in digits), else by text.
func sortLabels(names []string) {
	if ints := canonicalIntegers(names); ints != nil {
		key := make(map[string]string, len(names))
		for i, n := range names {
			key[n] = ints[i]
		}
		slices.SortFunc(names, func(a, b string) int {
			return cmp.Or(compareIntegers(key[a], key[b]), strings.Compare(a, b))
		})
		return
	}
	vals := make(map[string]float64, len(names))
	for _, n := range names {
		v, kind := parseNum(n)
		if kind != numFinite {
			slices.Sort(names)
			return
		}
		vals[n] = v
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(vals[a], vals[b]), strings.Compare(a, b))
	})
}

// compareIntegers compares two whole numbers in canonicalInteger's form
// by their value, at any size.
func compareIntegers(a, b string) int {
	negA, negB := strings.HasPrefix(a, "-"), strings.HasPrefix(b, "-")
	switch {
	case negA && !negB:
		return -1
	case negB && !negA:
		return 1
	case negA:
		return compareIntegers(b[1:], a[1:])
	}
	return cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b))
}
