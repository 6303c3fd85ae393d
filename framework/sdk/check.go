package sdk

import (
	"context"
	"errors"

	"github.com/polyclass/polyclass/framework/internal/convert"
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
)

// ParamChecker is an optional interface of a Learner whose parameters need
// more checking than their specs give: a bridge to a library that takes
// parameters the plugin does not list (a "*" spec), or that imports what
// a parameter names. bench validate and bench run call it for every
// combination of a learner block's parameters before any data is
// uploaded, once the specs' own checks pass, with the defaults filled in.
//
// CheckParams returns the components a fit with params computes with
// beyond Info's Runtime (a library a parameter names, say), and an error
// for bad values: a ParamError, or several joined (errors.Join), each
// located at its parameter in the experiment file. It must not train.
type ParamChecker interface {
	CheckParams(ctx context.Context, params Params) ([]Component, error)
}

// CheckParams checks one combination of parameters against the specs,
// then with the learner's ParamChecker when it has one.
func (s *learnerServer) CheckParams(ctx context.Context, req *pb.CheckParamsRequest) (*pb.CheckParamsResponse, error) {
	p := convert.ParamsFromPB(req.GetParams())
	resp := &pb.CheckParamsResponse{}
	if errs := CheckParams(s.info.Params, p); len(errs) > 0 {
		for _, err := range errs {
			resp.Problems = append(resp.Problems, paramProblems(err)...)
		}
		return resp, nil
	}
	c, ok := s.impl.(ParamChecker)
	if !ok {
		return resp, nil
	}
	runtime, err := c.CheckParams(ctx, WithDefaults(s.info.Params, p))
	resp.Problems = paramProblems(err)
	resp.Runtime = convert.ComponentsToPB(runtime)
	return resp, nil
}

// paramProblems lists the ParamErrors of err (joined ones included) as
// protocol problems; an error that blames no parameter is a problem of
// the learner as a whole (param "").
func paramProblems(err error) []*pb.ParamProblem {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []*pb.ParamProblem
		for _, e := range j.Unwrap() {
			out = append(out, paramProblems(e)...)
		}
		return out
	}
	var pe *ParamError
	if errors.As(err, &pe) {
		return []*pb.ParamProblem{{Param: pe.Param, Message: pe.Err.Error()}}
	}
	return []*pb.ParamProblem{{Message: err.Error()}}
}
