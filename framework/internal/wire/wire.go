// Package wire holds what the host and the SDK's servers agree on about
// the connection between them, apart from the protocol's messages (package
// protov1): go-plugin's handshake and plugin names, the message bound and
// flow-control window of the gRPC connection, and the environment through
// which a host asks a plugin for profiles.
package wire

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/status"
)

// ProtocolVersion is the plugin protocol version the host and the SDK
// speak.
const ProtocolVersion = 1

// Handshake is the go-plugin handshake shared by the host and plugins. The
// magic cookie only keeps a plugin binary from being run by hand by mistake;
// it is not a security measure.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  ProtocolVersion,
	MagicCookieKey:   "POLYCLASS_PLUGIN",
	MagicCookieValue: "d0c1a55e5-multiclass-reduction",
}

// Names under which the services are dispensed.
const (
	LearnerPluginName = "learner"
	ReducerPluginName = "reducer"
)

// MaxMessageSize bounds gRPC messages in both directions. gRPC's 4 MiB
// default is too small for the score matrices of large test folds; no
// bound at all (2 GiB) lets one message, which gRPC holds whole and then
// decodes into a second copy, take gigabytes at once. The host's
// LearnerClient (package host) splits a Fit batch by problems and a
// Predict by rows to stay within it. A plan's dense targets (L problems
// × n_train rows × 8 bytes: 78 MB for one-vs-one on covertype's 465k
// training rows; the code-matrix reductions of a Go reducer travel
// compact, a few bytes per row) is not split. The host's ReducerClient
// splits a Decode request (the fold's scores, probabilities and, for a
// plan that asks, training scores: about (2·n_test + n_train) × L × 8
// bytes) by test rows when the scheme declares sdk.Scheme.RowWiseDecode;
// for another scheme, or when the training scores alone exceed the bound,
// a fold that large fails with an error naming the bound (use more folds,
// or fewer problems).
const MaxMessageSize = 256 << 20

// StreamWindowSize is the HTTP/2 flow-control window of each call (the
// connection's is twice as large): how much a sender may write before
// the receiver acknowledges it. gRPC's default starts at 64 KiB and grows
// with its bandwidth estimate, so a fold's score matrix (letter
// one-vs-one: 2000 × 325 × 8 bytes = 5.2 MB) moves in many small
// exchanges, each waking the other process's threads. A plugin
// receives every message whole before it decodes it, so the window adds
// no memory that the message itself does not take.
//
// Measured with BenchmarkDecodeOneVsOne (package host: one such matrix
// through the reducers plugin as a process, 8 runs each, benchstat): CPU
// time of both processes per call 24.1 ms → 21.4 ms (−11 %, p = 0.010),
// wall 18.0 → 16.7 ms (−7 %, p = 0.038); linked in, unchanged (16.6 and
// 16.2 ms, p = 0.65).
const StreamWindowSize = 16 << 20

// MaxErrorMessage bounds the message of a failed call, in bytes. gRPC
// sends it in the call's trailers, whose whole size the receiver bounds
// (16 MiB): a plugin's longer error (a 50 MiB Fit error, in campaign 4)
// broke the connection, and the host said the plugin was unreachable.
// The SDK's servers cut a longer message (BoundMessage) before sending
// it, and the host cuts what it prints of another plugin's the same way.
const MaxErrorMessage = 4 << 10

// boundReserve is the room BoundMessage leaves for its "… (N bytes
// more)", N of any size.
const boundReserve = 40

// BoundMessage is msg when it is at most MaxErrorMessage bytes long;
// otherwise its first bytes, cut between two UTF-8 characters, then "…
// (N bytes more)": at most MaxErrorMessage bytes in all, so that
// bounding it again changes nothing.
func BoundMessage(msg string) string {
	if len(msg) <= MaxErrorMessage {
		return msg
	}
	cut := MaxErrorMessage - boundReserve
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes more)", msg[:cut], len(msg)-cut)
}

// maxDetail bounds each detail of a failed call's status, in bytes: one
// holds a bounded message and little more (the parameter it blames).
const maxDetail = 2 * MaxErrorMessage

// boundStatus is err, a handler's error, with its message bounded by
// BoundMessage and its details over maxDetail dropped.
func boundStatus(err error) error {
	if err == nil {
		return nil
	}
	p := status.Convert(err).Proto()
	long := len(p.GetMessage()) > MaxErrorMessage
	for _, d := range p.GetDetails() {
		long = long || len(d.GetValue()) > maxDetail
	}
	if !long {
		return err
	}
	p.Message = BoundMessage(p.GetMessage())
	// A detail too large to cut (it is encoded) is dropped: the message
	// says what failed.
	kept := p.Details[:0]
	for _, d := range p.GetDetails() {
		if len(d.GetValue()) <= maxDetail {
			kept = append(kept, d)
		}
	}
	p.Details = kept
	return status.FromProto(p).Err()
}

// boundUnary bounds the error of each unary call (boundStatus).
func boundUnary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	resp, err := handler(ctx, req)
	return resp, boundStatus(err)
}

// boundStream bounds the error of each streaming call (boundStatus).
func boundStream(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	return boundStatus(handler(srv, ss))
}

// ServerOptions are the gRPC server options the SDK serves plugins with:
// the message bound and windows, and every error's message bounded
// (MaxErrorMessage).
func ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.MaxRecvMsgSize(MaxMessageSize),
		grpc.MaxSendMsgSize(MaxMessageSize),
		grpc.InitialWindowSize(StreamWindowSize),
		grpc.InitialConnWindowSize(2 * StreamWindowSize),
		grpc.ChainUnaryInterceptor(boundUnary),
		grpc.ChainStreamInterceptor(boundStream),
	}
}

// DialOptions are the gRPC dial options the host connects to plugins
// with: the message bound and windows of the SDK's servers.
func DialOptions() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(MaxMessageSize),
			grpc.MaxCallSendMsgSize(MaxMessageSize),
		),
		grpc.WithInitialWindowSize(StreamWindowSize),
		grpc.WithInitialConnWindowSize(2 * StreamWindowSize),
	}
}

// ProfileDirEnv names the environment variable through which a host asks a
// plugin for profiles (bench run --profile DIR): a Go plugin served by
// sdk.Serve then writes its CPU profile (for the whole process) and a heap
// profile (when the host closes it) to DIR/NAME-PID.cpu.pprof and
// DIR/NAME-PID.heap.pprof, NAME being its learner's (else reducer's) name.
const ProfileDirEnv = "POLYCLASS_PROFILE_DIR"
