package outcome

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// diagonal returns the k×k confusion matrix of k test rows all predicted
// right but row 0, predicted as class k−1.
func diagonal(k int) Confusion {
	c := make(Confusion, k)
	for i := range c {
		c[i] = make([]int, k)
		c[i][i] = 1
	}
	c[0][0], c[0][k-1] = 0, 1
	return c
}

// TestConfusionJSON: a confusion matrix of fewer than 256 classes is
// written as before (K rows of K counts); a larger one lists its
// non-zero counts only, so that a fold of K classes and K test rows
// takes O(K) bytes, not O(K²) (2000 classes: 40 kB, not 8 MB; the campaign's 10,000 classes of one row
// each: 10⁸ entries a fold, a cell file of gigabytes, a run that never
// finished). Both forms read back to the same matrix.
func TestConfusionJSON(t *testing.T) {
	for _, tt := range []struct {
		k       int
		want    string // the JSON's start
		maxSize int
	}{
		{3, "[[0,0,1],[0,1,0],[0,0,1]]", 30},
		{255, "[[0,0,0,", 2*255*255 + 2*255 + 2},
		{256, `{"classes":256,"counts":[[0,255,1],[1,1,1],[2,2,1],`, 256 * 14},
		{2000, `{"classes":2000,"counts":[[0,1999,1],[1,1,1],`, 2000 * 20},
	} {
		c := diagonal(tt.k)
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), tt.want) || len(b) > tt.maxSize {
			t.Errorf("%d classes: %d bytes starting %.60s, want at most %d starting %s", tt.k, len(b), b, tt.maxSize, tt.want)
		}
		var back Confusion
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%d classes: %v", tt.k, err)
		}
		if !reflect.DeepEqual(back, c) {
			t.Errorf("%d classes: the matrix read back differs", tt.k)
		}
	}
}

// TestConfusionJSONErrors: a sparse entry outside the matrix is refused,
// naming it.
func TestConfusionJSONErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"classes":2,"counts":[[0,0,1],[2,0,1]]}`, "confusion matrix: entry 1: row 2, column 0 outside the 2×2 matrix"},
		{`{"classes":2,"counts":[[0,-1,1]]}`, "confusion matrix: entry 0: row 0, column -1 outside the 2×2 matrix"},
		{`{"classes":-1,"counts":[]}`, "confusion matrix: -1 classes"},
	} {
		var c Confusion
		if err := json.Unmarshal([]byte(tt.in), &c); err == nil || err.Error() != tt.want {
			t.Errorf("%s: error %v, want %q", tt.in, err, tt.want)
		}
	}
}
