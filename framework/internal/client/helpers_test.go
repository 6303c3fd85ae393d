package client

import (
	"google.golang.org/grpc"

	"github.com/polyclass/polyclass/framework/internal/wire"
)

// The tests that moved here from package host with the clients call them
// by the host's names.

// NewLearnerClient is host.NewLearnerClient: a learner client without a
// shared segment.
func NewLearnerClient(conn *grpc.ClientConn) *LearnerClient { return NewLearner(conn, nil) }

// NewReducerClient is host.NewReducerClient.
func NewReducerClient(conn *grpc.ClientConn) *ReducerClient { return NewReducer(conn, nil) }

// dialOptions are the dial options the host connects to plugins with.
func dialOptions() []grpc.DialOption { return wire.DialOptions() }
