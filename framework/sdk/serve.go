package sdk

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/sharedmem"
	"github.com/polyclass/polyclass/internal/profile"
)

// ProfileDirEnv names the environment variable through which a host asks a
// plugin for profiles (bench run --profile DIR): a Go plugin served by
// Serve then writes its CPU profile (for the whole process) and a heap
// profile (when the host closes it) to DIR/NAME-PID.cpu.pprof and
// DIR/NAME-PID.heap.pprof, NAME being its learner's (else reducer's) name.
const ProfileDirEnv = "POLYCLASS_PROFILE_DIR"

// LearnerPlugin adapts a Learner to go-plugin, on the plugin's side. Plugin
// authors use Serve; the host's side is in package host.
type LearnerPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	// Impl is the learner served (server side only).
	Impl Learner
	// CacheBytes bounds the uploaded datasets kept (default DefaultCacheBytes).
	CacheBytes int64
	// Workers bounds the problems of one Fit call trained at once
	// (default GOMAXPROCS); a request's threads (its share of the CPUs)
	// lowers the bound for that call.
	Workers int
	// Shared is the memory segment the host shares with the process, in
	// which Predict writes its answer when the host offers a region; nil
	// answers inline. Serve maps it from the environment
	// (sharedmem.FromEnv).
	Shared *sharedmem.Segment
}

// GRPCServer registers the learner service.
func (p *LearnerPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	if p.Impl == nil {
		return errors.New("sdk: LearnerPlugin has no Impl")
	}
	budget := p.CacheBytes
	if budget <= 0 {
		budget = DefaultCacheBytes
	}
	pb.RegisterLearnerServiceServer(s, newLearnerServer(p.Impl, budget, p.Workers, p.Shared))
	return nil
}

// GRPCClient refuses: the host's client is in package host.
func (p *LearnerPlugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (interface{}, error) {
	return nil, errors.New("sdk: LearnerPlugin is served by a plugin; hosts dispense a learner with package host")
}

// ReducerPlugin adapts a Reducer to go-plugin, on the plugin's side.
type ReducerPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	// Impl is the reducer served (server side only).
	Impl Reducer
	// Shared is the memory segment the host shares with the process, from
	// which Decode reads score matrices the host placed there; nil reads
	// them inline only. Serve maps it from the environment.
	Shared *sharedmem.Segment
}

// GRPCServer registers the reducer service.
func (p *ReducerPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	if p.Impl == nil {
		return errors.New("sdk: ReducerPlugin has no Impl")
	}
	pb.RegisterReducerServiceServer(s, newReducerServer(p.Impl, p.Shared))
	return nil
}

// GRPCClient refuses: the host's client is in package host.
func (p *ReducerPlugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (interface{}, error) {
	return nil, errors.New("sdk: ReducerPlugin is served by a plugin; hosts dispense a reducer with package host")
}

// ServeOption configures Serve.
type ServeOption func(*serveConfig)

type serveConfig struct {
	learner *LearnerPlugin
	reducer *ReducerPlugin
	test    *plugin.ServeTestConfig
}

// WithLearner serves l.
func WithLearner(l Learner) ServeOption {
	return func(c *serveConfig) {
		if c.learner == nil {
			c.learner = &LearnerPlugin{}
		}
		c.learner.Impl = l
	}
}

// WithReducer serves r.
func WithReducer(r Reducer) ServeOption {
	return func(c *serveConfig) { c.reducer = &ReducerPlugin{Impl: r} }
}

// WithCacheBytes bounds the datasets a learner keeps in memory.
func WithCacheBytes(n int64) ServeOption {
	return func(c *serveConfig) {
		if c.learner == nil {
			c.learner = &LearnerPlugin{}
		}
		c.learner.CacheBytes = n
	}
}

// WithWorkers bounds the problems of one Fit call a learner trains at once;
// a request's threads (its share of the CPUs) lowers the bound for that
// call.
func WithWorkers(n int) ServeOption {
	return func(c *serveConfig) {
		if c.learner == nil {
			c.learner = &LearnerPlugin{}
		}
		c.learner.Workers = n
	}
}

// WithTestConfig serves in-process for tests (see go-plugin's
// ServeTestConfig): the reattach configuration is sent on its channel.
func WithTestConfig(t *plugin.ServeTestConfig) ServeOption {
	return func(c *serveConfig) { c.test = t }
}

// Serve serves the given learner and/or reducer over gRPC until the host
// closes the connection. It is the whole body of a plugin's main.
func Serve(opts ...ServeOption) {
	var c serveConfig
	for _, o := range opts {
		o(&c)
	}
	set := plugin.PluginSet{}
	if c.learner != nil && c.learner.Impl != nil {
		set[LearnerPluginName] = c.learner
	}
	if c.reducer != nil {
		set[ReducerPluginName] = c.reducer
	}
	if c.test == nil {
		shareSegment(&c)
	}
	if dir := os.Getenv(ProfileDirEnv); dir != "" && c.test == nil {
		stop, err := profile.Start(dir, c.name())
		if err != nil {
			fmt.Fprintf(os.Stderr, "profiling: %v\n", err)
		} else {
			defer func() {
				if err := stop(); err != nil {
					fmt.Fprintf(os.Stderr, "profiling: %v\n", err)
				}
			}()
		}
	}
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig:  Handshake,
		VersionedPlugins: map[int]plugin.PluginSet{ProtocolVersion: set},
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			opts = append(opts, GRPCServerOptions()...)
			if c.test == nil {
				// go-plugin sets os.Stderr to its pipe before it serves
				// the first call: from then on, write to fd 2 directly.
				var once sync.Once
				opts = append(opts,
					grpc.ChainUnaryInterceptor(func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
						once.Do(directStderr)
						return h(ctx, req)
					}),
					grpc.ChainStreamInterceptor(func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, h grpc.StreamHandler) error {
						once.Do(directStderr)
						return h(srv, ss)
					}))
			}
			return grpc.NewServer(opts...)
		},
		Test: c.test,
		// go-plugin logs every connection at debug and trace level to
		// stderr, which the host shows as the plugin's messages: only
		// warnings and errors are worth that place.
		Logger: hclog.New(&hclog.LoggerOptions{Name: "plugin", Level: hclog.Warn, Output: os.Stderr, JSONFormat: true}),
	})
}

// shareSegment maps the memory segment the host passed the process, if
// any, for the learner and the reducer served; a segment that cannot be
// mapped is reported on stderr and the plugin answers inline.
func shareSegment(c *serveConfig) {
	seg, err := sharedmem.FromEnv()
	if err != nil {
		fmt.Fprintf(os.Stderr, "shared memory: %v; score matrices go inline\n", err)
		return
	}
	if seg == nil {
		return
	}
	if c.learner != nil {
		c.learner.Shared = seg
	}
	if c.reducer != nil {
		c.reducer.Shared = seg
	}
}

// name names the plugin's profiles: its learner's name, else its
// reducer's, else "plugin".
func (c *serveConfig) name() string {
	switch {
	case c.learner != nil && c.learner.Impl != nil:
		return c.learner.Impl.Info().Name
	case c.reducer != nil && c.reducer.Impl != nil:
		return c.reducer.Impl.Info().Name
	}
	return "plugin"
}
