package plots

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var keep = flag.String("keep", "", "directory to keep the test figures in, for inspection")

// demsarRanks are the average ranks of Demšar's (2006) Table 6 example
// (C4.5, C4.5+m, C4.5+cf, C4.5+m+cf); CD = 1.25 at α = 0.05 for N = 14.
var demsarRanks = []float64{3.143, 2.000, 2.893, 1.964}

func TestCDGroups(t *testing.T) {
	tests := []struct {
		name  string
		ranks []float64
		cd    float64
		want  [][]int
	}{
		// Demšar section 3.2.4: the largest difference, C4.5 (3.143) vs
		// C4.5+m+cf (1.964), is 1.179 < CD = 1.25, so all four form one group.
		{"demsar CD 1.25", demsarRanks, 1.25, [][]int{{3, 1, 2, 0}}},
		// With CD 1.1, C4.5 separates from the two best (1.179 and 1.143 ≥ 1.1).
		{"demsar CD 1.1", demsarRanks, 1.1, [][]int{{3, 1, 2}, {2, 0}}},
		{"all distinct", []float64{1, 2, 3}, 0.5, nil},
		{"two groups", []float64{1, 1.2, 3, 3.1}, 0.5, [][]int{{0, 1}, {2, 3}}},
		{"nested not repeated", []float64{1, 1.3, 1.6, 1.9}, 0.65, [][]int{{0, 1, 2}, {1, 2, 3}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := CDGroups(tc.ranks, tc.cd); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("CDGroups(%v, %v) = %v, want %v", tc.ranks, tc.cd, got, tc.want)
			}
		})
	}
}

func save(t *testing.T, name string, f *Figure) {
	t.Helper()
	b, err := f.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// PNG size follows the nominal size at DefaultDPI.
	wantW := int(f.Width.Dots(DefaultDPI) + 0.5)
	if got := img.Bounds().Dx(); got < wantW-1 || got > wantW+1 {
		t.Errorf("%s: PNG width %d px, want %d", name, got, wantW)
	}
	var svg bytes.Buffer
	if err := f.WriteSVG(&svg); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(svg.String(), "<svg") {
		t.Errorf("%s: not an SVG", name)
	}
	if *keep != "" {
		if _, err := f.Save(filepath.Join(*keep, name)); err != nil {
			t.Fatal(err)
		}
	}
	// Deterministic: drawing twice gives the same bytes.
	b2, _ := f.PNG()
	if !bytes.Equal(b, b2) {
		t.Errorf("%s: PNG differs between two renderings", name)
	}
}

func TestFigures(t *testing.T) {
	if *keep != "" {
		os.MkdirAll(*keep, 0o755)
	}
	cd, err := CriticalDifference("accuracy: Nemenyi CD at α = 0.05", []string{"C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"}, demsarRanks, 1.25)
	if err != nil {
		t.Fatal(err)
	}
	save(t, "cd", cd)
	// The control variant (Demšar's Figure 1(b)): C4.5 as the control, the
	// Bonferroni–Dunn interval 3.143 ± 1.168 clipped to [2.0, 4].
	names := []string{"C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"}
	bd, err := CriticalDifferenceControl("auc: Bonferroni–Dunn CD against C4.5", names, demsarRanks, 0, 1.168)
	if err != nil {
		t.Fatal(err)
	}
	save(t, "cd_control", bd)
	var svg bytes.Buffer
	bd.WriteSVG(&svg)
	if !strings.Contains(svg.String(), "C4.5 (3.14) (control)") || strings.Contains(svg.String(), "C4.5+m (2.00) (control)") {
		t.Errorf("control diagram does not mark C4.5 alone as the control")
	}
	if _, err := CriticalDifferenceControl("", names, demsarRanks, 4, 1.168); err == nil {
		t.Error("control 4 of 4 methods accepted")
	}
	bp, err := BoxPlots("accuracy (higher is better)", "accuracy", []string{"iris", "wine", "car"},
		[]BoxRow{{"logreg C=0.1 ova", "logreg", "ova"}, {"logreg C=1 ovo", "logreg", "ovo"}, {"svm ova", "svm", "ova"}},
		[][][]float64{
			{{0.93, 0.87, 1, 0.8, 0.87, 0.93}, {0.93, 0.93, 1, 0.87, 0.93, 1}, {1, 0.93, 1, 0.93, 0.87, 1}},
			{{1, 1, 0.94, 1, 1, 0.94}, {1, 0.94, 0.94, 1, 1, 1}, {1, 0.94, 0.94, 1, 1, 1}},
			{{0.84, 0.86, 0.82, 0.85}, {0.88, 0.89, 0.87, 0.9}, {}},
		})
	if err != nil {
		t.Fatal(err)
	}
	save(t, "box", bp)
	cm, err := ConfusionHeatMap("iris — logreg C=1 ova", []string{"setosa", "versicolor", "virginica"},
		[][]int{{50, 0, 0}, {0, 45, 5}, {0, 3, 47}})
	if err != nil {
		t.Fatal(err)
	}
	save(t, "confusion", cm)
}

