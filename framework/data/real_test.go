package data

import (
	"os"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/internal/refdata"
)

// classCounts counts the rows of each level of a categorical column.
func classCounts(t *testing.T, tb *Table, name string) map[string]int {
	t.Helper()
	vals, _ := cat(t, tb, name)
	counts := map[string]int{}
	for _, v := range vals {
		counts[v]++
	}
	return counts
}

func TestRealIris(t *testing.T) {
	p := refdata.Data(t, "iris.csv")
	tb, err := Read(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tb.NumRows != 150 || len(tb.Columns) != 5 {
		t.Fatalf("iris: %d×%d, want 150×5", tb.NumRows, len(tb.Columns))
	}
	for _, c := range tb.Columns[:4] {
		if c.Kind != Numeric || c.MissingCount() != 0 {
			t.Errorf("column %q: %v with %d missing", c.Name, c.Kind, c.MissingCount())
		}
	}
	if x := num(t, tb, "sepal_length_cm"); x[0] != 5.1 || x[149] != 5.9 {
		t.Errorf("sepal_length_cm[0], [149] = %v, %v; want 5.1, 5.9", x[0], x[149])
	}
	_, levels := cat(t, tb, "class")
	if !sameStrings(levels, []string{"setosa", "versicolor", "virginica"}) {
		t.Errorf("class levels %q", levels)
	}
	counts := classCounts(t, tb, "class")
	for _, l := range levels {
		if counts[l] != 50 {
			t.Errorf("class %s: %d rows, want 50", l, counts[l])
		}
	}
	sum, err := FileSHA256(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := "b7124c703bcb3b230f4a1520cd514603163b90958bbd20a9be3e92a3f70f54ae"; sum != want {
		t.Errorf("FileSHA256(iris.csv) = %s, want %s (README.md)", sum, want)
	}
}

func TestRealCar(t *testing.T) {
	tb, err := Read(refdata.Data(t, "car.csv"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tb.NumRows != 1728 {
		t.Fatalf("car: %d rows", tb.NumRows)
	}
	for name, want := range map[string][]string{
		"buying":   {"vhigh", "high", "med", "low"},
		"maint":    {"vhigh", "high", "med", "low"},
		"doors":    {"2", "3", "4", "5more"},
		"persons":  {"2", "4", "more"},
		"lug_boot": {"small", "med", "big"},
		"safety":   {"low", "med", "high"},
		"class":    {"unacc", "acc", "vgood", "good"},
	} {
		if _, levels := cat(t, tb, name); !sameStrings(levels, want) {
			t.Errorf("%s levels %q, want %q", name, levels, want)
		}
	}
	counts := classCounts(t, tb, "class")
	if counts["unacc"] != 1210 || counts["acc"] != 384 || counts["good"] != 69 || counts["vgood"] != 65 {
		t.Errorf("class counts %v", counts)
	}
}

func TestRealMushroom(t *testing.T) {
	tb, err := Read(refdata.Data(t, "mushroom.csv"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tb.NumRows != 8124 || len(tb.Columns) != 23 {
		t.Fatalf("mushroom: %d×%d", tb.NumRows, len(tb.Columns))
	}
	c, ok := tb.Lookup("stalk_root")
	if !ok || c.Kind != Categorical || c.MissingCount() != 2480 {
		t.Fatalf("stalk_root: found %v, missing %d, want 2480", ok, c.MissingCount())
	}
	total := 0
	for i := range tb.Columns {
		total += tb.Columns[i].MissingCount()
	}
	if total != 2480 {
		t.Errorf("%d missing cells in all, want 2480", total)
	}
}

func TestRealCovertype(t *testing.T) {
	p := refdata.Data(t, "covertype_50k.csv.gz")
	plain, err := Read(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := plain.Lookup("soil_type"); c.Kind != Numeric {
		t.Errorf("soil_type inferred %v, want numeric (integer codes)", c.Kind)
	}
	tb, err := Read(p, Options{Categorical: []string{"soil_type", "class"}})
	if err != nil {
		t.Fatal(err)
	}
	if tb.NumRows != 50000 || len(tb.Columns) != 13 {
		t.Fatalf("covertype: %d×%d", tb.NumRows, len(tb.Columns))
	}
	vals, levels := cat(t, tb, "soil_type")
	if len(levels) != 40 || !sameStrings(levels[:5], []string{"4703", "7202", "7102", "2703", "7755"}) {
		t.Errorf("soil_type: %d levels starting %q", len(levels), levels[:min(5, len(levels))])
	}
	n := 0
	for _, v := range vals {
		if v == "7745" {
			n++
		}
	}
	if n != 9903 {
		t.Errorf("soil_type 7745: %d rows, want 9903", n)
	}
	counts := classCounts(t, tb, "class")
	want := map[string]int{"1": 18036, "2": 24607, "3": 3043, "4": 242, "5": 820, "6": 1498, "7": 1754}
	for k, v := range want {
		if counts[k] != v {
			t.Errorf("class %s: %d rows, want %d", k, counts[k], v)
		}
	}
	w := classCounts(t, tb, "wilderness_area")
	if w["Rawah"] != 22444 || w["Neota"] != 2690 {
		t.Errorf("wilderness_area counts %v", w)
	}
}

func TestRealEmotions(t *testing.T) {
	tb, err := Read(refdata.Data(t, "emotions.csv"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var features, labels int
	for _, c := range tb.Columns {
		if c.Kind != Numeric {
			t.Errorf("column %q is %v", c.Name, c.Kind)
		}
		if strings.HasPrefix(c.Name, "label_") {
			labels++
		} else {
			features++
		}
	}
	if tb.NumRows != 593 || features != 72 || labels != 6 {
		t.Errorf("emotions: %d rows, %d features, %d labels; want 593, 72, 6", tb.NumRows, features, labels)
	}
	// Label cardinality 1.868 (README): 1108 positives over 593 rows.
	pos := 0.0
	for _, c := range tb.Columns[72:] {
		for _, v := range c.Num {
			pos += v
		}
	}
	if pos != 173+166+264+148+168+189 {
		t.Errorf("%v positive labels, want 1108", pos)
	}
}

func TestRealAdult(t *testing.T) {
	tb, err := Read(refdata.Data(t, "adult_train.csv.gz"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tb.NumRows != 32561 || len(tb.Columns) != 15 {
		t.Fatalf("adult: %d×%d", tb.NumRows, len(tb.Columns))
	}
	var nNum, missing int
	for i := range tb.Columns {
		if tb.Columns[i].Kind == Numeric {
			nNum++
		}
		missing += tb.Columns[i].MissingCount()
	}
	if nNum != 6 || missing != 4262 {
		t.Errorf("%d numeric columns, %d missing cells; want 6, 4262", nNum, missing)
	}
	if _, levels := cat(t, tb, "native_country"); len(levels) != 41 {
		t.Errorf("native_country has %d levels, want 41", len(levels))
	}
	counts := classCounts(t, tb, "class")
	if counts["<=50K"] != 24720 || counts[">50K"] != 7841 {
		t.Errorf("class counts %v", counts)
	}
}

func TestRealDiabetes(t *testing.T) {
	if testing.Short() {
		t.Skip("large file")
	}
	ids := []string{"admission_type_id", "discharge_disposition_id", "admission_source_id"}
	tb, err := Read(refdata.Data(t, "diabetes130.csv.gz"), Options{Categorical: ids})
	if err != nil {
		t.Fatal(err)
	}
	if tb.NumRows != 101766 || len(tb.Columns) != 48 {
		t.Fatalf("diabetes: %d×%d", tb.NumRows, len(tb.Columns))
	}
	for name, want := range map[string]int{"admission_type_id": 8, "discharge_disposition_id": 26, "admission_source_id": 17, "diag_1": 716, "medical_specialty": 72} {
		if _, levels := cat(t, tb, name); len(levels) != want {
			t.Errorf("%s: %d levels, want %d", name, len(levels), want)
		}
	}
	if c, _ := tb.Lookup("weight"); c.MissingCount() != 98569 {
		t.Errorf("weight: %d missing, want 98569", c.MissingCount())
	}
	counts := classCounts(t, tb, "class")
	if counts["NO"] != 54864 || counts[">30"] != 35545 || counts["<30"] != 11357 {
		t.Errorf("class counts %v", counts)
	}
}

// TestRealAllValid loads every data set file of testdata and checks table invariants and
// the row counts the README gives.
func TestRealAllValid(t *testing.T) {
	rows := map[string]int{
		"wine.csv": 178, "breast_cancer.csv": 569, "digits.csv": 1797, "vehicle.csv": 846, "glass.csv": 214,
		"segment.csv": 2310, "satimage.csv": 6435, "letter.csv": 20000, "optdigits.csv": 5620,
		"pendigits.csv": 10992, "yeast.csv": 1484, "ecoli.csv": 336, "nursery.csv": 12960,
		"adult_test.csv": 16281, "tic_tac_toe.csv": 958, "splice.csv": 3190, "soybean.csv": 683,
		"scene.csv.gz": 2407, "yeast_multilabel.csv.gz": 2417,
	}
	for name, want := range rows {
		tb, err := Read(refdata.Data(t, name), Options{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if tb.NumRows != want {
			t.Errorf("%s: %d rows, want %d", name, tb.NumRows, want)
		}
		if err := checkTable(tb); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestReadErrors(t *testing.T) {
	if _, err := Read("testdata/none.csv", Options{}); err == nil || !os.IsNotExist(unwrapAll(err)) {
		t.Errorf("missing file: error %v", err)
	}
	_, err := Read("testdata/file.xlsx", Options{})
	if want := `testdata/file.xlsx: unsupported: unknown file extension ".xlsx" (want .csv, .tsv, .arff, .libsvm, .svm, .svmlight, .txt, optionally followed by .gz)`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	if _, err := ReadCSV("testdata/mini.libsvm.gz", Options{}); err == nil {
		t.Error("no error for a missing .gz file")
	}
	if _, err := FileSHA256("testdata/none"); err == nil {
		t.Error("FileSHA256 of a missing file succeeded")
	}
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		err = u.Unwrap()
	}
}
