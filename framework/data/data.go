// Package data loads tabular classification datasets (CSV, ARFF, LIBSVM)
// into a column table: numeric columns as float64 with NaN for missing
// values, categorical columns as level codes with −1 for missing values,
// and, for LIBSVM input, a sparse numeric block.
//
// Loaders never invent values: a ragged row, a non-numeric value in a
// column declared numeric, a duplicate or unknown column name, or an empty
// input is an error of type *ParseError that names the file, line and
// column.
package data

import (
	"cmp"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/polyclass/polyclass/framework/safetext"
	"github.com/polyclass/polyclass/framework/sparse"
	"github.com/polyclass/polyclass/framework/suggest"
	"github.com/polyclass/polyclass/internal/regfile"
)

// Kind is the type of a column.
type Kind uint8

const (
	// Numeric columns hold float64 values; NaN marks a missing value.
	Numeric Kind = iota
	// Categorical columns hold codes into a list of levels; −1 marks a
	// missing value.
	Categorical
)

// String returns "numeric" or "categorical".
func (k Kind) String() string {
	switch k {
	case Numeric:
		return "numeric"
	case Categorical:
		return "categorical"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Column is one column of a Table. Exactly one of Num (Numeric) or
// Levels/Codes (Categorical) is in use.
type Column struct {
	Name string
	Kind Kind
	// Num holds the values of a Numeric column, NaN = missing. Every
	// non-missing value is finite.
	Num []float64
	// Levels holds the distinct values of a Categorical column, in order
	// of first appearance (for ARFF nominal attributes: in declared order,
	// including declared values that never occur).
	Levels []string
	// Codes holds, per row, an index into Levels, −1 = missing.
	Codes []int32
}

// MissingCount returns the number of missing values in the column.
func (c *Column) MissingCount() int {
	n := 0
	for _, v := range c.Codes {
		if v < 0 {
			n++
		}
	}
	for _, v := range c.Num {
		if v != v {
			n++
		}
	}
	return n
}

// Table is a loaded dataset: dense columns plus an optional sparse numeric
// block, all with NumRows rows.
type Table struct {
	// Source is the file path as given (or the source name passed to a
	// Parse function); it prefixes error messages.
	Source string
	// read holds the options Read read the file Source with; nil for a
	// table parsed from a reader or joined by Append.
	read    *Options
	NumRows int
	Columns []Column
	// Sparse is the numeric feature block of LIBSVM input, nil otherwise.
	// Column j of Sparse is named SparseNames[j] ("f1", "f2", … for the
	// 1-based LIBSVM feature indices).
	Sparse      *sparse.CSR
	SparseNames []string

	// Relation is the ARFF @relation name; "" for other formats.
	Relation string
	// HeaderLine is the line of the header row of a CSV or TSV file
	// (1-based); 0 for other formats.
	HeaderLine int
	// Warnings are findings of the reader that are not errors, each
	// located as a ParseError is: a column whose type was inferred as
	// categorical although most of its values are numbers
	// (ErrMixedColumn), at its first number written in a form the reader
	// does not take ("1 212,75", "14%") when such numbers make it mostly
	// numbers, else at its first value that is not a number; the
	// labels of a multi-label LIBSVM file that spell one number in
	// several ways (ErrNumberSpellings), at the first line that does;
	// with LoadTarget, a header row that looks like data (ErrHeaderData),
	// at the header line, and the values of a categorical column that
	// read as one but are spelled differently (ErrLevelSpellings), at the
	// first row of the second spelling.
	Warnings []*ParseError

	// LabelCount is the label count given by a MEKA/MULAN "-C n" option in
	// the ARFF relation name (e.g. 'emotions: -C -6'): n > 0 means the
	// first n attributes are labels, n < 0 the last −n; 0 means none given.
	LabelCount int
	// Labels holds the names of the label attributes that LabelCount
	// designates, in attribute order, leaving out ignored attributes.
	Labels []string
}

// Lookup returns the column named name.
func (t *Table) Lookup(name string) (*Column, bool) {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i], true
		}
	}
	return nil, false
}

