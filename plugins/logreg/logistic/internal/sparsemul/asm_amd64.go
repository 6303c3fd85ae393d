//go:build !noasm

package sparsemul

import "golang.org/x/sys/cpu"

//go:generate python3 gen_asm.py asm_amd64.s
//go:generate python3 gen_gram_asm.py gram_amd64.s

// useAsm reports whether the processor runs the assembly kernels (AVX2 and
// FMA); it is set once, when the package is initialised.
var useAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// The kernels take rows ≥ 1 rows from the row whose run pointers vptr and
// uptr point at, and the whole index and value runs. Those ending in 4
// (8) work on four (eight) lanes of panels whose rows hold tw (vw, hw)
// entries, those ending in 1 on one lane. sq selects AddTransSq. Each
// does what mulGo or addTransGo does, with the same arithmetic; the
// assembly is written by gen_asm.py.

//go:noescape
func mul4Asm(t *float64, tw int, v *float64, vw, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32)

//go:noescape
func mul1Asm(t, v *float64, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32)

//go:noescape
func addTrans4Asm(h *float64, hw int, t *float64, tw, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32, sq int)

//go:noescape
func addTrans1Asm(h, t *float64, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32, sq int)

//go:noescape
func mul8Asm(t *float64, tw int, v *float64, vw, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32)

//go:noescape
func addTrans8Asm(h *float64, hw int, t *float64, tw, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32, sq int)

//go:noescape
func mulScale8Asm(t *float64, tw int, v *float64, vw, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32, dd, vb, hb *float64)

// mulScale8Asm, mulScale4Asm and mulScale1Asm are the mul kernels followed by
// Hess's weighting of each row: u = (t + vb)·dd[r] stored in t, added to
// hb (dd a panel like t, vb and hb at the lanes in hand).

//go:noescape
func mulScale4Asm(t *float64, tw int, v *float64, vw, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32, dd, vb, hb *float64)

//go:noescape
func mulScale1Asm(t, v *float64, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32, dd *float64, vb float64, hb *float64)
