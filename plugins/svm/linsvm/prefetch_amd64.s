//go:build amd64 && !noasm

#include "textflag.h"

// func prefetch(ps *[8]unsafe.Pointer)
TEXT ·prefetch(SB), NOSPLIT, $0-8
	MOVQ ps+0(FP), AX
	MOVQ 0(AX), BX
	TESTQ BX, BX
	JZ   p1
	PREFETCHT0 (BX)
p1:
	MOVQ 8(AX), BX
	TESTQ BX, BX
	JZ   p2
	PREFETCHT0 (BX)
p2:
	MOVQ 16(AX), BX
	TESTQ BX, BX
	JZ   p3
	PREFETCHT0 (BX)
p3:
	MOVQ 24(AX), BX
	TESTQ BX, BX
	JZ   p4
	PREFETCHT0 (BX)
p4:
	MOVQ 32(AX), BX
	TESTQ BX, BX
	JZ   p5
	PREFETCHT0 (BX)
p5:
	MOVQ 40(AX), BX
	TESTQ BX, BX
	JZ   p6
	PREFETCHT0 (BX)
p6:
	MOVQ 48(AX), BX
	TESTQ BX, BX
	JZ   p7
	PREFETCHT0 (BX)
p7:
	MOVQ 56(AX), BX
	TESTQ BX, BX
	JZ   done
	PREFETCHT0 (BX)
done:
	RET
