package sdk

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/go-plugin"
	"gonum.org/v1/gonum/mat"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestFaultParams(t *testing.T) {
	knob := WithParam("knob", errors.New("too large"))
	for _, tt := range []struct {
		name string
		err  error
		want []string
	}{
		{"nil", nil, nil},
		{"plain", errors.New("x"), nil},
		{"param", knob, []string{"knob"}},
		{"wrapped", fmt.Errorf("plan: %w", knob), []string{"knob"}},
		{"joined", errors.Join(knob, errors.New("y"), WithParam("C", errors.New("z")), knob), []string{"knob", "C"}},
		{"nil err", WithParam("knob", nil), nil},
		{"status", statusErr(codes.InvalidArgument, "plan: too large", knob), []string{"knob"}},
		{"status without", status.Error(codes.InvalidArgument, "plan: too large"), nil},
	} {
		if got := FaultParams(tt.err); !slices.Equal(got, tt.want) {
			t.Errorf("%s: FaultParams = %v, want %v", tt.name, got, tt.want)
		}
	}
	if knob.Error() != "too large" {
		t.Errorf("message %q: the name travels apart", knob.Error())
	}
}

// knobReducer blames its parameter knob when knob exceeds the classes.
type knobReducer struct{}

func (knobReducer) Info() ReducerInfo {
	return ReducerInfo{Name: "knobs", Version: "1", Schemes: []Scheme{{Name: "k",
		Params: []ParamSpec{{Name: "knob", Type: NumberParam, Default: Number(1)}}}}}
}

func (knobReducer) Plan(_ context.Context, req PlanRequest) (Plan, error) {
	if req.Params.Float("knob") > float64(req.NumClasses) {
		return Plan{}, WithParam("knob", errors.New("must not exceed the number of classes"))
	}
	return Plan{}, errors.New("no plan")
}

func (knobReducer) Decode(context.Context, DecodeRequest) (Decoding, error) {
	return Decoding{}, errors.New("no decode")
}

// TestFaultParamsOverGRPC: the parameter a plugin blames reaches the host
// as a structured field: a reducer's ParamError, a bad value the SDK's
// schema check refuses, a learner's ParamError from Fit (InvalidArgument);
// an error that blames nothing carries no field.
func TestFaultParamsOverGRPC(t *testing.T) {
	ctx := context.Background()
	client, _ := plugin.TestPluginGRPCConn(t, false, map[string]plugin.Plugin{ReducerPluginName: &ReducerPlugin{Impl: knobReducer{}}})
	t.Cleanup(func() { client.Close() })
	raw, err := client.Dispense(ReducerPluginName)
	if err != nil {
		t.Fatal(err)
	}
	rc := raw.(*ReducerClient)
	req := PlanRequest{Scheme: "k", NumClasses: 3, Labels: []int{0, 1, 2}}
	for _, tt := range []struct {
		params Params
		want   []string
	}{
		{Params{"knob": Number(5)}, []string{"knob"}},
		{Params{"knob": String("x")}, []string{"knob"}},
		{Params{"knob": Number(2)}, nil},
	} {
		req.Params = tt.params
		_, err := rc.Plan(ctx, req)
		if err == nil || status.Code(err) != codes.InvalidArgument {
			t.Fatalf("%v: error %v", tt.params, err)
		}
		if got := FaultParams(err); !slices.Equal(got, tt.want) {
			t.Errorf("%v: FaultParams(%v) = %v, want %v", tt.params, err, got, tt.want)
		}
	}

	lc := connect(t, &LearnerPlugin{Impl: &solverFault{}})
	enc := EncodeMatrix(Matrix{Dense: mat.NewDense(2, 2, []float64{1, 2, 3, 4})})
	if _, err := lc.Ensure(ctx, enc); err != nil {
		t.Fatal(err)
	}
	_, err = lc.Fit(ctx, enc.Digest, []int{0, 1}, Params{"C": Number(-1)}, []Problem{{Kind: Regression, Targets: []float64{1, 2}}})
	if got := FaultParams(err); !slices.Equal(got, []string{"C"}) {
		t.Errorf("learner schema error %v: FaultParams = %v, want [C]", err, got)
	}
	_, err = lc.Fit(ctx, enc.Digest, []int{0, 1}, Params{"solver": String("b")}, []Problem{{Kind: Regression, Targets: []float64{1, 2}}})
	if got := FaultParams(err); status.Code(err) != codes.InvalidArgument || !slices.Equal(got, []string{"solver"}) {
		t.Errorf("learner Fit error %v (%s): FaultParams = %v, want [solver]", err, status.Code(err), got)
	}
}

// solverFault is meanLearner whose solver b blames itself in Fit.
type solverFault struct{ meanLearner }

func (l *solverFault) Fit(ctx context.Context, in FitInput, p Params) (Model, error) {
	if p.Str("solver") == "b" {
		return nil, WithParam("solver", errors.New("b cannot train regression problems"))
	}
	return l.meanLearner.Fit(ctx, in, p)
}
