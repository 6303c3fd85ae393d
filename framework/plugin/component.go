package plugin

import "github.com/polyclass/polyclass/framework/software"

// Component is one piece of software a plugin computes with: "go" and
// the modules of a Go plugin's binary, "python" and the packages of a
// Python plugin (package software, which has no RPC dependency).
type Component = software.Component
