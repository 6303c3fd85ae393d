package cv

import (
	"reflect"
	"strings"
	"testing"
)

func TestHoldout(t *testing.T) {
	// 10 rows of class 0, 6 of class 1, 4 of class 2 (n = 20).
	labels := make([]int, 20)
	for i := range labels {
		switch {
		case i >= 16:
			labels[i] = 2
		case i >= 10:
			labels[i] = 1
		}
	}
	for _, tc := range []struct {
		name   string
		labels []int
		frac   float64
		test   int
		per    map[int]int // test rows per class
	}{
		// ceil(0.25·20) = 5: shares 2.5, 1.5, 1.0 → 2, 1, 1 and one more to
		// the larger of the two remainders 0.5 (class 0).
		{"stratified", labels, 0.25, 5, map[int]int{0: 3, 1: 1, 2: 1}},
		// ceil(0.3·20) = 6: shares 3, 1.8, 1.2 → 3, 2, 1.
		{"stratified 0.3", labels, 0.3, 6, map[int]int{0: 3, 1: 2, 2: 1}},
		{"plain", nil, 0.33, 7, nil},
	} {
		folds, err := Holdout(20, tc.labels, tc.frac, 42)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		train, test := Split(folds, 0)
		if len(test) != tc.test || len(train) != 20-tc.test {
			t.Errorf("%s: %d test, %d train rows; want %d test", tc.name, len(test), len(train), tc.test)
		}
		if tc.per != nil {
			got := map[int]int{}
			for _, r := range test {
				got[labels[r]]++
			}
			if !reflect.DeepEqual(got, tc.per) {
				t.Errorf("%s: test rows per class %v, want %v", tc.name, got, tc.per)
			}
		}
		again, _ := Holdout(20, tc.labels, tc.frac, 42)
		other, _ := Holdout(20, tc.labels, tc.frac, 43)
		if !reflect.DeepEqual(folds, again) {
			t.Errorf("%s: same seed, different split", tc.name)
		}
		if reflect.DeepEqual(folds, other) {
			t.Errorf("%s: seeds 42 and 43 give the same split", tc.name)
		}
	}
	for _, tc := range []struct {
		frac float64
		want string
	}{{0, "not in (0, 1)"}, {1, "not in (0, 1)"}, {0.99, "leaves 20 of 20 rows for testing"}} {
		if _, err := Holdout(20, nil, tc.frac, 1); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("holdout %v: error %v, want %q", tc.frac, err, tc.want)
		}
	}
}

func TestHoldoutFits(t *testing.T) {
	tests := []struct {
		name    string
		n, need int
		frac    float64
		want    bool
	}{
		{"both parts big enough", 20, 3, 0.25, true},        // 5 and 15 rows
		{"test part one short", 20, 3, 0.1, false},          // 2 and 18 rows
		{"test part just enough", 20, 3, 0.11, true},        // ceil(2.2) = 3
		{"training part one short", 20, 3, 0.9, false},      // 18 and 2 rows
		{"training part just enough", 20, 3, 0.85, true},    // 17 and 3 rows
		{"one row each, multi-label", 2, 1, 0.5, true},      // 1 and 1 row
		{"too few rows for any fraction", 5, 3, 0.5, false}, // 3 and 2 rows
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := HoldoutFits(tt.n, tt.need, tt.frac); got != tt.want {
				test, train := HoldoutSizes(tt.n, tt.frac)
				t.Errorf("HoldoutFits(%d, %d, %v) = %v, want %v (parts of %d and %d rows)", tt.n, tt.need, tt.frac, got, tt.want, test, train)
			}
		})
	}
}

func TestHoldoutFractions(t *testing.T) {
	tests := []struct {
		name    string
		n, need int
		lo, hi  int
		ok      bool
	}{
		{"multiclass, 3 classes of 20 rows", 20, 3, 2, 17, true},
		{"multi-label, one row a part", 10, 1, 0, 9, true},
		{"exactly twice the need", 6, 3, 2, 3, true},
		{"one row short of twice the need", 5, 3, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi, ok := HoldoutFractions(tt.n, tt.need)
			if lo != tt.lo || hi != tt.hi || ok != tt.ok {
				t.Fatalf("HoldoutFractions(%d, %d) = %d, %d, %v, want %d, %d, %v", tt.n, tt.need, lo, hi, ok, tt.lo, tt.hi, tt.ok)
			}
			if !ok {
				return
			}
			// The bounds agree with HoldoutFits: a fraction just above lo/n
			// and hi/n itself fit, lo/n and just above hi/n do not.
			n := float64(tt.n)
			for _, c := range []struct {
				frac float64
				want bool
			}{{(float64(tt.lo) + 0.01) / n, true}, {float64(tt.hi) / n, true}, {float64(tt.lo) / n, false}, {(float64(tt.hi) + 0.01) / n, false}} {
				if c.frac <= 0 || c.frac >= 1 {
					continue
				}
				if got := HoldoutFits(tt.n, tt.need, c.frac); got != c.want {
					t.Errorf("HoldoutFits(%d, %d, %v) = %v, want %v", tt.n, tt.need, c.frac, got, c.want)
				}
			}
		})
	}
}
