package codes

import (
	"errors"
	"testing"
)

// TestCheckRows: every problem of a user code matrix comes in one error,
// in row order, then the row count; a good matrix gives none.
func TestCheckRows(t *testing.T) {
	for _, tc := range []struct {
		name string
		rows [][]float64
		k    int
		want string
	}{
		{"good", [][]float64{{1, -1}, {-1, 1}, {0, 1}}, 3, ""},
		{"entry, identical rows and row count", [][]float64{{1, -1, 1}, {1, 1, 2}, {1, -1, 1}, {-1, 1, -1}}, 3,
			"code matrix entry [1][2] = 2: entries must be -1, 0 or +1; code matrix rows 0 and 2 are identical: the two classes cannot be told apart; code matrix: 4 rows but the task has 3 classes"},
		{"two entries and a ragged row", [][]float64{{1, 3}, {0.5, 1}, {1}}, 3,
			"code matrix entry [0][1] = 3: entries must be -1, 0 or +1; code matrix entry [1][0] = 0.5: entries must be -1, 0 or +1; code matrix: row 2 has 1 entries, row 0 has 2"},
	} {
		err := CheckRows(tc.rows, tc.k)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: CheckRows = %q, want %q", tc.name, got, tc.want)
		}
		var me *MatrixError
		if tc.want != "" && !errors.As(err, &me) {
			t.Errorf("%s: error %v holds no *MatrixError", tc.name, err)
		}
	}
}
