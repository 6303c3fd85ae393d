package host

import (
	"context"
	"fmt"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/polyclass/polyclass/framework/internal/wire"
)

// clientPlugin is the host's half of a plugin service for go-plugin: it
// dispenses the service's client (*LearnerClient, *ReducerClient). The
// plugin's half is the SDK's (sdk.Serve).
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
		wire.ProtocolVersion: {
			wire.LearnerPluginName: clientPlugin{service: "learner", client: func(c *grpc.ClientConn) any { return NewLearnerClient(c) }},
			wire.ReducerPluginName: clientPlugin{service: "reducer", client: func(c *grpc.ClientConn) any { return NewReducerClient(c) }},
		},
	}
}

// dialOptions are the dial options the host connects to plugins with.
func dialOptions() []grpc.DialOption { return wire.DialOptions() }
