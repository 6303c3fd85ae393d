package client

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
)

// bigInfoLearner answers Info with a description of size bytes.
type bigInfoLearner struct {
	pb.UnimplementedLearnerServiceServer
	size int
}

func (l *bigInfoLearner) Info(context.Context, *pb.InfoRequest) (*pb.LearnerInfo, error) {
	return &pb.LearnerInfo{Name: "big", Binary: true, Scores: true, Description: strings.Repeat("x", l.size)}, nil
}

// TestInfoAnswerBounded: a plugin whose Info answer is larger than
// MaxInfoSize (campaign 4 p_hugeinfo: a 64 MiB description) is refused
// with an error that says so, and one just under it is read. On the code
// before, Info took answers up to the data messages' bound
// (wire.MaxMessageSize), so the 64 MiB description was read whole into
// the host.
func TestInfoAnswerBounded(t *testing.T) {
	tests := []struct {
		name string
		size int
		want string // "" for no error
	}{
		{"a usual description", 2000, ""},
		{"just under the bound", MaxInfoSize - 1024, ""},
		{"over the bound", MaxInfoSize + 1, "learner info: the plugin's description of itself is larger than the 4 MiB bench accepts (grpc: received message larger than max ("},
		{"64 MiB", 64 << 20, "learner info: the plugin's description of itself is larger than the 4 MiB bench accepts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conn := serveConn(t, "big", func(srv *grpc.Server) error {
				pb.RegisterLearnerServiceServer(srv, &bigInfoLearner{size: tt.size})
				return nil
			})
			info, err := NewLearnerClient(conn).Info(context.Background())
			switch {
			case tt.want == "" && (err != nil || len(info.Description) != tt.size):
				t.Errorf("Info: %v (description of %d bytes)", err, len(info.Description))
			case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)):
				t.Errorf("Info: %v\nwant %s…", err, tt.want)
			}
		})
	}
}
