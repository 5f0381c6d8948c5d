/* SPDX-License-Identifier: MIT */
/*
 * Speed of the emulated shader unit's kernel interpreter (src/emu/sq):
 * wave-instructions per second on a loop of integer and float VALU, SALU
 * and a branch, per family and wave size, through sqk_run() on host memory
 * (no queue: the interpreter alone). The program, assembled by LLVM 22's
 * llvm-mc -show-encoding (gfx900 and gfx1030 encodings):
 *
 *	s_mov_b32 s2, 0
 *   L:	v_add_u32 v1, v1, v0        (gfx1030: v_add_nc_u32)
 *	v_mul_lo_u32 v2, v1, v1
 *	v_xor_b32 v3, v2, v1
 *	v_fma_f32 v4, v1, v2, v4
 *	s_add_u32 s2, s2, 1
 *	s_cmp_lt_u32 s2, s3          (s3: the iteration count, user data)
 *	s_cbranch_scc1 L
 *	s_endpgm
 *
 * and a loop of a store and its wait (the release check notes both:
 * src/emu/sq/sqk_rel.c):
 *
 *	s_mov_b32 s2, 0
 *	v_lshlrev_b32 v5, 2, v0
 *   L:	global_store_dword v5, v1, s[4:5]
 *	s_waitcnt vmcnt(0)           (gfx1030: s_waitcnt_vscnt null, 0x0)
 *	v_add_u32 v1, v1, v0         (gfx1030: v_add_nc_u32)
 *	s_add_u32 s2, s2, 1
 *	s_cmp_lt_u32 s2, s3
 *	s_cbranch_scc1 L
 *	s_endpgm
 *
 * Prints figures; never a pass/fail.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu/sq/sqk.h"

static const uint32_t prog9[] = { 0xbe820080, 0x68020101, 0xd2850002, 0x00020301,
				  0x2a060302, 0xd1cb0004, 0x04120501, 0x80028102,
				  0xbf0a0302, 0xbf85fff7, 0xbf810000 };
static const uint32_t prog10[] = { 0xbe820380, 0x4a020101, 0xd5690002, 0x00020301,
				   0x3a060302, 0xd54b0004, 0x04120501, 0x80028102,
				   0xbf0a0302, 0xbf85fff7, 0xbf810000 };

static const uint32_t store9[] = { 0xbe820080, 0x240a0082, 0xdc708000, 0x00040105, 0xbf8c0f70,
				   0x68020101, 0x80028102, 0xbf0a0302, 0xbf85fff9, 0xbf810000 };
static const uint32_t store10[] = { 0xbe820380, 0x340a0082, 0xdc708000, 0x00040105, 0xbbfd0000,
				    0x4a020101, 0x80028102, 0xbf0a0302, 0xbf85fff9, 0xbf810000 };

#define CODE_VA 0x100000000ull
#define DATA_VA 0x200000000ull

static uint8_t page[4096], data[4096];

static void *xlate(void *ctx, uint64_t va, uint32_t len, bool write, bool *ro)
{
	(void)ctx, (void)write;
	*ro = false;
	if (len > sizeof(page))
		return NULL;
	return va == CODE_VA ? page : va == DATA_VA ? data : NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run(const char *name, uint32_t gfxv, const uint32_t *prog, size_t n, bool w32,
		uint32_t groups)
{
	struct sqk_env env = { .xlate = xlate };
	uint32_t user[16] = { 0, 0, 0, 2000, (uint32_t)DATA_VA, (uint32_t)(DATA_VA >> 32) };
	struct sqk_dispatch d = { 0 };
	struct sqk_result res;
	double t0, t;
	int rc;

	memset(page, 0, sizeof(page));
	memcpy(page, prog, n * 4);
	d.fam = sqk_family_of(gfxv);
	d.entry = CODE_VA;
	d.rsrc1 = 1;	   /* 8 VGPRs */
	d.rsrc2 = 6u << 1; /* USER_SGPR_COUNT 6 */
	d.user_data = user;
	d.wave32 = w32;
	d.wg[0] = 256, d.wg[1] = d.wg[2] = 1;
	d.grid[0] = 256 * groups, d.grid[1] = d.grid[2] = 1;
	t0 = now();
	rc = sqk_run(&d, &env, &res);
	t = now() - t0;
	if (rc) {
		printf("%-8s %s: failed (%d): %s\n", name, w32 ? "wave32" : "wave64", rc, res.msg);
		return;
	}
	printf("%-8s %s  %6llu waves  %10llu wave-insns  %7.3f s  %6.2f M wave-insns/s  "
	       "%7.1f M lane-ops/s\n",
	       name, w32 ? "wave32" : "wave64", (unsigned long long)res.waves,
	       (unsigned long long)res.insns, t, (double)res.insns / t / 1e6,
	       (double)res.insns * (w32 ? 32 : 64) / t / 1e6);
}

int main(void)
{
	printf("shader unit: a 7-instruction loop, 2000 iterations per wave\n");
	run("gfx900", 90000, prog9, sizeof(prog9) / 4, false, 16);
	run("gfx90a", 90010, prog9, sizeof(prog9) / 4, false, 16);
	run("gfx1030", 100300, prog10, sizeof(prog10) / 4, true, 16);
	run("gfx1030", 100300, prog10, sizeof(prog10) / 4, false, 16);
	printf("shader unit: a store, its wait and 4 ALU instructions, 2000 iterations per wave\n");
	run("gfx900", 90000, store9, sizeof(store9) / 4, false, 16);
	run("gfx90a", 90010, store9, sizeof(store9) / 4, false, 16);
	run("gfx1030", 100300, store10, sizeof(store10) / 4, true, 16);
	run("gfx1030", 100300, store10, sizeof(store10) / 4, false, 16);
	return 0;
}
