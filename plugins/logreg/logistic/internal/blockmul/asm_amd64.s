//go:build amd64 && !noasm

#include "textflag.h"

// The kernels of asm_amd64.go. Registers shared by them:
//   SI  x at the row (or first of four rows) in hand
//   R8  stride in bytes, R13 three strides
//   R9  rows left
//   R10 d, R15 d/4 (whole 4-column chunks), CX… see each kernel
//   R12 w in bytes, R11 the bytes of the whole 8-lane chunks
//   DI  a rows×w panel (t) at the row in hand
//   AX  x at column j, BX a d×w panel (v or h) at row j, DX a counter

#define SQUARE(R) VMULPD R, R, R
#define PLAIN(R)

// TRANS8 adds x[r,j]·t[r] (SQ: x[r,j]²·t[r]) of four rows, in row order,
// to eight lanes of the h panel at BX; t of row i is in Y(2i), Y(2i+1).
// The rows are x(AX), x(AX+R8), x(AX+2·R8) and x(AX+R13).
#define TRANS8(SQ) \
	VMOVUPD      (BX), Y8         \
	VMOVUPD      32(BX), Y9       \
	VBROADCASTSD (AX), Y10        \
	SQ(Y10)                       \
	VFMADD231PD  Y0, Y10, Y8      \
	VFMADD231PD  Y1, Y10, Y9      \
	VBROADCASTSD (AX)(R8*1), Y11  \
	SQ(Y11)                       \
	VFMADD231PD  Y2, Y11, Y8      \
	VFMADD231PD  Y3, Y11, Y9      \
	VBROADCASTSD (AX)(R8*2), Y10  \
	SQ(Y10)                       \
	VFMADD231PD  Y4, Y10, Y8      \
	VFMADD231PD  Y5, Y10, Y9      \
	VBROADCASTSD (AX)(R13*1), Y11 \
	SQ(Y11)                       \
	VFMADD231PD  Y6, Y11, Y8      \
	VFMADD231PD  Y7, Y11, Y9      \
	VMOVUPD      Y8, (BX)         \
	VMOVUPD      Y9, 32(BX)

// TRANS1X4 adds x[r,j…j+3]·t[r] of four rows, in row order, to the four
// entries of one lane at BX; t[r] is broadcast in Y(2r), the rows are at
// AX, AX+R8, AX+2·R8 and AX+R13. TRANS1X1 does it for one entry.
#define TRANS1X4 \
	VMOVUPD     (BX), Y8        \
	VMOVUPD     (AX), Y10       \
	VFMADD231PD Y0, Y10, Y8     \
	VMOVUPD     (AX)(R8*1), Y11 \
	VFMADD231PD Y2, Y11, Y8     \
	VMOVUPD     (AX)(R8*2), Y10 \
	VFMADD231PD Y4, Y10, Y8     \
	VMOVUPD     (AX)(R13*1), Y11 \
	VFMADD231PD Y6, Y11, Y8     \
	VMOVUPD     Y8, (BX)

#define TRANS1X1 \
	VMOVSD      (BX), X8        \
	VMOVSD      (AX), X10       \
	VFMADD231SD X0, X10, X8     \
	VMOVSD      (AX)(R8*1), X11 \
	VFMADD231SD X2, X11, X8     \
	VMOVSD      (AX)(R8*2), X10 \
	VFMADD231SD X4, X10, X8     \
	VMOVSD      (AX)(R13*1), X11 \
	VFMADD231SD X6, X11, X8     \
	VMOVSD      X8, (BX)

// TRANS4 is TRANS8 on four lanes, t of row i in Y(2i).
#define TRANS4(SQ) \
	VMOVUPD      (BX), Y8         \
	VBROADCASTSD (AX), Y10        \
	SQ(Y10)                       \
	VFMADD231PD  Y0, Y10, Y8      \
	VBROADCASTSD (AX)(R8*1), Y11  \
	SQ(Y11)                       \
	VFMADD231PD  Y2, Y11, Y8      \
	VBROADCASTSD (AX)(R8*2), Y10  \
	SQ(Y10)                       \
	VFMADD231PD  Y4, Y10, Y8      \
	VBROADCASTSD (AX)(R13*1), Y11 \
	SQ(Y11)                       \
	VFMADD231PD  Y6, Y11, Y8      \
	VMOVUPD      Y8, (BX)

// LOAD8 loads eight lanes of four rows of the panel at R14 (row stride
// R12) into Y0…Y7 (row i in Y(2i), Y(2i+1)); LOAD4 loads four lanes into
// Y0, Y2, Y4, Y6.
#define LOAD8 \
	VMOVUPD (R14), Y0   \
	VMOVUPD 32(R14), Y1 \
	ADDQ    R12, R14    \
	VMOVUPD (R14), Y2   \
	VMOVUPD 32(R14), Y3 \
	ADDQ    R12, R14    \
	VMOVUPD (R14), Y4   \
	VMOVUPD 32(R14), Y5 \
	ADDQ    R12, R14    \
	VMOVUPD (R14), Y6   \
	VMOVUPD 32(R14), Y7

