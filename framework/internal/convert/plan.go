package convert

import (
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/plugin"
)

// PlanRequestToPB returns the message of a plan request
// (accepts_code_targets is the client's to set).
func PlanRequestToPB(req plugin.PlanRequest) *pb.PlanRequest {
	return &pb.PlanRequest{
		Scheme: req.Scheme, Params: ParamsToPB(req.Params), NumClasses: int32(req.NumClasses),
		Labels: Ints[int32](req.Labels), LabelMatrix: DenseToPB(req.LabelMatrix), Seed: req.Seed, ClassNames: req.ClassNames,
		Stage: int32(req.Stage), State: req.State,
	}
}

// PlanRequestFromPB returns the plan request a message holds, with params
// (the scheme's, checked and completed by the server) as its parameters.
func PlanRequestFromPB(req *pb.PlanRequest, params plugin.Params) (plugin.PlanRequest, error) {
	lm, err := DenseFromPB(req.GetLabelMatrix())
	if err != nil {
		return plugin.PlanRequest{}, err
	}
	return plugin.PlanRequest{
		Scheme: req.GetScheme(), Params: params, NumClasses: int(req.GetNumClasses()),
		Labels: Ints[int](req.GetLabels()), LabelMatrix: lm, ClassNames: req.GetClassNames(),
		Seed: req.GetSeed(), Stage: int(req.GetStage()), State: req.GetState(),
	}, nil
}

// PlanToPB returns the message of a plan without its problems, which the
// server sends dense or compact as the request accepts.
func PlanToPB(plan plugin.Plan) *pb.PlanResponse {
	out := &pb.PlanResponse{
		Code: CodeToPB(plan.Code), State: plan.State, NeedsTrainingScores: plan.NeedsTrainingScores,
		IgnoresProbabilities: plan.IgnoresProbabilities,
		CodeDiagnostics:      CodeDiagnosticsToPB(plan.Diagnostics), Warnings: plan.Warnings,
	}
	if d := plan.Description; d != (plugin.PlanDescription{}) {
		out.Description = &pb.PlanDescription{Code: d.Code, Decoder: d.Decoder}
	}
	if plan.NextStage != nil {
		out.NextStage = &pb.StageSpec{InnerFolds: int32(plan.NextStage.InnerFolds), AppendOutputs: plan.NextStage.AppendOutputs, InnerSeed: plan.NextStage.InnerSeed}
	}
	return out
}

// PlanFromPB returns the plan a message holds, problems included.
func PlanFromPB(r *pb.PlanResponse) (plugin.Plan, error) {
	p := plugin.Plan{
		Code: CodeFromPB(r.GetCode()), State: r.GetState(), NeedsTrainingScores: r.GetNeedsTrainingScores(),
		IgnoresProbabilities: r.GetIgnoresProbabilities(),
		Diagnostics:          CodeDiagnosticsFromPB(r.GetCodeDiagnostics()), Warnings: r.GetWarnings(),
		Description: plugin.PlanDescription{Code: r.GetDescription().GetCode(), Decoder: r.GetDescription().GetDecoder()},
	}
	if ns := r.GetNextStage(); ns != nil {
		p.NextStage = &plugin.StageSpec{InnerFolds: int(ns.GetInnerFolds()), AppendOutputs: ns.GetAppendOutputs(), InnerSeed: ns.GetInnerSeed()}
	}
	var err error
	p.Problems, err = ProblemsFromPB(r.GetProblems(), r.GetRowGroups())
	return p, err
}
