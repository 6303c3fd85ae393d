//go:build amd64

#include "textflag.h"

// The kernels of asm_amd64.go. Registers:
//   R8  vptr at the row in hand, R10 uptr at the row in hand
//   R13 vidx, R14 vval, R15 uidx (the whole runs)
//   SI  the d×w panel (v or h) at the lanes in hand, R11 its row in bytes
//   DI  the rows×w panel (t) at the row in hand, R12 its row in bytes
//   R9  rows left, DX the entry in hand, CX entries (or groups) left,
//   AX the panel offset of an entry's column


// func mul4Asm(t *float64, tw int, v *float64, vw, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32)
TEXT ·mul4Asm(SB), NOSPLIT, $0-80
	MOVQ t+0(FP), DI
	MOVQ tw+8(FP), R12
	SHLQ $3, R12
	MOVQ v+16(FP), SI
	MOVQ vw+24(FP), R11
	SHLQ $3, R11
	MOVQ rows+32(FP), R9
	MOVQ vptr+40(FP), R8
	MOVQ vidx+48(FP), R13
	MOVQ vval+56(FP), R14
	MOVQ uptr+64(FP), R10
	MOVQ uidx+72(FP), R15

mul4Asm_row:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	MOVQ (R8), DX
	MOVQ 8(R8), CX
	SUBQ DX, CX
	SHRQ $2, CX
	JZ   mul4Asm_units

mul4Asm_vg:
	MOVLQSX (R13)(DX*4), AX
	IMULQ   R11, AX
	VBROADCASTSD (R14)(DX*8), Y4
	VFMADD231PD (SI)(AX*1), Y4, Y0
	INCQ DX
	MOVLQSX (R13)(DX*4), AX
	IMULQ   R11, AX
	VBROADCASTSD (R14)(DX*8), Y4
	VFMADD231PD (SI)(AX*1), Y4, Y1
	INCQ DX
	MOVLQSX (R13)(DX*4), AX
	IMULQ   R11, AX
	VBROADCASTSD (R14)(DX*8), Y4
	VFMADD231PD (SI)(AX*1), Y4, Y2
	INCQ DX
	MOVLQSX (R13)(DX*4), AX
	IMULQ   R11, AX
	VBROADCASTSD (R14)(DX*8), Y4
	VFMADD231PD (SI)(AX*1), Y4, Y3
	INCQ DX
	DECQ CX
	JNZ  mul4Asm_vg

mul4Asm_units:
	MOVQ (R10), DX
	MOVQ 8(R10), CX
	SUBQ DX, CX
	SHRQ $2, CX
	JZ   mul4Asm_comb

mul4Asm_ug:
	MOVLQSX (R15)(DX*4), AX
	IMULQ   R11, AX
	VADDPD (SI)(AX*1), Y0, Y0
	INCQ DX
	MOVLQSX (R15)(DX*4), AX
	IMULQ   R11, AX
	VADDPD (SI)(AX*1), Y1, Y1
	INCQ DX
	MOVLQSX (R15)(DX*4), AX
	IMULQ   R11, AX
	VADDPD (SI)(AX*1), Y2, Y2
	INCQ DX
	MOVLQSX (R15)(DX*4), AX
	IMULQ   R11, AX
	VADDPD (SI)(AX*1), Y3, Y3
	INCQ DX
	DECQ CX
	JNZ  mul4Asm_ug

mul4Asm_comb:
	VADDPD Y2, Y0, Y0
	VADDPD Y3, Y1, Y1
	VADDPD Y1, Y0, Y0
	MOVQ (R8), DX
	MOVQ 8(R8), CX
	SUBQ DX, CX
	MOVQ CX, BX
	ANDQ $-4, BX
	ADDQ BX, DX
	ANDQ $3, CX
	JZ   mul4Asm_utail

mul4Asm_vt:
	MOVLQSX (R13)(DX*4), AX
	IMULQ   R11, AX
	VBROADCASTSD (R14)(DX*8), Y4
	VFMADD231PD (SI)(AX*1), Y4, Y0
	INCQ DX
	DECQ CX
	JNZ  mul4Asm_vt

