package host

import (
	"context"
	"errors"

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

// learnerPlugin is the host's half of the learner service for go-plugin:
// it dispenses a *LearnerClient. The plugin's half is sdk.LearnerPlugin.
type learnerPlugin struct {
	plugin.NetRPCUnsupportedPlugin
}

// GRPCServer refuses: the host serves no learner.
func (learnerPlugin) GRPCServer(*plugin.GRPCBroker, *grpc.Server) error {
	return errors.New("host: a learner is served by a plugin (sdk.LearnerPlugin), not by the host")
}

// GRPCClient returns a *LearnerClient.
func (learnerPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (interface{}, error) {
	return NewLearnerClient(c), nil
}

// reducerPlugin is the host's half of the reducer service for go-plugin:
// it dispenses a *ReducerClient. The plugin's half is sdk.ReducerPlugin.
type reducerPlugin struct {
	plugin.NetRPCUnsupportedPlugin
}

// GRPCServer refuses: the host serves no reducer.
func (reducerPlugin) GRPCServer(*plugin.GRPCBroker, *grpc.Server) error {
	return errors.New("host: a reducer is served by a plugin (sdk.ReducerPlugin), not by the host")
}

// GRPCClient returns a *ReducerClient.
func (reducerPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (interface{}, error) {
	return NewReducerClient(c), nil
}

// PluginSets returns the versioned plugin sets a host dispenses from.
func PluginSets() map[int]plugin.PluginSet {
	return map[int]plugin.PluginSet{
		sdk.ProtocolVersion: {
			sdk.LearnerPluginName: learnerPlugin{},
			sdk.ReducerPluginName: reducerPlugin{},
		},
	}
}

// dialOptions are the dial options the host connects to plugins with.
func dialOptions() []grpc.DialOption {
	return []grpc.DialOption{grpc.WithDefaultCallOptions(
		grpc.MaxCallRecvMsgSize(sdk.MaxMessageSize),
		grpc.MaxCallSendMsgSize(sdk.MaxMessageSize),
	)}
}
