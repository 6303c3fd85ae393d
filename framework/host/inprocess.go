package host

import (
	"context"
	"fmt"
	"net"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/polyclass/polyclass/framework/sdk"
)

// InProcess is a learner and/or a reducer linked into the host's own
// process, for benchmarks of what the plugin processes cost: it is served
// by the SDK's own gRPC servers over an in-memory connection (bufconn), so
// that every call takes the same path through the SDK's clients and
// servers as with a plugin process, marshalling included, and only the
// process and the socket are gone.
type InProcess struct {
	Learner sdk.Learner
	Reducer sdk.Reducer
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

// startInProcess serves impl on an in-memory listener and connects to it
// as start connects to a process, with the plugin's call counter.
func (h *Host) startInProcess(ctx context.Context, b Binary, impl InProcess) (*Plugin, error) {
	lis := bufconn.Listen(bufferSize)
	srv := grpc.NewServer(sdk.GRPCServerOptions()...)
	// The same segment as a plugin process gets, mapped once: the server
	// and the clients see it as the two sides of a process do.
	shared := newSegment()
	closeShared := func() {
		if shared != nil {
			shared.Close() //nolint:errcheck // the start failed; that error is the one to report
		}
	}
	if impl.Learner != nil {
		if err := (&sdk.LearnerPlugin{Impl: impl.Learner, Shared: shared}).GRPCServer(nil, srv); err != nil {
			closeShared()
			return nil, fmt.Errorf("plugin %s: %w", b.Name, err)
		}
	}
	if impl.Reducer != nil {
		if err := (&sdk.ReducerPlugin{Impl: impl.Reducer, Shared: shared}).GRPCServer(nil, srv); err != nil {
			closeShared()
			return nil, fmt.Errorf("plugin %s: %w", b.Name, err)
		}
	}
	go srv.Serve(lis) //nolint:errcheck // ends with GracefulStop
	dial := func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }
	opts := append(dialOptions(), grpc.WithContextDialer(dial),
		grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithStatsHandler(h.counter(b.Name)))
	conn, err := grpc.NewClient("passthrough:///"+b.Name, opts...)
	if err != nil {
		srv.Stop()
		closeShared()
		return nil, fmt.Errorf("plugin %s: %w", b.Name, err)
	}
	p := &Plugin{Binary: b, stderr: newTailBuffer(0), shared: shared, closeLocal: func() {
		conn.Close()
		srv.GracefulStop()
	}}
	lc, rc := NewLearnerClient(conn), NewReducerClient(conn)
	lc.shared, rc.shared = shared, shared
	// Probed as a process is: Info on both services, in the same order.
	if err := p.probe(ctx, lc, rc); err != nil {
		p.Stop()
		return nil, fmt.Errorf("plugin %s (in-process): %w", b.Name, err)
	}
	return p, nil
}
