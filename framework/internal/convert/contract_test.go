package convert

import (
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/problem"
)

// TestContractRoundTrips: each contract value the protocol carries whole
// (Info, a plan request, a plan) comes back equal after its message has
// crossed the wire, every field set.
func TestContractRoundTrips(t *testing.T) {
	runtime := []plugin.Component{{Name: "go", Version: "go1.26"}}
	specs := []param.ParamSpec{{Name: "C", Type: param.NumberParam, Default: param.Number(1), Min: param.Bound(0)},
		{Name: "k", Type: param.IntegerParam, Default: param.Number(5), Min: param.Bound(1), AtMostTrainingRows: true}}
	learner := plugin.LearnerInfo{Name: "l", Version: "1", Description: "a learner",
		Capabilities: plugin.Capabilities{Binary: true, Multiclass: true, Regression: true, Scores: true, Probabilities: true, Sparse: true, Weights: true},
		Params:       specs, Runtime: runtime}
	reducer := plugin.ReducerInfo{Name: "r", Version: "2", Description: "a reducer", Runtime: runtime,
		Schemes: []plugin.Scheme{{Name: "ovo", Description: "one-vs-one", MultiLabel: true, NeedsMulticlass: true, NeedsRegression: true, Params: specs, RowWiseDecode: true}}}
	req := plugin.PlanRequest{Scheme: "ovo", Params: param.Params{"C": param.Number(2)}, NumClasses: 3, Labels: []int{0, 2, 1},
		LabelMatrix: mat.NewDense(3, 3, []float64{1, 0, 0, 0, 0, 1, 0, 1, 0}), ClassNames: []string{"a", "b", "c"}, Seed: 7, Stage: 1, State: []byte{1, 2}}
	plan := plugin.Plan{
		Problems: []problem.Problem{{Kind: problem.Binary, Targets: []float64{1, -1, 0}}},
		State:    []byte{3}, NextStage: &plugin.StageSpec{InnerFolds: 3, AppendOutputs: true, InnerSeed: 9},
		Code:     &problem.CodeMatrix{Rows: 3, Cols: 1, Entries: []int8{1, -1, 0}},
		Warnings: []string{"w"}, NeedsTrainingScores: true, IgnoresProbabilities: true,
		Description: plugin.PlanDescription{Code: "one-vs-one, 3 columns", Decoder: "votes"},
	}
	for _, tc := range []struct {
		name string
		in   any
		trip func(t *testing.T) any
	}{
		{"learner info", learner, func(t *testing.T) any {
			var got pb.LearnerInfo
			throughWire(t, LearnerInfoToPB(learner, runtime), &got)
			return LearnerInfoFromPB(&got)
		}},
		{"reducer info", reducer, func(t *testing.T) any {
			var got pb.ReducerInfo
			throughWire(t, ReducerInfoToPB(reducer, runtime), &got)
			return ReducerInfoFromPB(&got)
		}},
		{"plan request", req, func(t *testing.T) any {
			var got pb.PlanRequest
			throughWire(t, PlanRequestToPB(req), &got)
			back, err := PlanRequestFromPB(&got, req.Params)
			if err != nil {
				t.Fatal(err)
			}
			return back
		}},
		{"plan", plan, func(t *testing.T) any {
			msg := PlanToPB(plan)
			msg.Problems = []*pb.Problem{ProblemToPB(plan.Problems[0])}
			var got pb.PlanResponse
			throughWire(t, msg, &got)
			back, err := PlanFromPB(&got)
			if err != nil {
				t.Fatal(err)
			}
			return back
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.trip(t); !reflect.DeepEqual(got, tc.in) {
				t.Errorf("after the wire:\n%+v\nwant\n%+v", got, tc.in)
			}
		})
	}
}
