// Package dataset binds a dataset block of an experiment to its files:
// it reads the dataset (and its test file), checks its target, features
// and classes, assigns its rows to folds under the cv block, and reports
// every problem as a diagnostic at the block's attributes (Bind).
package dataset

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/data"
	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/framework/safetext"
)

// Dataset is a loaded dataset with its target and fold assignments.
type Dataset struct {
	Config *config.Dataset
	Table  *data.Table
	SHA256 string
	// TestSHA256 is the digest of the test file, when the dataset has one:
	// Table then holds the training rows followed by the test rows.
	TestSHA256 string
	// Classes are the class names in index order (sorted), Labels the class
	// index of each row. For multi-label data Classes are the label names
	// and LabelMatrix the n × K 0/1 label matrix.
	Classes     []string
	Labels      []int
	MultiLabel  bool
	LabelMatrix *mat.Dense
	// Folds[r][i] is the fold of row i in repeat r; NumFolds folds each.
	Folds    [][]int
	NumFolds int
	// Features is the frame of feature columns (target left out).
	Features *encode.Frame
}

// K returns the number of classes.
func (d *Dataset) K() int { return len(d.Classes) }

// checker collects the diagnostics of binding one dataset block.
type checker struct {
	diags hcl.Diagnostics
	// classPlaces are the positions in the training file of the class
	// values its messages name while a dataset's target is checked
	// (data.Bound.ClassPlaces); testPlaces are those in the test file, by
	// row of it (data.Bound.TestPlaces).
	classPlaces, testPlaces map[int]data.Position
	// trainRows are the rows of the training file: with a test file,
	// the rows of the target from trainRows on are the test file's.
	trainRows int
}

// errorf records an error at rng, or about the whole file when rng is
// empty; its args are shown as render shows them.
func (ck *checker) errorf(rng hcl.Range, summary, format string, args ...any) {
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, render(args)...)}
	if rng.Filename != "" {
		d.Subject = &rng
	}
	ck.diags = append(ck.diags, d)
}

// warnf records a warning at rng; its args are shown as render shows
// them.
func (ck *checker) warnf(rng hcl.Range, summary, format string, args ...any) {
	ck.diags = append(ck.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: fmt.Sprintf(format, render(args)...), Subject: &rng})
}

// The text of a dataset's files that a message names (a class, a
// column's name) reaches errorf and warnf as one of these types, and is
// shown there, in one place (render), as safetext shows file text:
// escaped, and bounded.
type (
	// excerpt is a value read from a file, shown by safetext.Excerpt.
	excerpt string
	// shown is a name read from a file, shown by safetext.Show.
	shown string
	// listed is a list of names read from a file, at most
	// safetext.Listed of them shown (safetext.Few): as they are, or each
	// as an excerpt when excerpts is set.
	listed struct {
		names    []string
		excerpts bool
	}
)

// render returns the args of a message with each value of a file (the
// types excerpt, shown and listed) replaced by the text that shows it;
// other args are returned as they are.
func render(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case excerpt:
			out[i] = safetext.Excerpt(string(v))
		case shown:
			out[i] = safetext.Show(string(v))
		case listed:
			var show func(string) string
			if v.excerpts {
				show = safetext.Excerpt
			}
			out[i] = safetext.Few(v.names, safetext.Listed, show)
		default:
			out[i] = a
		}
	}
	return out
}
