package sdk

import (
	"context"

	"github.com/polyclass/polyclass/framework/internal/server"
	"github.com/polyclass/polyclass/framework/internal/serving"
)

// ServeOption configures Serve.
type ServeOption = serving.Option

// WithLearner serves l.
func WithLearner(l Learner) ServeOption {
	return func(c *serving.Config) { c.Learner = l }
}

// WithReducer serves r.
func WithReducer(r Reducer) ServeOption {
	return func(c *serving.Config) { c.Reducer = r }
}

// WithCacheBytes bounds the uploaded datasets a learner keeps in memory,
// in wire bytes (8 per dense cell; default 4 GiB): beyond it, the least
// recently used go, and the host uploads a dataset again when a later fold
// needs it. The dataset just uploaded is kept whatever its size.
// n ≤ 0 keeps the default.
func WithCacheBytes(n int64) ServeOption {
	return func(c *serving.Config) { c.CacheBytes = n }
}

// WithWorkers bounds the problems of one Fit call a learner trains at
// once (default GOMAXPROCS), for instance to 1 for a learner that is not
// safe for concurrent use; a request's threads (its share of the CPUs)
// lowers the bound for that call. n ≤ 0 keeps the default.
func WithWorkers(n int) ServeOption {
	return func(c *serving.Config) { c.Workers = n }
}

// Serve serves the learner and/or reducer the options give, over gRPC
// through hashicorp/go-plugin, until the host closes the connection or ctx
// ends. It is the whole body of a plugin's main:
//
//	func main() {
//		if err := sdk.Serve(context.Background(), sdk.WithLearner(myLearner{})); err != nil {
//			log.Fatal(err)
//		}
//	}
//
// Serve returns nil once it has stopped serving, and an error when it
// cannot serve (no learner and no reducer). Run by hand rather than by a
// host, the plugin says so on stderr and exits with status 1 (go-plugin's
// handshake). Serve changes no setting of the Go runtime or of the
// process: GOGC, GOMEMLIMIT and the like apply as the environment sets
// them.
func Serve(ctx context.Context, opts ...ServeOption) error {
	var c serving.Config
	for _, o := range opts {
		o(&c)
	}
	return server.Serve(ctx, c)
}