#define LOAD4 \
	VMOVUPD (R14), Y0 \
	ADDQ    R12, R14  \
	VMOVUPD (R14), Y2 \
	ADDQ    R12, R14  \
	VMOVUPD (R14), Y4 \
	ADDQ    R12, R14  \
	VMOVUPD (R14), Y6

// DOT8 adds the four columns at AX times eight lanes of the v panel at BX
// (rows j…j+3) to the partial sums: column j+k goes to Y(2k), Y(2k+1).
// It leaves BX four rows of the panel further. The columns are loaded
// once and spread with VPERMPD, which leaves the load ports to the panel.
#define DOT8 \
	VMOVUPD     (AX), Y12        \
	VPERMPD     $0x00, Y12, Y8   \
	VFMADD231PD (BX), Y8, Y0     \
	VFMADD231PD 32(BX), Y8, Y1   \
	ADDQ        R12, BX          \
	VPERMPD     $0x55, Y12, Y9   \
	VFMADD231PD (BX), Y9, Y2     \
	VFMADD231PD 32(BX), Y9, Y3   \
	ADDQ        R12, BX          \
	VPERMPD     $0xAA, Y12, Y10  \
	VFMADD231PD (BX), Y10, Y4    \
	VFMADD231PD 32(BX), Y10, Y5  \
	ADDQ        R12, BX          \
	VPERMPD     $0xFF, Y12, Y11  \
	VFMADD231PD (BX), Y11, Y6    \
	VFMADD231PD 32(BX), Y11, Y7  \
	ADDQ        R12, BX

// DOT4 is DOT8 on four lanes: column j+k goes to Y(2k).
#define DOT4 \
	VMOVUPD     (AX), Y12       \
	VPERMPD     $0x00, Y12, Y8  \
	VFMADD231PD (BX), Y8, Y0    \
	ADDQ        R12, BX         \
	VPERMPD     $0x55, Y12, Y9  \
	VFMADD231PD (BX), Y9, Y2    \
	ADDQ        R12, BX         \
	VPERMPD     $0xAA, Y12, Y10 \
	VFMADD231PD (BX), Y10, Y4   \
	ADDQ        R12, BX         \
	VPERMPD     $0xFF, Y12, Y11 \
	VFMADD231PD (BX), Y11, Y6   \
	ADDQ        R12, BX

#define ZERO8 \
	VXORPD Y0, Y0, Y0 \
	VXORPD Y1, Y1, Y1 \
	VXORPD Y2, Y2, Y2 \
	VXORPD Y3, Y3, Y3 \
	VXORPD Y4, Y4, Y4 \
	VXORPD Y5, Y5, Y5 \
	VXORPD Y6, Y6, Y6 \
	VXORPD Y7, Y7, Y7

#define ZERO4 \
	VXORPD Y0, Y0, Y0 \
	VXORPD Y2, Y2, Y2 \
	VXORPD Y4, Y4, Y4 \
	VXORPD Y6, Y6, Y6

// COMBINE8 sets Y0, Y1 to (s0 + s2) + (s1 + s3) of the partial sums of
// DOT8; COMBINE4 sets Y0 to it for DOT4's.
#define COMBINE8 \
	VADDPD Y4, Y0, Y0 \
	VADDPD Y6, Y2, Y2 \
	VADDPD Y2, Y0, Y0 \
	VADDPD Y5, Y1, Y1 \
	VADDPD Y7, Y3, Y3 \
	VADDPD Y3, Y1, Y1

#define COMBINE4 \
	VADDPD Y4, Y0, Y0 \
	VADDPD Y6, Y2, Y2 \
	VADDPD Y2, Y0, Y0

// TAIL8 adds column j (at AX) times eight lanes of the v panel at BX to
// Y0, Y1 and moves AX and BX on; TAIL4 does so for four lanes, into Y0.
#define TAIL8 \
	VBROADCASTSD (AX), Y8       \
	VFMADD231PD  (BX), Y8, Y0   \
	VFMADD231PD  32(BX), Y8, Y1 \
	ADDQ         $8, AX         \
	ADDQ         R12, BX

#define TAIL4 \
	VBROADCASTSD (AX), Y8     \
	VFMADD231PD  (BX), Y8, Y0 \
	ADDQ         $8, AX       \
	ADDQ         R12, BX

// SCALE8 turns the eight lanes of t in Y0, Y1 into u = (t + vb)·dd and
// adds u to hb, lanes CX…CX+7: vb at R14, dd of the row at DX, hb at
// BX. SCALE4 does so for four lanes, in Y0.
#define SCALE8 \
	VADDPD  (R14)(CX*1), Y0, Y0    \
	VADDPD  32(R14)(CX*1), Y1, Y1  \
	VMULPD  (DX)(CX*1), Y0, Y0     \
	VMULPD  32(DX)(CX*1), Y1, Y1   \
	VADDPD  (BX)(CX*1), Y0, Y8     \
	VADDPD  32(BX)(CX*1), Y1, Y9   \
	VMOVUPD Y8, (BX)(CX*1)         \
	VMOVUPD Y9, 32(BX)(CX*1)

