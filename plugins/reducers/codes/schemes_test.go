package codes

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestSchemesExact(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    *Matrix
		err  error
		want [][]int8
	}{
		{name: "OVA(3)", want: [][]int8{{1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}}},
		{name: "Ordered(0,1,2)", want: [][]int8{{1, 0}, {-1, 1}, {-1, -1}}},
		{name: "Ordered(2,0,1)", want: [][]int8{{-1, 1}, {-1, -1}, {1, 0}}},
		{name: "Ordered(1,0,3,2)", want: [][]int8{{-1, 1, 0}, {1, 0, 0}, {-1, -1, -1}, {-1, -1, 1}}},
		{name: "OVO(3)", want: [][]int8{{1, 1, 0}, {-1, 0, 1}, {0, -1, -1}}},
		{name: "OVO(3,asym)", want: [][]int8{{1, 1, 0, -1, -1, 0}, {-1, 0, 1, 1, 0, -1}, {0, -1, -1, 0, 1, 1}}},
		{name: "OVO(2)", want: [][]int8{{1}, {-1}}},
		// Dietterich & Bakiri (1995), exhaustive code for k = 4.
		{name: "Exhaustive(4)", want: [][]int8{
			{1, 1, 1, 1, 1, 1, 1},
			{-1, -1, -1, -1, 1, 1, 1},
			{-1, -1, 1, 1, -1, -1, 1},
			{-1, 1, -1, 1, -1, 1, -1},
		}},
		{name: "Exhaustive(2)", want: [][]int8{{1}, {-1}}},
	} {
		var m *Matrix
		var err error
		switch tc.name {
		case "OVA(3)":
			m, err = OVA(3)
		case "Ordered(0,1,2)":
			m, err = Ordered([]int{0, 1, 2})
		case "Ordered(2,0,1)":
			m, err = Ordered([]int{2, 0, 1})
		case "Ordered(1,0,3,2)":
			m, err = Ordered([]int{1, 0, 3, 2})
		case "OVO(3)":
			m, err = OVO(3, false)
		case "OVO(3,asym)":
			m, err = OVO(3, true)
		case "OVO(2)":
			m, err = OVO(2, false)
		case "Exhaustive(4)":
			m, err = Exhaustive(4)
		case "Exhaustive(2)":
			m, err = Exhaustive(2)
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := matrixOf(m); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestSchemeErrors(t *testing.T) {
	for name, f := range map[string]func() (*Matrix, error){
		"OVA(1)":          func() (*Matrix, error) { return OVA(1) },
		"OVO(1)":          func() (*Matrix, error) { return OVO(1, true) },
		"Ordered(dup)":    func() (*Matrix, error) { return Ordered([]int{0, 0, 1}) },
		"Ordered(range)":  func() (*Matrix, error) { return Ordered([]int{0, 3, 1}) },
		"Ordered(single)": func() (*Matrix, error) { return Ordered([]int{0}) },
		"Exhaustive(13)":  func() (*Matrix, error) { return Exhaustive(13) },
		"Exhaustive(1)":   func() (*Matrix, error) { return Exhaustive(1) },
	} {
		if m, err := f(); err == nil {
			t.Errorf("%s: no error, got\n%v", name, m)
		}
	}
}

func TestSchemeShapesAndDistances(t *testing.T) {
	for K := 2; K <= 9; K++ {
		ova := must(t)(OVA(K))
		ovo := must(t)(OVO(K, false))
		asym := must(t)(OVO(K, true))
		ex := must(t)(Exhaustive(K))
		for _, tc := range []struct {
			name      string
			m         *Matrix
			L         int
			dmin      float64
			dmean     float64
			comp      int // complementary column pairs
			zeroCount int // zeros per row
		}{
			{"OVA", ova, K, 2, 2, boolInt(K == 2), 0},
			// Two OVO rows share one column with opposite signs; the other
			// L−1 entries have a 0 in at least one row: d = 1 + (L−1)/2.
			{"OVO", ovo, K * (K - 1) / 2, float64(K*(K-1)/2+1) / 2, float64(K*(K-1)/2+1) / 2, 0, (K - 1) * (K - 2) / 2},
			{"OVO asym", asym, K * (K - 1), float64(K*(K-1)+2) / 2, float64(K*(K-1)+2) / 2, K * (K - 1) / 2, (K - 1) * (K - 2)},
			{"Exhaustive", ex, 1<<(K-1) - 1, float64(int(1) << (K - 2)), float64(int(1) << (K - 2)), 0, 0},
		} {
			gotK, gotL := tc.m.Dims()
			if gotK != K || gotL != tc.L {
				t.Errorf("%s(%d): %d×%d, want %d×%d", tc.name, K, gotK, gotL, K, tc.L)
				continue
			}
			d := Diagnose(tc.m)
			if d.MinDistance != tc.dmin || math.Abs(d.MeanDistance-tc.dmean) > 1e-12 {
				t.Errorf("%s(%d): distances min %v mean %v, want %v %v", tc.name, K, d.MinDistance, d.MeanDistance, tc.dmin, tc.dmean)
			}
			if len(d.ComplementaryColumns) != tc.comp || len(d.ConstantColumns) != 0 ||
				len(d.DuplicateColumns) != 0 || len(d.Unseparated) != 0 || len(d.IdenticalRows) != 0 {
				t.Errorf("%s(%d): unexpected defects %v", tc.name, K, d.Warnings(nil))
			}
			for k := 0; k < K; k++ {
				z := 0
				for _, v := range tc.m.Row(k) {
					if v == 0 {
						z++
					}
				}
				if z != tc.zeroCount {
					t.Errorf("%s(%d) row %d has %d zeros, want %d", tc.name, K, k, z, tc.zeroCount)
				}
			}
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestFrequencyOrder(t *testing.T) {
	for _, tc := range []struct {
		labels []int
		K      int
		want   []int
	}{
		{[]int{0, 1, 1, 2, 2, 2}, 3, []int{2, 1, 0}},
		{[]int{0, 1, 2, 1, 0, 3}, 4, []int{0, 1, 2, 3}}, // ties by index
		{[]int{3, 3, 1}, 4, []int{3, 1, 0, 2}},          // absent classes last, by index
		{nil, 2, []int{0, 1}},
	} {
		got, err := FrequencyOrder(tc.labels, tc.K)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("FrequencyOrder(%v, %d) = %v, %v; want %v", tc.labels, tc.K, got, err, tc.want)
		}
	}
	if _, err := FrequencyOrder([]int{0, 2}, 2); err == nil {
		t.Error("label 2 with K = 2: no error")
	}
}

func TestDecisionOrderRoundTrip(t *testing.T) {
	for _, order := range [][]int{{0, 1}, {1, 0}, {2, 0, 1}, {3, 1, 4, 0, 2}} {
		m := must(t)(Ordered(order))
		got, err := DecisionOrder(m)
		if err != nil || !reflect.DeepEqual(got, order) {
			t.Errorf("DecisionOrder(Ordered(%v)) = %v, %v", order, got, err)
		}
	}
	for name, rows := range map[string][][]float64{
		"two +1":          {{1, 0}, {-1, 1}, {1, -1}},
		"decided nonzero": {{1, 1}, {-1, 0}, {-1, -1}},
		"undecided zero":  {{1, 0}, {0, 1}, {-1, -1}},
		"no +1":           {{1, 0}, {-1, -1}, {-1, 0}},
		"too many cols":   {{1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}},
	} {
		m := mustRows(t, rows)
		if o, err := DecisionOrder(m); err == nil {
			t.Errorf("%s: DecisionOrder accepted\n%vwith order %v", name, m, o)
		}
		if _, err := NewDecoder(Sequential, m, nil); err == nil {
			t.Errorf("%s: sequential decoder accepted a non-list", name)
		}
	}
}

func TestFromRowsErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rows  [][]float64
		kind  ErrorKind
		row   int
		col   int
		other int
	}{
		{"value 2", [][]float64{{1, -1}, {2, 1}}, ErrValue, 1, 0, -1},
		{"non-integer", [][]float64{{1, -1}, {-1, 0.5}}, ErrValue, 1, 1, -1},
		{"NaN", [][]float64{{1, math.NaN()}, {-1, 1}}, ErrValue, 0, 1, -1},
		{"-0.0 ok but -2", [][]float64{{1, math.Copysign(0, -1)}, {-1, -2}}, ErrValue, 1, 1, -1},
		{"ragged", [][]float64{{1, -1}, {-1, 1}, {1}}, ErrRagged, 2, -1, -1},
		{"identical", [][]float64{{1, -1}, {-1, 1}, {0, 1}, {-1, 1}}, ErrIdenticalRows, 3, -1, 1},
		{"one row", [][]float64{{1, -1}}, ErrShape, -1, -1, -1},
		{"empty rows", [][]float64{{}, {}}, ErrShape, 0, -1, -1},
	} {
		_, err := FromRows(tc.rows)
		var me *MatrixError
		if !errors.As(err, &me) {
			t.Errorf("%s: error %v is not a *MatrixError", tc.name, err)
			continue
		}
		if me.Kind != tc.kind || me.Row != tc.row || me.Col != tc.col || me.Other != tc.other {
			t.Errorf("%s: got kind %v row %d col %d other %d (%v), want %v %d %d %d",
				tc.name, me.Kind, me.Row, me.Col, me.Other, err, tc.kind, tc.row, tc.col, tc.other)
		}
		if err.Error() == "" {
			t.Errorf("%s: empty message", tc.name)
		}
	}
	m, err := FromRows([][]float64{{1, 0, -1}, {-1, 1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.CheckClasses(2); err != nil {
		t.Errorf("CheckClasses(2): %v", err)
	}
	err = m.CheckClasses(3)
	var me *MatrixError
	if !errors.As(err, &me) || me.Kind != ErrRowCount || !strings.Contains(err.Error(), "2 rows") {
		t.Errorf("CheckClasses(3) = %v, want ErrRowCount naming 2 rows", err)
	}
}

func TestMatrixAccessors(t *testing.T) {
	m, err := NewMatrix(2, 3, []int8{1, 0, -1, -1, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if m.At(0, 2) != -1 || m.At(1, 1) != 1 {
		t.Errorf("At wrong: %v", m)
	}
	if got := m.Col(0); !reflect.DeepEqual(got, []int8{1, -1}) {
		t.Errorf("Col(0) = %v", got)
	}
	r := m.Row(1)
	r[0] = 0 // a copy
	if m.At(1, 0) != -1 {
		t.Error("Row returned an alias")
	}
	f := m.Float64s()
	if want := []float64{1, 0, -1, -1, 1, 0}; !reflect.DeepEqual(f, want) {
		t.Errorf("Float64s = %v, want %v", f, want)
	}
	f[0] = 0 // a copy
	if m.At(0, 0) != 1 {
		t.Error("Float64s returned an alias")
	}
	c := m.Clone()
	c.Set(0, 0, -1)
	if m.At(0, 0) != 1 || c.Equal(m) {
		t.Error("Clone aliases its source")
	}
	if got, want := m.String(), "+1  0 -1\n-1 +1  0\n"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if _, err := NewMatrix(2, 2, []int8{1, 2, 0, 0}); err == nil {
		t.Error("NewMatrix accepted 2")
	}
	if _, err := NewMatrix(2, 2, []int8{1}); err == nil {
		t.Error("NewMatrix accepted a short slice")
	}
	if _, err := m.AppendColumns([]int8{1}); err == nil {
		t.Error("AppendColumns accepted a short column")
	}
	if m.RowDistance(0, 1) != 2 { // 1 + ½ + ½
		t.Errorf("RowDistance = %v, want 2", m.RowDistance(0, 1))
	}
	defer func() {
		if recover() == nil {
			t.Error("Set(0,0,3) did not panic")
		}
	}()
	m.Set(0, 0, 3)
}
