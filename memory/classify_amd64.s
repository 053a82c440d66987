#include "textflag.h"

// BCAST sets X register x to byte c in all sixteen lanes.
#define BCAST(c, x) \
	MOVQ $c, AX; \
	MOVQ AX, x; \
	PUNPCKLQDQ x, x

// CHUNK classifies the sixteen bytes at off(SI) into bits sh to sh+15 of
// R11 (word bytes), R12 (hyphens) and R13 (high bit set). A letter is a
// byte that, with bit 5 set and 'a' taken away, is 25 or less (unsigned:
// what is below 'a' wraps past 25, and a byte with the high bit set stays
// above); a digit is one that, with '0' taken away, is 9 or less. x <= c
// is min(x, c) == x.
#define CHUNK(off, sh) \
	MOVOU off(SI), X0; \
	PMOVMSKB X0, AX; \
	SHLQ $sh, AX; \
	ORQ AX, R13; \
	MOVO X0, X1; \
	POR X8, X1; \
	PSUBB X9, X1; \
	MOVO X1, X2; \
	PMINUB X10, X2; \
	PCMPEQB X1, X2; \
	MOVO X0, X3; \
	PSUBB X11, X3; \
	MOVO X3, X4; \
	PMINUB X12, X4; \
	PCMPEQB X3, X4; \
	POR X4, X2; \
	MOVO X0, X5; \
	PCMPEQB X13, X5; \
	POR X5, X2; \
	PMOVMSKB X2, AX; \
	SHLQ $sh, AX; \
	ORQ AX, R11; \
	PCMPEQB X14, X0; \
	PMOVMSKB X0, AX; \
	SHLQ $sh, AX; \
	ORQ AX, R12

// func classifySSE2(p *byte, n int, m, w, h *uint64)
TEXT ·classifySSE2(SB), NOSPLIT, $0-40
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ m+16(FP), R8
	MOVQ w+24(FP), R9
	MOVQ h+32(FP), R10
	BCAST(0x2020202020202020, X8)  // bit 5
	BCAST(0x6161616161616161, X9)  // 'a'
	BCAST(0x1919191919191919, X10) // 25
	BCAST(0x3030303030303030, X11) // '0'
	BCAST(0x0909090909090909, X12) // 9
	BCAST(0x5f5f5f5f5f5f5f5f, X13) // '_'
	BCAST(0x2d2d2d2d2d2d2d2d, X14) // '-'

loop:
	XORQ R11, R11
	XORQ R12, R12
	XORQ R13, R13
	CHUNK(0, 0)
	CHUNK(16, 16)
	CHUNK(32, 32)
	CHUNK(48, 48)
	MOVQ R13, (R8)
	MOVQ R11, (R9)
	MOVQ R12, (R10)
	ADDQ $64, SI
	ADDQ $8, R8
	ADDQ $8, R9
	ADDQ $8, R10
	DECQ CX
	JNZ  loop
	RET
