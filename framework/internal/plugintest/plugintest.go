// Package plugintest serves learners and reducers in a test's own process
// through the SDK's server (package server, sdk.Serve's body), on an
// in-memory gRPC connection dialled as the host dials plugin processes:
// the SDK's servers and the host's clients meet as they do across
// processes, marshalling included, without a process. Only tests import
// it; it sits beside the host, on the server, not on package sdk.
package plugintest

import (
	"context"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/polyclass/polyclass/framework/internal/server"
	"github.com/polyclass/polyclass/framework/internal/serving"
	"github.com/polyclass/polyclass/framework/internal/wire"
)

// Conn serves what opts give (sdk.WithLearner, sdk.WithReducer, ...)
// until the test ends and returns a connection to it.
func Conn(t testing.TB, opts ...serving.Option) *grpc.ClientConn {
	t.Helper()
	return Dial(t, nil, opts...)
}

// Dial is Conn with dial options added to the host's (an interceptor that
// counts calls, say).
func Dial(t testing.TB, dial []grpc.DialOption, opts ...serving.Option) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	var cfg serving.Config
	for _, o := range append(opts, serving.InProcess(lis, nil)) {
		o(&cfg)
	}
	go func() { served <- server.Serve(ctx, cfg) }()
	t.Cleanup(func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("plugintest: %v", err)
		}
	})
	dialer := func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }
	dial = append(append(wire.DialOptions(), dial...), grpc.WithContextDialer(dialer),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	conn, err := grpc.NewClient("passthrough:///plugintest", dial...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}
