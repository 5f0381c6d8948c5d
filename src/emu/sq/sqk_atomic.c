/* SPDX-License-Identifier: MIT */
/*
 * Atomic operations of the kernel interpreter, shared by DS (LDS), FLAT,
 * GLOBAL and MUBUF: a compare-and-swap loop on the host address, so
 * atomics from the emulated GPU and the host see each other (ISA manuals'
 * atomic descriptions: inc wraps to 0 at data, dec to data at 0 or above).
 */
#include <math.h>

#include "emu/sq/sqk_exec.h"

static uint64_t apply(unsigned kind, uint64_t old, uint64_t data, unsigned bytes)
{
	bool b8 = bytes == 8;
	int64_t so = b8 ? (int64_t)old : (int32_t)old, sd = b8 ? (int64_t)data : (int32_t)data;

	switch (kind) {
	case SQK_A_SWAP:
		return data;
	case SQK_A_ADD:
		return old + data;
	case SQK_A_SUB:
		return old - data;
	case SQK_A_RSUB:
		return data - old;
	case SQK_A_SMIN:
		return so < sd ? old : data;
	case SQK_A_UMIN:
		return old < data ? old : data;
	case SQK_A_SMAX:
		return so > sd ? old : data;
	case SQK_A_UMAX:
		return old > data ? old : data;
	case SQK_A_AND:
		return old & data;
	case SQK_A_OR:
		return old | data;
	case SQK_A_XOR:
		return old ^ data;
	case SQK_A_INC:
		return old >= data ? 0 : old + 1;
	case SQK_A_DEC:
		return (old == 0 || old > data) ? data : old - 1;
	case SQK_A_FADD:
		return b8 ? sqk_u64(sqk_f64(old) + sqk_f64(data))
			  : sqk_u32(sqk_f32((uint32_t)old) + sqk_f32((uint32_t)data));
	/* a NaN loses to a number (the manuals' min / max in IEEE mode
	 * with quiet NaNs, gfx12's minimumNumber / maximumNumber, whose
	 * names its atomics carry), -0 below +0 */
	case SQK_A_FMIN:
		return b8 ? sqk_u64(sqk_minz(sqk_f64(old), sqk_f64(data)))
			  : sqk_u32((float)sqk_minz(sqk_f32((uint32_t)old),
						    sqk_f32((uint32_t)data)));
	case SQK_A_FMAX:
		return b8 ? sqk_u64(sqk_maxz(sqk_f64(old), sqk_f64(data)))
			  : sqk_u32((float)sqk_maxz(sqk_f32((uint32_t)old),
						    sqk_f32((uint32_t)data)));
	default:
		return old;
	}
}

uint64_t sqk_atomic(unsigned kind, void *p, unsigned bytes, uint64_t data, uint64_t cmp)
{
	if (bytes == 8) {
		uint64_t old = __atomic_load_n((uint64_t *)p, __ATOMIC_RELAXED), nv;

		do {
			if (kind == SQK_A_CMPSWAP) {
				if (old != cmp)
					return old;
				nv = data;
			} else {
				nv = apply(kind, old, data, 8);
			}
		} while (!__atomic_compare_exchange_n((uint64_t *)p, &old, nv, true,
						      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
		return old;
	} else {
		uint32_t old = __atomic_load_n((uint32_t *)p, __ATOMIC_RELAXED), nv;

		do {
			if (kind == SQK_A_CMPSWAP) {
				if (old != (uint32_t)cmp)
					return old;
				nv = (uint32_t)data;
			} else {
				nv = (uint32_t)apply(kind, old, data, 4);
			}
		} while (!__atomic_compare_exchange_n((uint32_t *)p, &old, nv, true,
						      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
		return old;
	}
}