#define SCALE4 \
	VADDPD  (R14)(CX*1), Y0, Y0 \
	VMULPD  (DX)(CX*1), Y0, Y0  \
	VADDPD  (BX)(CX*1), Y0, Y8  \
	VMOVUPD Y8, (BX)(CX*1)

// SETUP loads the shape: x, stride, rows, d and w at the given frame
// offsets.
#define SETUP(XOFF, SOFF, ROFF, DOFF, WOFF) \
	MOVQ XOFF(FP), SI    \
	MOVQ SOFF(FP), R8    \
	SHLQ $3, R8          \
	LEAQ (R8)(R8*2), R13 \
	MOVQ ROFF(FP), R9    \
	MOVQ DOFF(FP), R10   \
	MOVQ R10, R15        \
	SHRQ $2, R15         \
	MOVQ WOFF(FP), R12   \
	SHLQ $3, R12         \
	MOVQ R12, R11        \
	ANDQ $-64, R11

// func mulAsm(t, x *float64, stride, rows, d int, v *float64, w int)
TEXT ·mulAsm(SB), NOSPLIT, $0-56
	MOVQ t+0(FP), DI
	SETUP(x+8, stride+16, rows+24, d+32, w+48)

mul_rows:
	TESTQ R9, R9
	JZ    mul_done
	XORQ  CX, CX

mul_c8:
	CMPQ CX, R11
	JGE  mul_c4
	ZERO8
	MOVQ SI, AX
	MOVQ v+40(FP), BX
	ADDQ CX, BX
	MOVQ R15, DX
	TESTQ DX, DX
	JZ   mul_c8_comb

mul_c8_dot:
	DOT8
	ADDQ $32, AX
	DECQ DX
	JNZ  mul_c8_dot

mul_c8_comb:
	COMBINE8
	MOVQ R10, DX
	ANDQ $3, DX
	JZ   mul_c8_store

mul_c8_tail:
	TAIL8
	DECQ DX
	JNZ  mul_c8_tail

mul_c8_store:
	VMOVUPD Y0, (DI)(CX*1)
	VMOVUPD Y1, 32(DI)(CX*1)
	ADDQ $64, CX
	JMP  mul_c8

mul_c4:
	CMPQ CX, R12
	JGE  mul_next
	ZERO4
	MOVQ SI, AX
	MOVQ v+40(FP), BX
	ADDQ CX, BX
	MOVQ R15, DX
	TESTQ DX, DX
	JZ   mul_c4_comb

mul_c4_dot:
	DOT4
	ADDQ $32, AX
	DECQ DX
	JNZ  mul_c4_dot

mul_c4_comb:
	COMBINE4
	MOVQ R10, DX
	ANDQ $3, DX
	JZ   mul_c4_store

mul_c4_tail:
	TAIL4
	DECQ DX
	JNZ  mul_c4_tail

mul_c4_store:
	VMOVUPD Y0, (DI)(CX*1)
	ADDQ $32, CX
	JMP  mul_c4

mul_next:
	ADDQ R8, SI
	ADDQ R12, DI
	DECQ R9
	JMP  mul_rows

mul_done:
	VZEROUPPER
	RET

// func mulScaleAsm(t, x *float64, stride, rows, d int, v *float64, w int, dd, vb, hb *float64)
TEXT ·mulScaleAsm(SB), NOSPLIT, $0-80
	MOVQ t+0(FP), DI
	SETUP(x+8, stride+16, rows+24, d+32, w+48)

ms_rows:
	TESTQ R9, R9
	JZ    ms_done
	XORQ  CX, CX

ms_c8:
	CMPQ CX, R11
	JGE  ms_c4
	ZERO8
	MOVQ SI, AX
	MOVQ v+40(FP), BX
	ADDQ CX, BX
	MOVQ R15, DX
	TESTQ DX, DX
	JZ   ms_c8_comb

ms_c8_dot:
	DOT8
	ADDQ $32, AX
	DECQ DX
	JNZ  ms_c8_dot

ms_c8_comb:
	COMBINE8
	MOVQ R10, DX
	ANDQ $3, DX
	JZ   ms_c8_store

ms_c8_tail:
	TAIL8
	DECQ DX
	JNZ  ms_c8_tail

ms_c8_store:
	MOVQ vb+64(FP), R14
	MOVQ DI, DX
	SUBQ t+0(FP), DX
	ADDQ dd+56(FP), DX
	MOVQ hb+72(FP), BX
	SCALE8
	VMOVUPD Y0, (DI)(CX*1)
	VMOVUPD Y1, 32(DI)(CX*1)
	ADDQ $64, CX
	JMP  ms_c8

