//go:build amd64 && !noasm

#include "textflag.h"

// Each constant of the method (softplus.go) four times, for 256-bit
// operands.
DATA consts<>+0(SB)/8, $0x8000000000000000 // sign bit
DATA consts<>+8(SB)/8, $0x8000000000000000
DATA consts<>+16(SB)/8, $0x8000000000000000
DATA consts<>+24(SB)/8, $0x8000000000000000
DATA consts<>+32(SB)/8, $0xc087500000000000 // -746
DATA consts<>+40(SB)/8, $0xc087500000000000
DATA consts<>+48(SB)/8, $0xc087500000000000
DATA consts<>+56(SB)/8, $0xc087500000000000
DATA consts<>+64(SB)/8, $0x3ff71547652b82fe // log2(e)
DATA consts<>+72(SB)/8, $0x3ff71547652b82fe
DATA consts<>+80(SB)/8, $0x3ff71547652b82fe
DATA consts<>+88(SB)/8, $0x3ff71547652b82fe
DATA consts<>+96(SB)/8, $0x3fe62e42fee00000 // ln2 hi
DATA consts<>+104(SB)/8, $0x3fe62e42fee00000
DATA consts<>+112(SB)/8, $0x3fe62e42fee00000
DATA consts<>+120(SB)/8, $0x3fe62e42fee00000
DATA consts<>+128(SB)/8, $0x3dea39ef35793c76 // ln2 lo
DATA consts<>+136(SB)/8, $0x3dea39ef35793c76
DATA consts<>+144(SB)/8, $0x3dea39ef35793c76
DATA consts<>+152(SB)/8, $0x3dea39ef35793c76
DATA consts<>+160(SB)/8, $0x3de6124613a86d09 // 1/13!
DATA consts<>+168(SB)/8, $0x3de6124613a86d09
DATA consts<>+176(SB)/8, $0x3de6124613a86d09
DATA consts<>+184(SB)/8, $0x3de6124613a86d09
DATA consts<>+192(SB)/8, $0x3e21eed8eff8d898 // 1/12!
DATA consts<>+200(SB)/8, $0x3e21eed8eff8d898
DATA consts<>+208(SB)/8, $0x3e21eed8eff8d898
DATA consts<>+216(SB)/8, $0x3e21eed8eff8d898
DATA consts<>+224(SB)/8, $0x3e5ae64567f544e4 // 1/11!
DATA consts<>+232(SB)/8, $0x3e5ae64567f544e4
DATA consts<>+240(SB)/8, $0x3e5ae64567f544e4
DATA consts<>+248(SB)/8, $0x3e5ae64567f544e4
DATA consts<>+256(SB)/8, $0x3e927e4fb7789f5c // 1/10!
DATA consts<>+264(SB)/8, $0x3e927e4fb7789f5c
DATA consts<>+272(SB)/8, $0x3e927e4fb7789f5c
DATA consts<>+280(SB)/8, $0x3e927e4fb7789f5c
DATA consts<>+288(SB)/8, $0x3ec71de3a556c734 // 1/9!
DATA consts<>+296(SB)/8, $0x3ec71de3a556c734
DATA consts<>+304(SB)/8, $0x3ec71de3a556c734
DATA consts<>+312(SB)/8, $0x3ec71de3a556c734
DATA consts<>+320(SB)/8, $0x3efa01a01a01a01a // 1/8!
DATA consts<>+328(SB)/8, $0x3efa01a01a01a01a
DATA consts<>+336(SB)/8, $0x3efa01a01a01a01a
DATA consts<>+344(SB)/8, $0x3efa01a01a01a01a
DATA consts<>+352(SB)/8, $0x3f2a01a01a01a01a // 1/7!
DATA consts<>+360(SB)/8, $0x3f2a01a01a01a01a
DATA consts<>+368(SB)/8, $0x3f2a01a01a01a01a
DATA consts<>+376(SB)/8, $0x3f2a01a01a01a01a
DATA consts<>+384(SB)/8, $0x3f56c16c16c16c17 // 1/6!
DATA consts<>+392(SB)/8, $0x3f56c16c16c16c17
DATA consts<>+400(SB)/8, $0x3f56c16c16c16c17
DATA consts<>+408(SB)/8, $0x3f56c16c16c16c17
DATA consts<>+416(SB)/8, $0x3f81111111111111 // 1/5!
DATA consts<>+424(SB)/8, $0x3f81111111111111
DATA consts<>+432(SB)/8, $0x3f81111111111111
DATA consts<>+440(SB)/8, $0x3f81111111111111
DATA consts<>+448(SB)/8, $0x3fa5555555555555 // 1/4!
DATA consts<>+456(SB)/8, $0x3fa5555555555555
DATA consts<>+464(SB)/8, $0x3fa5555555555555
DATA consts<>+472(SB)/8, $0x3fa5555555555555
DATA consts<>+480(SB)/8, $0x3fc5555555555555 // 1/3!
DATA consts<>+488(SB)/8, $0x3fc5555555555555
DATA consts<>+496(SB)/8, $0x3fc5555555555555
DATA consts<>+504(SB)/8, $0x3fc5555555555555
DATA consts<>+512(SB)/8, $0x3fe0000000000000 // 1/2!
DATA consts<>+520(SB)/8, $0x3fe0000000000000
DATA consts<>+528(SB)/8, $0x3fe0000000000000
DATA consts<>+536(SB)/8, $0x3fe0000000000000
DATA consts<>+544(SB)/8, $0x3ff0000000000000 // 1/1!
DATA consts<>+552(SB)/8, $0x3ff0000000000000
DATA consts<>+560(SB)/8, $0x3ff0000000000000
DATA consts<>+568(SB)/8, $0x3ff0000000000000
DATA consts<>+576(SB)/8, $0x3ff0000000000000 // 1/0!
DATA consts<>+584(SB)/8, $0x3ff0000000000000
DATA consts<>+592(SB)/8, $0x3ff0000000000000
DATA consts<>+600(SB)/8, $0x3ff0000000000000
DATA consts<>+608(SB)/8, $0x3ff0000000000000 // 1
DATA consts<>+616(SB)/8, $0x3ff0000000000000
DATA consts<>+624(SB)/8, $0x3ff0000000000000
DATA consts<>+632(SB)/8, $0x3ff0000000000000
DATA consts<>+640(SB)/8, $0x00000000000003ff // exponent bias (int64)
DATA consts<>+648(SB)/8, $0x00000000000003ff
DATA consts<>+656(SB)/8, $0x00000000000003ff
DATA consts<>+664(SB)/8, $0x00000000000003ff
DATA consts<>+672(SB)/8, $0x3fda827999fcef32 // sqrt(2) - 1
DATA consts<>+680(SB)/8, $0x3fda827999fcef32
DATA consts<>+688(SB)/8, $0x3fda827999fcef32
DATA consts<>+696(SB)/8, $0x3fda827999fcef32
DATA consts<>+704(SB)/8, $0x3fe0000000000000 // 0.5
DATA consts<>+712(SB)/8, $0x3fe0000000000000
DATA consts<>+720(SB)/8, $0x3fe0000000000000
DATA consts<>+728(SB)/8, $0x3fe0000000000000
DATA consts<>+736(SB)/8, $0x4000000000000000 // 2
DATA consts<>+744(SB)/8, $0x4000000000000000
DATA consts<>+752(SB)/8, $0x4000000000000000
DATA consts<>+760(SB)/8, $0x4000000000000000
DATA consts<>+768(SB)/8, $0x3fe5555555555593 // Lp1
DATA consts<>+776(SB)/8, $0x3fe5555555555593
DATA consts<>+784(SB)/8, $0x3fe5555555555593
DATA consts<>+792(SB)/8, $0x3fe5555555555593
DATA consts<>+800(SB)/8, $0x3fd999999997fa04 // Lp2
DATA consts<>+808(SB)/8, $0x3fd999999997fa04
DATA consts<>+816(SB)/8, $0x3fd999999997fa04
DATA consts<>+824(SB)/8, $0x3fd999999997fa04
DATA consts<>+832(SB)/8, $0x3fd2492494229359 // Lp3
DATA consts<>+840(SB)/8, $0x3fd2492494229359
DATA consts<>+848(SB)/8, $0x3fd2492494229359
DATA consts<>+856(SB)/8, $0x3fd2492494229359
DATA consts<>+864(SB)/8, $0x3fcc71c51d8e78af // Lp4
DATA consts<>+872(SB)/8, $0x3fcc71c51d8e78af
DATA consts<>+880(SB)/8, $0x3fcc71c51d8e78af
DATA consts<>+888(SB)/8, $0x3fcc71c51d8e78af
DATA consts<>+896(SB)/8, $0x3fc7466496cb03de // Lp5
DATA consts<>+904(SB)/8, $0x3fc7466496cb03de
DATA consts<>+912(SB)/8, $0x3fc7466496cb03de
DATA consts<>+920(SB)/8, $0x3fc7466496cb03de
DATA consts<>+928(SB)/8, $0x3fc39a09d078c69f // Lp6
DATA consts<>+936(SB)/8, $0x3fc39a09d078c69f
DATA consts<>+944(SB)/8, $0x3fc39a09d078c69f
DATA consts<>+952(SB)/8, $0x3fc39a09d078c69f
DATA consts<>+960(SB)/8, $0x3fc2f112df3e5244 // Lp7
DATA consts<>+968(SB)/8, $0x3fc2f112df3e5244
DATA consts<>+976(SB)/8, $0x3fc2f112df3e5244
DATA consts<>+984(SB)/8, $0x3fc2f112df3e5244
GLOBL consts<>(SB), RODATA|NOPTR, $992

