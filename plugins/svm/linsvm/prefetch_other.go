//go:build noasm || !amd64

package linsvm

import "unsafe"

// prefetch does nothing where there is no prefetch instruction at hand, or
// where the noasm build tag leaves the assembly out.
func prefetch(ps *[8]unsafe.Pointer) {}
