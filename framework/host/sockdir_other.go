//go:build !unix

package host

// sockets is a run's socket directory: none where go-plugin serves over
// TCP.
type sockets struct{ dir string }

func socketsParent() string { return "" }

func newSockets(string) (*sockets, error) { return nil, nil }

func (s *sockets) remove() {}