ms_c4:
	CMPQ CX, R12
	JGE  ms_next
	ZERO4
	MOVQ SI, AX
	MOVQ v+40(FP), BX
	ADDQ CX, BX
	MOVQ R15, DX
	TESTQ DX, DX
	JZ   ms_c4_comb

ms_c4_dot:
	DOT4
	ADDQ $32, AX
	DECQ DX
	JNZ  ms_c4_dot

ms_c4_comb:
	COMBINE4
	MOVQ R10, DX
	ANDQ $3, DX
	JZ   ms_c4_store

ms_c4_tail:
	TAIL4
	DECQ DX
	JNZ  ms_c4_tail

ms_c4_store:
	MOVQ vb+64(FP), R14
	MOVQ DI, DX
	SUBQ t+0(FP), DX
	ADDQ dd+56(FP), DX
	MOVQ hb+72(FP), BX
	SCALE4
	VMOVUPD Y0, (DI)(CX*1)
	ADDQ $32, CX
	JMP  ms_c4

ms_next:
	ADDQ R8, SI
	ADDQ R12, DI
	DECQ R9
	JMP  ms_rows

ms_done:
	VZEROUPPER
	RET

// func addTransAsm(h, x *float64, stride, rows, d int, t *float64, w int)
TEXT ·addTransAsm(SB), NOSPLIT, $0-56
	MOVQ t+40(FP), DI
	SETUP(x+8, stride+16, rows+24, d+32, w+48)

tr_rows:
	CMPQ R9, $4
	JL   tr_done
	XORQ CX, CX

tr_c8:
	CMPQ CX, R11
	JGE  tr_c4
	LEAQ (DI)(CX*1), R14
	LOAD8
	MOVQ SI, AX
	MOVQ h+0(FP), BX
	ADDQ CX, BX
	MOVQ R10, DX

tr_c8_j:
	TRANS8(PLAIN)
	ADDQ R12, BX
	ADDQ $8, AX
	DECQ DX
	JNZ  tr_c8_j
	ADDQ $64, CX
	JMP  tr_c8

tr_c4:
	CMPQ CX, R12
	JGE  tr_next
	LEAQ (DI)(CX*1), R14
	LOAD4
	MOVQ SI, AX
	MOVQ h+0(FP), BX
	ADDQ CX, BX
	MOVQ R10, DX

tr_c4_j:
	TRANS4(PLAIN)
	ADDQ R12, BX
	ADDQ $8, AX
	DECQ DX
	JNZ  tr_c4_j
	ADDQ $32, CX
	JMP  tr_c4

tr_next:
	LEAQ (SI)(R8*4), SI
	LEAQ (DI)(R12*4), DI
	SUBQ $4, R9
	JMP  tr_rows

tr_done:
	VZEROUPPER
	RET

// func addTransSqAsm(h, x *float64, stride, rows, d int, t *float64, w int)
TEXT ·addTransSqAsm(SB), NOSPLIT, $0-56
	MOVQ t+40(FP), DI
	SETUP(x+8, stride+16, rows+24, d+32, w+48)

sq_rows:
	CMPQ R9, $4
	JL   sq_done
	XORQ CX, CX

sq_c8:
	CMPQ CX, R11
	JGE  sq_c4
	LEAQ (DI)(CX*1), R14
	LOAD8
	MOVQ SI, AX
	MOVQ h+0(FP), BX
	ADDQ CX, BX
	MOVQ R10, DX

sq_c8_j:
	TRANS8(SQUARE)
	ADDQ R12, BX
	ADDQ $8, AX
	DECQ DX
	JNZ  sq_c8_j
	ADDQ $64, CX
	JMP  sq_c8

sq_c4:
	CMPQ CX, R12
	JGE  sq_next
	LEAQ (DI)(CX*1), R14
	LOAD4
	MOVQ SI, AX
	MOVQ h+0(FP), BX
	ADDQ CX, BX
	MOVQ R10, DX

sq_c4_j:
	TRANS4(SQUARE)
	ADDQ R12, BX
	ADDQ $8, AX
	DECQ DX
	JNZ  sq_c4_j
	ADDQ $32, CX
	JMP  sq_c4

sq_next:
	LEAQ (SI)(R8*4), SI
	LEAQ (DI)(R12*4), DI
	SUBQ $4, R9
	JMP  sq_rows

sq_done:
	VZEROUPPER
	RET

// func mul1Asm(t, x *float64, stride, rows, d int, v *float64)
TEXT ·mul1Asm(SB), NOSPLIT, $0-48
	MOVQ t+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ stride+16(FP), R8
	SHLQ $3, R8
	MOVQ rows+24(FP), R9
	MOVQ d+32(FP), R10
	MOVQ R10, R15
	SHRQ $2, R15

