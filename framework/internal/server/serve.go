package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/internal/serving"
	"github.com/polyclass/polyclass/framework/internal/wire"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/sharedmem"
	"github.com/polyclass/polyclass/internal/profile"
)

// defaultCacheBytes bounds the datasets a learner keeps when
// WithCacheBytes does not.
const defaultCacheBytes = 4 << 30

// Serve serves the learner and/or reducer c holds: over gRPC through
// hashicorp/go-plugin until the host closes the connection or ctx ends,
// or, when c.Listener is set, plain gRPC on it until ctx ends (a plugin
// linked into the host's process). sdk.Serve is its public face.
func Serve(ctx context.Context, c serving.Config) error {
	s, err := newServers(&c)
	if err != nil {
		return err
	}
	if c.Listener != nil {
		return s.serveOn(ctx, c.Listener, c.Shared)
	}
	return s.servePlugin(ctx)
}

// servers are the learner and reducer Serve serves, and its options.
type servers struct {
	learner    plugin.Learner
	reducer    plugin.Reducer
	cacheBytes int64
	workers    int
}

// newServers checks the options Serve was given.
func newServers(c *serving.Config) (*servers, error) {
	s := &servers{cacheBytes: c.CacheBytes, workers: c.Workers}
	if c.Learner != nil {
		l, ok := c.Learner.(plugin.Learner)
		if !ok {
			return nil, fmt.Errorf("sdk: Serve: the learner is a %T, not an sdk.Learner", c.Learner)
		}
		s.learner = l
	}
	if c.Reducer != nil {
		r, ok := c.Reducer.(plugin.Reducer)
		if !ok {
			return nil, fmt.Errorf("sdk: Serve: the reducer is a %T, not an sdk.Reducer", c.Reducer)
		}
		s.reducer = r
	}
	if s.learner == nil && s.reducer == nil {
		return nil, errors.New("sdk: Serve: nothing to serve (give WithLearner or WithReducer)")
	}
	if s.cacheBytes <= 0 {
		s.cacheBytes = defaultCacheBytes
	}
	return s, nil
}

// register registers the services served on srv; shared is the memory
// segment shared with the host, or nil.
func (s *servers) register(srv *grpc.Server, shared *sharedmem.Segment) {
	if s.learner != nil {
		pb.RegisterLearnerServiceServer(srv, newLearnerServer(s.learner, s.cacheBytes, s.workers, shared))
	}
	if s.reducer != nil {
		pb.RegisterReducerServiceServer(srv, newReducerServer(s.reducer, shared))
	}
}

// serveOn serves plain gRPC on lis until ctx ends, then stops once the
// calls under way have returned.
func (s *servers) serveOn(ctx context.Context, lis net.Listener, shared *sharedmem.Segment) error {
	srv := grpc.NewServer(wire.ServerOptions()...)
	s.register(srv, shared)
	stopped := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			srv.GracefulStop()
		case <-stopped:
		}
	}()
	err := srv.Serve(lis)
	close(stopped)
	if errors.Is(err, grpc.ErrServerStopped) && ctx.Err() != nil {
		// ctx ended before the server started serving.
		return nil
	}
	if err != nil {
		return fmt.Errorf("sdk: Serve: %w", err)
	}
	return nil
}

// servePlugin serves as a plugin process: go-plugin's handshake on stdout,
// the memory segment the host passed in the environment, profiles when the
// host asks for them (wire.ProfileDirEnv).
func (s *servers) servePlugin(ctx context.Context) error {
	shared := sharedSegment()
	if dir := os.Getenv(wire.ProfileDirEnv); dir != "" {
		stop, err := profile.Start(dir, s.name())
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
	set := goplugin.PluginSet{}
	if s.learner != nil {
		set[wire.LearnerPluginName] = &goPlugin{register: func(srv *grpc.Server) {
			pb.RegisterLearnerServiceServer(srv, newLearnerServer(s.learner, s.cacheBytes, s.workers, shared))
		}}
	}
	if s.reducer != nil {
		set[wire.ReducerPluginName] = &goPlugin{register: func(srv *grpc.Server) {
			pb.RegisterReducerServiceServer(srv, newReducerServer(s.reducer, shared))
		}}
	}
	// ctx's end stops the server, and go-plugin's Serve returns.
	var (
		mu      sync.Mutex
		server  *grpc.Server
		stopped bool
	)
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			mu.Lock()
			stopped = true
			if server != nil {
				server.Stop()
			}
			mu.Unlock()
		case <-done:
		}
	}()
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig:  wire.Handshake,
		VersionedPlugins: map[int]goplugin.PluginSet{wire.ProtocolVersion: set},
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			opts = append(opts, wire.ServerOptions()...)
			// go-plugin sets os.Stderr to its pipe before it serves the
			// first call: from then on, write to fd 2 directly.
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
			srv := grpc.NewServer(opts...)
			mu.Lock()
			server = srv
			if stopped {
				srv.Stop()
			}
			mu.Unlock()
			return srv
		},
		// go-plugin logs every connection at debug and trace level to
		// stderr, which the host shows as the plugin's messages: only
		// warnings and errors are worth that place.
		Logger: hclog.New(&hclog.LoggerOptions{Name: "plugin", Level: hclog.Warn, Output: os.Stderr, JSONFormat: true}),
	})
	return nil
}

// goPlugin is a service for go-plugin, on the plugin's side.
type goPlugin struct {
	goplugin.NetRPCUnsupportedPlugin
	register func(*grpc.Server)
}

// GRPCServer registers the service.
func (p *goPlugin) GRPCServer(_ *goplugin.GRPCBroker, s *grpc.Server) error {
	p.register(s)
	return nil
}

// GRPCClient refuses: the host's client is in package host.
func (p *goPlugin) GRPCClient(context.Context, *goplugin.GRPCBroker, *grpc.ClientConn) (interface{}, error) {
	return nil, errors.New("sdk: a plugin serves; hosts dispense its clients with package host")
}

// sharedSegment maps the memory segment the host passed the process, if
// any; a segment that cannot be mapped is reported on stderr and the
// plugin answers inline.
func sharedSegment() *sharedmem.Segment {
	seg, err := sharedmem.FromEnv()
	if err != nil {
		fmt.Fprintf(os.Stderr, "shared memory: %v; score matrices go inline\n", err)
		return nil
	}
	return seg
}

// name names the plugin's profiles: its learner's name, else its
// reducer's.
func (s *servers) name() string {
	if s.learner != nil {
		return s.learner.Info().Name
	}
	return s.reducer.Info().Name
}
