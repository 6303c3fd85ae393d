package host

import (
	"google.golang.org/grpc"

	"github.com/polyclass/polyclass/framework/internal/client"
	"github.com/polyclass/polyclass/framework/plugin"
)

// The clients of a plugin's services live in framework/internal/client,
// which the conformance suite shares without the host's processes; these
// aliases keep them in the host's API.

// LearnerClient is the host's handle on a learner plugin (see
// client.LearnerClient). Every method passes the caller's context to the
// RPC.
type LearnerClient = client.LearnerClient

// ReducerClient is the host's handle on a reducer plugin (see
// client.ReducerClient).
type ReducerClient = client.ReducerClient

// ModelRef is a model a learner plugin holds (see client.ModelRef).
type ModelRef = client.ModelRef

// RPCError is a failed call to a plugin (see client.RPCError).
type RPCError = client.RPCError

// NewLearnerClient returns the learner client of a connection to a plugin.
func NewLearnerClient(conn *grpc.ClientConn) *LearnerClient { return client.NewLearner(conn, nil) }

// NewReducerClient returns the reducer client of a connection to a plugin.
func NewReducerClient(conn *grpc.ClientConn) *ReducerClient { return client.NewReducer(conn, nil) }

// FaultParams returns the parameters err blames (see client.FaultParams).
func FaultParams(err error) []string { return client.FaultParams(err) }

// JoinDecodings concatenates the decodings of consecutive runs of test
// rows (see client.JoinDecodings).
func JoinDecodings(scheme string, parts []plugin.Decoding, lens []int) (plugin.Decoding, error) {
	return client.JoinDecodings(scheme, parts, lens)
}

// ParamProblem is one parameter's fault that a learner found in
// CheckParams, or a reducer in CheckScheme (see client.ParamProblem).
type ParamProblem = client.ParamProblem

// ParamCheck is a learner's answer to CheckParams, or a reducer's to
// CheckScheme (see client.ParamCheck).
type ParamCheck = client.ParamCheck
