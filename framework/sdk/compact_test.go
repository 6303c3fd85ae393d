package sdk_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/internal/convert"
	"github.com/polyclass/polyclass/framework/internal/plugintest"
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/sdk"
)

// ovaReducer plans one-vs-all problems, with their targets or, for scheme
// "ova-code", with compact targets from the plan's code matrix (for
// "ova-bad", with a code column short of the last class); or, for scheme
// "reg", one regression problem (which has no compact form).
type ovaReducer struct{}

func (ovaReducer) Info() sdk.ReducerInfo {
	return sdk.ReducerInfo{Name: "ova", Version: "1", Schemes: []sdk.Scheme{{Name: "ova"}, {Name: "ova-code"}, {Name: "ova-bad"}, {Name: "reg"}, {Name: "none"}, {Name: "short"}}}
}

func (ovaReducer) Plan(_ context.Context, req sdk.PlanRequest) (sdk.Plan, error) {
	if req.Scheme == "ova-code" || req.Scheme == "ova-bad" {
		K := req.NumClasses
		code := sdk.CodeMatrix{Rows: K, Cols: K, Entries: make([]int8, K*K)}
		for k := range code.Entries {
			code.Entries[k] = -1
			if k/K == k%K {
				code.Entries[k] = 1
			}
		}
		groups := convert.Ints[int32](req.Labels)
		ps := make([]sdk.Problem, K)
		for k := range ps {
			ps[k] = sdk.Problem{Kind: sdk.Binary, Compact: sdk.CodeColumn(code, k, groups)}
		}
		if req.Scheme == "ova-bad" { // a reducer's mistake
			ps[1].Compact.Code = ps[1].Compact.Code[:K-1]
		}
		return sdk.Plan{Problems: ps, Code: &code}, nil
	}
	switch req.Scheme { // a reducer's mistakes
	case "none":
		return sdk.Plan{Problems: []sdk.Problem{{Kind: sdk.Binary}}}, nil
	case "short":
		return sdk.Plan{Problems: []sdk.Problem{{Kind: sdk.Binary, Targets: []float64{1, -1}}}}, nil
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
// problems that have it; the host's reading of either is the same plan
// (compact targets kept compact), whether the reducer gave dense targets
// or compact ones, which go as they are: the request's labels are the
// row groups.
func TestPlanSendsCompactTargetsOnlyWhenAccepted(t *testing.T) {
	conn := plugintest.Conn(t, sdk.WithReducer(ovaReducer{}))
	rpc := pb.NewReducerServiceClient(conn)
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
		for j, p := range got {
			if (p.Compact != nil) != tt.compact {
				t.Errorf("%s, accepts %v: problem %d read back with compact targets %v", tt.scheme, tt.accepts, j, p.Compact)
			}
			got[j] = p.Dense()
		}
		if tt.scheme != "reg" && !reflect.DeepEqual(got, want.Problems) {
			t.Errorf("%s, accepts %v: problems %v, want %v", tt.scheme, tt.accepts, got, want.Problems)
		}
		if tt.scheme == "ova-code" && tt.compact && !slices.Equal(r.GetRowGroups(), labels) {
			t.Errorf("ova-code: row groups %v, want the labels %v", r.GetRowGroups(), labels)
		}
	}
}

// A plan whose compact targets do not cover its rows' groups is refused
// with the problem at fault, whichever form the host reads.
func TestPlanBadCompactTargets(t *testing.T) {
	conn := plugintest.Conn(t, sdk.WithReducer(ovaReducer{}))
	rpc := pb.NewReducerServiceClient(conn)
	for _, accepts := range []bool{false, true} {
		_, err := rpc.Plan(context.Background(), &pb.PlanRequest{Scheme: "ova-bad", NumClasses: 3, Labels: []int32{1, 0, 2}, AcceptsCodeTargets: accepts})
		if want := "plan ova-bad: problem 1: row 2 is in group 2, outside the code's 0..1"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("accepts %v: error %v, want one containing %q", accepts, err, want)
		}
	}
}

// A plan whose problems do not have a target for each training row
// (none at all, or too few) is refused with the problem at fault.
func TestPlanWithoutTargetsPerRow(t *testing.T) {
	conn := plugintest.Conn(t, sdk.WithReducer(ovaReducer{}))
	rpc := pb.NewReducerServiceClient(conn)
	for scheme, want := range map[string]string{
		"none":  "plan none: problem 0 has no targets (neither dense nor compact ones) for the 3 training rows",
		"short": "plan short: problem 0 has 2 targets for the 3 training rows",
	} {
		_, err := rpc.Plan(context.Background(), &pb.PlanRequest{Scheme: scheme, NumClasses: 3, Labels: []int32{1, 0, 2}, AcceptsCodeTargets: true})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one containing %q", scheme, err, want)
		}
	}
}

// A decode request whose probabilities or training scores do not match its
// scores is refused before the reducer indexes them (a reducer would
// otherwise run past a matrix's end and the plugin would crash).
func TestDecodeRefusesMismatchedShapes(t *testing.T) {
	conn := plugintest.Conn(t, sdk.WithReducer(ovaReducer{}))
	rpc := pb.NewReducerServiceClient(conn)
	dense := func(r, c int) *pb.Dense { return convert.DenseToPB(mat.NewDense(r, c, nil)) }
	for _, tt := range []struct {
		name string
		req  *pb.DecodeRequest
		want string // "" for none
	}{
		{"matching", &pb.DecodeRequest{Scheme: "ova", Scores: dense(4, 3), Probabilities: dense(4, 3), TrainingScores: dense(9, 3)}, ""},
		{"probabilities too wide", &pb.DecodeRequest{Scheme: "ova", Scores: dense(4, 3), Probabilities: dense(4, 6)}, "decode ova: probabilities are 4 × 6, the scores 4 × 3"},
		{"probabilities a row short", &pb.DecodeRequest{Scheme: "ova", Scores: dense(4, 3), Probabilities: dense(3, 3)}, "decode ova: probabilities are 3 × 3, the scores 4 × 3"},
		{"training scores too narrow", &pb.DecodeRequest{Scheme: "ova", Scores: dense(4, 3), TrainingScores: dense(9, 2)}, "decode ova: training scores have 2 columns, the scores 3"},
	} {
		_, err := rpc.Decode(context.Background(), tt.req)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}
