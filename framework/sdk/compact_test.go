package sdk_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/go-plugin"

	"github.com/polyclass/polyclass/framework/internal/convert"
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/sdk"
)

// ovaReducer plans one-vs-all problems, with their targets or, for scheme
// "ova-code", leaving them to the plan's code matrix; or, for scheme "reg",
// one regression problem (which has no compact form).
type ovaReducer struct{}

func (ovaReducer) Info() sdk.ReducerInfo {
	return sdk.ReducerInfo{Name: "ova", Version: "1", Schemes: []sdk.Scheme{{Name: "ova"}, {Name: "ova-code"}, {Name: "ova-mixed"}, {Name: "reg"}}}
}

func (ovaReducer) Plan(_ context.Context, req sdk.PlanRequest) (sdk.Plan, error) {
	if req.Scheme == "ova-code" || req.Scheme == "ova-mixed" {
		K := req.NumClasses
		code := &sdk.CodeMatrix{Rows: K, Cols: K, Entries: make([]int8, K*K)}
		for k := range code.Entries {
			code.Entries[k] = -1
			if k/K == k%K {
				code.Entries[k] = 1
			}
		}
		ps := make([]sdk.Problem, K)
		for k := range ps {
			ps[k].Kind = sdk.Binary
		}
		if req.Scheme == "ova-mixed" { // a reducer's mistake: targets on one problem only
			ps[0].Targets = make([]float64, len(req.Labels))
		}
		return sdk.Plan{Problems: ps, Code: code}, nil
	}
	if req.Scheme == "reg" {
		t := make([]float64, len(req.Labels))
		for i, y := range req.Labels {
			t[i] = float64(y) / 2
		}
		return sdk.Plan{Problems: []sdk.Problem{{Kind: sdk.Regression, Targets: t}}}, nil
	}
	ps := make([]sdk.Problem, req.NumClasses)
	for k := range ps {
		t := make([]float64, len(req.Labels))
		for i, y := range req.Labels {
			t[i] = -1
			if y == k {
				t[i] = 1
			}
		}
		ps[k] = sdk.Problem{Kind: sdk.Binary, Targets: t}
	}
	return sdk.Plan{Problems: ps}, nil
}

func (ovaReducer) Decode(context.Context, sdk.DecodeRequest) (sdk.Decoding, error) {
	return sdk.Decoding{}, nil
}

// The SDK's reducer server sends a plan's problems in compact form only to
// a host that accepts it (an older host gets dense targets), and only for
// problems that have it; the host's reading of either is the same plan,
// whether the reducer gave the targets or left them to its code matrix.
func TestPlanSendsCompactTargetsOnlyWhenAccepted(t *testing.T) {
	client, _ := plugin.TestPluginGRPCConn(t, false, map[string]plugin.Plugin{sdk.ReducerPluginName: &sdk.ReducerPlugin{Impl: ovaReducer{}}})
	t.Cleanup(func() { client.Close() })
	rpc := pb.NewReducerServiceClient(client.Conn)
	labels := []int32{1, 0, 2, 2, 1}
	want, err := ovaReducer{}.Plan(context.Background(), sdk.PlanRequest{Scheme: "ova", NumClasses: 3, Labels: convert.Ints[int](labels)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		scheme           string
		accepts, compact bool
	}{{"ova", false, false}, {"ova", true, true}, {"ova-code", false, false}, {"ova-code", true, true}, {"reg", true, false}} {
		r, err := rpc.Plan(context.Background(), &pb.PlanRequest{Scheme: tt.scheme, NumClasses: 3, Labels: labels, AcceptsCodeTargets: tt.accepts})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(r.GetRowGroups()) == len(labels); got != tt.compact {
			t.Errorf("%s, accepts %v: row groups %v", tt.scheme, tt.accepts, r.GetRowGroups())
		}
		for j, p := range r.GetProblems() {
			if (len(p.GetCode()) > 0) != tt.compact || len(p.GetTargets()) != len(labels) && !tt.compact {
				t.Errorf("%s, accepts %v: problem %d has %d targets, %d code entries", tt.scheme, tt.accepts, j, len(p.GetTargets()), len(p.GetCode()))
			}
		}
		got, err := convert.ProblemsFromPB(r.GetProblems(), r.GetRowGroups())
		if err != nil {
			t.Fatal(err)
		}
		if tt.scheme != "reg" && !reflect.DeepEqual(got, want.Problems) {
			t.Errorf("%s, accepts %v: problems %v, want %v", tt.scheme, tt.accepts, got, want.Problems)
		}
	}
}

// A plan that leaves some problems' targets to its code matrix and gives
// others their own is refused with the problem at fault.
func TestPlanMixedCodeTargets(t *testing.T) {
	client, _ := plugin.TestPluginGRPCConn(t, false, map[string]plugin.Plugin{sdk.ReducerPluginName: &sdk.ReducerPlugin{Impl: ovaReducer{}}})
	t.Cleanup(func() { client.Close() })
	rpc := pb.NewReducerServiceClient(client.Conn)
	for _, accepts := range []bool{false, true} {
		_, err := rpc.Plan(context.Background(), &pb.PlanRequest{Scheme: "ova-mixed", NumClasses: 3, Labels: []int32{1, 0, 2}, AcceptsCodeTargets: accepts})
		if want := "plan ova-mixed: problem 0: a binary problem with 3 targets"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("accepts %v: error %v, want one containing %q", accepts, err, want)
		}
	}
}