mul4Asm_utail:
	MOVQ (R10), DX
	MOVQ 8(R10), CX
	SUBQ DX, CX
	MOVQ CX, BX
	ANDQ $-4, BX
	ADDQ BX, DX
	ANDQ $3, CX
	JZ   mul4Asm_store

mul4Asm_ut:
	MOVLQSX (R15)(DX*4), AX
	IMULQ   R11, AX
	VADDPD (SI)(AX*1), Y0, Y0
	INCQ DX
	DECQ CX
	JNZ  mul4Asm_ut

mul4Asm_store:
	VMOVUPD Y0, (DI)
	ADDQ R12, DI
	ADDQ $8, R8
	ADDQ $8, R10
	DECQ R9
	JNZ  mul4Asm_row
	VZEROUPPER
	RET

// func mul1Asm(t, v *float64, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32)
TEXT ·mul1Asm(SB), NOSPLIT, $0-64
	MOVQ t+0(FP), DI
	MOVQ $8, R12
	MOVQ v+8(FP), SI
	MOVQ rows+16(FP), R9
	MOVQ vptr+24(FP), R8
	MOVQ vidx+32(FP), R13
	MOVQ vval+40(FP), R14
	MOVQ uptr+48(FP), R10
	MOVQ uidx+56(FP), R15

mul1Asm_row:
	VXORPD X0, X0, X0
	VXORPD X1, X1, X1
	VXORPD X2, X2, X2
	VXORPD X3, X3, X3
	MOVQ (R8), DX
	MOVQ 8(R8), CX
	SUBQ DX, CX
	SHRQ $2, CX
	JZ   mul1Asm_units

mul1Asm_vg:
	MOVLQSX (R13)(DX*4), AX
	VMOVSD (R14)(DX*8), X4
	VFMADD231SD (SI)(AX*8), X4, X0
	INCQ DX
	MOVLQSX (R13)(DX*4), AX
	VMOVSD (R14)(DX*8), X4
	VFMADD231SD (SI)(AX*8), X4, X1
	INCQ DX
	MOVLQSX (R13)(DX*4), AX
	VMOVSD (R14)(DX*8), X4
	VFMADD231SD (SI)(AX*8), X4, X2
	INCQ DX
	MOVLQSX (R13)(DX*4), AX
	VMOVSD (R14)(DX*8), X4
	VFMADD231SD (SI)(AX*8), X4, X3
	INCQ DX
	DECQ CX
	JNZ  mul1Asm_vg

mul1Asm_units:
	MOVQ (R10), DX
	MOVQ 8(R10), CX
	SUBQ DX, CX
	SHRQ $2, CX
	JZ   mul1Asm_comb

mul1Asm_ug:
	MOVLQSX (R15)(DX*4), AX
	VADDSD (SI)(AX*8), X0, X0
	INCQ DX
	MOVLQSX (R15)(DX*4), AX
	VADDSD (SI)(AX*8), X1, X1
	INCQ DX
	MOVLQSX (R15)(DX*4), AX
	VADDSD (SI)(AX*8), X2, X2
	INCQ DX
	MOVLQSX (R15)(DX*4), AX
	VADDSD (SI)(AX*8), X3, X3
	INCQ DX
	DECQ CX
	JNZ  mul1Asm_ug

mul1Asm_comb:
	VADDSD X2, X0, X0
	VADDSD X3, X1, X1
	VADDSD X1, X0, X0
	MOVQ (R8), DX
	MOVQ 8(R8), CX
	SUBQ DX, CX
	MOVQ CX, BX
	ANDQ $-4, BX
	ADDQ BX, DX
	ANDQ $3, CX
	JZ   mul1Asm_utail

mul1Asm_vt:
	MOVLQSX (R13)(DX*4), AX
	VMOVSD (R14)(DX*8), X4
	VFMADD231SD (SI)(AX*8), X4, X0
	INCQ DX
	DECQ CX
	JNZ  mul1Asm_vt

