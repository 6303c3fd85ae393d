package data

// Files are a dataset's files as Load reads them: the training file's
// table and the SHA-256 of the bytes it was parsed from (ReadHashed), and
// its test file when it has one.
type Files struct {
	Table  *Table
	SHA256 string
	// Test is the test file (ReadTest), nil without one or when it could
	// not be read.
	Test *TestFile
	// Copies counts, without a test file, the rows of Table that equal
	// another of its rows in every column, FirstCopy the first of them
	// and CopyOf the row it equals (Table.Duplicates): cross-validation
	// puts copies of a row on both sides of a split. With a test file
	// they are 0, −1, −1: Test counts its rows that copy training rows.
	Copies, FirstCopy, CopyOf int
}

// TestError is the failure of a dataset's test file (ReadTest's error),
// told from the training file's by the caller, which locates the two
// apart. Its text is Err's.
type TestError struct{ Err error }

// Error returns Err's text.
func (e *TestError) Error() string { return e.Err.Error() }

// Unwrap returns ReadTest's error.
func (e *TestError) Unwrap() error { return e.Err }

// Load reads a dataset's files in one call: the training file path with
// opt and the SHA-256 of the bytes parsed (ReadHashed), then, when
// testPath is not "", the test file with the same options (ReadTest). It
// returns nil and ReadHashed's error when the training file cannot be
// read; otherwise the files read so far, with ReadTest's error wrapped in
// a *TestError (Test then holds the test file's table once it was read).
func Load(path, testPath string, opt Options) (*Files, error) {
	t, sum, err := ReadHashed(path, opt)
	if err != nil {
		return nil, err
	}
	f := &Files{Table: t, SHA256: sum, FirstCopy: -1, CopyOf: -1}
	if testPath == "" {
		f.Copies, f.FirstCopy, f.CopyOf = t.Duplicates()
		return f, nil
	}
	if f.Test, err = ReadTest(path, testPath, t, opt); err != nil {
		return f, &TestError{Err: err}
	}
	return f, nil
}
