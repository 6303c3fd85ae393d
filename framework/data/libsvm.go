package data

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/polyclass/polyclass/framework/sparse"
)

// defaultMaxFeatures bounds LIBSVM feature indices when
// Options.MaxFeatures is 0.
const defaultMaxFeatures = 1 << 22

// ReadLIBSVM loads a LIBSVM/SVMlight file; a path ending in .gz is
// gunzipped. See ParseLIBSVM for the format.
func ReadLIBSVM(path string, opt Options) (*Table, error) {
	s, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return parseLIBSVM(s, path, opt)
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
	s, err := readAll(r, source)
	if err != nil {
		return nil, err
	}
	return parseLIBSVM(s, source, opt)
}

func parseLIBSVM(s, source string, opt Options) (*Table, error) {
	ov, err := opt.resolve()
	if err != nil {
		return nil, &ParseError{Source: source, Err: err}
	}
	maxF := opt.MaxFeatures
	if maxF == 0 {
		maxF = defaultMaxFeatures
	}
	maxF = min(maxF, math.MaxInt32)
	s = strings.TrimPrefix(s, "\uFEFF")
	lr := lineReader{s: s}
	perr := func(line int, column string, err error) error {
		return &ParseError{Source: source, Line: line, Column: column, Err: err}
	}
	var (
		indptr  = []int64{0}
		indices []int32
		values  []float64
		labels  []string // all labels, flat
		labPtr  = []int{0}
		lines   []int
		multi   bool
		ncols   int
	)
	for {
		l, ok := lr.next()
		if !ok {
			break
		}
		if i := strings.IndexByte(l, '#'); i >= 0 {
			l = l[:i]
		}
		tok := 0
		prev := 0
		for {
			l = strings.TrimLeft(l, " \t")
			if l == "" {
				break
			}
			end := strings.IndexAny(l, " \t")
			if end < 0 {
				end = len(l)
			}
			w := l[:end]
			l = l[end:]
			tok++
			colon := strings.IndexByte(w, ':')
			if tok == 1 && colon < 0 {
				// The label(s).
				n := 0
				for _, lab := range strings.Split(w, ",") {
					if lab == "" {
						return nil, perr(lr.line, "label", fmt.Errorf("%w: empty label in %q", ErrSyntax, clip(w)))
					}
					labels = append(labels, lab)
					n++
				}
				if n != 1 {
					multi = true
				}
				continue
			}
			if tok == 1 {
				multi = true // no label on this line
			}
			if colon < 0 {
				return nil, perr(lr.line, "", fmt.Errorf("%w: token %d %q is not index:value", ErrSyntax, tok, clip(w)))
			}
			if w[:colon] == "qid" {
				return nil, perr(lr.line, "", fmt.Errorf("%w: qid (ranking) is not supported", ErrUnsupported))
			}
			idx, err := strconv.Atoi(w[:colon])
			if err != nil || idx < 1 || idx > maxF {
				return nil, perr(lr.line, "", fmt.Errorf("%w: token %d %q: feature index must be an integer in [1, %d]", ErrSyntax, tok, clip(w), maxF))
			}
			if idx <= prev {
				return nil, perr(lr.line, "f"+strconv.Itoa(idx), fmt.Errorf("%w: token %d: feature index %d not greater than previous %d", ErrSyntax, tok, idx, prev))
			}
			v, kind := parseNum(w[colon+1:])
			ok := kind == numFinite
			if !ok || w[colon+1:] != strings.TrimSpace(w[colon+1:]) {
				return nil, perr(lr.line, "f"+strconv.Itoa(idx), fmt.Errorf("%w: token %d: value %q", ErrNotNumeric, tok, clip(w[colon+1:])))
			}
			prev = idx
			ncols = max(ncols, idx)
			indices = append(indices, int32(idx-1))
			values = append(values, v)
		}
		if tok == 0 {
			continue // blank or comment line
		}
		indptr = append(indptr, int64(len(values)))
		labPtr = append(labPtr, len(labels))
		lines = append(lines, lr.line)
	}
	rows := len(indptr) - 1
	if rows == 0 {
		return nil, perr(0, "", fmt.Errorf("%w: no data lines", ErrEmpty))
	}

	t := &Table{Source: source, NumRows: rows}
	if !multi {
		if err := ov.unknown(func(n string) bool { return n == "label" }); err != nil {
			return nil, perr(0, "", err)
		}
		if k := ov.kind["label"]; k != ovIgnore {
			b := newBuilder("label", modeCat, rows)
			if k == ovNumeric {
				b = newBuilder("label", modeNum, rows)
			}
			for i, lab := range labels {
				if err := b.add(lab, isMissing(lab, opt.Missing)); err != nil {
					return nil, &ParseError{Source: source, Line: lines[i], Column: "label", Col: 1, Err: err}
				}
			}
			t.Columns = append(t.Columns, b.column())
		}
	} else {
		distinct := map[string]int{}
		var names []string
		for _, lab := range labels {
			if _, ok := distinct[lab]; !ok {
				distinct[lab] = 0
				names = append(names, lab)
			}
		}
		sortLabels(names)
		for j, n := range names {
			distinct[n] = j
		}
		cols := make(map[string]bool, len(names))
		for _, n := range names {
			cols["label_"+n] = true
		}
		if err := ov.unknown(func(n string) bool { return cols[n] }); err != nil {
			return nil, perr(0, "", err)
		}
		has := make([][]bool, len(names))
		for j := range has {
			has[j] = make([]bool, rows)
		}
		for i := 0; i < rows; i++ {
			for _, lab := range labels[labPtr[i]:labPtr[i+1]] {
				j := distinct[lab]
				if has[j][i] {
					return nil, &ParseError{Source: source, Line: lines[i], Column: "label_" + lab, Err: fmt.Errorf("%w: label %q listed twice", ErrSyntax, lab)}
				}
				has[j][i] = true
			}
		}
		for j, n := range names {
			name := "label_" + n
			mode := modeNum
			switch ov.kind[name] {
			case ovIgnore:
				continue
			case ovCategorical:
				mode = modeCat
			}
			b := newBuilder(name, mode, rows)
			for i := 0; i < rows; i++ {
				v := "0"
				if has[j][i] {
					v = "1"
				}
				if err := b.add(v, false); err != nil {
					return nil, &ParseError{Source: source, Line: lines[i], Column: name, Err: err}
				}
			}
			t.Columns = append(t.Columns, b.column())
		}
	}
	t.Sparse = &sparse.CSR{Rows: rows, Cols: ncols, Indptr: indptr, Indices: indices, Values: values}
	if indices == nil {
		t.Sparse.Indices = []int32{}
		t.Sparse.Values = []float64{}
	}
	t.SparseNames = make([]string, ncols)
	for j := range t.SparseNames {
		t.SparseNames[j] = "f" + strconv.Itoa(j+1)
	}
	return t, nil
}

// sortLabels orders labels numerically when all are numbers, else by text.
func sortLabels(names []string) {
	vals := make(map[string]float64, len(names))
	for _, n := range names {
		v, kind := parseNum(n)
		ok := kind == numFinite
		if !ok {
			sort.Strings(names)
			return
		}
		vals[n] = v
	}
	sort.SliceStable(names, func(a, b int) bool {
		va, vb := vals[names[a]], vals[names[b]]
		if va != vb {
			return va < vb
		}
		return names[a] < names[b]
	})
}
