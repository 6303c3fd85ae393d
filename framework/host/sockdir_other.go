//go:build !unix

package host

// sockets is a run's socket directory: none where go-plugin serves over
// TCP.
type sockets struct{ dir string }

func socketsBase() string { return "" }

func newSockets(string) *sockets { return nil }

func (s *sockets) remove() {}