// ColumnNames returns the names of t's columns in file order.
func (t *Table) ColumnNames() []string {
	var names []string
	for _, col := range t.Columns {
		names = append(names, col.Name)
	}
	return names
}

// Options controls how a file is read. The zero value reads a
// comma-separated file, infers column types and treats only empty fields
// (and '?' in ARFF) as missing.
type Options struct {
	// Delimiter separates CSV fields; 0 means ','. It must not be '"',
	// '\r', '\n' or an invalid rune.
	Delimiter rune
	// Categorical, Numeric and Ignore name columns to read as categorical
	// (keeping the original text as the level, e.g. integer codes), to
	// read as numeric (any other value is an error), or to drop. A name
	// that is not a column of the file, or that appears in two of the
	// lists, is an error.
	Categorical, Numeric, Ignore []string
	// Missing lists extra markers of a missing value besides the empty
	// field, e.g. "?" or "NA". Markers are compared with the whole field.
	Missing []string
	// MaxFeatures bounds the LIBSVM feature index; 0 means 1<<22.
	MaxFeatures int
	// MaxLineBytes bounds the length of a line (of a CSV, ARFF or
	// LIBSVM file); 0 means DefaultMaxLineBytes.
	MaxLineBytes int

	// bounds are the most rows and values read (MaxRows, MaxValues when
	// zero).
	bounds bounds
	// digest, when not nil, receives the bytes of the file as stored as
	// they are read (ReadHashed).
	digest io.Writer
	// afterParse, when not nil, is called with the file's path once the
	// file is parsed and before the rest of its bytes are hashed: a test
	// replaces the file there.
	afterParse func(path string)
}

// DefaultMaxLineBytes is the longest CSV line read by default: 8 MiB, room
// for some 800,000 numeric features in a row.
const DefaultMaxLineBytes = 8 << 20

// Sentinel causes wrapped by ParseError; test with errors.Is.
var (
	// ErrEmpty reports an input without header or without data rows.
	ErrEmpty = errors.New("no data")
	// ErrRagged reports a row whose field count differs from the header.
	ErrRagged = errors.New("wrong number of fields")
	// ErrNotNumeric reports a value that is not a finite number in a
	// column that must be numeric.
	ErrNotNumeric = errors.New("not a number")
	// ErrDuplicateColumn reports a column name given twice.
	ErrDuplicateColumn = errors.New("duplicate column name")
	// ErrUnknownColumn reports an option naming a column the file lacks.
	ErrUnknownColumn = errors.New("unknown column")
	// ErrSyntax reports malformed input.
	ErrSyntax = errors.New("syntax error")
	// ErrUnsupported reports a valid but unsupported construct, such as an
	// ARFF date attribute.
	ErrUnsupported = errors.New("unsupported")
	// ErrUndeclared reports an ARFF nominal value that is not declared.
	ErrUndeclared = errors.New("undeclared nominal value")
	// ErrOptions reports invalid Options.
	ErrOptions = errors.New("invalid options")
	// ErrEncoding reports text that is not valid UTF-8.
	ErrEncoding = errors.New("not valid UTF-8")
	// ErrControl reports a control character (NUL, ESC, ...) in a value.
	ErrControl = errors.New("control character")
	// ErrHiddenName reports a column name holding a character that does
	// not show, or changes how the text around it shows (safetext.Hidden):
	// it would show as another name than the file holds, as class labels
	// and label columns (ErrHiddenLabel, ErrHiddenLabelName) would.
	ErrHiddenName = errors.New("column name holds a bidi control or other invisible (default-ignorable) character")
	// ErrMixedColumn is the warning (Table.Warnings) of a column read as
	// categorical because of some text although most of its values are
	// numbers: often a typo in a numeric column, or numbers written with
	// a decimal comma, thousands separators, a unit sign, a unit word or
	// currency code, the minus sign U+2212 or a Fortran D exponent
	// ("1 212,75", "1,212.75", "14%", "$0.2", "1.4 cm", "USD 1.4",
	// "−0.2", "1.5D-03").
	ErrMixedColumn = errors.New("mostly numbers, read as categorical")
	// ErrNumberSpellings is the warning (Table.Warnings) of the labels
	// of a multi-label LIBSVM file that spell one number in several ways
	// ("1" and "+1"): they are read as one label, named by the number's
	// shortest form.
	ErrNumberSpellings = errors.New("labels spelled as one number")
	// ErrHeaderData is the warning (Table.Warnings, added by LoadTarget)
	// of a CSV or TSV file whose header row looks like data: every column
	// name but the target's is a number and the target's name is one of
	// its values, as when a file without a header line (UCI data) is
	// given a target named after a value of its first row.
	ErrHeaderData = errors.New("first row looks like data")
	// ErrChanged reports a file that grew after its reader reached its
	// end: its digest would hold bytes never parsed.
	ErrChanged = errors.New("changed while it was read; run again")
)

