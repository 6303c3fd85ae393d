// Package client is the host's side of the plugin protocol: the gRPC
// clients of a learner's and a reducer's services, which call a plugin
// through the contract's types (package plugin), split Fit, Predict and a
// row-wise Decode to the message bound and check every answer. Package
// host hands them out for the plugin processes it runs (host.LearnerClient
// and host.ReducerClient are these types); the conformance suite uses
// them on a plugin served in a test's process, without the host.
package client
