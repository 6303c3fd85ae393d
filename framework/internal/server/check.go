package server

import (
	"context"
	"errors"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyclass/polyclass/framework/internal/convert"
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/plugin"
)

// CheckParams checks one combination of parameters against the specs,
// then with the learner's ParamChecker when it has one.
func (s *learnerServer) CheckParams(ctx context.Context, req *pb.CheckParamsRequest) (*pb.CheckParamsResponse, error) {
	p := convert.ParamsFromPB(req.GetParams())
	resp := &pb.CheckParamsResponse{}
	if resp.Problems = specProblems(s.info.Params, p); len(resp.Problems) > 0 {
		return resp, nil
	}
	c, ok := s.impl.(plugin.ParamChecker)
	if !ok {
		return resp, nil
	}
	runtime, err := c.CheckParams(ctx, plugin.WithDefaults(s.info.Params, p))
	resp.Problems = paramProblems(err)
	resp.Runtime = convert.ComponentsToPB(runtime)
	return resp, nil
}

// specProblems checks p against specs, as protocol problems (none when
// the specs take p).
func specProblems(specs []plugin.ParamSpec, p plugin.Params) []*pb.ParamProblem {
	var out []*pb.ParamProblem
	for _, err := range plugin.CheckParams(specs, p) {
		out = append(out, paramProblems(err)...)
	}
	return out
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
	var pe *plugin.ParamError
	if errors.As(err, &pe) {
		return []*pb.ParamProblem{{Param: pe.Param, Message: pe.Err.Error()}}
	}
	return []*pb.ParamProblem{{Message: err.Error()}}
}

// CheckScheme checks one combination of a scheme's parameters against
// the scheme's specs, then with the reducer's SchemeChecker when it has
// one. An unknown scheme is an error of the call, as in Plan.
func (s *reducerServer) CheckScheme(ctx context.Context, req *pb.CheckSchemeRequest) (*pb.CheckParamsResponse, error) {
	sc, ok := s.schemes[req.GetScheme()]
	if !ok {
		return nil, status.Errorf(codes.InvalidArgument, "unknown scheme %q", req.GetScheme())
	}
	p := convert.ParamsFromPB(req.GetParams())
	resp := &pb.CheckParamsResponse{}
	if resp.Problems = specProblems(sc.Params, p); len(resp.Problems) > 0 {
		return resp, nil
	}
	c, ok := s.impl.(plugin.SchemeChecker)
	if !ok {
		return resp, nil
	}
	resp.Problems = paramProblems(c.CheckScheme(ctx, sc.Name, plugin.WithDefaults(sc.Params, p)))
	return resp, nil
}