#define SIGN consts<>+0(SB)
#define CLAMP consts<>+32(SB)
#define LOG2E consts<>+64(SB)
#define LN2HI consts<>+96(SB)
#define LN2LO consts<>+128(SB)
#define INV13 consts<>+160(SB)
#define INV12 consts<>+192(SB)
#define INV11 consts<>+224(SB)
#define INV10 consts<>+256(SB)
#define INV9 consts<>+288(SB)
#define INV8 consts<>+320(SB)
#define INV7 consts<>+352(SB)
#define INV6 consts<>+384(SB)
#define INV5 consts<>+416(SB)
#define INV4 consts<>+448(SB)
#define INV3 consts<>+480(SB)
#define INV2 consts<>+512(SB)
#define INV1 consts<>+544(SB)
#define INV0 consts<>+576(SB)
#define ONE consts<>+608(SB)
#define BIAS consts<>+640(SB)
#define SQRT2M1 consts<>+672(SB)
#define HALF consts<>+704(SB)
#define TWO consts<>+736(SB)
#define LP1 consts<>+768(SB)
#define LP2 consts<>+800(SB)
#define LP3 consts<>+832(SB)
#define LP4 consts<>+864(SB)
#define LP5 consts<>+896(SB)
#define LP6 consts<>+928(SB)
#define LP7 consts<>+960(SB)

