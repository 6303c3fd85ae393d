package server

import "github.com/polyclass/polyclass/framework/software"

// Component is one piece of software a plugin computes with: "go" and
// the modules of a Go plugin's binary, "python" and the packages of a
// Python plugin (package software, which has no RPC dependency).
type Component = software.Component

// runtimeReport is what the SDK's servers send as a plugin's runtime: the
// binary's Go version and modules, then the components its Info lists.
func runtimeReport(own []Component) []Component {
	return append(software.Build(), own...)
}
