//go:build !unix

package server

// directStderr does nothing here: os.Stderr stays go-plugin's pipe,
// forwarded to the host over gRPC.
func directStderr() {}
