// Package param is the parameter vocabulary shared by the host and plugins:
// a parameter Value, a set of Params, and the ParamSpec a plugin declares
// for each parameter it takes, with the checks and defaults that follow
// from it.
//
// It depends on no RPC machinery (no gRPC, no go-plugin, no protobuf), so
// that the experiment file's parser and the encoders can use it. Plugin
// authors meet the same names through package sdk, which re-exports them.
package param
