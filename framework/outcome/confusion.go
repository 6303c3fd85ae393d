package outcome

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// SparseConfusionClasses is the number of classes from which a confusion
// matrix is written in its sparse form (see Confusion.MarshalJSON).
const SparseConfusionClasses = 256

// Confusion is a K×K confusion matrix: row = actual class, column =
// predicted class.
//
// In JSON, a matrix of fewer than SparseConfusionClasses classes is an
// array of K rows, K counts each. A larger one is an object
// {"classes": K, "counts": [[row, column, count], …]} listing only its
// non-zero counts, row by row: a fold's matrix holds at most its test
// rows' count of them, while the K² entries of the dense form made a
// cell file of 10,000 classes take gigabytes (10⁸ entries a fold) and
// the run that wrote it never finish. Both forms read back to the same
// matrix.
type Confusion [][]int

// sparseConfusion is the JSON form of a large Confusion.
type sparseConfusion struct {
	Classes int      `json:"classes"`
	Counts  [][3]int `json:"counts"`
}

// MarshalJSON writes c in its dense or sparse form (see Confusion).
func (c Confusion) MarshalJSON() ([]byte, error) {
	if len(c) < SparseConfusionClasses {
		return json.Marshal([][]int(c))
	}
	s := sparseConfusion{Classes: len(c), Counts: [][3]int{}}
	for i, row := range c {
		for j, n := range row {
			if n != 0 {
				s.Counts = append(s.Counts, [3]int{i, j, n})
			}
		}
	}
	return json.Marshal(s)
}

// UnmarshalJSON reads either form of a Confusion. A sparse entry outside
// the K×K matrix is an error naming it.
func (c *Confusion) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); len(t) == 0 || t[0] != '{' {
		return json.Unmarshal(b, (*[][]int)(c))
	}
	var s sparseConfusion
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s.Classes < 0 {
		return fmt.Errorf("confusion matrix: %d classes", s.Classes)
	}
	m := make(Confusion, s.Classes)
	cells := make([]int, s.Classes*s.Classes)
	for i := range m {
		m[i] = cells[i*s.Classes : (i+1)*s.Classes : (i+1)*s.Classes]
	}
	for e, t := range s.Counts {
		if t[0] < 0 || t[0] >= s.Classes || t[1] < 0 || t[1] >= s.Classes {
			return fmt.Errorf("confusion matrix: entry %d: row %d, column %d outside the %d×%d matrix", e, t[0], t[1], s.Classes, s.Classes)
		}
		m[t[0]][t[1]] += t[2]
	}
	*c = m
	return nil
}