mul1Asm_utail:
	MOVQ (R10), DX
	MOVQ 8(R10), CX
	SUBQ DX, CX
	MOVQ CX, BX
	ANDQ $-4, BX
	ADDQ BX, DX
	ANDQ $3, CX
	JZ   mul1Asm_store

mul1Asm_ut:
	MOVLQSX (R15)(DX*4), AX
	VADDSD (SI)(AX*8), X0, X0
	INCQ DX
	DECQ CX
	JNZ  mul1Asm_ut

mul1Asm_store:
	VMOVSD X0, (DI)
	ADDQ R12, DI
	ADDQ $8, R8
	ADDQ $8, R10
	DECQ R9
	JNZ  mul1Asm_row
	VZEROUPPER
	RET

// func addTrans4Asm(h *float64, hw int, t *float64, tw, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32, sq int)
TEXT ·addTrans4Asm(SB), NOSPLIT, $0-88
	MOVQ h+0(FP), SI
	MOVQ hw+8(FP), R11
	SHLQ $3, R11
	MOVQ t+16(FP), DI
	MOVQ tw+24(FP), R12
	SHLQ $3, R12
	MOVQ rows+32(FP), R9
	MOVQ vptr+40(FP), R8
	MOVQ vidx+48(FP), R13
	MOVQ vval+56(FP), R14
	MOVQ uptr+64(FP), R10
	MOVQ uidx+72(FP), R15
	MOVQ sq+80(FP), BX
	TESTQ BX, BX
	JNZ   addTrans4Asm_sqrow

addTrans4Asm_plrow:
	VMOVUPD (DI), Y0
	MOVQ (R8), DX
	MOVQ 8(R8), CX
	SUBQ DX, CX
	JZ   addTrans4Asm_pl_u

addTrans4Asm_pl_v:
	MOVLQSX (R13)(DX*4), AX
	IMULQ   R11, AX
	VBROADCASTSD (R14)(DX*8), Y1
	VMOVUPD (SI)(AX*1), Y2
	VFMADD231PD Y1, Y0, Y2
	VMOVUPD Y2, (SI)(AX*1)
	INCQ DX
	DECQ CX
	JNZ  addTrans4Asm_pl_v

addTrans4Asm_pl_u:
	MOVQ (R10), DX
	MOVQ 8(R10), CX
	SUBQ DX, CX
	JZ   addTrans4Asm_pl_next

addTrans4Asm_pl_ul:
	MOVLQSX (R15)(DX*4), AX
	IMULQ   R11, AX
	VADDPD (SI)(AX*1), Y0, Y2
	VMOVUPD Y2, (SI)(AX*1)
	INCQ DX
	DECQ CX
	JNZ  addTrans4Asm_pl_ul

addTrans4Asm_pl_next:
	ADDQ R12, DI
	ADDQ $8, R8
	ADDQ $8, R10
	DECQ R9
	JNZ  addTrans4Asm_plrow
	VZEROUPPER
	RET

addTrans4Asm_sqrow:
	VMOVUPD (DI), Y0
	MOVQ (R8), DX
	MOVQ 8(R8), CX
	SUBQ DX, CX
	JZ   addTrans4Asm_sq_u

addTrans4Asm_sq_v:
	MOVLQSX (R13)(DX*4), AX
	IMULQ   R11, AX
	VBROADCASTSD (R14)(DX*8), Y1
	VMULPD Y1, Y1, Y1
	VMOVUPD (SI)(AX*1), Y2
	VFMADD231PD Y1, Y0, Y2
	VMOVUPD Y2, (SI)(AX*1)
	INCQ DX
	DECQ CX
	JNZ  addTrans4Asm_sq_v

addTrans4Asm_sq_u:
	MOVQ (R10), DX
	MOVQ 8(R10), CX
	SUBQ DX, CX
	JZ   addTrans4Asm_sq_next