// func evalAsm(l, e, t *float64, n int)
//
// Four margins at a time: Y0 t, Y1 x then r, Y2 k, Y3 exp(r) then e,
// Y6 1, Y7 u = 1 + e, Y8 c, Y9 the mask e ≥ √2 − 1, Y10 f, Y11 k of
// log1p, Y12 f²/2, Y13 s, Y14 z, Y15 the log1p polynomial, then l.
TEXT ·evalAsm(SB), NOSPLIT, $0-32
	MOVQ l+0(FP), DI
	MOVQ e+8(FP), SI
	MOVQ t+16(FP), DX
	MOVQ n+24(FP), CX
	SHRQ $2, CX
	JZ   done

loop:
	// e = exp(x), x = max(−|t|, −746); a NaN x stays NaN (VMAXPD returns
	// its second source).
	VMOVUPD      (DX), Y0
	VORPD        SIGN, Y0, Y1
	VMOVUPD      CLAMP, Y4
	VMAXPD       Y1, Y4, Y1
	VMULPD       LOG2E, Y1, Y2
	VROUNDPD     $0, Y2, Y2
	VFNMADD231PD LN2HI, Y2, Y1
	VFNMADD231PD LN2LO, Y2, Y1
	VMOVUPD      INV13, Y3
	VFMADD213PD  INV12, Y1, Y3
	VFMADD213PD  INV11, Y1, Y3
	VFMADD213PD  INV10, Y1, Y3
	VFMADD213PD  INV9, Y1, Y3
	VFMADD213PD  INV8, Y1, Y3
	VFMADD213PD  INV7, Y1, Y3
	VFMADD213PD  INV6, Y1, Y3
	VFMADD213PD  INV5, Y1, Y3
	VFMADD213PD  INV4, Y1, Y3
	VFMADD213PD  INV3, Y1, Y3
	VFMADD213PD  INV2, Y1, Y3
	VFMADD213PD  INV1, Y1, Y3
	VFMADD213PD  INV0, Y1, Y3
	VCVTPD2DQY   Y2, X4
	VPSRAD       $1, X4, X5
	VPSUBD       X5, X4, X4
	VPMOVSXDQ    X5, Y5
	VPMOVSXDQ    X4, Y4
	VPADDQ       BIAS, Y5, Y5
	VPADDQ       BIAS, Y4, Y4
	VPSLLQ       $52, Y5, Y5
	VPSLLQ       $52, Y4, Y4
	VMULPD       Y5, Y3, Y3
	VMULPD       Y4, Y3, Y3
	VMOVUPD      Y3, (SI)

	// log1p(e)
	VMOVUPD   ONE, Y6
	VADDPD    Y6, Y3, Y7
	VSUBPD    Y6, Y7, Y8
	VSUBPD    Y8, Y3, Y8
	VDIVPD    Y7, Y8, Y8
	VCMPPD    $0x1D, SQRT2M1, Y3, Y9
	VANDPD    Y9, Y8, Y8
	VMULPD    HALF, Y7, Y10
	VSUBPD    Y6, Y10, Y10
	VBLENDVPD Y9, Y10, Y3, Y10
	VANDPD    Y9, Y6, Y11
	VMULPD    HALF, Y10, Y12
	VMULPD    Y10, Y12, Y12
	VADDPD    TWO, Y10, Y13
	VDIVPD    Y13, Y10, Y13
	VMULPD    Y13, Y13, Y14
	VMOVUPD   LP7, Y15
	VFMADD213PD LP6, Y14, Y15
	VFMADD213PD LP5, Y14, Y15
	VFMADD213PD LP4, Y14, Y15
	VFMADD213PD LP3, Y14, Y15
	VFMADD213PD LP2, Y14, Y15
	VFMADD213PD LP1, Y14, Y15
	VMULPD    Y15, Y14, Y15
	VADDPD    Y15, Y12, Y15
	VMULPD    Y15, Y13, Y15
	VMULPD    LN2LO, Y11, Y14
	VADDPD    Y8, Y14, Y14
	VADDPD    Y14, Y15, Y15
	VSUBPD    Y15, Y12, Y15
	VSUBPD    Y10, Y15, Y15
	VMULPD    LN2HI, Y11, Y14
	VSUBPD    Y15, Y14, Y15

	// l = log1p(e) + (t ≥ 0 ? 0 : −t)
	VXORPD  Y14, Y14, Y14
	VCMPPD  $0x1D, Y14, Y0, Y13
	VXORPD  SIGN, Y0, Y12
	VANDNPD Y12, Y13, Y12
	VADDPD  Y12, Y15, Y15
	VMOVUPD Y15, (DI)

	ADDQ $32, DX
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  loop

