/* SPDX-License-Identifier: MIT */
/*
 * Lane permutations of the kernel interpreter against a host model written
 * here from the ISA manuals' pseudo-code (Vega, CDNA2 and RDNA2 ISA,
 * DS_SWIZZLE_B32, DS_PERMUTE_B32, DS_BPERMUTE_B32, "DPP") and LLVM's
 * AMDGPUModifierSyntax (dpp_ctrl, dpp16_ctrl, dpp32_ctrl, dpp8, row_mask,
 * bank_mask, bound_ctrl, fi), not from the unit's helpers:
 * - ds_swizzle_b32 in its bitmask and quad-permute modes (the source is
 *   the ADDR operand), ds_permute_b32 and ds_bpermute_b32 (byte address
 *   plus offset, wrapping within the wave); inactive source lanes read 0;
 * - v_mov_b32 with DPP16: quad_perm, row_shl/shr/ror, row_mirror,
 *   row_half_mirror; gfx9: wave_shl/rol/shr/ror, row_bcast:15/31; gfx90a:
 *   row_newbcast; gfx10: row_share, row_xmask; under row and bank masks,
 *   with and without bound_ctrl (an invalid or inactive source lane reads
 *   0, else the lane keeps its value) and, on gfx10, fi (an inactive
 *   source lane's value is read); DPP8 (gfx10) with fi 0 (inactive source
 *   lanes read 0) and 1;
 * each on every lane of a wave64 (gfx900, gfx90a, gfx1030) and a wave32
 * (gfx1030) under full and mixed EXEC; inactive destination lanes keep
 * their value. The swizzle rotate and FFT modes (offset 0xc000 and up),
 * which the unit does not implement, and DPP controls a family does not
 * have stop the dispatch as an illegal instruction. Code assembled by LLVM
 * 22's llvm-mc, run on sqk_run(). Exit 77 without LLVM 22.
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

enum kind { SWZ, PERM, BPERM, DPP, DPP8 };

struct lcase {
	enum kind k;
	unsigned off; /* swizzle / permute offset, DPP control, DPP8 selects */
	uint64_t exec;
	uint8_t rm, bm; /* DPP row and bank masks */
	bool bc, fi;	/* DPP bound_ctrl, fetch inactive */
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
static bool fam_g10;
static struct lcase cases[1024];

static void add(enum kind k, unsigned off)
{
	for (size_t e = 0; e < sizeof(execs) / sizeof(execs[0]); e++)
		cases[ncases++] = (struct lcase){ k, off, execs[e] };
}

/* DPP16 control @ctl under masks, bound_ctrl and fi variants; @rows: the
 * rows the control has a source lane in (row_bcast). */
static void add_dpp(unsigned ctl, bool gfx10, uint8_t rows)
{
	static const struct {
		uint8_t rm, bm;
		bool bc, fi;
		uint64_t exec;
	} v[] = {
		{ 0xf, 0xf, false, false, 0x9b3c5e17a4d26f81ull },
		{ 0xf, 0xf, true, false, 0x00ff00fff0f0f00full },
		{ 0x5, 0xa, true, false, ~0ull },
		{ 0xe, 0x7, false, false, 0x7ffffffffffffffeull },
		/* gfx10: fi */
		{ 0xf, 0xf, false, true, 0x9b3c5e17a4d26f81ull },
		{ 0xf, 0x6, true, true, 0x00ff00fff0f0f00full },
	};

	for (size_t i = 0; i < (gfx10 ? 6u : 4u); i++)
		cases[ncases++] = (struct lcase){ DPP,	   ctl,	    v[i].exec, v[i].rm & rows,
						  v[i].bm, v[i].bc, v[i].fi };
}

