/* SPDX-License-Identifier: MIT */
/*
 * The kernel interpreter's scalar multiplies wrap as the hardware's do:
 * s_mulk_i32 multiplies by its sign-extended 16-bit immediate and keeps the
 * low 32 bits of the product, whatever it overflows to (fuzz_emu_engine
 * reproducer test/fuzz/corpus/emu_engine/regress-sq-mulk-overflow: the
 * product must not be computed in a signed C int, which UBSan refuses). A
 * wave of gfx90a and one of gfx1030 run the code (assembled by LLVM 22's
 * llvm-mc) directly on sqk_run() over a host-backed GPU VM and store the
 * results; the same waves read negative inline constants (32 and 64 bits)
 * and EXEC's low half. Exit 77 without LLVM 22.
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

static const char src[] = "  s_load_dwordx2 s[2:3], s[0:1], 0x0\n"
			  "  s_mov_b32 s4, 0x7374000\n"
			  "  s_mulk_i32 s4, 0xc07f\n"
			  "  s_mov_b32 s5, 0x7fffffff\n"
			  "  s_mulk_i32 s5, 0x7fff\n"
			  "  s_mov_b32 s6, 0x80000000\n"
			  "  s_mulk_i32 s6, 0xffff\n"
			  "  v_mov_b32 v0, 0\n"
			  "  v_mov_b32 v1, s4\n"
			  "  v_mov_b32 v2, s5\n"
			  "  v_mov_b32 v3, s6\n"
			  "  s_mov_b32 s7, -5\n"
			  "  s_mov_b64 s[8:9], -16\n"
			  "  s_mov_b32 s10, exec_lo\n"
			  "  v_mov_b32 v4, s7\n"
			  "  v_mov_b32 v5, s8\n"
			  "  v_mov_b32 v6, s9\n"
			  "  v_mov_b32 v7, s10\n"
			  "  s_waitcnt lgkmcnt(0)\n"
			  "  global_store_dword v0, v1, s[2:3]\n"
			  "  global_store_dword v0, v2, s[2:3] offset:4\n"
			  "  global_store_dword v0, v3, s[2:3] offset:8\n"
			  "  global_store_dwordx4 v0, v[4:7], s[2:3] offset:12\n"
			  "  s_endpgm\n";

static void run(const char *mcpu, uint32_t gfxv, const char *attrs, bool wave32)
{
	struct sqk_env env = { .ctx = &vm, .xlate = tvm_xlate };
	struct sqk_dispatch d;
	struct sqk_result res;
	uint64_t o = OUT_VA;
	uint32_t r[7];
	int rc;

	T_REQUIRE(kco_asm_text(src, mcpu, attrs, code, sizeof(code)), "llvm-mc for %s", mcpu);
	memset(out, 0, sizeof(out));
	memcpy(karg, &o, 8);
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
	/* 0x7374000 * -16257, 0x7fffffff * 32767, INT32_MIN * -1: mod 2^32 */
	CHECK_EQ(r[0], (uint32_t)(0x7374000ull * (uint64_t)(int64_t)-16257), "%s", mcpu);
	CHECK_EQ(r[1], (uint32_t)(0x7fffffffull * 32767ull), "%s", mcpu);
	CHECK_EQ(r[2], 0x80000000u, "%s", mcpu);
	/* the inline constants -5 and -16 (32 and 64 bits), EXEC's low half */
	CHECK_EQ(r[3], (uint32_t)-5, "%s", mcpu);
	CHECK_EQ(r[4], (uint32_t)-16, "%s", mcpu);
	CHECK_EQ(r[5], 0xffffffffu, "%s", mcpu);
	CHECK_EQ(r[6], 0xffffffffu, "%s", mcpu);
}

int main(void)
{
	if (kco_asm_missing())
		return T_EXIT_SKIP;
	run("gfx90a", 90010, "", false);
	run("gfx1030", 100300, "-mattr=+wavefrontsize32", true);
	return t_result("emu_sqk_salu_wrap");
}