done:
	VZEROUPPER
	RET

// func lossAsm(z *float64, b float64, y, s, e *float64, n int, part *[4]float64)
//
// evalAsm's body on t = y·(z + b), z + b stored back, the loss (times s)
// added to the running sums in Y6 (lane i mod 4 of row i); b broadcast to
// the 32 bytes of the local frame, at R8, for a memory operand.
TEXT ·lossAsm(SB), NOSPLIT, $32-56
	MOVQ z+0(FP), DX
	VBROADCASTSD b+8(FP), Y0
	VMOVUPD Y0, 0(SP)
	MOVQ SP, R8
	MOVQ y+16(FP), BX
	MOVQ s+24(FP), DI
	MOVQ e+32(FP), SI
	MOVQ n+40(FP), CX
	SHRQ $2, CX
	VXORPD Y6, Y6, Y6

loss_loop:
	// e = exp(x), x = max(−|t|, −746); a NaN x stays NaN (VMAXPD returns
	// its second source).
	VMOVUPD      (DX), Y0
	VADDPD       (R8), Y0, Y0
	VMOVUPD      Y0, (DX)
	VMULPD       (BX), Y0, Y0
	VORPD        SIGN, Y0, Y1
	VMOVUPD      CLAMP, Y4
	VMAXPD       Y1, Y4, Y1
	VMULPD       LOG2E, Y1, Y2
	VROUNDPD     $0, Y2, Y2
	VFNMADD231PD LN2HI, Y2, Y1
	VFNMADD231PD LN2LO, Y2, Y1
	VMOVUPD      INV13, Y3
	VFMADD213PD  INV12, Y1, Y3
	VFMADD213PD  INV11, Y1, Y3
	VFMADD213PD  INV10, Y1, Y3
	VFMADD213PD  INV9, Y1, Y3
	VFMADD213PD  INV8, Y1, Y3
	VFMADD213PD  INV7, Y1, Y3
	VFMADD213PD  INV6, Y1, Y3
	VFMADD213PD  INV5, Y1, Y3
	VFMADD213PD  INV4, Y1, Y3
	VFMADD213PD  INV3, Y1, Y3
	VFMADD213PD  INV2, Y1, Y3
	VFMADD213PD  INV1, Y1, Y3
	VFMADD213PD  INV0, Y1, Y3
	VCVTPD2DQY   Y2, X4
	VPSRAD       $1, X4, X5
	VPSUBD       X5, X4, X4
	VPMOVSXDQ    X5, Y5
	VPMOVSXDQ    X4, Y4
	VPADDQ       BIAS, Y5, Y5
	VPADDQ       BIAS, Y4, Y4
	VPSLLQ       $52, Y5, Y5
	VPSLLQ       $52, Y4, Y4
	VMULPD       Y5, Y3, Y3
	VMULPD       Y4, Y3, Y3
	VMOVUPD      Y3, (SI)

	// log1p(e)
	VADDPD    ONE, Y3, Y7
	VSUBPD    ONE, Y7, Y8
	VSUBPD    Y8, Y3, Y8
	VDIVPD    Y7, Y8, Y8
	VCMPPD    $0x1D, SQRT2M1, Y3, Y9
	VANDPD    Y9, Y8, Y8
	VMULPD    HALF, Y7, Y10
	VSUBPD    ONE, Y10, Y10
	VBLENDVPD Y9, Y10, Y3, Y10
	VANDPD    ONE, Y9, Y11
	VMULPD    HALF, Y10, Y12
	VMULPD    Y10, Y12, Y12
	VADDPD    TWO, Y10, Y13
	VDIVPD    Y13, Y10, Y13
	VMULPD    Y13, Y13, Y14
	VMOVUPD   LP7, Y15
	VFMADD213PD LP6, Y14, Y15
	VFMADD213PD LP5, Y14, Y15
	VFMADD213PD LP4, Y14, Y15
	VFMADD213PD LP3, Y14, Y15
	VFMADD213PD LP2, Y14, Y15
	VFMADD213PD LP1, Y14, Y15
	VMULPD    Y15, Y14, Y15
	VADDPD    Y15, Y12, Y15
	VMULPD    Y15, Y13, Y15
	VMULPD    LN2LO, Y11, Y14
	VADDPD    Y8, Y14, Y14
	VADDPD    Y14, Y15, Y15
	VSUBPD    Y15, Y12, Y15
	VSUBPD    Y10, Y15, Y15
	VMULPD    LN2HI, Y11, Y14
	VSUBPD    Y15, Y14, Y15

	// l = log1p(e) + (t ≥ 0 ? 0 : −t)
	VXORPD  Y14, Y14, Y14
	VCMPPD  $0x1D, Y14, Y0, Y13
	VXORPD  SIGN, Y0, Y12
	VANDNPD Y12, Y13, Y12
	VADDPD  Y12, Y15, Y15

	TESTQ   DI, DI
	JZ      loss_add
	VMULPD  (DI), Y15, Y15
	ADDQ    $32, DI

