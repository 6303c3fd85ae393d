//go:build !unix

package results

import "os"

// noFollow: no such flag here; checkLayout finds the links.
const noFollow = 0

// links returns 1: the system's hard links are not read here.
func links(os.FileInfo) uint64 { return 1 }

// owner: the system's owners are not read here.
func owner(os.FileInfo) (uid int, ok bool) { return 0, false }
