package data

import (
	"maps"
	"path/filepath"
	"testing"
)

// TestHsuLinMlbenchSets reads the five files of dna, vowel and shuttle that
// scripts/hsu_lin_mlbench.py writes into experiments/data from Debian's
// r-cran-mlbench, and checks the shapes and class counts their
// documentation and their standard splits give, the first row of each
// part, and the bytes (the SHA-256 that experiments/data/README.md lists:
// the script writes the same bytes on every run).
func TestHsuLinMlbenchSets(t *testing.T) {
	vowels := []string{"hid", "hId", "hEd", "hAd", "hYd", "had", "hOd", "hod", "hUd", "hud", "hed"}
	each := func(n int) map[string]int {
		m := map[string]int{}
		for _, v := range vowels {
			m[v] = n
		}
		return m
	}
	tests := []struct {
		file     string
		rows     int
		features int
		classes  map[string]int
		first    []float64 // the first row's leading features
		class    string    // the first row's class
		sha256   string
	}{
		{"dna_train.csv.gz", 2000, 180, map[string]int{"ei": 464, "ie": 485, "n": 1051},
			[]float64{0, 1, 0, 0, 0, 0}, "n",
			"ad923bc78191f2b9b98b7b7a0c648f57f29ebd181c0bd32878f61f603cb99169"},
		{"dna_test.csv.gz", 1186, 180, map[string]int{"ei": 303, "ie": 280, "n": 603},
			[]float64{0, 0, 0, 0, 0, 1}, "n",
			"dcd7f2352e690d68a71dc87f279e267da9809dcc7e65b87f5bccb952decd1824"},
		{"vowel_train.csv.gz", 528, 9, each(48),
			[]float64{-3.639, -0.67, 1.779, -0.168, 1.627, -0.388, 0.529, -0.874, -0.814}, "hid",
			"ae5ea8896c2cea485190d321ba086854355ac39bf12a66662bd168eac75d9241"},
		{"shuttle_train.csv.gz", 43500, 9, map[string]int{"Rad.Flow": 34108, "Fpv.Close": 37,
			"Fpv.Open": 132, "High": 6748, "Bypass": 2458, "Bpv.Close": 6, "Bpv.Open": 11},
			[]float64{50, 21, 77, 0, 28, 0, 27, 48, 22}, "Fpv.Close",
			"ec05dfc63bfbe9cd2de82ee9ddd9b25886376e15a5a1bc103fa4e0d6bb439d4d"},
		{"shuttle_test.csv.gz", 14500, 9, map[string]int{"Rad.Flow": 11478, "Fpv.Close": 13,
			"Fpv.Open": 39, "High": 2155, "Bypass": 809, "Bpv.Close": 4, "Bpv.Open": 2},
			[]float64{55, 0, 81, 0, -6, 11, 25, 88, 64}, "High",
			"bb4270e41dd78d89c202192c8b86a1ec734387e7af67c49be3710599c931a944"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("..", "..", "experiments", "data", tt.file)
			tb, err := Read(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tb.NumRows != tt.rows || len(tb.Columns) != tt.features+1 {
				t.Fatalf("%d×%d, want %d×%d", tb.NumRows, len(tb.Columns), tt.rows, tt.features+1)
			}
			if err := checkTable(tb); err != nil {
				t.Fatal(err)
			}
			for j, c := range tb.Columns[:tt.features] {
				if c.Kind != Numeric || c.MissingCount() != 0 {
					t.Errorf("column %q: %v with %d missing, want numeric with none", c.Name, c.Kind, c.MissingCount())
				}
				if j < len(tt.first) && c.Num[0] != tt.first[j] {
					t.Errorf("row 1, column %q = %v, want %v", c.Name, c.Num[0], tt.first[j])
				}
			}
			if got := classCounts(t, tb, "class"); !maps.Equal(got, tt.classes) {
				t.Errorf("class counts %v, want %v", got, tt.classes)
			}
			if vals, _ := cat(t, tb, "class"); vals[0] != tt.class {
				t.Errorf("row 1 class %q, want %q", vals[0], tt.class)
			}
			sum, err := FileSHA256(path)
			if err != nil {
				t.Fatal(err)
			}
			if sum != tt.sha256 {
				t.Errorf("SHA-256 %s, want %s (experiments/data/README.md)", sum, tt.sha256)
			}
		})
	}
}