// ParseError is the error returned by every loader. It prints as
//
//	data/car.csv:1291:17: column "safety" (col 6): not a number: "hi"
//
// leaving out the parts that do not apply.
type ParseError struct {
	Source string // file path or source name
	Line   int    // 1-based line in the (decompressed) file; 0 if not tied to a line
	Byte   int    // 1-based byte column in Line where the field starts; 0 if unknown
	Column string // column name; "" if not tied to a column
	Col    int    // 1-based field or attribute position; 0 if not tied to one
	Err    error  // the cause, wrapping one of the Err* sentinels
}

// Error formats the error as source:line:byte: column "name" (col N):
// cause.
func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(cmp.Or(e.Source, "<input>"))
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Byte > 0 {
			fmt.Fprintf(&b, ":%d", e.Byte)
		}
	}
	b.WriteString(": ")
	switch {
	case e.Column != "" && e.Col > 0:
		fmt.Fprintf(&b, "column %s (col %d): ", safetext.Show(e.Column), e.Col)
	case e.Column != "":
		fmt.Fprintf(&b, "column %s: ", safetext.Show(e.Column))
	case e.Col > 0:
		fmt.Fprintf(&b, "col %d: ", e.Col)
	}
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

// Read loads path, choosing the format from its extension (after an
// optional ".gz", which means gzip); Formats lists them.
func Read(path string, opt Options) (*Table, error) {
	f, err := formatOf(path)
	if err != nil {
		return nil, &ParseError{Source: path, Err: err}
	}
	if opt.Delimiter == 0 {
		opt.Delimiter = f.delim
	}
	t, err := f.read(path, opt)
	if uc := (*UnknownColumnsError)(nil); errors.As(err, &uc) {
		uc.Format = f.Name
	}
	if t != nil {
		read := opt
		read.digest, read.afterParse = nil, nil
		t.read = &read
	}
	return t, err
}

