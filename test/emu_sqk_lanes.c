/* SPDX-License-Identifier: MIT */
/*
 * Lane permutations of the kernel interpreter against a host model written
 * here from the ISA manuals' pseudo-code (Vega, CDNA2 and RDNA2 ISA,
 * DS_SWIZZLE_B32, DS_PERMUTE_B32, DS_BPERMUTE_B32), not from the unit's
 * helpers: ds_swizzle_b32 in its bitmask and quad-permute modes (the
 * source is the ADDR operand), ds_permute_b32 and ds_bpermute_b32 (byte
 * address plus offset, wrapping within the wave), each on every lane of a
 * wave64 (gfx900, gfx90a, gfx1030) and a wave32 (gfx1030) under a full
 * and two mixed EXEC masks; inactive source lanes read 0, inactive
 * destination lanes keep their value. The swizzle rotate and FFT modes
 * (offset 0xc000 and up), which the unit does not implement, stop the
 * dispatch as an illegal instruction. Code assembled by LLVM 22's llvm-mc,
 * run on sqk_run(). Exit 77 without LLVM 22.
 */
#include <stdio.h>
#include <unistd.h>

#include "emu/sq/sqk.h"
#include "emu_sqk_util.h"

#define CODE_VA 0x10000ull
#define IN_VA 0x40000ull  /* in[64], old[64], addr[64] */
#define OUT_VA 0x80000ull /* 256 bytes per case */

static uint8_t code[65536];
static uint32_t in_mem[1024], out_mem[65536 / 4];
static const struct tvm_range ranges[] = {
	{ CODE_VA, code, sizeof(code), false },
	{ IN_VA, in_mem, sizeof(in_mem), false },
	{ OUT_VA, out_mem, sizeof(out_mem), false },
};
static struct tvm vm = { ranges, 3 };

enum kind { SWZ, PERM, BPERM };

struct lcase {
	enum kind k;
	unsigned off;
	uint64_t exec;
};

static const uint64_t execs[] = { ~0ull, 0x9b3c5e17a4d26f81ull, 0x00ff00fff0f0f00full };

static const unsigned swz_offs[] = {
	/* BitMode: and [4:0], or [9:5], xor [14:10] */
	0x001f,			   /* identity */
	0x041f,			   /* xor 1: swap neighbours */
	0x7c1f,			   /* xor 31: reverse 32 */
	0x0000,			   /* broadcast lane 0 */
	0x0010 | 5 << 5 | 3 << 10, /* and 16, or 5, xor 3 */
	0x0018 | 0x07 << 5,	   /* and 0x18, or 7 */
	0x000f | 0x10 << 10,	   /* xor 16 */
	/* QDMode: bit 15, lane selects [1:0] [3:2] [5:4] [7:6] */
	0x8000 | 0x1b,		/* reverse the quad */
	0x8000 | 0xe4,		/* identity */
	0x8000 | 0x00,		/* broadcast lane 0 of the quad */
	0x8000 | 0xb1,		/* swap pairs */
	0x8000 | 0x3f00 | 0x4e, /* bits 8-13 ignored */
};

static const unsigned perm_offs[] = { 0, 4, 0x40, 0xfffc, 0x1234 };

static unsigned ncases;
static struct lcase cases[256];

static void add(enum kind k, unsigned off)
{
	for (size_t e = 0; e < sizeof(execs) / sizeof(execs[0]); e++)
		cases[ncases++] = (struct lcase){ k, off, execs[e] };
}

static void make_cases(void)
{
	ncases = 0;
	for (size_t i = 0; i < sizeof(swz_offs) / sizeof(swz_offs[0]); i++)
		add(SWZ, swz_offs[i]);
	for (size_t i = 0; i < sizeof(perm_offs) / sizeof(perm_offs[0]); i++) {
		add(PERM, perm_offs[i]);
		add(BPERM, perm_offs[i]);
	}
}

/* The kernel: v4 = in, v6 = old, v7 = addr; per case v5 = old, EXEC set,
 * the instruction, EXEC full, v5 stored at OUT_VA + 256 * case. */
