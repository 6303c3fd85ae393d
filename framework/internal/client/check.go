package client

import (
	"context"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyclass/polyclass/framework/internal/convert"
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/plugin"
)

// ParamProblem is one parameter's fault that a learner found in
// CheckParams, or a reducer in CheckScheme; Param is empty for a fault of
// the parameters as a whole.
type ParamProblem struct {
	Param, Message string
}

// ParamCheck is a learner's answer to CheckParams, or a reducer's to
// CheckScheme: what is wrong with one combination of its parameters, and
// (a learner's) what a fit with them computes with beyond the plugin's
// runtime report.
type ParamCheck struct {
	Problems []ParamProblem
	Runtime  []plugin.Component
}

// CheckParams asks the learner to check one combination of parameters as
// its Fit would, before any data is uploaded. A plugin that does not
// implement the call (Unimplemented) has no objection and adds nothing.
func (c *LearnerClient) CheckParams(ctx context.Context, params plugin.Params) (ParamCheck, error) {
	r, err := c.rpc.CheckParams(ctx, &pb.CheckParamsRequest{Params: convert.ParamsToPB(params)})
	if status.Code(err) == codes.Unimplemented {
		return ParamCheck{}, nil
	}
	if err != nil {
		return ParamCheck{}, rpcErr("learner check params", err)
	}
	return paramCheck(r), nil
}

// paramCheck is the ParamCheck of a plugin's answer.
func paramCheck(r *pb.CheckParamsResponse) ParamCheck {
	out := ParamCheck{Runtime: convert.ComponentsFromPB(r.GetRuntime())}
	for _, p := range r.GetProblems() {
		out.Problems = append(out.Problems, ParamProblem{Param: p.GetParam(), Message: p.GetMessage()})
	}
	return out
}

// CheckScheme asks the reducer to check one combination of a scheme's
// parameters without data (see plugin.SchemeChecker). A plugin that does
// not implement the call (Unimplemented) has no objection.
func (c *ReducerClient) CheckScheme(ctx context.Context, scheme string, params plugin.Params) (ParamCheck, error) {
	r, err := c.rpc.CheckScheme(ctx, &pb.CheckSchemeRequest{Scheme: scheme, Params: convert.ParamsToPB(params)})
	if status.Code(err) == codes.Unimplemented {
		return ParamCheck{}, nil
	}
	if err != nil {
		return ParamCheck{}, rpcErr("reducer check scheme", err)
	}
	return paramCheck(r), nil
}
