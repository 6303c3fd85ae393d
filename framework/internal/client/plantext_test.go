package client

import (
	"context"
	"testing"

	"google.golang.org/grpc"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/sdk"
)

// textPlanReducer is a reducer service whose plan (one problem of
// one-vs-all over the request's rows) carries the warnings and
// description it is given.
type textPlanReducer struct {
	pb.UnimplementedReducerServiceServer
	warnings      []string
	code, decoder string
}

func (r textPlanReducer) Plan(_ context.Context, req *pb.PlanRequest) (*pb.PlanResponse, error) {
	return &pb.PlanResponse{
		Problems:    []*pb.Problem{{Kind: pb.Problem_BINARY, Targets: make([]float64, len(req.GetLabels()))}},
		Warnings:    r.warnings,
		Description: &pb.PlanDescription{Code: r.code, Decoder: r.decoder},
	}, nil
}

// TestPlanRefusesHiddenText: a plan whose warnings or description hold an
// escape sequence (ESC, OSC ended by BEL), a carriage return or a bidi
// override is refused, naming the string, escaped (campaign 10's
// E10/E11/E13: the host printed them raw on the terminal and wrote them
// into the report and manifest.json); plain text, accents and dashes
// pass.
func TestPlanRefusesHiddenText(t *testing.T) {
	const rule = "; a reducer's warnings and plan description may hold no control, bidi control or other invisible character"
	for _, tc := range []struct {
		name string
		r    textPlanReducer
		want string
	}{
		{"plain", textPlanReducer{warnings: []string{"column 3 repeats column 1 (Hamming distance 0)"}, code: "one-vs-one, K(K−1)/2 columns", decoder: "votes, Vázquez"}, ""},
		{"ESC in a warning", textPlanReducer{warnings: []string{"fine", "warn \x1b[31mRED"}},
			`plan: the Plan answer's warning 2 "warn \x1b[31mRED" holds an escape (U+001B) at character 6` + rule},
		{"OSC and BEL in a warning", textPlanReducer{warnings: []string{"\x1b]0;pwned-title\x07"}},
			`plan: the Plan answer's warning 1 "\x1b]0;pwned-title\a" holds an escape (U+001B) at character 1` + rule},
		{"BEL alone in a warning", textPlanReducer{warnings: []string{"ding\x07"}},
			`plan: the Plan answer's warning 1 "ding\a" holds a control character (U+0007) at character 5` + rule},
		{"CR in the code", textPlanReducer{code: "ova\rfake code"},
			`plan: the Plan answer's description code "ova\rfake code" holds a carriage return (U+000D) at character 4` + rule},
		{"RLO in the decoder", textPlanReducer{decoder: "votes \u202etxet"},
			`plan: the Plan answer's description decoder "votes \u202etxet" holds a right-to-left override (U+202E) at character 7` + rule},
		{"two at once", textPlanReducer{warnings: []string{"\x1b[2J"}, decoder: "\u202e"},
			`plan: the Plan answer's warning 1 "\x1b[2J" holds an escape (U+001B) at character 1` + rule + "\n" +
				`the Plan answer's description decoder "\u202e" holds a right-to-left override (U+202E) at character 1` + rule},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn := serveConn(t, "text", func(srv *grpc.Server) error {
				pb.RegisterReducerServiceServer(srv, tc.r)
				return nil
			})
			p, err := NewReducerClient(conn).Plan(context.Background(), sdk.PlanRequest{Scheme: "ova", NumClasses: 2, Labels: []int{0, 1, 1, 0}})
			if tc.want == "" {
				if err != nil || len(p.Warnings) != len(tc.r.warnings) || p.Description.Decoder != tc.r.decoder {
					t.Fatalf("Plan: %v, %+v; want the plan as sent", err, p)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Errorf("Plan: error\n%v\nwant\n%s", err, tc.want)
			}
		})
	}
}