m1_rows:
	TESTQ R9, R9
	JZ    m1_done
	VXORPD Y0, Y0, Y0
	MOVQ SI, AX
	MOVQ v+40(FP), BX
	MOVQ R15, DX
	TESTQ DX, DX
	JZ   m1_comb

m1_dot:
	VMOVUPD     (AX), Y1
	VFMADD231PD (BX), Y1, Y0
	ADDQ $32, AX
	ADDQ $32, BX
	DECQ DX
	JNZ  m1_dot

m1_comb:
	// (s0 + s2) + (s1 + s3)
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VPERMILPD    $1, X0, X1
	VADDSD       X1, X0, X0
	MOVQ R10, DX
	ANDQ $3, DX
	JZ   m1_store

m1_tail:
	VMOVSD      (AX), X1
	VFMADD231SD (BX), X1, X0
	ADDQ $8, AX
	ADDQ $8, BX
	DECQ DX
	JNZ  m1_tail

m1_store:
	VMOVSD X0, (DI)
	ADDQ R8, SI
	ADDQ $8, DI
	DECQ R9
	JMP  m1_rows

m1_done:
	VZEROUPPER
	RET

// func mulScale1Asm(t, x *float64, stride, rows, d int, v, dd *float64, vb float64, hb *float64)
TEXT ·mulScale1Asm(SB), NOSPLIT, $0-72
	MOVQ t+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ stride+16(FP), R8
	SHLQ $3, R8
	MOVQ rows+24(FP), R9
	MOVQ d+32(FP), R10
	MOVQ R10, R15
	SHRQ $2, R15
	MOVQ   dd+48(FP), R14
	VMOVSD vb+56(FP), X14
	MOVQ   hb+64(FP), AX
	VMOVSD (AX), X15

s1_rows:
	TESTQ R9, R9
	JZ    s1_done
	VXORPD Y0, Y0, Y0
	MOVQ SI, AX
	MOVQ v+40(FP), BX
	MOVQ R15, DX
	TESTQ DX, DX
	JZ   s1_comb

s1_dot:
	VMOVUPD     (AX), Y1
	VFMADD231PD (BX), Y1, Y0
	ADDQ $32, AX
	ADDQ $32, BX
	DECQ DX
	JNZ  s1_dot

s1_comb:
	// (s0 + s2) + (s1 + s3)
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VPERMILPD    $1, X0, X1
	VADDSD       X1, X0, X0
	MOVQ R10, DX
	ANDQ $3, DX
	JZ   s1_store

s1_tail:
	VMOVSD      (AX), X1
	VFMADD231SD (BX), X1, X0
	ADDQ $8, AX
	ADDQ $8, BX
	DECQ DX
	JNZ  s1_tail

s1_store:
	VADDSD X14, X0, X0
	VMULSD (R14), X0, X0
	VADDSD X0, X15, X15
	ADDQ $8, R14
	VMOVSD X0, (DI)
	ADDQ R8, SI
	ADDQ $8, DI
	DECQ R9
	JMP  s1_rows

s1_done:
	MOVQ   hb+64(FP), AX
	VMOVSD X15, (AX)
	VZEROUPPER
	RET

// func addTrans1Asm(h, x *float64, stride, rows, d int, t *float64)
TEXT ·addTrans1Asm(SB), NOSPLIT, $0-48
	MOVQ h+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ stride+16(FP), R8
	SHLQ $3, R8
	LEAQ (R8)(R8*2), R13
	MOVQ rows+24(FP), R9
	MOVQ d+32(FP), R10
	MOVQ R10, R15
	SHRQ $2, R15
	MOVQ t+40(FP), R14

t1_rows:
	CMPQ R9, $4
	JL   t1_done
	VBROADCASTSD (R14), Y0
	VBROADCASTSD 8(R14), Y2
	VBROADCASTSD 16(R14), Y4
	VBROADCASTSD 24(R14), Y6
	MOVQ SI, AX
	MOVQ DI, BX
	MOVQ R15, DX
	TESTQ DX, DX
	JZ   t1_tail

t1_j:
	TRANS1X4
	ADDQ $32, AX
	ADDQ $32, BX
	DECQ DX
	JNZ  t1_j

t1_tail:
	MOVQ R10, DX
	ANDQ $3, DX
	JZ   t1_next

t1_tj:
	TRANS1X1
	ADDQ $8, AX
	ADDQ $8, BX
	DECQ DX
	JNZ  t1_tj

t1_next:
	LEAQ (SI)(R8*4), SI
	ADDQ $32, R14
	SUBQ $4, R9
	JMP  t1_rows

t1_done:
	VZEROUPPER
	RET

// func addTransSq1Asm(h, x *float64, stride, rows, d int, t *float64)
TEXT ·addTransSq1Asm(SB), NOSPLIT, $0-48
	MOVQ h+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ stride+16(FP), R8
	SHLQ $3, R8
	LEAQ (R8)(R8*2), R13
	MOVQ rows+24(FP), R9
	MOVQ d+32(FP), R10
	MOVQ R10, R15
	SHRQ $2, R15
	MOVQ t+40(FP), R14

