package host

import (
	"context"
	"fmt"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/sdk"
)

// NewLearnerClient returns the learner client of a connection to a plugin
// (or to a server a test made with the SDK's sdk.LearnerPlugin).
func NewLearnerClient(conn *grpc.ClientConn) *LearnerClient {
	return &LearnerClient{rpc: pb.NewLearnerServiceClient(conn)}
}

// NewReducerClient returns the reducer client of a connection to a plugin
// (or to a server a test made with the SDK's sdk.ReducerPlugin).
func NewReducerClient(conn *grpc.ClientConn) *ReducerClient {
	return &ReducerClient{rpc: pb.NewReducerServiceClient(conn)}
}

// clientPlugin is the host's half of a plugin service for go-plugin: it
// dispenses the service's client (*LearnerClient, *ReducerClient). The
// plugin's half is the SDK's (sdk.LearnerPlugin, sdk.ReducerPlugin).
type clientPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	service string
	client  func(*grpc.ClientConn) any
}

// GRPCServer refuses: the host serves no plugin service.
func (p clientPlugin) GRPCServer(*plugin.GRPCBroker, *grpc.Server) error {
	return fmt.Errorf("host: a %s is served by a plugin (the SDK's), not by the host", p.service)
}

// GRPCClient returns the service's client on c.
func (p clientPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (interface{}, error) {
	return p.client(c), nil
}

// PluginSets returns the versioned plugin sets a host dispenses from.
func PluginSets() map[int]plugin.PluginSet {
	return map[int]plugin.PluginSet{
		sdk.ProtocolVersion: {
			sdk.LearnerPluginName: clientPlugin{service: "learner", client: func(c *grpc.ClientConn) any { return NewLearnerClient(c) }},
			sdk.ReducerPluginName: clientPlugin{service: "reducer", client: func(c *grpc.ClientConn) any { return NewReducerClient(c) }},
		},
	}
}

// dialOptions are the dial options the host connects to plugins with:
// the message bound, buffers and windows of the SDK's servers.
func dialOptions() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(sdk.MaxMessageSize),
			grpc.MaxCallSendMsgSize(sdk.MaxMessageSize),
		),
		grpc.WithReadBufferSize(sdk.TransportBufferSize),
		grpc.WithWriteBufferSize(sdk.TransportBufferSize),
		grpc.WithInitialWindowSize(sdk.StreamWindowSize),
		grpc.WithInitialConnWindowSize(2 * sdk.StreamWindowSize),
	}
}
