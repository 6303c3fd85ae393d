package convert

import (
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/plugin"
)

// LearnerInfoToPB returns the message of a learner's Info, with runtime as
// its runtime report. The fields that describe the server rather than the
// learner (code_targets, shared_memory) are the server's to set.
func LearnerInfoToPB(info plugin.LearnerInfo, runtime []plugin.Component) *pb.LearnerInfo {
	c := info.Capabilities
	return &pb.LearnerInfo{
		Name: info.Name, Version: info.Version, Description: info.Description,
		Binary: c.Binary, Multiclass: c.Multiclass, Regression: c.Regression, Scores: c.Scores,
		Probabilities: c.Probabilities, Sparse: c.Sparse, Weights: c.Weights, Params: SpecsToPB(info.Params),
		Runtime: ComponentsToPB(runtime),
	}
}

// LearnerInfoFromPB returns the learner's Info a message describes.
func LearnerInfoFromPB(r *pb.LearnerInfo) plugin.LearnerInfo {
	return plugin.LearnerInfo{
		Name: r.GetName(), Version: r.GetVersion(), Description: r.GetDescription(),
		Capabilities: plugin.Capabilities{
			Binary: r.GetBinary(), Multiclass: r.GetMulticlass(), Regression: r.GetRegression(),
			Scores: r.GetScores(), Probabilities: r.GetProbabilities(), Sparse: r.GetSparse(),
			Weights: r.GetWeights(),
		},
		Params:  SpecsFromPB(r.GetParams()),
		Runtime: ComponentsFromPB(r.GetRuntime()),
	}
}

// ReducerInfoToPB returns the message of a reducer's Info, with runtime as
// its runtime report (shared_memory is the server's to set).
func ReducerInfoToPB(info plugin.ReducerInfo, runtime []plugin.Component) *pb.ReducerInfo {
	out := &pb.ReducerInfo{
		Name: info.Name, Version: info.Version, Description: info.Description,
		Runtime: ComponentsToPB(runtime),
	}
	for _, sc := range info.Schemes {
		out.Schemes = append(out.Schemes, &pb.Scheme{
			Name: sc.Name, Description: sc.Description, Multilabel: sc.MultiLabel,
			NeedsMulticlass: sc.NeedsMulticlass, NeedsRegression: sc.NeedsRegression, Params: SpecsToPB(sc.Params),
			RowWiseDecode: sc.RowWiseDecode,
		})
	}
	return out
}

// ReducerInfoFromPB returns the reducer's Info a message describes.
func ReducerInfoFromPB(r *pb.ReducerInfo) plugin.ReducerInfo {
	info := plugin.ReducerInfo{
		Name: r.GetName(), Version: r.GetVersion(), Description: r.GetDescription(),
		Runtime: ComponentsFromPB(r.GetRuntime()),
	}
	for _, s := range r.GetSchemes() {
		info.Schemes = append(info.Schemes, plugin.Scheme{
			Name: s.GetName(), Description: s.GetDescription(), MultiLabel: s.GetMultilabel(),
			NeedsMulticlass: s.GetNeedsMulticlass(), NeedsRegression: s.GetNeedsRegression(),
			Params: SpecsFromPB(s.GetParams()), RowWiseDecode: s.GetRowWiseDecode(),
		})
	}
	return info
}
