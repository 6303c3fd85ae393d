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
	return LocateRows(path, opt, []int{row}, name)[row]
}

// LocateRows returns the positions (as Locate's) of data rows rows
// (0-based) in column name of file path, reading the file once; a row it
// does not know is absent from the map (the zero Position).
func LocateRows(path string, opt Options, rows []int, name string) map[int]Position {
	out := map[int]Position{}
	f, err := formatOf(path)
	if err != nil || f.delim == 0 || len(rows) == 0 {
		return out
	}
	if opt.Delimiter == 0 {
		opt.Delimiter = f.delim
	}
	in, _, err := openFile(path, nil)
	if err != nil {
		return out
	}
	defer in.Close()
	cr, _, err := newCSVReader(in, opt)
	if err != nil {
		return out
	}
	header, err := cr.Read()
	col := slices.Index(header, name) // the names of a file Read accepts are distinct
	if err != nil || col < 0 {
		return out
	}
	want := map[int]bool{}
	for _, r := range rows {
		want[r] = true
	}
	last := slices.Max(rows)
	for r := 0; r <= last; r++ {
		rec, err := cr.Read()
		if err != nil || len(rec) <= col {
			return out
		}
		if want[r] {
			line, b := cr.FieldPos(col)
			out[r] = Position{Line: line, Byte: b}
		}
	}
	return out
}