// FileSHA256 returns the hex SHA-256 of the bytes of path as stored (for a
// .gz file, of the compressed bytes). It opens the file anew: Load and
// ReadTest record the digest of the bytes they parse (ReadHashed)
// instead, which a file replaced between two openings cannot part from
// its table.
func FileSHA256(path string) (string, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return "", fmt.Errorf("data: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("data: hash %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ReadHashed reads path as Read does and returns, with its table, the
// hex SHA-256 of the bytes it parsed, as stored (for a .gz file, of the
// compressed bytes): the file is opened once, and its bytes are hashed as
// the parser reads them, then the rest of them (those after the last row
// parsed) from the same descriptor. A file renamed over path while it is
// read cannot give one file's table beside another's digest.
func ReadHashed(path string, opt Options) (*Table, string, error) {
	h := sha256.New()
	opt.digest = h
	t, err := Read(path, opt)
	if err != nil {
		return t, "", err
	}
	return t, hex.EncodeToString(h.Sum(nil)), nil
}

// dataFile is a data file opened for reading: Read gives its text
// (gunzipped for a .gz file). When digest is not nil, the bytes of the
// file as stored go to it as they are read.
type dataFile struct {
	text   io.Reader
	f      *os.File
	digest io.Writer
	// ended is set once a read of the file as stored has met its end.
	ended *endReader
}

// endReader notes whether a read of r has returned io.EOF.
type endReader struct {
	r     io.Reader
	ended bool
}

// Read reads r, noting its end.
func (e *endReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		e.ended = true
	}
	return n, err
}

// Read reads the file's text.
func (d *dataFile) Read(p []byte) (int, error) { return d.text.Read(p) }

// Close closes the gzip reader, if any, and the file.
func (d *dataFile) Close() error {
	if c, ok := d.text.(io.Closer); ok {
		return c.Close()
	}
	return d.f.Close()
}

// rest writes to digest the bytes of the file as stored that reading its
// text has not yet read, from the same descriptor. Once reading met the
// file's end, any byte still there came after it (another program wrote
// it while the file was read, campaign 10's B02g): rest then fails with
// ErrChanged rather than hash bytes never parsed.
func (d *dataFile) rest(path string) error {
	if d.digest == nil {
		return nil
	}
	if d.ended.ended {
		var b [1]byte
		n, err := d.f.Read(b[:])
		if n > 0 {
			return fmt.Errorf("data: %s: %w", path, ErrChanged)
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("data: hash %s: %w", path, err)
		}
		return nil
	}
	if _, err := io.Copy(d.digest, d.f); err != nil {
		return fmt.Errorf("data: hash %s: %w", path, err)
	}
	return nil
}

// openFile opens path for reading, gunzipped when the name ends in .gz,
// and returns about how many bytes reading it gives: its size, times 4
// for a gzip file; 0 when unknown. The bytes of the file as stored go to
// digest, when it is not nil, as they are read (dataFile.rest adds those
// never read).
func openFile(path string, digest io.Writer) (*dataFile, int64, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("data: %w", err)
	}
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	ended := &endReader{r: f}
	var stored io.Reader = ended
	if digest != nil {
		stored = io.TeeReader(ended, digest)
	}
	if !strings.HasSuffix(strings.ToLower(path), ".gz") {
		if regfile.IsGzip(f) {
			f.Close()
			return nil, 0, &ParseError{Source: path, Err: fmt.Errorf("%w: the file holds gzip data (it starts with the bytes 1f 8b): name it %s.gz, or gunzip it", ErrSyntax, path)}
		}
		if enc := utf16Head(f); enc != "" {
			f.Close()
			return nil, 0, &ParseError{Source: path, Line: 1, Byte: 1, Err: fmt.Errorf("%w: the file is encoded as %s; a data file must be UTF-8: save it as UTF-8 (in the program that wrote it, or: iconv -f UTF-16 -t UTF-8 FILE > NEW)", ErrEncoding, enc)}
		}
		return &dataFile{text: stored, f: f, digest: digest, ended: ended}, size, nil
	}
	zr, err := gzip.NewReader(stored)
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("data: %s: gunzip: %w", path, err)
	}
	return &dataFile{text: gzipFile{zr, f}, f: f, digest: digest, ended: ended}, size * 4, nil
}

// utf16Head returns how file f is encoded when its first bytes are UTF-16
// (safetext.UTF16), else "".
func utf16Head(f *os.File) string {
	var head [64]byte
	n, _ := f.ReadAt(head[:], 0)
	return safetext.UTF16(head[:n])
}

// readPath parses the file path, gunzipped when the name ends in .gz,
// with parse, which is told about how many bytes it holds; with
// opt.digest, it then hashes the rest of the file's bytes (openFile).
func readPath(path string, opt Options, parse func(io.Reader, string, Options, int64) (*Table, error)) (*Table, error) {
	f, size, err := openFile(path, opt.digest)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := parse(f, path, opt, size)
	if err != nil {
		return t, err
	}
	if opt.afterParse != nil {
		opt.afterParse(path)
	}
	if err := f.rest(path); err != nil {
		return nil, err
	}
	return t, nil
}

// readLines returns a lineReader of r's lines, less a leading byte order
// mark, each at most opt.MaxLineBytes long, and resolves opt's lists.
func readLines(r io.Reader, source string, opt Options, size int64) (*lineReader, overrides, error) {
	ov, err := opt.resolve()
	if err != nil {
		return nil, ov, &ParseError{Source: source, Err: err}
	}
	maxLine := opt.MaxLineBytes
	if maxLine <= 0 {
		maxLine = DefaultMaxLineBytes
	}
	c := &countingReader{r: r}
	return &lineReader{in: newLineLimiter(newCRReader(c), maxLine), read: c, size: size}, ov, nil
}