q1_rows:
	CMPQ R9, $4
	JL   q1_done
	VBROADCASTSD (R14), Y0
	VBROADCASTSD 8(R14), Y2
	VBROADCASTSD 16(R14), Y4
	VBROADCASTSD 24(R14), Y6
	MOVQ SI, AX
	MOVQ DI, BX
	MOVQ R15, DX
	TESTQ DX, DX
	JZ   q1_tail

q1_j:
	VMOVUPD (BX), Y8
	VMOVUPD (AX), Y10
	VMULPD Y10, Y10, Y10
	VFMADD231PD Y0, Y10, Y8
	VMOVUPD (AX)(R8*1), Y11
	VMULPD Y11, Y11, Y11
	VFMADD231PD Y2, Y11, Y8
	VMOVUPD (AX)(R8*2), Y10
	VMULPD Y10, Y10, Y10
	VFMADD231PD Y4, Y10, Y8
	VMOVUPD (AX)(R13*1), Y11
	VMULPD Y11, Y11, Y11
	VFMADD231PD Y6, Y11, Y8
	VMOVUPD Y8, (BX)
	ADDQ $32, AX
	ADDQ $32, BX
	DECQ DX
	JNZ  q1_j

q1_tail:
	MOVQ R10, DX
	ANDQ $3, DX
	JZ   q1_next

q1_tj:
	VMOVSD (BX), X8
	VMOVSD (AX), X10
	VMULSD X10, X10, X10
	VFMADD231SD X0, X10, X8
	VMOVSD (AX)(R8*1), X11
	VMULSD X11, X11, X11
	VFMADD231SD X2, X11, X8
	VMOVSD (AX)(R8*2), X10
	VMULSD X10, X10, X10
	VFMADD231SD X4, X10, X8
	VMOVSD (AX)(R13*1), X11
	VMULSD X11, X11, X11
	VFMADD231SD X6, X11, X8
	VMOVSD X8, (BX)
	ADDQ $8, AX
	ADDQ $8, BX
	DECQ DX
	JNZ  q1_tj

q1_next:
	LEAQ (SI)(R8*4), SI
	ADDQ $32, R14
	SUBQ $4, R9
	JMP  q1_rows

q1_done:
	VZEROUPPER
	RET

// TRANSPOSE4 transposes the 4×4 tile of Y0…Y3 (a row each) into Y4…Y7 (a
// column each), with Y8…Y11 as scratch.
#define TRANSPOSE4 \
	VUNPCKLPD  Y1, Y0, Y8        \
	VUNPCKHPD  Y1, Y0, Y9        \
	VUNPCKLPD  Y3, Y2, Y10       \
	VUNPCKHPD  Y3, Y2, Y11       \
	VPERM2F128 $0x20, Y10, Y8, Y4 \
	VPERM2F128 $0x20, Y11, Y9, Y5 \
	VPERM2F128 $0x31, Y10, Y8, Y6 \
	VPERM2F128 $0x31, Y11, Y9, Y7

