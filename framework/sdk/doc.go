// Package sdk is the plugin-author SDK of polyclass.
//
// A learner or reducer plugin is a small main package that implements the
// ctx-first Learner or Reducer interface and calls Serve:
//
//	func main() {
//		if err := sdk.Serve(context.Background(), sdk.WithLearner(myLearner{})); err != nil {
//			log.Fatal(err)
//		}
//	}
//
// The SDK speaks the plugin protocol (framework/internal/protov1/plugin.proto)
// over gRPC through hashicorp/go-plugin. It owns everything that is not the
// learning algorithm: the handshake, dataset uploads (kept once per
// process, addressed by SHA-256, evicted least-recently-used beyond a byte
// budget, WithCacheBytes), parameter defaults and schema checks, gathering
// the rows each problem uses (into reused memory for a learner that
// borrows its input, InputBorrower), training the problems of a batch in
// parallel (WithWorkers; or handing those that share every row to a
// learner's optional BatchFitter, whole to a ParallelBatchFitter with the
// workers it may use, or every problem with its rows of one gathered
// matrix to a SharedFitter), predicting with the models of a request one
// by one or together (BatchPredictor), model handles and their release. It
// changes no setting of the Go runtime or of the plugin's process. Plugins
// in other languages implement the same gRPC services directly.
//
// The interfaces and types themselves are package plugin's (the contract,
// free of RPC machinery), which this package re-exports under the same
// names; the server behind Serve is framework/internal/server, which the
// host also uses to serve a plugin linked into its own process.
//
// A plugin author imports this package alone. The parameter vocabulary
// (Value, Params, ParamSpec), the design matrix (Matrix) and the problems
// (Problem, NotUsed, CodeMatrix, CodeDiagnostics) it re-exports live in
// packages param, matrix and problem, which depend on no RPC machinery,
// so that the experiment parser and the encoders use them without gRPC.
// Package conformance checks a learner against the protocol, in a Go
// plugin's own tests or on a binary (bench plugin check); package host is
// the other side of the connection.
package sdk
