package sdk

import (
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/polyclass/polyclass/framework/matrix"
)

// ProtocolVersion is the plugin protocol version this SDK speaks.
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

// ChunkSize is the largest data chunk of a dataset upload.
const ChunkSize = matrix.ChunkSize

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
// bytes) by test rows when the scheme declares Scheme.RowWiseDecode; for
// another scheme, or when the training scores alone exceed the bound, a
// fold that large fails with an error naming the bound (use more folds,
// or fewer problems).
const MaxMessageSize = 256 << 20

// TransportBufferSize is the size of the buffers through which the host
// and a plugin write and read their connection (gRPC's ReadBufferSize and
// WriteBufferSize on both ends; gRPC's default is 32 KiB).
//
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
const (
	TransportBufferSize = 1 << 20
	StreamWindowSize    = 16 << 20
)

// GRPCServerOptions are the server options plugins are served with.
func GRPCServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.MaxRecvMsgSize(MaxMessageSize),
		grpc.MaxSendMsgSize(MaxMessageSize),
		grpc.ReadBufferSize(TransportBufferSize),
		grpc.WriteBufferSize(TransportBufferSize),
		grpc.InitialWindowSize(StreamWindowSize),
		grpc.InitialConnWindowSize(2 * StreamWindowSize),
	}
}
