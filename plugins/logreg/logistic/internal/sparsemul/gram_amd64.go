//go:build !noasm

package sparsemul

// The kernels of Gram, generated into gram_amd64.s by gen_gram_asm.py, for one lane
// (gram1Asm), four lanes (gram4Asm) and eight lanes (gram8Asm) of panels
// whose rows hold hw (tw) entries. They take rows ≥ 1 rows from the row
// whose pointer ptr points at, and the whole index and value arrays; rs
// holds the byte offset in h of each row of the triangle (were its entry
// 0 there), last the byte offset of the column of ones within a row of
// the triangle, bias that of its diagonal entry. Each does what gramGo
// does, with the same arithmetic.

//go:noescape
func gram1Asm(h *float64, hw int, t *float64, tw, rows int, ptr *int64, idx *int32, val *float64, rs *int64, last, bias int64)

//go:noescape
func gram4Asm(h *float64, hw int, t *float64, tw, rows int, ptr *int64, idx *int32, val *float64, rs *int64, last, bias int64)

//go:noescape
func gram8Asm(h *float64, hw int, t *float64, tw, rows int, ptr *int64, idx *int32, val *float64, rs *int64, last, bias int64)