// func packAsm(dst *float64, w int, cols *[]float64, rows int)
//
// For each group of four columns (slice headers 24 bytes apart at BX) and
// each group of four rows: four column loads, a transpose, four row
// stores.
TEXT ·packAsm(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ w+8(FP), R12
	SHLQ $3, R12             // w in bytes
	MOVQ cols+16(FP), BX
	MOVQ rows+24(FP), R9
	XORQ CX, CX              // lane byte offset

pack_c:
	CMPQ CX, R12
	JGE  pack_done
	MOVQ 0(BX), R8           // the four columns
	MOVQ 24(BX), R10
	MOVQ 48(BX), R11
	MOVQ 72(BX), R13
	LEAQ (DI)(CX*1), SI      // dst at row 0, lane CX
	MOVQ R9, DX

pack_r:
	VMOVUPD (R8), Y0
	VMOVUPD (R10), Y1
	VMOVUPD (R11), Y2
	VMOVUPD (R13), Y3
	TRANSPOSE4
	VMOVUPD Y4, (SI)
	ADDQ    R12, SI
	VMOVUPD Y5, (SI)
	ADDQ    R12, SI
	VMOVUPD Y6, (SI)
	ADDQ    R12, SI
	VMOVUPD Y7, (SI)
	ADDQ    R12, SI
	ADDQ    $32, R8
	ADDQ    $32, R10
	ADDQ    $32, R11
	ADDQ    $32, R13
	SUBQ    $4, DX
	JNZ     pack_r
	ADDQ    $32, CX
	ADDQ    $96, BX
	JMP     pack_c

pack_done:
	VZEROUPPER
	RET

// func unpackAsm(cols *[]float64, src *float64, w int, rows int)
TEXT ·unpackAsm(SB), NOSPLIT, $0-32
	MOVQ cols+0(FP), BX
	MOVQ src+8(FP), DI
	MOVQ w+16(FP), R12
	SHLQ $3, R12
	MOVQ rows+24(FP), R9
	XORQ CX, CX

unpack_c:
	CMPQ CX, R12
	JGE  unpack_done
	MOVQ 0(BX), R8
	MOVQ 24(BX), R10
	MOVQ 48(BX), R11
	MOVQ 72(BX), R13
	LEAQ (DI)(CX*1), SI
	MOVQ R9, DX

unpack_r:
	VMOVUPD (SI), Y0
	ADDQ    R12, SI
	VMOVUPD (SI), Y1
	ADDQ    R12, SI
	VMOVUPD (SI), Y2
	ADDQ    R12, SI
	VMOVUPD (SI), Y3
	ADDQ    R12, SI
	TRANSPOSE4
	VMOVUPD Y4, (R8)
	VMOVUPD Y5, (R10)
	VMOVUPD Y6, (R11)
	VMOVUPD Y7, (R13)
	ADDQ    $32, R8
	ADDQ    $32, R10
	ADDQ    $32, R11
	ADDQ    $32, R13
	SUBQ    $4, DX
	JNZ     unpack_r
	ADDQ    $32, CX
	ADDQ    $96, BX
	JMP     unpack_c

unpack_done:
	VZEROUPPER
	RET

// GRAMBIAS8 adds the four rows' weighted lanes Y0…Y7 (row i in Y(2i),
// Y(2i+1)), one row after the other, to eight lanes of the h panel at BX.
#define GRAMBIAS8 \
	VMOVUPD (BX), Y8      \
	VMOVUPD 32(BX), Y9    \
	VADDPD  Y0, Y8, Y8    \
	VADDPD  Y1, Y9, Y9    \
	VADDPD  Y2, Y8, Y8    \
	VADDPD  Y3, Y9, Y9    \
	VADDPD  Y4, Y8, Y8    \
	VADDPD  Y5, Y9, Y9    \
	VADDPD  Y6, Y8, Y8    \
	VADDPD  Y7, Y9, Y9    \
	VMOVUPD Y8, (BX)      \
	VMOVUPD Y9, 32(BX)

// GRAMBIAS4 is GRAMBIAS8 on four lanes, row i in Y(2i).
#define GRAMBIAS4 \
	VMOVUPD (BX), Y8   \
	VADDPD  Y0, Y8, Y8 \
	VADDPD  Y2, Y8, Y8 \
	VADDPD  Y4, Y8, Y8 \
	VADDPD  Y6, Y8, Y8 \
	VMOVUPD Y8, (BX)

// GRAMSCALE8 multiplies the four rows' lanes Y0…Y7 by x[r,a] of the rows
// at AX (x(AX), x(AX+R8), x(AX+2·R8), x(AX+R13)); GRAMSCALE4 the four
// lanes Y0, Y2, Y4, Y6.
#define GRAMSCALE8 \
	VBROADCASTSD (AX), Y10        \
	VMULPD       Y10, Y0, Y0      \
	VMULPD       Y10, Y1, Y1      \
	VBROADCASTSD (AX)(R8*1), Y10  \
	VMULPD       Y10, Y2, Y2      \
	VMULPD       Y10, Y3, Y3      \
	VBROADCASTSD (AX)(R8*2), Y10  \
	VMULPD       Y10, Y4, Y4      \
	VMULPD       Y10, Y5, Y5      \
	VBROADCASTSD (AX)(R13*1), Y10 \
	VMULPD       Y10, Y6, Y6      \
	VMULPD       Y10, Y7, Y7

#define GRAMSCALE4 \
	VBROADCASTSD (AX), Y10        \
	VMULPD       Y10, Y0, Y0      \
	VBROADCASTSD (AX)(R8*1), Y10  \
	VMULPD       Y10, Y2, Y2      \
	VBROADCASTSD (AX)(R8*2), Y10  \
	VMULPD       Y10, Y4, Y4      \
	VBROADCASTSD (AX)(R13*1), Y10 \
	VMULPD       Y10, Y6, Y6

// func gramAsm(h, x *float64, stride, rows, d int, t *float64, w int)
// Four rows at a time, for each chunk of eight (then four) lanes: for
// each column a, the rows' weights times x[r,a] in Y0…Y7, then TRANS8 for
// the columns b = a…d−1 and GRAMBIAS8 for the column of ones, the entries
// (a,a)…(a,d) one after the other in h (BX); the entry (d,d) last, with
// the weights themselves. DX is a.
TEXT ·gramAsm(SB), NOSPLIT, $0-56
	MOVQ t+40(FP), DI
	SETUP(x+8, stride+16, rows+24, d+32, w+48)

gr_rows:
	CMPQ R9, $4
	JL   gr_done
	XORQ CX, CX

gr_c8:
	CMPQ CX, R11
	JGE  gr_c4
	MOVQ h+0(FP), BX
	ADDQ CX, BX
	XORQ DX, DX

gr_c8_a:
	CMPQ DX, R10
	JGE  gr_c8_last
	LEAQ (DI)(CX*1), R14
	LOAD8
	LEAQ (SI)(DX*8), AX
	GRAMSCALE8
	MOVQ R10, R14
	SUBQ DX, R14

gr_c8_b:
	TRANS8(PLAIN)
	ADDQ R12, BX
	ADDQ $8, AX
	DECQ R14
	JNZ  gr_c8_b
	GRAMBIAS8
	ADDQ R12, BX
	INCQ DX
	JMP  gr_c8_a

gr_c8_last:
	LEAQ (DI)(CX*1), R14
	LOAD8
	GRAMBIAS8
	ADDQ $64, CX
	JMP  gr_c8

gr_c4:
	CMPQ CX, R12
	JGE  gr_next
	MOVQ h+0(FP), BX
	ADDQ CX, BX
	XORQ DX, DX

gr_c4_a:
	CMPQ DX, R10
	JGE  gr_c4_last
	LEAQ (DI)(CX*1), R14
	LOAD4
	LEAQ (SI)(DX*8), AX
	GRAMSCALE4
	MOVQ R10, R14
	SUBQ DX, R14

gr_c4_b:
	TRANS4(PLAIN)
	ADDQ R12, BX
	ADDQ $8, AX
	DECQ R14
	JNZ  gr_c4_b
	GRAMBIAS4
	ADDQ R12, BX
	INCQ DX
	JMP  gr_c4_a

gr_c4_last:
	LEAQ (DI)(CX*1), R14
	LOAD4
	GRAMBIAS4
	ADDQ $32, CX
	JMP  gr_c4

gr_next:
	LEAQ (SI)(R8*4), SI
	LEAQ (DI)(R12*4), DI
	SUBQ $4, R9
	JMP  gr_rows

gr_done:
	VZEROUPPER
	RET

// func gram1Asm(h, x *float64, stride, rows, d int, t *float64)
// Four rows at a time: for each column a, the rows' weights times x[r,a]
// broadcast in Y0, Y2, Y4, Y6, then the entries (a,a)…(a,d−1) four at a
// time (with the rows' x[r,b…b+3]) and one at a time, the entry (a,d) with
// the weighted weights; the entry (d,d) last, with the weights. BX walks
// h, DX is a, R14 and R15 count the columns left.
TEXT ·gram1Asm(SB), NOSPLIT, $0-48
	MOVQ x+8(FP), SI
	MOVQ stride+16(FP), R8
	SHLQ $3, R8
	LEAQ (R8)(R8*2), R13
	MOVQ rows+24(FP), R9
	MOVQ d+32(FP), R10
	MOVQ t+40(FP), DI

g1_rows:
	CMPQ R9, $4
	JL   g1_done
	MOVQ h+0(FP), BX
	XORQ DX, DX

g1_a:
	CMPQ DX, R10
	JGE  g1_last
	LEAQ (SI)(DX*8), AX
	VBROADCASTSD (DI), Y0
	VBROADCASTSD (AX), Y10
	VMULPD       Y10, Y0, Y0
	VBROADCASTSD 8(DI), Y2
	VBROADCASTSD (AX)(R8*1), Y10
	VMULPD       Y10, Y2, Y2
	VBROADCASTSD 16(DI), Y4
	VBROADCASTSD (AX)(R8*2), Y10
	VMULPD       Y10, Y4, Y4
	VBROADCASTSD 24(DI), Y6
	VBROADCASTSD (AX)(R13*1), Y10
	VMULPD       Y10, Y6, Y6
	MOVQ R10, R14
	SUBQ DX, R14
	MOVQ R14, R15
	SHRQ $2, R15
	JZ   g1_tail

g1_j:
	TRANS1X4
	ADDQ        $32, AX
	ADDQ        $32, BX
	DECQ        R15
	JNZ         g1_j

g1_tail:
	ANDQ $3, R14
	JZ   g1_bias

g1_tj:
	TRANS1X1
	ADDQ        $8, AX
	ADDQ        $8, BX
	DECQ        R14
	JNZ         g1_tj

g1_bias:
	VMOVSD (BX), X8
	VADDSD X0, X8, X8
	VADDSD X2, X8, X8
	VADDSD X4, X8, X8
	VADDSD X6, X8, X8
	VMOVSD X8, (BX)
	ADDQ   $8, BX
	INCQ   DX
	JMP    g1_a

g1_last:
	VMOVSD (BX), X8
	VADDSD (DI), X8, X8
	VADDSD 8(DI), X8, X8
	VADDSD 16(DI), X8, X8
	VADDSD 24(DI), X8, X8
	VMOVSD X8, (BX)
	LEAQ   (SI)(R8*4), SI
	ADDQ   $32, DI
	SUBQ   $4, R9
	JMP    g1_rows

g1_done:
	VZEROUPPER
	RET
