package reftest

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/cv"
)

func TestReadCSV(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		x       []float64
		classes []string
		y       []int
		wantErr string
	}{
		{
			name:    "sorted classes",
			in:      "a,b,class\n1,2,virginica\n3,4.5,setosa\n-1,0,virginica\n",
			x:       []float64{1, 2, 3, 4.5, -1, 0},
			classes: []string{"setosa", "virginica"},
			y:       []int{1, 0, 1},
		},
		{
			name:    "string order of integer codes",
			in:      "a,class\n0,10\n1,9\n2,10\n",
			x:       []float64{0, 1, 2},
			classes: []string{"10", "9"},
			y:       []int{0, 1, 0},
		},
		{name: "non-numeric feature", in: "a,class\nx,1\n", wantErr: "column a"},
		{name: "header only", in: "a,class\n", wantErr: "at least one row"},
		{name: "ragged row", in: "a,class\n1,2,3\n", wantErr: "parsing CSV"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := ReadCSV(strings.NewReader(tc.in))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := ds.X.RawMatrix().Data; !slices.Equal(got, tc.x) {
				t.Errorf("X = %v, want %v", got, tc.x)
			}
			if !slices.Equal(ds.Classes, tc.classes) || !slices.Equal(ds.Y, tc.y) {
				t.Errorf("classes %v y %v, want %v %v", ds.Classes, ds.Y, tc.classes, tc.y)
			}
		})
	}
}

func TestStandardize(t *testing.T) {
	// Column 0 over rows {0, 1, 2} = {1, 2, 3}: mean 2, population std
	// √(2/3). Column 1 is constant (5) over those rows: scale 1.
	x := mat.NewDense(4, 2, []float64{
		1, 5,
		2, 5,
		3, 5,
		10, 7,
	})
	sd := math.Sqrt(2.0 / 3)
	for _, tc := range []struct {
		name      string
		fit, rows []int
		want      []float64
	}{
		{"fit subset", []int{0, 1, 2}, []int{3, 0}, []float64{8 / sd, 2, -1 / sd, 0}},
		{"whole", Seq(4), []int{3}, []float64{6 / math.Sqrt(12.5), 1.5 / math.Sqrt(0.75)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Standardize(x, tc.fit, tc.rows).RawMatrix().Data
			for i := range tc.want {
				if math.Abs(got[i]-tc.want[i]) > 1e-14*math.Max(1, math.Abs(tc.want[i])) {
					t.Errorf("entry %d = %.17g, want %.17g", i, got[i], tc.want[i])
				}
			}
		})
	}
	// Fitting on the rows themselves gives mean 0 and population std 1.
	ds := &Dataset{X: x}
	z := ds.Standardized()
	for j := range 2 {
		col := mat.Col(nil, j, z)
		var s, ss float64
		for _, v := range col {
			s += v
			ss += v * v
		}
		if math.Abs(s) > 1e-12 || math.Abs(ss/4-1) > 1e-12 {
			t.Errorf("column %d: sum %g, mean square %g, want 0 and 1", j, s, ss/4)
		}
	}
}

func TestSplit(t *testing.T) {
	ds := &Dataset{
		X:       mat.NewDense(5, 1, []float64{0, 10, 2, 20, 4}),
		Classes: []string{"a", "b"},
		Y:       []int{0, 1, 0, 1, 0},
	}
	folds := []int{0, 1, 0, 1, 0}
	// Training part {0, 2, 4}: mean 2, population std √(8/3).
	xtr, ytr, xte, yte := Split(ds, folds, 1)
	sd := math.Sqrt(8.0 / 3)
	for _, c := range []struct {
		name      string
		got, want []float64
	}{
		{"xtr", xtr.RawMatrix().Data, []float64{-2 / sd, 0, 2 / sd}},
		{"xte", xte.RawMatrix().Data, []float64{8 / sd, 18 / sd}},
	} {
		for i := range c.want {
			if math.Abs(c.got[i]-c.want[i]) > 1e-14*math.Abs(c.want[i])+1e-15 {
				t.Errorf("%s[%d] = %g, want %g", c.name, i, c.got[i], c.want[i])
			}
		}
	}
	if !slices.Equal(ytr, []int{0, 0, 0}) || !slices.Equal(yte, []int{1, 1}) {
		t.Errorf("ytr %v yte %v", ytr, yte)
	}
}

