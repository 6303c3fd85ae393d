package host

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/polyclass/polyclass/framework/sdk"
)

// checkedLearner is meanLearner with a ParamChecker: k above 4 is refused
// (with a second, joined, problem of the parameters as a whole above 8),
// and a fit with k computes with libk of that version.
type checkedLearner struct{ meanLearner }

func (checkedLearner) Info() sdk.LearnerInfo {
	info := meanLearner{}.Info()
	info.Params = []sdk.ParamSpec{{Name: "k", Type: sdk.IntegerParam, Default: sdk.Number(3)}}
	return info
}

func (checkedLearner) CheckParams(_ context.Context, p sdk.Params) ([]sdk.Component, error) {
	k := p.Float("k")
	var errs []error
	if k > 4 {
		errs = append(errs, sdk.WithParam("k", fmt.Errorf("k = %v is too many", k)))
	}
	if k > 8 {
		errs = append(errs, errors.New("far too many"))
	}
	return []sdk.Component{{Name: "libk", Version: fmt.Sprint(k)}}, errors.Join(errs...)
}

// TestCheckParams: the Go SDK answers CheckParams with the specs' problems
// first (the learner's checker is not asked then), then its checker's,
// defaults filled in, one problem per joined error; a learner without a
// checker has no objection.
func TestCheckParams(t *testing.T) {
	ctx := context.Background()
	h := New("", nil)
	h.Register("checked", InProcess{Learner: checkedLearner{}})
	h.Register("mean", InProcess{Learner: meanLearner{}})
	defer h.Close()
	p, err := h.Get(ctx, "checked")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		params sdk.Params
		want   ParamCheck
	}{
		{nil, ParamCheck{Runtime: []sdk.Component{{Name: "libk", Version: "3"}}}},
		{sdk.Params{"k": sdk.Number(5)}, ParamCheck{
			Problems: []ParamProblem{{Param: "k", Message: "k = 5 is too many"}},
			Runtime:  []sdk.Component{{Name: "libk", Version: "5"}},
		}},
		{sdk.Params{"k": sdk.Number(9)}, ParamCheck{
			Problems: []ParamProblem{{Param: "k", Message: "k = 9 is too many"}, {Message: "far too many"}},
			Runtime:  []sdk.Component{{Name: "libk", Version: "9"}},
		}},
		{sdk.Params{"k": sdk.Number(2.5), "kk": sdk.Number(1)}, ParamCheck{Problems: []ParamProblem{
			{Param: "k", Message: "k must be a whole number, not 2.5"},
			{Param: "kk", Message: `unknown parameter "kk"; valid parameters: k`},
		}}},
	} {
		got, err := p.Learner.CheckParams(ctx, tc.params)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v: %+v, %v\nwant %+v", tc.params, got, err, tc.want)
		}
	}
	m, err := h.Get(ctx, "mean")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := m.Learner.CheckParams(ctx, sdk.Params{"any": sdk.Number(1)}); err != nil || got.Runtime != nil ||
		!reflect.DeepEqual(got.Problems, []ParamProblem{{Param: "any", Message: `unknown parameter "any"; valid parameters: `}}) {
		t.Errorf("a learner without a checker: %+v, %v", got, err)
	}
}
