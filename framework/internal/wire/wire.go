// Package wire holds what the host and the SDK's servers agree on about
// the connection between them, apart from the protocol's messages (package
// protov1): go-plugin's handshake and plugin names, the message bound and
// flow-control window of the gRPC connection, and the environment through
// which a host asks a plugin for profiles.
package wire

import (
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
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

// ServerOptions are the gRPC server options the SDK serves plugins with.
func ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.MaxRecvMsgSize(MaxMessageSize),
		grpc.MaxSendMsgSize(MaxMessageSize),
		grpc.InitialWindowSize(StreamWindowSize),
		grpc.InitialConnWindowSize(2 * StreamWindowSize),
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
