package data

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Format is a data file format Read accepts.
type Format struct {
	// Name is the format's short name.
	Name string
	// Extensions are the file name endings that select the format, lower
	// case, before an optional ".gz" (gzip).
	Extensions []string
	// Description says what the format holds and how its target is found.
	Description string

	read  func(path string, opt Options) (*Table, error)
	delim rune // the default delimiter of a delimited text format, else 0
}

// Formats returns the formats Read accepts, in the order it tries their
// extensions.
func Formats() []Format {
	return []Format{
		{Name: "csv", Extensions: []string{".csv"}, read: ReadCSV, delim: ',',
			Description: "comma-separated values with a header row (another delimiter with the dataset's delimiter attribute, such as delimiter = \";\"); quoted fields as RFC 4180"},
		{Name: "tsv", Extensions: []string{".tsv"}, read: ReadCSV, delim: '\t',
			Description: "tab-separated values with a header row"},
		{Name: "arff", Extensions: []string{".arff"}, read: ReadARFF,
			Description: "Weka ARFF, dense or sparse rows; nominal attributes are categorical; MEKA/MULAN multi-label files (-C n) name their labels"},
		{Name: "libsvm", Extensions: []string{".libsvm", ".svm", ".svmlight", ".txt"}, read: ReadLIBSVM,
			Description: "LIBSVM/SVMlight sparse rows \"label index:value ...\"; comma-separated labels make a multi-label file"},
	}
}

// formatOf returns the format path's extension selects.
func formatOf(path string) (Format, error) {
	ext := filepath.Ext(strings.TrimSuffix(strings.ToLower(path), ".gz"))
	var all []string
	for _, f := range Formats() {
		if slices.Contains(f.Extensions, ext) {
			return f, nil
		}
		all = append(all, f.Extensions...)
	}
	return Format{}, fmt.Errorf("%w: unknown file extension %q (want %s, optionally followed by .gz)", ErrUnsupported, ext, strings.Join(all, ", "))
}

// FormatName returns the name of the format that path's extension
// selects (see Formats), as Read chooses it, or "" when none does.
func FormatName(path string) string {
	f, err := formatOf(path)
	if err != nil {
		return ""
	}
	return f.Name
}