static char *kernel_text(unsigned n)
{
	size_t cap = 256 + 400 * (size_t)ncases, len = 0;
	char *s = malloc(cap);

	len += (size_t)snprintf(s + len, cap - len,
				"  v_lshlrev_b32 v1, 2, v0\n"
				"  s_mov_b32 s2, 0x%llx\n  s_mov_b32 s3, 0\n"
				"  global_load_dword v4, v1, s[2:3]\n"
				"  global_load_dword v6, v1, s[2:3] offset:256\n"
				"  global_load_dword v7, v1, s[2:3] offset:512\n"
				"  s_mov_b32 s4, 0x%llx\n  s_mov_b32 s5, 0\n"
				"  s_waitcnt vmcnt(0)\n",
				IN_VA, OUT_VA);
	for (unsigned i = 0; i < ncases; i++) {
		const struct lcase *c = &cases[i];
		char insn[128];

		if (c->k == SWZ)
			snprintf(insn, sizeof(insn), "ds_swizzle_b32 v5, v4 offset:%u", c->off);
		else
			snprintf(insn, sizeof(insn), "ds_%spermute_b32 v5, v7, v4 offset:%u",
				 c->k == BPERM ? "b" : "", c->off);
		len += (size_t)snprintf(s + len, cap - len,
					"  v_mov_b32 v5, v6\n"
					"  s_mov_b32 exec_lo, 0x%x\n",
					(uint32_t)c->exec);
		if (n == 64)
			len += (size_t)snprintf(s + len, cap - len, "  s_mov_b32 exec_hi, 0x%x\n",
						(uint32_t)(c->exec >> 32));
		len += (size_t)snprintf(s + len, cap - len,
					"  %s\n  s_waitcnt lgkmcnt(0)\n"
					"  s_mov_b32 exec_lo, -1\n%s"
					"  global_store_dword v1, v5, s[4:5]\n"
					"  s_add_u32 s4, s4, 0x100\n",
					insn, n == 64 ? "  s_mov_b32 exec_hi, -1\n" : "");
	}
	snprintf(s + len, cap - len, "  s_endpgm\n");
	return s;
}

/* The host model (ISA manuals' pseudo-code), @n lanes. */
static void model(const struct lcase *c, unsigned n, const uint32_t *in, const uint32_t *old,
		  const uint32_t *addr, uint32_t *out)
{
	uint64_t ex = n == 64 ? c->exec : c->exec & 0xffffffffull;
	uint32_t tmp[64] = { 0 };

	for (unsigned i = 0; i < n; i++) {
		unsigned j;

		if (c->k == SWZ) {
			if (c->off & 0x8000) { /* QDMode */
				j = (i & ~3u) + ((c->off >> ((i % 4) * 2)) & 3);
			} else { /* BitMode, per 32 lanes */
				unsigned and_m = c->off & 0x1f, or_m = (c->off >> 5) & 0x1f,
					 xor_m = (c->off >> 10) & 0x1f;

				j = (i / 32) * 32 + ((((i % 32) & and_m) | or_m) ^ xor_m);
			}
			tmp[i] = (ex >> j & 1) ? in[j] : 0;
		} else if (c->k == BPERM) {
			j = (uint32_t)(addr[i] + c->off) / 4 % n;
			tmp[i] = (ex >> j & 1) ? in[j] : 0;
		}
	}
	if (c->k == PERM) /* in lane order: the highest lane wins */
		for (unsigned i = 0; i < n; i++)
			if (ex >> i & 1)
				tmp[(uint32_t)(addr[i] + c->off) / 4 % n] = in[i];
	for (unsigned i = 0; i < n; i++)
		out[i] = (ex >> i & 1) ? tmp[i] : old[i];
}

