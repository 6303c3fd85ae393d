package reducer

import (
	"context"
	"slices"
	"testing"

	"github.com/polyclass/polyclass/framework/sdk"
)

// TestSchemeTable: the scheme table is the one place of each multiclass
// scheme: Info lists its schemes first, in its order; a plan of each, with
// its default parameters, has the table's number of columns, its words,
// and argmax allowed only where the table says.
func TestSchemeTable(t *testing.T) {
	var names []string
	for _, s := range (&Reducer{}).Info().Schemes[:len(schemes())] {
		names = append(names, s.Name)
	}
	if want := []string{OVA, Ordered, OVO, ECOC, None}; !slices.Equal(names, want) {
		t.Fatalf("Info lists %q first, want %q", names, want)
	}
	tests := []struct {
		scheme  string
		params  sdk.Params
		columns int // of K = 4
		code    string
	}{
		{OVA, nil, 4, "one-vs-all: K columns, class k +1, the rest −1"},
		{Ordered, nil, 3, "ordered one-vs-rest (decision list): K−1 columns, each class against the classes after it, classes by descending training frequency"},
		{OVO, nil, 6, "one-vs-one: K(K−1)/2 columns, class i +1 against class j −1, other classes left out"},
		{OVO, sdk.Params{"asymmetric": sdk.Bool(true)}, 12, "asymmetric one-vs-one: K(K−1) columns, each pair of classes both ways"},
		{ECOC, sdk.Params{"code": sdk.String(codeExhaustive)}, 7, "exhaustive code: 2^(K−1) − 1 columns, every split of the classes in two"},
		{None, nil, 0, "none: one multiclass problem for the learner"},
	}
	for _, tt := range tests {
		t.Run(tt.scheme, func(t *testing.T) {
			sc, ok := lookupScheme(tt.scheme)
			if !ok {
				t.Fatalf("no scheme %q in the table", tt.scheme)
			}
			p := sdk.WithDefaults(sc.info.Params, tt.params)
			plan, err := New().Plan(context.Background(), sdk.PlanRequest{Scheme: tt.scheme, Params: p, NumClasses: 4,
				Labels: []int{0, 1, 2, 3, 3}, ClassNames: []string{"a", "b", "c", "d"}, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if tt.columns > 0 && (plan.Code == nil || plan.Code.Cols != tt.columns) {
				t.Errorf("code %+v, want %d columns", plan.Code, tt.columns)
			}
			if plan.Description.Code != tt.code {
				t.Errorf("described as %q, want %q", plan.Description.Code, tt.code)
			}
			argmax := sdk.WithDefaults(sc.info.Params, sdk.Params{"decode": sdk.String(Argmax)})
			_, err = New().Plan(context.Background(), sdk.PlanRequest{Scheme: tt.scheme, Params: argmax, NumClasses: 4,
				Labels: []int{0, 1, 2, 3}, ClassNames: []string{"a", "b", "c", "d"}, Seed: 1})
			if (err == nil) != (sc.argmax != "") {
				t.Errorf("decode = argmax: error %v; the table says argmax applies: %v", err, sc.argmax != "")
			}
		})
	}
}
