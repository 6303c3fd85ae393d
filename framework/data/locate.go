package data

import "slices"

// Position is where a value of a data file is: the 1-based line and byte
// column of its field. Zero fields mean unknown.
type Position struct {
	Line, Byte int
}

// Locate returns the position in file path (read as Read would, with opt)
// of data row row (0-based) in column name. It knows the positions of CSV
// and TSV files; for other formats, and when the file changed, it returns
// the zero Position.
func Locate(path string, opt Options, row int, name string) Position {
	f, err := formatOf(path)
	if err != nil || f.delim == 0 {
		return Position{}
	}
	if opt.Delimiter == 0 {
		opt.Delimiter = f.delim
	}
	in, _, err := openFile(path, nil)
	if err != nil {
		return Position{}
	}
	defer in.Close()
	cr, _, err := newCSVReader(in, opt)
	if err != nil {
		return Position{}
	}
	header, err := cr.Read()
	col := slices.Index(header, name) // the names of a file Read accepts are distinct
	if err != nil || col < 0 {
		return Position{}
	}
	for r := 0; ; r++ {
		if rec, err := cr.Read(); err != nil || len(rec) <= col {
			return Position{}
		} else if r == row {
			line, b := cr.FieldPos(col)
			return Position{Line: line, Byte: b}
		}
	}
}
