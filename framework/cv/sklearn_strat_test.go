package cv

import (
	"fmt"
	"strings"
	"testing"
)

// TestSklearnStratifiedKFold compares with scikit-learn 1.2.1:
//
//	y = [2,0,1,1,0,2,2,2,1,0,0,0,1,2,2,1,1,0,2,1,0,0,2]
//	StratifiedKFold(4, shuffle=True, random_state=seed).split(X, y)
func TestSklearnStratifiedKFold(t *testing.T) {
	y := []int{2, 0, 1, 1, 0, 2, 2, 2, 1, 0, 0, 0, 1, 2, 2, 1, 1, 0, 2, 1, 0, 0, 2}
	for _, tc := range []struct {
		seed uint64
		want string
	}{
		{0, "3,0,2,1,3,1,0,3,1,1,3,0,2,1,0,3,0,2,2,0,1,2,2"},
		{7, "1,1,0,1,2,2,0,3,2,3,2,1,1,1,0,0,2,0,2,3,0,3,3"},
		{123456, "2,3,0,1,0,2,1,0,0,1,3,2,2,3,3,2,3,1,1,1,0,2,0"},
	} {
		folds, err := SklearnStratifiedKFold(y, 4, tc.seed)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Trim(strings.ReplaceAll(fmt.Sprint(folds), " ", ","), "[]")
		if got != tc.want {
			t.Errorf("seed %d:\n got %s\nwant %s", tc.seed, got, tc.want)
		}
	}
	if _, err := SklearnStratifiedKFold(y[:3], 4, 0); err == nil {
		t.Error("4 folds of 3 rows: no error")
	}
}