/* fam: 0 gfx900, 1 gfx90a, 2 gfx1030 */
static void make_cases(unsigned fam)
{
	static const unsigned qp[] = { 0x1b, 0xe4, 0x00, 0xb1, 0x4e, 0x93 };
	static const unsigned rk[] = { 1, 4, 7, 8, 15 };
	static const unsigned sel8[] = { 0x053977, 0xfac688, 0x000000, 0xc4417b };
	bool g10 = fam == 2;

	ncases = 0;
	for (size_t i = 0; i < sizeof(swz_offs) / sizeof(swz_offs[0]); i++)
		add(SWZ, swz_offs[i]);
	for (size_t i = 0; i < sizeof(perm_offs) / sizeof(perm_offs[0]); i++) {
		add(PERM, perm_offs[i]);
		add(BPERM, perm_offs[i]);
	}
	for (size_t i = 0; i < sizeof(qp) / sizeof(qp[0]); i++)
		add_dpp(qp[i], g10, 0xf);
	for (size_t i = 0; i < sizeof(rk) / sizeof(rk[0]); i++) {
		add_dpp(0x100 + rk[i], g10, 0xf); /* row_shl */
		add_dpp(0x110 + rk[i], g10, 0xf); /* row_shr */
		add_dpp(0x120 + rk[i], g10, 0xf); /* row_ror */
	}
	add_dpp(0x140, g10, 0xf); /* row_mirror */
	add_dpp(0x141, g10, 0xf); /* row_half_mirror */
	if (!g10) {
		add_dpp(0x130, false, 0xf); /* wave_shl:1 */
		add_dpp(0x134, false, 0xf); /* wave_rol:1 */
		add_dpp(0x138, false, 0xf); /* wave_shr:1 */
		add_dpp(0x13c, false, 0xf); /* wave_ror:1 */
		add_dpp(0x142, false, 0xe); /* row_bcast:15, rows 1-3 */
		add_dpp(0x143, false, 0xc); /* row_bcast:31, rows 2-3 */
	}
	if (fam >= 1) { /* gfx90a row_newbcast, gfx10 row_share */
		add_dpp(0x150, g10, 0xf);
		add_dpp(0x155, g10, 0xf);
		add_dpp(0x15f, g10, 0xf);
	}
	if (g10) {
		add_dpp(0x161, true, 0xf); /* row_xmask */
		add_dpp(0x167, true, 0xf);
		add_dpp(0x16f, true, 0xf);
		for (size_t i = 0; i < sizeof(sel8) / sizeof(sel8[0]); i++)
			for (unsigned fi = 0; fi < 2; fi++)
				for (size_t e = 1; e < 3; e++)
					cases[ncases++] =
						(struct lcase){ DPP8, sel8[i], execs[e], 0,
								0,    false,   fi != 0 };
	}
}

