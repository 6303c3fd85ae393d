//go:build !unix

package host

// replaceable checks nothing where files have no Unix owner and mode
// bits: the checks of the Unix build (trust.check) do not apply.
func replaceable(string) error { return nil }
