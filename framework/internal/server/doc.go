// Package server is the SDK's side of the plugin protocol: the gRPC
// learner and reducer services that serve an implementation of the
// contract (package plugin) to a host, over go-plugin's handshake in a
// plugin process or on a listener the host gives (a plugin linked into
// its own process). Package sdk is its public face (sdk.Serve and its
// options); package host and package plugintest serve in-process through
// it without importing sdk.
package server
