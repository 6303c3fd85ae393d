// Package serving holds the configuration sdk.Serve's options set, so
// that the host can serve a learner or reducer linked into its own
// process through Serve itself (InProcess), on an in-memory connection
// and with the memory segment it shares with its clients.
package serving

import (
	"net"

	"github.com/polyclass/polyclass/framework/sharedmem"
)

// Config is what sdk.Serve's options set.
type Config struct {
	// Learner is the sdk.Learner served, or nil.
	Learner any
	// Reducer is the sdk.Reducer served, or nil.
	Reducer any
	// CacheBytes bounds the uploaded datasets a learner keeps; 0 means
	// the SDK's default.
	CacheBytes int64
	// Workers bounds the problems of one Fit call trained at once; 0
	// means GOMAXPROCS.
	Workers int
	// Listener, when set, has Serve answer plain gRPC on it, without
	// go-plugin's handshake, until its context ends: a plugin linked into
	// the host (host.Register).
	Listener net.Listener
	// Shared is the memory segment the clients on Listener share with the
	// servers (nil: score matrices go inline). A plugin process maps its
	// segment from its environment instead.
	Shared *sharedmem.Segment
}

// Option sets part of a Config (sdk.ServeOption is this type).
type Option func(*Config)

// InProcess returns the option that serves on lis, sharing shared with the
// clients (see Config.Listener).
func InProcess(lis net.Listener, shared *sharedmem.Segment) Option {
	return func(c *Config) {
		c.Listener = lis
		c.Shared = shared
	}
}
