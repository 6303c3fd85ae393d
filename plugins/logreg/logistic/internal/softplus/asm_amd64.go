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

// lossAsm is Loss's part for n margins, n a multiple of 4: it adds term i
// to part[i mod 4]. s may be nil.
//
//go:noescape
func lossAsm(z *float64, b float64, y, s, e *float64, n int, part *[4]float64)

// gradAsm is Grad's part for n rows, n a multiple of 4, row i's r added
// to part[i mod 4]. s may be nil.
//
//go:noescape
func gradAsm(dd, r, z, y, s, e *float64, c float64, n int, part *[4]float64)
