//go:build !noasm

package softplus

import "golang.org/x/sys/cpu"

// useAsm reports whether the processor runs the assembly kernel (AVX2 and
// FMA); it is set once, when the package is initialised.
var useAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// useAsm512 reports whether the processor also runs lossAsm8 (AVX-512
// Foundation, with the operating system saving its registers).
var useAsm512 = useAsm && cpu.X86.HasAVX512F

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

// lossAsm8 is lossAsm for n a multiple of 8, eight margins at a time with
// AVX-512: the same bits, in about half the time where the 512-bit
// instructions have the throughput of two 256-bit ones (the chain of
// dependent operations of a margin, not the arithmetic units, bounds
// lossAsm).
//
//go:noescape
func lossAsm8(z *float64, b float64, y, s, e *float64, n int, part *[4]float64)

// gradAsm is Grad's part for n rows, n a multiple of 4, row i's r added
// to part[i mod 4]. s may be nil.
//
//go:noescape
func gradAsm(dd, r, z, y, s, e *float64, c float64, n int, part *[4]float64)
