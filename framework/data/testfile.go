package data

import (
	"errors"
	"fmt"

	"github.com/polyclass/polyclass/internal/regfile"
)

// ErrTestIsTrain is a test file that is the training file itself: every
// model would be scored on the rows it was fitted on.
var ErrTestIsTrain = errors.New("data: the test file is the training file")

// ErrTestCopiesTrain is a test file that is another file but holds the
// training file's rows, row for row: a copy of it (perhaps gzipped, or
// written another way), which would score every model on the rows it was
// fitted on as the training file itself would. It is an ErrTestIsTrain.
var ErrTestCopiesTrain = fmt.Errorf("%w: its rows are the training file's", ErrTestIsTrain)

// TestFitError is a test file that does not fit its training file
// (Append's error).
type TestFitError struct{ Err error }

func (e *TestFitError) Error() string { return e.Err.Error() }

// Unwrap returns Append's error.
func (e *TestFitError) Unwrap() error { return e.Err }

// TestFile is a dataset's test file read after its training file.
type TestFile struct {
	// Table is the test file's rows alone (its warnings); Both the
	// training rows followed by them.
	Table, Both *Table
	// SHA256 is the digest of the test file's bytes as parsed
	// (ReadHashed).
	SHA256 string
	// Copies counts the test rows equal in every column to a row of the
	// training file (set once the two files were joined). When it is not
	// 0, FirstCopy is the first of them (0-based among the test rows) and
	// CopyOf the first training row it equals.
	Copies, FirstCopy, CopyOf int
}

// ReadTest reads testPath, the test file of the training file path read
// as train, with the training file's options, and joins the two
// (Append). It fails with ErrTestIsTrain when testPath names the
// training file (a path that cannot be read is not: Read reports it),
// ErrTestCopiesTrain when its rows are the training file's, row for row
// (compared as parsed, so a copy gzipped or written another way is one
// too), a *TestFitError when the test file's columns do not fit the training
// file's, and ReadHashed's error otherwise; once the test file
// was read, the TestFile holds its table even with an error. The two
// files together may hold MaxRows rows and MaxValues values: reading
// the test file stops at its row that passes them.
func ReadTest(path, testPath string, train *Table, opt Options) (*TestFile, error) {
	if same, _ := regfile.Same(path, testPath); same {
		return nil, ErrTestIsTrain
	}
	// The test file's rows join the training file's: the bounds are of
	// the two together.
	opt.bounds = opt.limits()
	opt.bounds.trainRows, opt.bounds.trainValues = train.NumRows, valueCount(train)
	test, sum, err := ReadHashed(testPath, opt)
	if err != nil {
		return nil, err
	}
	tf := &TestFile{Table: test, SHA256: sum}
	if tf.Both, err = Append(train, test); err != nil {
		return tf, &TestFitError{Err: err}
	}
	var same bool
	same, tf.Copies, tf.FirstCopy, tf.CopyOf = rowCopies(tf.Both, train.NumRows)
	if same {
		return tf, ErrTestCopiesTrain
	}
	return tf, nil
}
