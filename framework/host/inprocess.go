package host

import (
	"context"
	"fmt"
	"net"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/polyclass/polyclass/framework/internal/client"
	"github.com/polyclass/polyclass/framework/internal/server"
	"github.com/polyclass/polyclass/framework/internal/serving"
	"github.com/polyclass/polyclass/framework/plugin"
)

// InProcess is a learner and/or a reducer linked into the host's own
// process, for benchmarks of what the plugin processes cost: it is served
// by the SDK's own gRPC servers over an in-memory connection (bufconn), so
// that every call takes the same path through the SDK's clients and
// servers as with a plugin process, marshalling included, and only the
// process and the socket are gone.
type InProcess struct {
	Learner plugin.Learner
	Reducer plugin.Reducer
}

// InProcessPath is the Path of the Binary of a plugin served in-process.
const InProcessPath = "(in-process)"

// bufferSize is the buffer of each direction of an in-process connection.
const bufferSize = 1 << 20

// Register serves impl in-process under name, in place of the binary of
// that name (if any). Call it before the plugin's first use (Get).
func (h *Host) Register(name string, impl InProcess) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.local == nil {
		h.local = map[string]InProcess{}
	}
	h.local[name] = impl
	h.binaries = nil // discover again, with name among them
}

// startInProcess serves impl on an in-memory listener with the SDK's server
// and connects to it as start connects to a process, with the plugin's
// call counter.
func (h *Host) startInProcess(ctx context.Context, b Binary, impl InProcess) (*Plugin, error) {
	if impl.Learner == nil && impl.Reducer == nil {
		return nil, fmt.Errorf("plugin %s (in-process): neither a learner nor a reducer", b.Name)
	}
	lis := bufconn.Listen(bufferSize)
	// The same segment as a plugin process gets, mapped once: the server
	// and the clients see it as the two sides of a process do.
	shared := newSegment()
	serveCtx, stopServing := context.WithCancel(context.Background())
	served := make(chan error, 1)
	cfg := serving.Config{Learner: impl.Learner, Reducer: impl.Reducer, Listener: lis, Shared: shared}
	go func() { served <- server.Serve(serveCtx, cfg) }()
	stop := func() {
		stopServing()
		<-served
	}
	dial := func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }
	dialOpts := append(dialOptions(), grpc.WithContextDialer(dial),
		grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithStatsHandler(h.counter(b.Name)))
	conn, err := grpc.NewClient("passthrough:///"+b.Name, dialOpts...)
	if err != nil {
		stop()
		if shared != nil {
			shared.Close() //nolint:errcheck // the start failed; that error is the one to report
		}
		return nil, fmt.Errorf("plugin %s: %w", b.Name, err)
	}
	p := &Plugin{Binary: b, stderr: newTailBuffer(0), shared: shared, closeLocal: func() {
		conn.Close()
		stop()
	}}
	lc, rc := client.NewLearner(conn, shared), client.NewReducer(conn, shared)
	// Probed as a process is: Info on both services, in the same order.
	if err := p.probe(ctx, lc, rc); err != nil {
		p.Stop()
		return nil, fmt.Errorf("plugin %s (in-process): %w", b.Name, err)
	}
	return p, nil
}
