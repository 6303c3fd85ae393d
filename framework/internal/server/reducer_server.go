package server

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyclass/polyclass/framework/internal/convert"
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/problem"
	"github.com/polyclass/polyclass/framework/sharedmem"
)

// reducerServer serves a Reducer over gRPC.
type reducerServer struct {
	pb.UnimplementedReducerServiceServer
	impl    plugin.Reducer
	info    plugin.ReducerInfo
	schemes map[string]plugin.Scheme
	// shared is the segment the host shares with the process, or nil.
	shared *sharedmem.Segment
}

func newReducerServer(impl plugin.Reducer, shared *sharedmem.Segment) *reducerServer {
	info := impl.Info()
	s := &reducerServer{impl: impl, info: info, schemes: map[string]plugin.Scheme{}, shared: shared}
	for _, sc := range info.Schemes {
		s.schemes[sc.Name] = sc
	}
	return s
}

func (s *reducerServer) Info(context.Context, *pb.InfoRequest) (*pb.ReducerInfo, error) {
	out := convert.ReducerInfoToPB(s.info, runtimeReport(s.info.Runtime))
	out.SharedMemory = s.shared != nil
	return out, nil
}

// params checks and completes the parameters of a scheme.
func (s *reducerServer) params(scheme string, m map[string]*pb.Value) (plugin.Params, error) {
	sc, ok := s.schemes[scheme]
	if !ok {
		return nil, status.Errorf(codes.InvalidArgument, "unknown scheme %q", scheme)
	}
	p := convert.ParamsFromPB(m)
	if errs := plugin.CheckParams(sc.Params, p); len(errs) > 0 {
		err := errors.Join(errs...)
		return nil, statusErr(codes.InvalidArgument, fmt.Sprintf("scheme %s: %v", scheme, err), err)
	}
	return plugin.WithDefaults(sc.Params, p), nil
}

func (s *reducerServer) Plan(ctx context.Context, req *pb.PlanRequest) (*pb.PlanResponse, error) {
	params, err := s.params(req.GetScheme(), req.GetParams())
	if err != nil {
		return nil, err
	}
	pr, err := convert.PlanRequestFromPB(req, params)
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "label matrix: %v", err)
	}
	plan, err := s.impl.Plan(ctx, pr)
	if err != nil {
		return nil, statusErr(codes.InvalidArgument, fmt.Sprintf("plan %s: %v", req.GetScheme(), err), err)
	}
	out := convert.PlanToPB(plan)
	if err := problem.CheckRows(plan.Problems, pr.Rows()); err != nil {
		return nil, status.Errorf(codes.Internal, "plan %s: %v", req.GetScheme(), err)
	}
	if out.Problems, out.RowGroups, err = planProblemsToPB(plan, req.GetAcceptsCodeTargets()); err != nil {
		return nil, status.Errorf(codes.Internal, "plan %s: %v", req.GetScheme(), err)
	}
	return out, nil
}

// planProblemsToPB returns the message form of a plan's problems: compact
// when the host reads compact targets (compact) and the problems have
// that form (problems with CompactTargets over one Groups slice go as
// they are), else dense. Compact targets are checked first: a group index
// outside its code, or an entry not −1, 0 or +1, is the reducer's error.
func planProblemsToPB(plan plugin.Plan, compact bool) ([]*pb.Problem, []int32, error) {
	if err := convert.CheckCompact(plan.Problems); err != nil {
		return nil, nil, err
	}
	out, groups := convert.ProblemsToPB(plan.Problems, compact)
	return out, groups, nil
}

func (s *reducerServer) Decode(ctx context.Context, req *pb.DecodeRequest) (*pb.DecodeResponse, error) {
	params, err := s.params(req.GetScheme(), req.GetParams())
	if err != nil {
		return nil, err
	}
	var dr plugin.DecodeRequest
	dr.Scheme, dr.Params, dr.State = req.GetScheme(), params, req.GetState()
	for _, m := range []struct {
		dst **mat.Dense
		src *pb.Dense
		nm  string
	}{
		{&dr.Scores, req.GetScores(), "scores"},
		{&dr.Probabilities, req.GetProbabilities(), "probabilities"},
		{&dr.TrainingScores, req.GetTrainingScores(), "training scores"},
	} {
		// A matrix in the shared segment is a view of the host's region,
		// which stays allocated until the call returns.
		if *m.dst, err = convert.DenseFromShared(s.shared, m.src); err != nil {
			return nil, status.Errorf(codes.InvalidArgument, "%s: %v", m.nm, err)
		}
	}
	if dr.Scores == nil {
		return nil, status.Error(codes.InvalidArgument, "decode: no scores")
	}
	if err := checkDecodeShapes(dr); err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "decode %s: %v", req.GetScheme(), err)
	}
	d, err := s.impl.Decode(ctx, dr)
	if err != nil {
		return nil, statusErr(codes.InvalidArgument, fmt.Sprintf("decode %s: %v", req.GetScheme(), err), err)
	}
	n, _ := dr.Scores.Dims()
	if d.Predicted != nil && len(d.Predicted) != n {
		return nil, status.Errorf(codes.Internal, "decode %s: %d predictions for %d rows", req.GetScheme(), len(d.Predicted), n)
	}
	return &pb.DecodeResponse{
		Predicted: convert.Ints[int32](d.Predicted), ClassScores: convert.DenseToPB(d.ClassScores),
		LabelMatrix: convert.DenseToPB(d.LabelMatrix), Ties: int64(d.Ties),
		ClassScoresAreProbabilities: d.ClassScoresAreProbabilities,
	}, nil
}

// checkDecodeShapes checks that a decode request's matrices agree before a
// reducer indexes them: probabilities of the scores' shape, training
// scores with the scores' columns.
func checkDecodeShapes(dr plugin.DecodeRequest) error {
	n, l := dr.Scores.Dims()
	if dr.Probabilities != nil {
		if r, c := dr.Probabilities.Dims(); r != n || c != l {
			return fmt.Errorf("probabilities are %d × %d, the scores %d × %d", r, c, n, l)
		}
	}
	if dr.TrainingScores != nil {
		if _, c := dr.TrainingScores.Dims(); c != l {
			return fmt.Errorf("training scores have %d columns, the scores %d", c, l)
		}
	}
	return nil
}
