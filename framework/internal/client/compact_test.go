package client

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"google.golang.org/grpc"

	"github.com/polyclass/polyclass/framework/internal/convert"
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/sdk"
)

// recordingLearner is a learner service that keeps the Fit requests it
// receives and says in Info whether it reads compact targets, as a plugin
// of another SDK (the Python one) or an older Go plugin does not.
type recordingLearner struct {
	pb.UnimplementedLearnerServiceServer
	codeTargets bool
	fits        []*pb.FitRequest
}

func (l *recordingLearner) Info(context.Context, *pb.InfoRequest) (*pb.LearnerInfo, error) {
	return &pb.LearnerInfo{Name: "rec", Binary: true, Scores: true, CodeTargets: l.codeTargets}, nil
}

func (l *recordingLearner) Fit(_ context.Context, req *pb.FitRequest) (*pb.FitResponse, error) {
	l.fits = append(l.fits, req)
	out := &pb.FitResponse{}
	for range req.GetProblems() {
		out.Models = append(out.Models, &pb.Model{Handle: "m", Outputs: 1})
	}
	return out, nil
}

// serveRecording serves l in-process and returns the host's client, after
// its Info (as the host probes a plugin).
func serveRecording(t *testing.T, l *recordingLearner) *LearnerClient {
	t.Helper()
	conn := serveConn(t, "rec", func(srv *grpc.Server) error {
		pb.RegisterLearnerServiceServer(srv, l)
		return nil
	})
	c := NewLearnerClient(conn)
	if _, err := c.Info(context.Background()); err != nil {
		t.Fatal(err)
	}
	return c
}

// A learner that declares code_targets gets the problems of a code matrix
// in compact form, and one that does not (an older plugin, or one of
// another SDK) gets dense targets; both read the same targets, whether the host
// held them dense or compact (as it keeps a plan's: then they go as they
// are, the rows' classes as the row groups). Every request, whole or a
// part of a split batch, carries the call's threads.
func TestFitSendsCompactTargetsOnlyToLearnersThatReadThem(t *testing.T) {
	labels := []int{0, 2, 1, 1, 0, 2, 2}
	groups := convert.Ints[int32](labels)
	code := sdk.CodeMatrix{Rows: 3, Cols: 3, Entries: []int8{1, -1, -1, -1, 1, -1, -1, -1, 1}}
	ova := make([]sdk.Problem, 3)
	ovaCompact := make([]sdk.Problem, 3)
	for k := range ova {
		tg := make([]float64, len(labels))
		for i, y := range labels {
			tg[i] = -1
			if y == k {
				tg[i] = 1
			}
		}
		ova[k] = sdk.Problem{Kind: sdk.Binary, Targets: tg, Seed: uint64(k)}
		ovaCompact[k] = sdk.Problem{Kind: sdk.Binary, Compact: sdk.CodeColumn(code, k, groups), Seed: uint64(k)}
	}
	rows := []int{0, 1, 2, 3, 4, 5, 6}
	for _, tt := range []struct {
		name     string
		problems []sdk.Problem
		compact  bool
	}{{"dense", ova, false}, {"dense", ova, true}, {"compact", ovaCompact, false}, {"compact", ovaCompact, true}} {
		l := &recordingLearner{codeTargets: tt.compact}
		c := serveRecording(t, l)
		if _, err := c.Fit(context.Background(), "d", rows, nil, tt.problems, 3); err != nil {
			t.Fatal(err)
		}
		req := l.fits[0]
		if req.GetThreads() != 3 {
			t.Errorf("%s, code_targets %v: threads %d, want 3", tt.name, tt.compact, req.GetThreads())
		}
		if got := len(req.GetRowGroups()) > 0; got != tt.compact {
			t.Errorf("%s, code_targets %v: row groups %v", tt.name, tt.compact, req.GetRowGroups())
		}
		if tt.name == "compact" && tt.compact && !slices.Equal(req.GetRowGroups(), groups) {
			t.Errorf("compact, code_targets true: row groups %v, want the labels %v", req.GetRowGroups(), groups)
		}
		for j, p := range req.GetProblems() {
			if (len(p.GetCode()) > 0) != tt.compact || (len(p.GetTargets()) > 0) == tt.compact {
				t.Errorf("%s, code_targets %v: problem %d has %d targets, %d code entries", tt.name, tt.compact, j, len(p.GetTargets()), len(p.GetCode()))
			}
		}
		got, err := convert.ProblemsFromPB(req.GetProblems(), req.GetRowGroups())
		for j := range got {
			got[j] = got[j].Dense()
		}
		if err != nil || !reflect.DeepEqual(got, ova) {
			t.Errorf("%s, code_targets %v: problems %v, %v; want %v", tt.name, tt.compact, got, err, ova)
		}
	}
	// A batch split under a small message bound carries the threads in
	// every part.
	l := &recordingLearner{}
	c := serveRecording(t, l)
	c.MaxMessageBytes = 200
	if _, err := c.Fit(context.Background(), "d", rows, nil, ova, 5); err != nil {
		t.Fatal(err)
	}
	if len(l.fits) < 2 {
		t.Fatalf("%d Fit calls under a 200-byte bound, want a split batch", len(l.fits))
	}
	for i, req := range l.fits {
		if req.GetThreads() != 5 {
			t.Errorf("split part %d: threads %d, want 5", i, req.GetThreads())
		}
	}
}

// shortPlanReducer is a reducer service, of any SDK, whose plans give
// each problem fewer targets than the request has training rows.
type shortPlanReducer struct {
	pb.UnimplementedReducerServiceServer
}

func (shortPlanReducer) Plan(_ context.Context, req *pb.PlanRequest) (*pb.PlanResponse, error) {
	n := len(req.GetLabels()) - 1
	return &pb.PlanResponse{Problems: []*pb.Problem{
		{Kind: pb.Problem_BINARY, Targets: make([]float64, n+1)},
		{Kind: pb.Problem_BINARY, Targets: make([]float64, n)},
	}}, nil
}

// The host refuses a plan whose problems do not have a target for each
// training row, naming the problem, rather than failing later in the fold.
func TestPlanRefusesTargetsOfOtherRows(t *testing.T) {
	conn := serveConn(t, "short", func(srv *grpc.Server) error {
		pb.RegisterReducerServiceServer(srv, shortPlanReducer{})
		return nil
	})
	_, err := NewReducerClient(conn).Plan(context.Background(), sdk.PlanRequest{Scheme: "ova", NumClasses: 2, Labels: []int{0, 1, 1, 0}})
	if want := "plan: problem 1 has 3 targets for the 4 training rows"; err == nil || err.Error() != want {
		t.Errorf("Plan: error %v, want %q", err, want)
	}
}
