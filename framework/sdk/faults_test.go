package sdk_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/internal/plugintest"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/sdk"
)

// knobReducer blames its parameter knob when knob exceeds the classes.
type knobReducer struct{}

func (knobReducer) Info() sdk.ReducerInfo {
	return sdk.ReducerInfo{Name: "knobs", Version: "1", Schemes: []sdk.Scheme{{Name: "k",
		Params: []sdk.ParamSpec{{Name: "knob", Type: sdk.NumberParam, Default: sdk.Number(1)}}}}}
}

func (knobReducer) Plan(_ context.Context, req sdk.PlanRequest) (sdk.Plan, error) {
	if req.Params.Float("knob") > float64(req.NumClasses) {
		return sdk.Plan{}, sdk.WithParam("knob", errors.New("must not exceed the number of classes"))
	}
	return sdk.Plan{}, errors.New("no plan")
}

func (knobReducer) Decode(context.Context, sdk.DecodeRequest) (sdk.Decoding, error) {
	return sdk.Decoding{}, errors.New("no decode")
}

// TestFaultParamsOverGRPC: the parameter a plugin blames reaches the host
// as a structured field: a reducer's ParamError, a bad value the SDK's
// schema check refuses, a learner's ParamError from Fit (InvalidArgument);
// an error that blames nothing carries no field.
func TestFaultParamsOverGRPC(t *testing.T) {
	ctx := context.Background()
	conn := plugintest.Conn(t, sdk.WithReducer(knobReducer{}))
	rc := host.NewReducerClient(conn)
	req := sdk.PlanRequest{Scheme: "k", NumClasses: 3, Labels: []int{0, 1, 2}}
	for _, tt := range []struct {
		params sdk.Params
		want   []string
	}{
		{sdk.Params{"knob": sdk.Number(5)}, []string{"knob"}},
		{sdk.Params{"knob": sdk.String("x")}, []string{"knob"}},
		{sdk.Params{"knob": sdk.Number(2)}, nil},
	} {
		req.Params = tt.params
		_, err := rc.Plan(ctx, req)
		if err == nil || status.Code(err) != codes.InvalidArgument {
			t.Fatalf("%v: error %v", tt.params, err)
		}
		if got := host.FaultParams(err); !slices.Equal(got, tt.want) {
			t.Errorf("%v: FaultParams(%v) = %v, want %v", tt.params, err, got, tt.want)
		}
	}

	lc := connect(t, &solverFault{})
	enc := matrix.EncodeMatrix(sdk.Matrix{Dense: mat.NewDense(2, 2, []float64{1, 2, 3, 4})})
	if _, err := lc.Ensure(ctx, enc); err != nil {
		t.Fatal(err)
	}
	_, err := lc.Fit(ctx, enc.Digest, []int{0, 1}, sdk.Params{"C": sdk.Number(-1)}, []sdk.Problem{{Kind: sdk.Regression, Targets: []float64{1, 2}}}, 0)
	if got := host.FaultParams(err); !slices.Equal(got, []string{"C"}) {
		t.Errorf("learner schema error %v: FaultParams = %v, want [C]", err, got)
	}
	_, err = lc.Fit(ctx, enc.Digest, []int{0, 1}, sdk.Params{"solver": sdk.String("b")}, []sdk.Problem{{Kind: sdk.Regression, Targets: []float64{1, 2}}}, 0)
	if got := host.FaultParams(err); status.Code(err) != codes.InvalidArgument || !slices.Equal(got, []string{"solver"}) {
		t.Errorf("learner Fit error %v (%s): FaultParams = %v, want [solver]", err, status.Code(err), got)
	}
}

// solverFault is meanLearner whose solver b blames itself in Fit.
type solverFault struct{ meanLearner }

func (l *solverFault) Fit(ctx context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	if p.Str("solver") == "b" {
		return nil, sdk.WithParam("solver", errors.New("b cannot train regression problems"))
	}
	return l.meanLearner.Fit(ctx, in, p)
}