loss_add:
	VADDPD  Y15, Y6, Y6
	ADDQ $32, DX
	ADDQ $32, BX
	ADDQ $32, SI
	DECQ CX
	JNZ  loss_loop

lossdone:
	MOVQ    part+48(FP), AX
	VMOVUPD Y6, (AX)
	VZEROUPPER
	RET

// func gradAsm(dd, r, z, y, s, e *float64, c float64, n int, part *[4]float64)
//
// Four rows at a time: Y0 t = y·z, Y1 the mask t ≥ 0, Y2 σ, Y3 1 − σ,
// Y4 cs, Y5 dd, Y7 r, Y6 the running sums of r, Y8 c, Y9 zero.
TEXT ·gradAsm(SB), NOSPLIT, $0-72
	MOVQ dd+0(FP), DI
	MOVQ r+8(FP), R9
	MOVQ z+16(FP), DX
	MOVQ y+24(FP), BX
	MOVQ s+32(FP), R10
	MOVQ e+40(FP), SI
	VBROADCASTSD c+48(FP), Y8
	MOVQ n+56(FP), CX
	SHRQ $2, CX
	VXORPD Y6, Y6, Y6
	VXORPD Y9, Y9, Y9

grad_loop:
	VMOVUPD   (BX), Y10
	VMULPD    (DX), Y10, Y0
	VCMPPD    $0x1D, Y9, Y0, Y1
	VMOVUPD   (SI), Y11
	VADDPD    ONE, Y11, Y12
	VBLENDVPD Y1, ONE, Y11, Y2
	VDIVPD    Y12, Y2, Y2
	VMOVUPD   ONE, Y3
	VSUBPD    Y2, Y3, Y3
	VMOVAPD   Y8, Y4
	TESTQ     R10, R10
	JZ        grad_noweight
	VMULPD    (R10), Y8, Y4
	ADDQ      $32, R10

