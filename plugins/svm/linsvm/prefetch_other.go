//go:build !amd64

package linsvm

import "unsafe"

// prefetch does nothing where there is no prefetch instruction at hand.
func prefetch(ps *[8]unsafe.Pointer) {}