addTrans4Asm_sq_ul:
	MOVLQSX (R15)(DX*4), AX
	IMULQ   R11, AX
	VADDPD (SI)(AX*1), Y0, Y2
	VMOVUPD Y2, (SI)(AX*1)
	INCQ DX
	DECQ CX
	JNZ  addTrans4Asm_sq_ul

addTrans4Asm_sq_next:
	ADDQ R12, DI
	ADDQ $8, R8
	ADDQ $8, R10
	DECQ R9
	JNZ  addTrans4Asm_sqrow
	VZEROUPPER
	RET

// func addTrans1Asm(h, t *float64, rows int, vptr *int64, vidx *int32, vval *float64, uptr *int64, uidx *int32, sq int)
TEXT ·addTrans1Asm(SB), NOSPLIT, $0-72
	MOVQ h+0(FP), SI
	MOVQ t+8(FP), DI
	MOVQ $8, R12
	MOVQ rows+16(FP), R9
	MOVQ vptr+24(FP), R8
	MOVQ vidx+32(FP), R13
	MOVQ vval+40(FP), R14
	MOVQ uptr+48(FP), R10
	MOVQ uidx+56(FP), R15
	MOVQ sq+64(FP), BX
	TESTQ BX, BX
	JNZ   addTrans1Asm_sqrow

addTrans1Asm_plrow:
	VMOVSD (DI), X0
	MOVQ (R8), DX
	MOVQ 8(R8), CX
	SUBQ DX, CX
	JZ   addTrans1Asm_pl_u

addTrans1Asm_pl_v:
	MOVLQSX (R13)(DX*4), AX
	VMOVSD (R14)(DX*8), X1
	VMOVSD (SI)(AX*8), X2
	VFMADD231SD X1, X0, X2
	VMOVSD X2, (SI)(AX*8)
	INCQ DX
	DECQ CX
	JNZ  addTrans1Asm_pl_v

addTrans1Asm_pl_u:
	MOVQ (R10), DX
	MOVQ 8(R10), CX
	SUBQ DX, CX
	JZ   addTrans1Asm_pl_next

addTrans1Asm_pl_ul:
	MOVLQSX (R15)(DX*4), AX
	VADDSD (SI)(AX*8), X0, X2
	VMOVSD X2, (SI)(AX*8)
	INCQ DX
	DECQ CX
	JNZ  addTrans1Asm_pl_ul

addTrans1Asm_pl_next:
	ADDQ R12, DI
	ADDQ $8, R8
	ADDQ $8, R10
	DECQ R9
	JNZ  addTrans1Asm_plrow
	VZEROUPPER
	RET

addTrans1Asm_sqrow:
	VMOVSD (DI), X0
	MOVQ (R8), DX
	MOVQ 8(R8), CX
	SUBQ DX, CX
	JZ   addTrans1Asm_sq_u

addTrans1Asm_sq_v:
	MOVLQSX (R13)(DX*4), AX
	VMOVSD (R14)(DX*8), X1
	VMULSD X1, X1, X1
	VMOVSD (SI)(AX*8), X2
	VFMADD231SD X1, X0, X2
	VMOVSD X2, (SI)(AX*8)
	INCQ DX
	DECQ CX
	JNZ  addTrans1Asm_sq_v

addTrans1Asm_sq_u:
	MOVQ (R10), DX
	MOVQ 8(R10), CX
	SUBQ DX, CX
	JZ   addTrans1Asm_sq_next

addTrans1Asm_sq_ul:
	MOVLQSX (R15)(DX*4), AX
	VADDSD (SI)(AX*8), X0, X2
	VMOVSD X2, (SI)(AX*8)
	INCQ DX
	DECQ CX
	JNZ  addTrans1Asm_sq_ul

addTrans1Asm_sq_next:
	ADDQ R12, DI
	ADDQ $8, R8
	ADDQ $8, R10
	DECQ R9
	JNZ  addTrans1Asm_sqrow
	VZEROUPPER
	RET