grad_noweight:
	VMULPD  Y2, Y4, Y5
	VMULPD  Y3, Y5, Y5
	VMOVUPD Y5, (DI)
	VXORPD  SIGN, Y4, Y4
	VMULPD  Y10, Y4, Y7
	VMULPD  Y3, Y7, Y7
	VMOVUPD Y7, (R9)
	VADDPD  Y7, Y6, Y6
	ADDQ    $32, DI
	ADDQ    $32, R9
	ADDQ    $32, DX
	ADDQ    $32, BX
	ADDQ    $32, SI
	DECQ    CX
	JNZ     grad_loop
	MOVQ    part+64(FP), AX
	VMOVUPD Y6, (AX)
	VZEROUPPER
	RET

// func lossAsm8(z *float64, b float64, y, s, e *float64, n int, part *[4]float64)
//
// lossAsm with AVX-512, eight margins at a time in the 512-bit registers
// (n a multiple of 8): the same operations on each margin, the masks of
// the comparisons in K1 and K2 instead of vector registers, constants
// broadcast from the same table. The loss of rows i…i+3 of a group of
// eight is added to the running sums in Y6 before that of rows i+4…i+7,
// so every running sum gets the terms of lossAsm in the same order.
// Z16 1, Z17 b, Z18 −746, Z19 0.5, Z20 2, Z21 0.
TEXT ·lossAsm8(SB), NOSPLIT, $0-56
	MOVQ z+0(FP), DX
	VBROADCASTSD b+8(FP), Z17
	MOVQ y+16(FP), BX
	MOVQ s+24(FP), DI
	MOVQ e+32(FP), SI
	MOVQ n+40(FP), CX
	SHRQ $3, CX
	VXORPD Y6, Y6, Y6
	VBROADCASTSD ONE, Z16
	VBROADCASTSD CLAMP, Z18
	VBROADCASTSD HALF, Z19
	VBROADCASTSD TWO, Z20
	VPXORQ Z21, Z21, Z21
	TESTQ CX, CX
	JZ    loss8_done

