//go:build !noasm

package linsvm

import "unsafe"

// prefetch asks the processor to bring the cache lines at the non-nil
// addresses of ps into its caches, without waiting for them: the rows of a
// coordinate descent pass come in random order, and a row's lines asked
// for a few rows ahead arrive while the rows before it are processed. It
// changes no value.
//
//go:noescape
func prefetch(ps *[8]unsafe.Pointer)
