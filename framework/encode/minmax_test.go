package encode

import (
	"math"
	"slices"
	"testing"

	"github.com/polyclass/polyclass/framework/param"
)

// TestMinMax scales with the training rows' range (rows 0–2 here): x = 2 →
// −1, 10 → 1, 6 → 0; the test row 14 → 2 (no clipping); a constant
// column → lower; a missing value stays missing; an unselected column is
// left alone.
func TestMinMax(t *testing.T) {
	nan := math.NaN()
	f := &Frame{Rows: 5, Num: []NumCol{
		{Name: "a", Vals: []float64{2, 10, 6, 14, nan}},
		{Name: "b", Vals: []float64{3, 3, 3, 7, 3}},
		{Name: "c", Vals: []float64{1, 2, 3, 4, 5}},
	}}
	step, err := Kinds()["minmax"].New(param.Params{"lower": param.Number(-1), "upper": param.Number(1), "columns": param.List(param.String("a"), param.String("b"))})
	if err != nil {
		t.Fatal(err)
	}
	out, err := step.FitTransform(f, &Context{Train: []int{0, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Num[0].Vals; !slices.Equal(got[:4], []float64{-1, 1, 0, 2}) || !math.IsNaN(got[4]) {
		t.Errorf("a: %v, want [-1 1 0 2 NaN]", got)
	}
	if got := out.Num[1].Vals; !slices.Equal(got, []float64{-1, -1, -1, -1, -1}) {
		t.Errorf("b (constant in training): %v, want all −1", got)
	}
	if got := out.Num[2].Vals; !slices.Equal(got, f.Num[2].Vals) {
		t.Errorf("c (not selected): %v, want it unchanged", got)
	}
	if _, err := Kinds()["minmax"].New(param.Params{"lower": param.Number(1), "upper": param.Number(1)}); err == nil {
		t.Error("lower = upper accepted")
	}
	// Defaults: [0, 1], as scikit-learn's MinMaxScaler.
	def, err := Kinds()["minmax"].New(param.Params{"lower": param.Number(0), "upper": param.Number(1)})
	if err != nil {
		t.Fatal(err)
	}
	out, err = def.FitTransform(&Frame{Rows: 3, Num: []NumCol{{Name: "a", Vals: []float64{2, 10, 6}}}}, &Context{Train: []int{0, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Num[0].Vals; !slices.Equal(got, []float64{0, 1, 0.5}) {
		t.Errorf("[0, 1]: %v, want [0 1 0.5]", got)
	}
}