func TestRowShares(t *testing.T) {
	tests := []struct {
		name   string
		counts [][]int
		want   [][]float64
	}{
		{"iris-like", [][]int{{50, 0, 0}, {0, 45, 5}, {0, 3, 47}},
			[][]float64{{1, 0, 0}, {0, 0.9, 0.1}, {0, 0.06, 0.94}}},
		// Class sizes differ 1:4; the shares do not.
		{"unequal classes", [][]int{{3, 1}, {4, 12}}, [][]float64{{0.75, 0.25}, {0.25, 0.75}}},
		{"class without rows", [][]int{{2, 0}, {0, 0}}, [][]float64{{1, 0}, {0, 0}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := RowShares(tc.counts)
			for i := range tc.want {
				sum := 0.0
				for j := range tc.want[i] {
					sum += got[i][j]
					if d := got[i][j] - tc.want[i][j]; d > 1e-15 || d < -1e-15 {
						t.Errorf("share (%d, %d) = %v, want %v", i, j, got[i][j], tc.want[i][j])
					}
				}
				if n := tc.counts[i][0] + tc.counts[i][1]; n > 0 && (sum < 1-1e-15 || sum > 1+1e-15) {
					t.Errorf("row %d sums to %v, want 1", i, sum)
				}
			}
		})
	}
}

// TestConfusionHeatMap: every heat map is ConfusionWidth wide whatever its
// classes, and its cells are shaded by their share of the true class.
func TestConfusionHeatMap(t *testing.T) {
	tests := []struct {
		name    string
		classes []string
		counts  [][]int
		shades  []float64 // shares whose exact colour must appear
	}{
		{"iris", []string{"setosa", "versicolor", "virginica"}, [][]int{{50, 0, 0}, {0, 45, 5}, {0, 3, 47}}, []float64{1, 0.9, 0.1, 0.06, 0.94}},
		{"car", []string{"acc", "good", "unacc", "vgood"}, [][]int{{300, 20, 60, 4}, {30, 30, 5, 4}, {50, 2, 1148, 10}, {10, 5, 0, 50}},
			[]float64{300.0 / 384, 1148.0 / 1210, 50.0 / 65}},
		{"letter, 26 classes", letters(26), diagonal(26, 30, 1), []float64{30.0 / 31, 1.0 / 31}},
		{"long class names", []string{"a very long class name indeed", "b"}, [][]int{{1, 1}, {0, 4}}, []float64{0.5, 1}},
		{"soybean, 19 classes", soybeanClasses, diagonal(19, 20, 2), []float64{20.0 / 22, 2.0 / 22}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ConfusionHeatMap(tc.name, tc.classes, tc.counts)
			if err != nil {
				t.Fatal(err)
			}
			if f.Width != ConfusionWidth {
				t.Errorf("width %v, want %v", f.Width, ConfusionWidth)
			}
			save(t, "confusion_"+strings.ReplaceAll(tc.name, " ", "_"), f)
			b, _ := f.PNG()
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			seen := map[[3]uint32]bool{}
			for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
				for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
					r, g, b, _ := img.At(x, y).RGBA()
					seen[[3]uint32{r >> 8, g >> 8, b >> 8}] = true
				}
			}
			for _, s := range tc.shades {
				r, g, b, _ := blues(s).RGBA()
				if !seen[[3]uint32{r >> 8, g >> 8, b >> 8}] {
					t.Errorf("no cell shaded for share %.4f", s)
				}
			}
		})
	}
}

// diagonal returns a k×k confusion matrix with d on the diagonal and off
// right of it (wrapping round).
func diagonal(k, d, off int) [][]int {
	m := make([][]int, k)
	for i := range m {
		m[i] = make([]int, k)
		m[i][i], m[i][(i+1)%k] = d, off
	}
	return m
}
