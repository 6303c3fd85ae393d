//go:build noasm || !amd64

package sparsemul

// useAsm is false: there are no assembly kernels for this architecture,
// or the noasm build tag leaves them out (the Go kernels give the same
// bits).
const useAsm = false

func mul4Asm(t *float64, tw int, v *float64, vw, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32) {
	panic("sparsemul: no assembly")
}

func mul1Asm(t, v *float64, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32) {
	panic("sparsemul: no assembly")
}

func addTrans4Asm(h *float64, hw int, t *float64, tw, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32, sq int) {
	panic("sparsemul: no assembly")
}

func addTrans1Asm(h, t *float64, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32, sq int) {
	panic("sparsemul: no assembly")
}

func mulScale4Asm(t *float64, tw int, v *float64, vw, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32, dd, vb, hb *float64) {
	panic("sparsemul: no assembly")
}

func mulScale1Asm(t, v *float64, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32, dd *float64, vb float64, hb *float64) {
	panic("sparsemul: no assembly")
}

func mul8Asm(t *float64, tw int, v *float64, vw, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32) {
	panic("sparsemul: no assembly")
}

func addTrans8Asm(h *float64, hw int, t *float64, tw, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32, sq int) {
	panic("sparsemul: no assembly")
}

func mulScale8Asm(t *float64, tw int, v *float64, vw, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32, dd, vb, hb *float64) {
	panic("sparsemul: no assembly")
}

func gram1Asm(h *float64, hw int, t *float64, tw, rows int, ptr *int64, idx *int32, val *float64, rs *int64, last, bias int64) {
	panic("sparsemul: no assembly")
}

func gram4Asm(h *float64, hw int, t *float64, tw, rows int, ptr *int64, idx *int32, val *float64, rs *int64, last, bias int64) {
	panic("sparsemul: no assembly")
}

func gram8Asm(h *float64, hw int, t *float64, tw, rows int, ptr *int64, idx *int32, val *float64, rs *int64, last, bias int64) {
	panic("sparsemul: no assembly")
}