func TestCSR(t *testing.T) {
	x := mat.NewDense(3, 3, []float64{
		0, 1.5, 0,
		0, 0, 0,
		-2, 0, 3,
	})
	m := CSR(x)
	if m.Rows != 3 || m.Cols != 3 {
		t.Fatalf("dims %d×%d", m.Rows, m.Cols)
	}
	if !slices.Equal(m.Indptr, []int64{0, 1, 1, 3}) ||
		!slices.Equal(m.Indices, []int32{1, 0, 2}) ||
		!slices.Equal(m.Values, []float64{1.5, -2, 3}) {
		t.Errorf("CSR = %v %v %v", m.Indptr, m.Indices, m.Values)
	}
}

func TestLabelsAndAccuracy(t *testing.T) {
	y := []int{2, 0, 1, 2}
	ovr := OneVsRest(y, 3)
	want := [][]float64{{-1, 1, -1, -1}, {-1, -1, 1, -1}, {1, -1, -1, 1}}
	for c := range want {
		if !slices.Equal(ovr[c], want[c]) || !slices.Equal(BinaryLabels(y, c), want[c]) {
			t.Errorf("class %d: %v, want %v", c, ovr[c], want[c])
		}
	}
	if got := Accuracy([]int{2, 1, 1, 0}, y); got != 0.5 {
		t.Errorf("Accuracy = %g, want 0.5", got)
	}
	if got := Pick(y, []int{3, 1}); !slices.Equal(got, []int{2, 0}) {
		t.Errorf("Pick = %v", got)
	}
}

// TestIris checks the loaders on the iris files of testdata.
func TestIris(t *testing.T) {
	ds := Load(t, "iris")
	if r, c := ds.X.Dims(); r != 150 || c != 4 {
		t.Errorf("iris is %d×%d, want 150×4", r, c)
	}
	if want := []string{"setosa", "versicolor", "virginica"}; !slices.Equal(ds.Classes, want) {
		t.Errorf("classes %v, want %v", ds.Classes, want)
	}
	// First row: 5.1,3.5,1.4,0.2,setosa.
	if got := ds.X.RawRowView(0); !slices.Equal(got, []float64{5.1, 3.5, 1.4, 0.2}) || ds.Y[0] != 0 {
		t.Errorf("row 0 = %v class %d", got, ds.Y[0])
	}
	if k := ds.Class(t, "virginica"); k != 2 {
		t.Errorf("Class(virginica) = %d", k)
	}
	folds := Folds(t, "iris")
	if len(folds) != 150 || folds[0] != 5 || folds[1] != 2 {
		t.Errorf("folds: %d entries starting %v", len(folds), folds[:min(2, len(folds))])
	}
	for k := range 10 {
		if _, test := cv.Split(folds, k); len(test) != 15 {
			t.Errorf("fold %d has %d test rows, want 15", k, len(test))
		}
	}
	acc := SklearnAccuracy(t, "iris", "lda")
	want := []float64{1, 1, 1, 1, 1, 0.933333, 0.933333, 1, 1, 0.933333}
	if !slices.Equal(acc, want) {
		t.Errorf("iris/lda acc_folds %v, want %v", acc, want)
	}
	opt := Optima(t)
	if o, ok := opt["logreg_C1"]; !ok || len(o.W) != 30 || o.Objective <= 0 {
		t.Errorf("logreg_C1 optimum %+v (present %v), want 30 weights and a positive objective", o, ok)
	}
}

// TestExtremeIris checks the changes of ExtremeIris on the values they
// touch.
func TestExtremeIris(t *testing.T) {
	for _, tt := range []struct {
		kind       string
		i, j       int
		want, orig float64
	}{
		{"1e160", 3, 0, 1e160, 4.6},
		{"1e308", 3, 0, 1e308, 4.6},
		{"-1e308", 3, 0, -1e308, 4.6},
		{"minmax1e308", 13, 0, 0, 4.3}, // the smallest sepal length
		{"minmax1e308", 131, 0, 1e308, 7.9},
	} {
		x, y := ExtremeIris(t, tt.kind)
		if got := x.At(tt.i, tt.j); got != tt.want || len(y) != 150 {
			t.Errorf("%s: x[%d,%d] = %v with %d labels, want %v and 150", tt.kind, tt.i, tt.j, got, len(y), tt.want)
		}
		if orig := Load(t, "iris").X.At(tt.i, tt.j); orig != tt.orig {
			t.Errorf("%s: iris x[%d,%d] = %v, want %v", tt.kind, tt.i, tt.j, orig, tt.orig)
		}
	}
}
