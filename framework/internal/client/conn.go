package client

import (
	"google.golang.org/grpc"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/sharedmem"
)

// NewLearner returns the learner client of a connection to a plugin that
// shares the memory segment shared with the host (nil: none; score
// matrices then travel inline).
func NewLearner(conn grpc.ClientConnInterface, shared *sharedmem.Segment) *LearnerClient {
	return &LearnerClient{rpc: pb.NewLearnerServiceClient(conn), shared: shared}
}

// NewReducer returns the reducer client of a connection to a plugin that
// shares the memory segment shared with the host (nil: none).
func NewReducer(conn grpc.ClientConnInterface, shared *sharedmem.Segment) *ReducerClient {
	return &ReducerClient{rpc: pb.NewReducerServiceClient(conn), shared: shared}
}

// UsesShared reports whether the client places the plugin's answers in
// the shared segment (it has one and the plugin's Info said it uses it).
func (c *LearnerClient) UsesShared() bool { return c.useShared.Load() }

// UsesShared reports whether the client places decode matrices in the
// shared segment (see LearnerClient.UsesShared).
func (c *ReducerClient) UsesShared() bool { return c.useShared.Load() }

// Share sets the memory segment the client shares with its plugin, for a
// client made without one (a go-plugin dispense); call it before Info.
// Share(nil) stops the client using a segment: its matrices go inline.
func (c *LearnerClient) Share(shared *sharedmem.Segment) {
	c.shared = shared
	if shared == nil {
		c.useShared.Store(false)
	}
}

// Share sets the memory segment the client shares with its plugin (see
// LearnerClient.Share).
func (c *ReducerClient) Share(shared *sharedmem.Segment) {
	c.shared = shared
	if shared == nil {
		c.useShared.Store(false)
	}
}
