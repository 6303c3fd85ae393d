package softplus

import "golang.org/x/sys/cpu"

// useAsm reports whether the processor runs the assembly kernel (AVX2 and
// FMA); it is set once, when the package is initialised.
var useAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// evalAsm does what eval does for n margins, n a multiple of 4, four at a
// time, with the same arithmetic.
//
//go:noescape
func evalAsm(l, e, t *float64, n int)
