/* SPDX-License-Identifier: MIT */
/*
 * Scalar stores of the kernel interpreter (gfx8-gfx10 ISA manuals, "Scalar
 * Memory Operations": S_STORE_DWORD, _X2, _X4 write MEM[SGPR[sbase] +
 * offset] from the SDATA SGPRs on; kfdtest's HostHdpFlush copies its value
 * with one). Waves of gfx90a, gfx942 and gfx1010 run the code (assembled
 * by LLVM 22's llvm-mc, which has no scalar stores from gfx10.3 on)
 * directly on sqk_run() over a host-backed GPU VM; the expected memory is
 * written here from the manual's definition. Exit 77 without LLVM 22.
 */
#include <stdio.h>
#include <unistd.h>

#include "emu/sq/sqk.h"
#include "emu_sqk_util.h"

#ifndef KFDSIG_LLVM22_BIN
#define KFDSIG_LLVM22_BIN "/usr/lib/llvm-22/bin"
#endif

#define CODE_VA 0x10000ull
#define KARG_VA 0x20000ull
#define OUT_VA 0x30000ull

static uint8_t code[4096], karg[4096], out[4096];

static const struct tvm_range ranges[] = {
	{ CODE_VA, code, sizeof(code), false },
	{ KARG_VA, karg, sizeof(karg), false },
	{ OUT_VA, out, sizeof(out), false },
};
static struct tvm vm = { ranges, 3 };

/* s[2:3] the output buffer; s8 an SGPR offset of 0x40; s[12:15] four
 * kernel argument dwords, stored back */
static const char src[] = "  s_load_dwordx2 s[2:3], s[0:1], 0x0\n"
			  "  s_load_dwordx4 s[12:15], s[0:1], 0x10\n"
			  "  s_mov_b32 s4, 0x11111111\n"
			  "  s_mov_b32 s5, 0x22222222\n"
			  "  s_mov_b32 s6, 0x33333333\n"
			  "  s_mov_b32 s7, 0x44444444\n"
			  "  s_mov_b32 s8, 0x40\n"
			  "  s_waitcnt lgkmcnt(0)\n"
			  "  s_store_dword s7, s[2:3], 0x0\n"
			  "  s_store_dwordx2 s[4:5], s[2:3], 0x10\n"
			  "  s_store_dwordx4 s[4:7], s[2:3], 0x23\n"
			  "  s_store_dword s6, s[2:3], s8\n"
			  "  s_store_dwordx4 s[12:15], s[2:3], 0x30\n"
			  "  s_dcache_wb\n"
			  "  s_endpgm\n";

static void run(const char *mcpu, uint32_t gfxv, const char *attrs, bool wave32)
{
	struct sqk_env env = { .ctx = &vm, .xlate = tvm_xlate };
	struct sqk_dispatch d;
	struct sqk_result res;
	uint64_t o = OUT_VA;
	uint32_t r[20], want[20] = { 0 };
	int rc;

	T_REQUIRE(kco_asm_text(src, mcpu, attrs, code, sizeof(code)), "llvm-mc for %s", mcpu);
	memset(out, 0, sizeof(out));
	memcpy(karg, &o, 8);
	for (int i = 0; i < 4; i++) {
		uint32_t k = 0xa0a0a0a0u + (uint32_t)i * 0x01010101u;

		memcpy(karg + 0x10 + 4 * i, &k, 4);
	}
	T_REQUIRE(tvm_dispatch(&d, gfxv, CODE_VA, wave32 ? 32 : 64, wave32 ? 32 : 64),
		  "family of %s", mcpu);
	d.rsrc2 = 2 << 1; /* 2 user SGPRs: the kernarg pointer */
	d.props = 1 << 3; /* enable_sgpr_kernarg_segment_ptr */
	d.aql = true;
	d.wave32 = wave32;
	d.kernarg = KARG_VA;
	rc = sqk_run(&d, &env, &res);
	CHECK(rc == 0, "%s: sqk_run %d (%s)", mcpu, rc, res.msg);
	memcpy(r, out, sizeof(r));
	want[0] = 0x44444444;			    /* dword at 0 */
	want[4] = 0x11111111, want[5] = 0x22222222; /* x2 at 0x10 */
	/* x4 at 0x23: the offset's two low bits are ignored, 0x20 */
	want[8] = 0x11111111, want[9] = 0x22222222, want[10] = 0x33333333, want[11] = 0x44444444;
	want[16] = 0x33333333;	    /* SGPR offset 0x40 */
	for (int i = 0; i < 4; i++) /* the loaded kernel arguments at 0x30 */
		want[12 + i] = 0xa0a0a0a0u + (uint32_t)i * 0x01010101u;
	for (int i = 0; i < 20; i++)
		CHECK_EQ(r[i], want[i], "%s: dword %d", mcpu, i);
}

int main(void)
{
	if (kco_asm_missing())
		return T_EXIT_SKIP;
	run("gfx90a", 90010, "", false);
	run("gfx942", 90402, "", false);
	run("gfx1010", 100100, "-mattr=+wavefrontsize32", true);
	return t_result("emu_sqk_smem_store");
}
