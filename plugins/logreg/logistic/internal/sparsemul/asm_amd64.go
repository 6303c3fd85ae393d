package sparsemul

import "golang.org/x/sys/cpu"

// useAsm reports whether the processor runs the assembly kernels (AVX2 and
// FMA); it is set once, when the package is initialised.
var useAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// The kernels take rows ≥ 1 rows from the row whose run pointers vptr and
// uptr point at, and the whole index and value runs. mul4Asm and
// addTrans4Asm work on four lanes of panels whose rows hold tw (vw, hw)
// entries; the kernels ending in 1 work on one lane. sq selects
// AddTransSq. Each does what mulGo or addTransGo does, with the same
// arithmetic.

//go:noescape
func mul4Asm(t *float64, tw int, v *float64, vw, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32)

//go:noescape
func mul1Asm(t, v *float64, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32)

//go:noescape
func addTrans4Asm(h *float64, hw int, t *float64, tw, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32, sq int)

//go:noescape
func addTrans1Asm(h, t *float64, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32, sq int)