// overrides is the resolved form of the Options name lists.
type overrides struct {
	kind  map[string]colMode // modeCat, modeNum or modeIgnore
	order []string           // names in option order, for error messages
}

// resolve checks the option lists and returns them as a map.
func (o *Options) resolve() (overrides, error) {
	ov := overrides{kind: make(map[string]colMode)}
	lists := [...]struct {
		label string
		names []string
	}{modeCat: {"Categorical", o.Categorical}, modeNum: {"Numeric", o.Numeric}, modeIgnore: {"Ignore", o.Ignore}}
	for k, l := range lists {
		for _, n := range l.names {
			prev, dup := ov.kind[n]
			switch {
			case !dup:
				ov.kind[n] = colMode(k)
				ov.order = append(ov.order, n)
			case prev != colMode(k):
				return ov, fmt.Errorf("%w: column %s is in both %s and %s", ErrOptions, safetext.Show(n), lists[prev].label, l.label)
			}
		}
	}
	if slices.Contains(o.Missing, "") {
		return ov, fmt.Errorf("%w: empty Missing marker (the empty field is always missing)", ErrOptions)
	}
	if o.MaxFeatures < 0 {
		return ov, fmt.Errorf("%w: negative MaxFeatures %d", ErrOptions, o.MaxFeatures)
	}
	return ov, nil
}

// mode returns how to build column name: as the Options lists say
// (modeIgnore: not at all), else as def.
func (ov overrides) mode(name string, def colMode) colMode {
	if m, ok := ov.kind[name]; ok {
		return m
	}
	return def
}

// OptionList names one of the column lists of Options.
type OptionList uint8

// The column lists of Options.
const (
	CategoricalList OptionList = iota // Options.Categorical
	NumericList                       // Options.Numeric
	IgnoreList                        // Options.Ignore
)

// String returns the list's field name in Options.
func (l OptionList) String() string {
	if names := [...]string{CategoricalList: "Categorical", NumericList: "Numeric", IgnoreList: "Ignore"}; int(l) < len(names) {
		return names[l]
	}
	return fmt.Sprintf("OptionList(%d)", uint8(l))
}

// UnknownColumn is a name that a list of Options gives and a file lacks.
type UnknownColumn struct {
	Name string
	List OptionList
	// Hint names the file's columns it may mean, as suggest.DidYouMean
	// words them (` (did you mean "x"?)`), or is "".
	Hint string
}

// UnknownColumnsError is the ErrUnknownColumn of a file whose columns
// lack names that the Options lists.
type UnknownColumnsError struct {
	// Unknown are the names the file lacks, in option order.
	Unknown []UnknownColumn
	// Columns are the file's columns, for suggestions.
	Columns []string
	// Format is the name of the file's format (FormatName), set by Read.
	Format string
}

// Error implements error.
func (e *UnknownColumnsError) Error() string {
	q := make([]string, len(e.Unknown))
	for i, u := range e.Unknown {
		q[i] = u.Name
	}
	return fmt.Sprintf("%v: options name %s, not in the file", ErrUnknownColumn, safetext.Few(q, safetext.Listed, safetext.Show))
}

// Unwrap returns ErrUnknownColumn.
func (e *UnknownColumnsError) Unwrap() error { return ErrUnknownColumn }

// unknown returns an *UnknownColumnsError naming the override names for
// which has is false, each with the columns it may mean, or nil; columns
// are the file's.
func (ov overrides) unknown(has func(string) bool, columns []string) error {
	lists := map[colMode]OptionList{modeCat: CategoricalList, modeNum: NumericList, modeIgnore: IgnoreList}
	e := &UnknownColumnsError{Columns: columns}
	for _, n := range ov.order {
		if !has(n) {
			e.Unknown = append(e.Unknown, UnknownColumn{n, lists[ov.kind[n]], suggest.DidYouMean(n, columns)})
		}
	}
	if len(e.Unknown) == 0 {
		return nil
	}
	return e
}

// isMissing reports whether field s is a missing value.
func isMissing(s string, markers []string) bool {
	return s == "" || slices.Contains(markers, s)
}