static void run(const char *mcpu, uint32_t gfxv, unsigned n)
{
	struct sqk_env env = { .ctx = &vm, .xlate = tvm_xlate };
	struct sqk_dispatch d;
	struct sqk_result res;
	uint32_t user[16] = { 0 }, want[64];
	char *text;
	int rc;

	make_cases();
	for (unsigned l = 0; l < 64; l++) {
		in_mem[l] = 0x5a000000u ^ (l + 1) * 0x01010101u;
		in_mem[64 + l] = 0xdead0000u + l;
		/* byte addresses: aligned, unaligned, wrapping past 2^32 */
		in_mem[128 + l] = l % 3 == 0   ? 4 * (63 - l)
				  : l % 3 == 1 ? 0xfffffff0u + 5 * l
					       : l * 0x9e3779b9u;
	}
	memset(out_mem, 0xcc, sizeof(out_mem));
	text = kernel_text(n);
	T_REQUIRE(kco_asm_text(text, mcpu,
			       n == 64 && gfxv >= 100000 ? "-mattr=+wavefrontsize64" : "", code,
			       sizeof(code)),
		  "llvm-mc for %s", mcpu);
	free(text);
	T_REQUIRE(tvm_dispatch(&d, gfxv, CODE_VA, n, n), "family of %s", mcpu);
	d.wave32 = n == 32;
	d.user_data = user;
	rc = sqk_run(&d, &env, &res);
	CHECK(rc == 0, "%s wave%u: sqk_run %d (%s)", mcpu, n, rc, res.msg);
	for (unsigned i = 0; i < ncases; i++) {
		const struct lcase *c = &cases[i];
		const uint32_t *got = out_mem + 64 * i;
		unsigned bad = 0, first = 0;

		model(c, n, in_mem, in_mem + 64, in_mem + 128, want);
		for (unsigned l = 0; l < n; l++)
			if (got[l] != want[l] && !bad++)
				first = l;
		CHECK(bad == 0,
		      "%s wave%u: %s offset 0x%x exec 0x%llx: %u lanes wrong, lane %u 0x%x, "
		      "want 0x%x",
		      mcpu, n,
		      c->k == SWZ    ? "ds_swizzle_b32"
		      : c->k == PERM ? "ds_permute_b32"
				     : "ds_bpermute_b32",
		      c->off, (unsigned long long)c->exec, bad, first, got[first], want[first]);
	}
}

/* The rotate and FFT modes: an illegal instruction, no value written. */
static void run_refused(const char *mcpu, uint32_t gfxv, unsigned off)
{
	struct sqk_env env = { .ctx = &vm, .xlate = tvm_xlate };
	struct sqk_dispatch d;
	struct sqk_result res;
	uint32_t user[16] = { 0 };
	char text[512];
	int rc;

	snprintf(text, sizeof(text),
		 "  v_lshlrev_b32 v1, 2, v0\n  s_mov_b32 s4, 0x%llx\n  s_mov_b32 s5, 0\n"
		 "  ds_swizzle_b32 v5, v0 offset:%u\n  s_waitcnt lgkmcnt(0)\n"
		 "  global_store_dword v1, v5, s[4:5]\n  s_endpgm\n",
		 OUT_VA, off);
	T_REQUIRE(kco_asm_text(text, mcpu, "-mattr=+wavefrontsize64", code, sizeof(code)) ||
			  kco_asm_text(text, mcpu, "", code, sizeof(code)),
		  "llvm-mc for %s", mcpu);
	memset(out_mem, 0xcc, 256);
	T_REQUIRE(tvm_dispatch(&d, gfxv, CODE_VA, 64, 64), "family of %s", mcpu);
	d.user_data = user;
	rc = sqk_run(&d, &env, &res);
	CHECK(rc == -ENOTSUP && res.err == -ENOTSUP && res.pc == CODE_VA + 16,
	      "%s: ds_swizzle_b32 offset 0x%x: %d (%s) at 0x%llx", mcpu, off, rc, res.msg,
	      (unsigned long long)res.pc);
	CHECK_EQ(out_mem[0], 0xccccccccu, "%s: nothing stored after offset 0x%x", mcpu, off);
}

int main(void)
{
	if (kco_asm_missing())
		return T_EXIT_SKIP;
	run("gfx900", 90000, 64);
	run("gfx90a", 90010, 64);
	run("gfx1030", 100300, 64);
	run("gfx1030", 100300, 32);
	run_refused("gfx900", 90000, 0xc0a3);
	run_refused("gfx90a", 90010, 0xe003);
	run_refused("gfx1030", 100300, 0xc4a0);
	return t_result("emu_sqk_lanes");
}
