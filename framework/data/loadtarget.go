package data

import (
	"slices"
	"strings"
)

// Target names the target a dataset binder reads with its files
// (LoadTarget): Class, the class column of a multiclass dataset, or else
// the 0/1 label columns of a multi-label one: Labels, then each column
// whose name starts with LabelsPrefix (when not ""), in file order. With
// none of the three, the label columns are those a multi-label ARFF file
// declares (Table.Labels).
type Target struct {
	Class        string
	Labels       []string
	LabelsPrefix string
}

// Bound are a dataset's files (Load's) with its target read from the rows
// the dataset holds (Rows: the training file's table, or with a test file
// the training rows followed by the test rows, TestFile.Both).
type Bound struct {
	*Files
	Rows *Table
	// Class is the class column of a multiclass dataset
	// (Table.ClassTarget), ClassErr what kept it from being read.
	Class    *ClassTarget
	ClassErr error
	// LabelNames are the label columns of a multi-label dataset (see
	// Target), LabelValues the values of each (Table.LabelColumn) up to
	// the first that could not be read, LabelErr its error.
	LabelNames  []string
	LabelValues [][]float64
	LabelErr    error
}

// LoadTarget reads a dataset's files in one call (Load) and then its
// target (see Target) from the rows it holds. Its result is nil when Load
// returns no files; its error is Load's.
func LoadTarget(path, testPath string, opt Options, target Target) (*Bound, error) {
	f, err := Load(path, testPath, opt)
	if f == nil {
		return nil, err
	}
	b := &Bound{Files: f, Rows: f.Table}
	if f.Test != nil {
		b.Rows = f.Test.Both
	}
	if err != nil {
		return b, err
	}
	if target.Class != "" {
		b.Class, b.ClassErr = b.Rows.ClassTarget(target.Class)
		return b, nil
	}
	b.LabelNames = labelNames(b.Rows, target)
	for _, name := range b.LabelNames {
		vals, err := b.Rows.LabelColumn(name)
		if err != nil {
			b.LabelErr = err
			break
		}
		b.LabelValues = append(b.LabelValues, vals)
	}
	return b, nil
}

// labelNames returns the label columns of a multi-label dataset of rows
// t that target names (see Target).
func labelNames(t *Table, target Target) []string {
	if len(target.Labels) == 0 && target.LabelsPrefix == "" {
		return t.Labels
	}
	names := slices.Clone(target.Labels)
	if target.LabelsPrefix != "" {
		for _, col := range t.Columns {
			if strings.HasPrefix(col.Name, target.LabelsPrefix) {
				names = append(names, col.Name)
			}
		}
	}
	return names
}