/* LLVM's syntax of DPP16 control @ctl. */
static void dpp_text(unsigned ctl, char *b, size_t n)
{
	if (ctl <= 0xff)
		snprintf(b, n, "quad_perm:[%u,%u,%u,%u]", ctl & 3, ctl >> 2 & 3, ctl >> 4 & 3,
			 ctl >> 6 & 3);
	else if (ctl < 0x110)
		snprintf(b, n, "row_shl:%u", ctl & 15);
	else if (ctl < 0x120)
		snprintf(b, n, "row_shr:%u", ctl & 15);
	else if (ctl < 0x130)
		snprintf(b, n, "row_ror:%u", ctl & 15);
	else if (ctl < 0x140)
		snprintf(b, n, "wave_%s:1",
			 ctl == 0x130	? "shl"
			 : ctl == 0x134 ? "rol"
			 : ctl == 0x138 ? "shr"
					: "ror");
	else if (ctl < 0x144)
		snprintf(b, n, "%s",
			 ctl == 0x140	? "row_mirror"
			 : ctl == 0x141 ? "row_half_mirror"
			 : ctl == 0x142 ? "row_bcast:15"
					: "row_bcast:31");
	else if (ctl < 0x160)
		snprintf(b, n, "%s:%u", fam_g10 ? "row_share" : "row_newbcast", ctl & 15);
	else
		snprintf(b, n, "row_xmask:%u", ctl & 15);
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

		if (c->k == SWZ) {
			snprintf(insn, sizeof(insn), "ds_swizzle_b32 v5, v4 offset:%u", c->off);
		} else if (c->k == DPP) {
			char ctl[32];

			dpp_text(c->off, ctl, sizeof(ctl));
			snprintf(insn, sizeof(insn),
				 "v_mov_b32_dpp v5, v4 %s row_mask:0x%x bank_mask:0x%x%s%s", ctl,
				 n == 32 ? c->rm & 3 : c->rm, c->bm, c->bc ? " bound_ctrl:1" : "",
				 c->fi ? " fi:1" : "");
		} else if (c->k == DPP8) {
			snprintf(insn, sizeof(insn),
				 "v_mov_b32_dpp v5, v4 dpp8:[%u,%u,%u,%u,%u,%u,%u,%u]%s",
				 c->off & 7, c->off >> 3 & 7, c->off >> 6 & 7, c->off >> 9 & 7,
				 c->off >> 12 & 7, c->off >> 15 & 7, c->off >> 18 & 7,
				 c->off >> 21 & 7, c->fi ? " fi:1" : "");
		} else {
			snprintf(insn, sizeof(insn), "ds_%spermute_b32 v5, v7, v4 offset:%u",
				 c->k == BPERM ? "b" : "", c->off);
		}
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

/* The lane DPP16 control @ctl makes lane @i read, -1: none (out of its
 * row, of the wave, or a row row_bcast does not feed). */
static int dpp_src(unsigned ctl, int i, int n)
{
	int row = i / 16 * 16, r = i % 16, k = (int)(ctl & 15);

	if (ctl < 0x100) /* quad_perm: lane (i & ~3) + sel[i % 4] */
		return i / 4 * 4 + (int)(ctl >> (i % 4 * 2) & 3);
	if (ctl > 0x100 && ctl < 0x110) /* row_shl: from k lanes up */
		return r + k <= 15 ? i + k : -1;
	if (ctl > 0x110 && ctl < 0x120) /* row_shr: from k lanes down */
		return r - k >= 0 ? i - k : -1;
	if (ctl > 0x120 && ctl < 0x130) /* row_ror: rotated within the row */
		return row + (r - k + 16) % 16;
	if (ctl == 0x130) /* wave_shl:1 */
		return i + 1 < n ? i + 1 : -1;
	if (ctl == 0x134) /* wave_rol:1 */
		return (i + 1) % n;
	if (ctl == 0x138) /* wave_shr:1 */
		return i - 1;
	if (ctl == 0x13c) /* wave_ror:1 */
		return (i - 1 + n) % n;
	if (ctl == 0x140) /* row_mirror */
		return row + 15 - r;
	if (ctl == 0x141) /* row_half_mirror */
		return i / 8 * 8 + 7 - i % 8;
	if (ctl == 0x142) /* row_bcast:15: lane 15 of the row before */
		return row - 1;
	if (ctl == 0x143) /* row_bcast:31 */
		return i >= 32 ? 31 : -1;
	if (ctl >= 0x150 && ctl < 0x160) /* row_share, row_newbcast */
		return row + k;
	return row + (r ^ k); /* row_xmask */
}

static void dpp_model(const struct lcase *c, unsigned n, uint64_t ex, const uint32_t *in,
		      const uint32_t *old, uint32_t *out)
{
	for (unsigned i = 0; i < n; i++) {
		int s;

		out[i] = old[i];
		if (!(ex >> i & 1))
			continue;
		if (c->k == DPP8) { /* the lane of the 8 the select names */
			s = (int)(i / 8 * 8 + (c->off >> (i % 8 * 3) & 7));
			out[i] = (ex >> s & 1) || c->fi ? in[s] : 0;
			continue;
		}
		if (!(c->rm >> (i / 16) & 1) || !(c->bm >> (i / 4 % 4) & 1))
			continue; /* masked off: not written */
		s = dpp_src(c->off, (int)i, (int)n);
		if (s >= 0 && !(ex >> s & 1) && !c->fi)
			s = -1; /* an inactive lane is an invalid one */
		if (s >= 0)
			out[i] = in[s];
		else if (c->bc)
			out[i] = 0;
	}
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
	if (c->k == DPP || c->k == DPP8) {
		dpp_model(c, n, ex, in, old, out);
		return;
	}
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

	make_cases(gfxv >= 100000 ? 2 : gfxv == 90010 ? 1 : 0);
	fam_g10 = gfxv >= 100000;
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
		      : c->k == DPP  ? "v_mov_b32_dpp"
		      : c->k == DPP8 ? "v_mov_b32_dpp8"
				     : "ds_bpermute_b32",
		      c->off, (unsigned long long)c->exec, bad, first, got[first], want[first]);
		if (bad && (c->k == DPP || c->k == DPP8))
			fprintf(stderr, "  row_mask 0x%x bank_mask 0x%x bound_ctrl %d fi %d\n",
				c->rm, c->bm, c->bc, c->fi);
	}
}

