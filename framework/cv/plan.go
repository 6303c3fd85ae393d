package cv

import "fmt"

// Plan is where the folds of one dataset come from: a folds file (File,
// the dataset's own when Own is set, else the cv block's) or, without
// one, the cv block's Options, drawn afresh for each repeat.
type Plan struct {
	Options
	// FoldsSet: the cv block sets folds at all, which a folds file's
	// must then equal (CheckFoldsAgree, CheckDatasetFoldsAgree).
	FoldsSet bool
	// File is the folds file ("": none); Own, that it is the dataset's
	// own folds_file rather than the cv block's.
	File string
	Own  bool
}

// FileProblem is what is wrong with a folds file (FileError).
type FileProblem int

// The problems of a folds file.
const (
	// FileUnread: the file cannot be read or parsed (ReadFoldsFile).
	FileUnread FileProblem = iota
	// FileRows: it assigns another number of rows than the dataset has.
	FileRows
	// FileConflict: the cv block's folds differ from the file's, which
	// would silently win.
	FileConflict
)

// FileError is the failure of a plan's folds file, which the caller
// locates by its Problem: the folds file's attribute, or the cv block's
// folds for a FileConflict. Its text is Err's.
type FileError struct {
	Problem FileProblem
	Err     error
}

// Error returns Err's text.
func (e *FileError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *FileError) Unwrap() error { return e.Err }

// Assign returns the fold of each row of r in each repeat, and the
// folds of each repeat, for the dataset name: the one assignment of the
// plan's folds file, or the repeats that Options.Split draws from seed.
// The error is a *FileError for the folds file, else Split's
// *OptionError.
func (p Plan) Assign(r Rows, seed uint64, name string) ([][]int, int, error) {
	if p.File == "" {
		folds, err := p.Split(r, seed, name)
		if err != nil {
			return nil, 0, err
		}
		return folds, p.NumFolds(), nil
	}
	folds, k, err := ReadFoldsFile(p.File)
	if err != nil {
		return nil, 0, &FileError{Problem: FileUnread, Err: err}
	}
	if len(folds) != r.N {
		return nil, 0, &FileError{Problem: FileRows, Err: fmt.Errorf("%s assigns %d rows, dataset %q has %d", p.File, len(folds), name, r.N)}
	}
	err = CheckFoldsAgree(p.Folds, p.FoldsSet, p.File, k)
	if p.Own {
		err = CheckDatasetFoldsAgree(p.Folds, p.FoldsSet, name, p.File, k)
	}
	if err != nil {
		return nil, 0, &FileError{Problem: FileConflict, Err: err}
	}
	return [][]int{folds}, k, nil
}
