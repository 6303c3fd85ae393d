//go:build !unix

package results

// noFollow: no such flag here; checkLayout finds the links.
const noFollow = 0