/* @insn (at offset 16 of the code) stops the dispatch as an illegal
 * instruction before anything is stored. */
static void run_refused(const char *mcpu, uint32_t gfxv, const char *insn)
{
	struct sqk_env env = { .ctx = &vm, .xlate = tvm_xlate };
	struct sqk_dispatch d;
	struct sqk_result res;
	uint32_t user[16] = { 0 };
	char text[512];
	int rc;

	snprintf(text, sizeof(text),
		 "  v_lshlrev_b32 v1, 2, v0\n  s_mov_b32 s4, 0x%llx\n  s_mov_b32 s5, 0\n"
		 "  %s\n  s_waitcnt lgkmcnt(0)\n"
		 "  global_store_dword v1, v5, s[4:5]\n  s_endpgm\n",
		 OUT_VA, insn);
	T_REQUIRE(kco_asm_text(text, mcpu, "-mattr=+wavefrontsize64", code, sizeof(code)) ||
			  kco_asm_text(text, mcpu, "", code, sizeof(code)),
		  "llvm-mc for %s", mcpu);
	memset(out_mem, 0xcc, 256);
	T_REQUIRE(tvm_dispatch(&d, gfxv, CODE_VA, 64, 64), "family of %s", mcpu);
	d.user_data = user;
	rc = sqk_run(&d, &env, &res);
	CHECK(rc == -ENOTSUP && res.err == -ENOTSUP && res.pc == CODE_VA + 16,
	      "%s: %s: %d (%s) at 0x%llx", mcpu, insn, rc, res.msg, (unsigned long long)res.pc);
	CHECK_EQ(out_mem[0], 0xccccccccu, "%s: nothing stored after %s", mcpu, insn);
}

int main(void)
{
	if (kco_asm_missing())
		return T_EXIT_SKIP;
	run("gfx900", 90000, 64);
	run("gfx90a", 90010, 64);
	run("gfx1030", 100300, 64);
	run("gfx1030", 100300, 32);
	run_refused("gfx900", 90000, "ds_swizzle_b32 v5, v0 offset:0xc0a3");
	run_refused("gfx90a", 90010, "ds_swizzle_b32 v5, v0 offset:0xe003");
	run_refused("gfx1030", 100300, "ds_swizzle_b32 v5, v0 offset:0xc4a0");
	/* v_mov_b32_dpp v5, v4 with controls the family does not have:
	 * gfx10 wave_shl:1 and row_bcast:15, gfx9 row_share:3, gfx90a
	 * row_xmask:3 */
	run_refused("gfx1030", 100300, ".long 0x7e0a02fa, 0xff013004");
	run_refused("gfx1030", 100300, ".long 0x7e0a02fa, 0xff014204");
	run_refused("gfx900", 90000, ".long 0x7e0a02fa, 0xff015304");
	run_refused("gfx90a", 90010, ".long 0x7e0a02fa, 0xff016304");
	return t_result("emu_sqk_lanes");
}