loss8_loop:
	// e = exp(x), x = max(−|t|, −746), t = y·(z + b).
	VMOVUPD           (DX), Z0
	VADDPD            Z17, Z0, Z0
	VMOVUPD           Z0, (DX)
	VMULPD            (BX), Z0, Z0
	VPORQ.BCST        SIGN, Z0, Z1
	VMAXPD            Z1, Z18, Z1
	VMULPD.BCST       LOG2E, Z1, Z2
	VRNDSCALEPD       $0, Z2, Z2
	VFNMADD231PD.BCST LN2HI, Z2, Z1
	VFNMADD231PD.BCST LN2LO, Z2, Z1
	VBROADCASTSD      INV13, Z3
	VFMADD213PD.BCST  INV12, Z1, Z3
	VFMADD213PD.BCST  INV11, Z1, Z3
	VFMADD213PD.BCST  INV10, Z1, Z3
	VFMADD213PD.BCST  INV9, Z1, Z3
	VFMADD213PD.BCST  INV8, Z1, Z3
	VFMADD213PD.BCST  INV7, Z1, Z3
	VFMADD213PD.BCST  INV6, Z1, Z3
	VFMADD213PD.BCST  INV5, Z1, Z3
	VFMADD213PD.BCST  INV4, Z1, Z3
	VFMADD213PD.BCST  INV3, Z1, Z3
	VFMADD213PD.BCST  INV2, Z1, Z3
	VFMADD213PD.BCST  INV1, Z1, Z3
	VFMADD213PD.BCST  INV0, Z1, Z3
	VCVTPD2DQ         Z2, Y4
	VPSRAD            $1, Y4, Y5
	VPSUBD            Y5, Y4, Y4
	VPMOVSXDQ         Y5, Z5
	VPMOVSXDQ         Y4, Z4
	VPADDQ.BCST       BIAS, Z5, Z5
	VPADDQ.BCST       BIAS, Z4, Z4
	VPSLLQ            $52, Z5, Z5
	VPSLLQ            $52, Z4, Z4
	VMULPD            Z5, Z3, Z3
	VMULPD            Z4, Z3, Z3
	VMOVUPD           Z3, (SI)

	// log1p(e); K1 holds e ≥ √2 − 1.
	VADDPD            Z16, Z3, Z7
	VSUBPD            Z16, Z7, Z8
	VSUBPD            Z8, Z3, Z8
	VDIVPD            Z7, Z8, Z8
	VCMPPD.BCST       $0x1D, SQRT2M1, Z3, K1
	VMOVAPD.Z         Z8, K1, Z8
	VMULPD            Z19, Z7, Z10
	VSUBPD            Z16, Z10, Z10
	VBLENDMPD         Z10, Z3, K1, Z10
	VMOVAPD.Z         Z16, K1, Z11
	VMULPD            Z19, Z10, Z12
	VMULPD            Z10, Z12, Z12
	VADDPD            Z20, Z10, Z13
	VDIVPD            Z13, Z10, Z13
	VMULPD            Z13, Z13, Z14
	VBROADCASTSD      LP7, Z15
	VFMADD213PD.BCST  LP6, Z14, Z15
	VFMADD213PD.BCST  LP5, Z14, Z15
	VFMADD213PD.BCST  LP4, Z14, Z15
	VFMADD213PD.BCST  LP3, Z14, Z15
	VFMADD213PD.BCST  LP2, Z14, Z15
	VFMADD213PD.BCST  LP1, Z14, Z15
	VMULPD            Z15, Z14, Z15
	VADDPD            Z15, Z12, Z15
	VMULPD            Z15, Z13, Z15
	VMULPD.BCST       LN2LO, Z11, Z14
	VADDPD            Z8, Z14, Z14
	VADDPD            Z14, Z15, Z15
	VSUBPD            Z15, Z12, Z15
	VSUBPD            Z10, Z15, Z15
	VMULPD.BCST       LN2HI, Z11, Z14
	VSUBPD            Z15, Z14, Z15

	// l = log1p(e) + (t ≥ 0 ? 0 : −t); K2 holds not t ≥ 0 (NaN included).
	VCMPPD            $0x19, Z21, Z0, K2
	VPXORQ.BCST.Z     SIGN, Z0, K2, Z12
	VADDPD            Z12, Z15, Z15

	TESTQ DI, DI
	JZ    loss8_add
	VMULPD (DI), Z15, Z15
	ADDQ   $64, DI

loss8_add:
	VEXTRACTF64X4 $1, Z15, Y14
	VADDPD        Y15, Y6, Y6
	VADDPD        Y14, Y6, Y6
	ADDQ          $64, DX
	ADDQ          $64, BX
	ADDQ          $64, SI
	DECQ          CX
	JNZ           loss8_loop

loss8_done:
	MOVQ    part+48(FP), AX
	VMOVUPD Y6, (AX)
	VZEROUPPER
	RET
