//go:build !noasm

package blockmul

import "golang.org/x/sys/cpu"

// useAsm reports whether the processor runs the assembly kernels (AVX2 and
// FMA); it is set once, when the package is initialised.
var useAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// The kernels below take d ≥ 1, w a multiple of 4 and, for the transpose
// products, rows a multiple of 4; each does what its Go version in
// generic.go does (mulGo, scaleGo after mulGo, addTransGo), with the same
// arithmetic. The ones ending in 1 are for a single lane (w = 1).

//go:noescape
func mulAsm(t, x *float64, stride, rows, d int, v *float64, w int)

//go:noescape
func mulScaleAsm(t, x *float64, stride, rows, d int, v *float64, w int, dd, vb, hb *float64)

//go:noescape
func addTransAsm(h, x *float64, stride, rows, d int, t *float64, w int)

//go:noescape
func addTransSqAsm(h, x *float64, stride, rows, d int, t *float64, w int)

//go:noescape
func mul1Asm(t, x *float64, stride, rows, d int, v *float64)

//go:noescape
func mulScale1Asm(t, x *float64, stride, rows, d int, v, dd *float64, vb float64, hb *float64)

//go:noescape
func addTrans1Asm(h, x *float64, stride, rows, d int, t *float64)

//go:noescape
func addTransSq1Asm(h, x *float64, stride, rows, d int, t *float64)

// packAsm and unpackAsm are Pack and Unpack for rows a multiple of 4, on
// 4×4 tiles transposed in registers; cols points at the first of w slice
// headers.
//
//go:noescape
func packAsm(dst *float64, w int, cols *[]float64, rows int)

//go:noescape
func unpackAsm(cols *[]float64, src *float64, w int, rows int)

// gramAsm (w a multiple of 4) and gram1Asm (one lane) are Gram's kernels
// on rows a multiple of 4; each does what gramGo does, with the same
// arithmetic.

//go:noescape
func gramAsm(h, x *float64, stride, rows, d int, t *float64, w int)

//go:noescape
func gram1Asm(h, x *float64, stride, rows, d int, t *float64)
