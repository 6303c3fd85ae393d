package sdk

import (
	"math"

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

// MaxMessageSize bounds gRPC messages in both directions: score matrices of
// large test folds exceed gRPC's 4 MiB default.
const MaxMessageSize = math.MaxInt32

// GRPCServerOptions are the server options plugins are served with.
func GRPCServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.MaxRecvMsgSize(MaxMessageSize),
		grpc.MaxSendMsgSize(MaxMessageSize),
	}
}
