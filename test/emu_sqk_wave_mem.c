/* SPDX-License-Identifier: MIT */
/*
 * The kernel interpreter's whole-wave memory path: a wave's dword and
 * dwordx4 loads and stores whose lanes address consecutive elements go
 * through one translation when they stay in one page with EXEC full, and
 * lane by lane otherwise. A wave of gfx90a and one of gfx900 (code
 * assembled by LLVM 22's llvm-mc) run directly on sqk_run() over a GPU VM
 * whose consecutive pages are far apart on the host, and check: loads and
 * stores that cross a page (64-bit vaddr and saddr + offset forms, dword
 * and dwordx4), a dwordx4 copy within a page, lanes addressing a page in
 * reverse (both forms), a store whose lanes' low address halves wrap
 * within the wave under one high half (an offset taking the first lane to
 * a page start: not one page), stores whose lanes are consecutive but for
 * one late lane (its low half, its saddr offset, its high half), scalar
 * loads across a page (with an SGPR offset) and within one, stores
 * to two pages of a 64 KiB mapping and of a 2 MiB one (each translated
 * as one block), a store after a load to a read-only 64 KiB
 * mapping (the write fault, though the block is cached for reads), a store and an ALU write under a partial EXEC
 * (only its lanes written, the carry-out VCC only in its lanes), and a
 * store running from a mapped page into an unmapped one: the GPU page
 * fault at the first address of the unmapped page, the lanes before it
 * written. The TLB's sets of two (no kernel: sqk_vm_read()/sqk_vm_write()
 * on a bare wave): three pages of one set read in turn each give their own
 * data, and a page the TLB holds from a read, in its set's second entry,
 * still faults on a write when it is read-only, and a scalar load finds a
 * page in its set's second entry. Exit 77 without LLVM 22.
 */
#include <stdio.h>
#include <unistd.h>

#include "emu/sq/sqk.h"
#include "emu_sqk_util.h"
#include "emu_sqk_wave_util.h"

#ifndef KFDSIG_LLVM22_BIN
#define KFDSIG_LLVM22_BIN "/usr/lib/llvm-22/bin"
#endif

#define CODE_VA 0x10000ull

/* host memory: every mapped page with an unmapped page's worth of filler
 * after it, so that a copy running past a page's end reads the filler */
#define NPAGES 7
static uint8_t code[4096], host[NPAGES][2 * 4096];
static const uint64_t page_va[NPAGES] = {
	0x40000, 0x41000, 0x50000, 0x51000, 0x100000000, 0x200000000, 0x60000,
};

/* one 64 KiB mapping, the interpreter's translation block, and a
 * read-only one */
#define BIG_VA 0x80000ull
#define RO_VA 0xa0000ull
static uint32_t big[65536 / 4], ro_mem[65536 / 4];
/* one 2 MiB mapping, the interpreter's larger translation block */
#define HUGE_VA 0x400000ull
static uint32_t huge[(2u << 20) / 4];

static struct tvm_range ranges[4 + NPAGES];
static struct tvm vm = { ranges, 4 + NPAGES };

static void map_init(void)
{
	ranges[0] = (struct tvm_range){ CODE_VA, code, 4096, false };
	ranges[1] = (struct tvm_range){ BIG_VA, big, sizeof(big), false };
	ranges[2] = (struct tvm_range){ RO_VA, ro_mem, sizeof(ro_mem), true };
	ranges[3] = (struct tvm_range){ HUGE_VA, huge, sizeof(huge), false };
	for (size_t i = 0; i < NPAGES; i++)
		ranges[4 + i] = (struct tvm_range){ page_va[i], host[i], 4096, false };
}

static const char src[] = "  v_lshlrev_b32 v1, 2, v0\n"
			  "  v_mov_b32 v3, 0\n"
			  /* dwords across a page: 0x40f80 + 4 * lane -> 0x50f80 */
			  "  v_add_co_u32 v2, vcc, 0x40f80, v1\n"
			  "  global_load_dword v4, v[2:3], off\n"
			  "  v_add_co_u32 v2, vcc, 0x50f80, v1\n"
			  "  s_waitcnt vmcnt(0)\n"
			  "  global_store_dword v[2:3], v4, off\n"
			  /* dwordx4 within a page: 0x40000 -> 0x50400 */
			  "  v_lshlrev_b32 v5, 4, v0\n"
			  "  v_add_co_u32 v2, vcc, 0x40000, v5\n"
			  "  global_load_dwordx4 v[6:9], v[2:3], off\n"
			  "  v_add_co_u32 v2, vcc, 0x50400, v5\n"
			  "  s_waitcnt vmcnt(0)\n"
			  "  global_store_dwordx4 v[2:3], v[6:9], off\n"
			  /* dwordx4 across a page: 0x40e00 -> 0x51100 */
			  "  v_add_co_u32 v2, vcc, 0x40e00, v5\n"
			  "  global_load_dwordx4 v[6:9], v[2:3], off\n"
			  "  v_add_co_u32 v2, vcc, 0x51100, v5\n"
			  "  s_waitcnt vmcnt(0)\n"
			  "  global_store_dwordx4 v[2:3], v[6:9], off\n"
			  /* saddr + offset across a page: 0x40f80 -> 0x50c00 */
			  "  s_mov_b32 s2, 0x40f80\n"
			  "  s_mov_b32 s3, 0\n"
			  "  global_load_dword v4, v1, s[2:3]\n"
			  "  s_mov_b32 s2, 0x50c00\n"
			  "  s_waitcnt vmcnt(0)\n"
			  "  global_store_dword v1, v4, s[2:3]\n"
			  /* lanes in reverse: 0x40000 + 252 - 4 * lane -> 0x50e00,
			   * then saddr: 0x40000 -> 0x50d00 + 252 - 4 * lane */
			  "  v_sub_u32 v13, 0xfc, v1\n"
			  "  v_add_co_u32 v2, vcc, 0x40000, v13\n"
			  "  global_load_dword v4, v[2:3], off\n"
			  "  v_add_co_u32 v2, vcc, 0x50e00, v1\n"
			  "  s_waitcnt vmcnt(0)\n"
			  "  global_store_dword v[2:3], v4, off\n"
			  "  s_mov_b32 s2, 0x40000\n"
			  "  global_load_dword v4, v1, s[2:3]\n"
			  "  s_mov_b32 s2, 0x50d00\n"
			  "  s_waitcnt vmcnt(0)\n"
			  "  global_store_dword v13, v4, s[2:3]\n"
			  /* partial EXEC: lane ids to 0x51800, VCC to 0x51c00 */
			  "  v_add_co_u32 v2, vcc, 0x51800, v1\n"
			  "  v_mov_b32 v10, 7\n"
			  "  v_mov_b32 v14, 9\n" /* another value in every lane last */
			  "  s_mov_b32 exec_lo, 0x00ff00ff\n"
			  "  s_mov_b32 exec_hi, 0xf0f0f0f0\n"
			  "  v_add_co_u32 v10, vcc, -1, v0\n"
			  "  global_store_dword v[2:3], v0, off\n"
			  "  s_mov_b64 exec, -1\n"
			  "  v_mov_b32 v11, vcc_lo\n"
			  "  v_mov_b32 v12, vcc_hi\n"
			  "  v_mov_b32 v2, 0x51c00\n"
			  "  global_store_dword v[2:3], v11, off\n"
			  "  global_store_dword v[2:3], v12, off offset:4\n"
			  /* the lanes EXEC left out keep v10's old value: 0x51a00 */
			  "  v_add_co_u32 v2, vcc, 0x51a00, v1\n"
			  "  global_store_dword v[2:3], v10, off\n"
			  /* low halves that wrap within the wave, one high half
			   * (1), the offset taking lane 0 to a page start:
			   * lanes 0-31 at 0x200000000 + 4 * lane, 32-63 at
			   * 0x100000080 + 4 * (lane - 32) */
			  "  v_mov_b32 v3, 1\n"
			  "  v_add_co_u32 v2, vcc, 0xffffff80, v1\n"
			  "  global_store_dword v[2:3], v0, off offset:0x80\n"
			  "  v_mov_b32 v3, 0\n"
			  /* consecutive but for one late lane: lane by lane;
			   * 0x51d00 + 4 * lane, lane 45 at 0x51e00 */
			  "  v_add_co_u32 v2, vcc, 0x51d00, v1\n"
			  "  v_mov_b32 v17, 0x51e00\n"
			  "  v_cmp_eq_u32 vcc, 45, v0\n"
			  "  v_cndmask_b32 v2, v2, v17, vcc\n"
			  "  global_store_dword v[2:3], v0, off\n"
			  /* the same with saddr: 0x50000 + 4 * lane, lane 37
			   * at 0x50900 */
			  "  v_mov_b32 v17, 0x900\n"
			  "  v_cmp_eq_u32 vcc, 37, v0\n"
			  "  v_cndmask_b32 v18, v1, v17, vcc\n"
			  "  s_mov_b32 s2, 0x50000\n"
			  "  global_store_dword v18, v0, s[2:3]\n"
			  /* one high half (2) but for one late lane (1):
			   * 0x200000100 + 4 * lane, lane 50 at 0x1000001c8 */
			  "  v_add_u32 v2, 0x100, v1\n"
			  "  v_mov_b32 v19, 1\n"
			  "  v_cmp_eq_u32 vcc, 50, v0\n"
			  "  v_cndmask_b32 v3, 2, v19, vcc\n"
			  "  global_store_dword v[2:3], v0, off\n"
			  "  v_mov_b32 v3, 0\n"
			  /* pages 0 and 5 of a 64 KiB mapping (one translation) */
			  "  v_add_co_u32 v2, vcc, 0x80000, v1\n"
			  "  global_store_dword v[2:3], v0, off\n"
			  "  v_add_co_u32 v2, vcc, 0x85000, v1\n"
			  "  v_add_u32 v15, 0x100, v0\n"
			  "  global_store_dword v[2:3], v15, off\n"
			  /* pages 0 and 300 of a 2 MiB mapping (one
			   * translation) */
			  "  v_add_co_u32 v2, vcc, 0x400000, v1\n"
			  "  global_store_dword v[2:3], v0, off\n"
			  "  v_add_co_u32 v2, vcc, 0x52c000, v1\n"
			  "  v_add_u32 v15, 0x200, v0\n"
			  "  global_store_dword v[2:3], v15, off\n"
			  /* scalar loads: 4 dwords across a page (soffset
			   * 8: 0x40ff8), 2 within one (0x41000), to 0x51f00
			   * and 0x51f10 */
			  "  s_mov_b32 s2, 0x40ff0\n"
			  "  s_mov_b32 s3, 0\n"
			  "  s_mov_b32 s4, 8\n"
			  "  s_load_dwordx4 s[20:23], s[2:3], s4\n"
			  "  s_load_dwordx2 s[24:25], s[2:3], 0x10\n"
			  "  s_waitcnt lgkmcnt(0)\n"
			  "  v_mov_b32 v20, s20\n"
			  "  v_mov_b32 v21, s21\n"
			  "  v_mov_b32 v22, s22\n"
			  "  v_mov_b32 v23, s23\n"
			  "  v_mov_b32 v24, s24\n"
			  "  v_mov_b32 v25, s25\n"
			  "  v_mov_b32 v2, 0x51f00\n"
			  "  global_store_dwordx4 v[2:3], v[20:23], off\n"
			  "  global_store_dwordx2 v[2:3], v[24:25], off offset:16\n"
			  /* from a mapped page into an unmapped one: 0x60f80 */
			  "  v_add_co_u32 v2, vcc, 0x60f80, v1\n"
			  "  global_store_dword v[2:3], v0, off\n"
			  "  s_endpgm\n";

/* The dword at @va as the host holds it. */
static uint32_t at(uint64_t va)
{
	uint32_t v = 0;

	for (size_t i = 0; i < NPAGES; i++)
		if (va >= page_va[i] && va - page_va[i] < 4096)
			memcpy(&v, host[i] + (va - page_va[i]), 4);
	return v;
}

/* The source pages' dword at @va. */
static uint32_t want_src(uint64_t va)
{
	return (va < 0x41000 ? 0xa0000000u : 0xb0000000u) + (uint32_t)(va & 4095) / 4;
}

static void run(const char *mcpu, uint32_t gfxv)
{
	struct sqk_env env = { .ctx = &vm, .xlate = tvm_xlate };
	struct sqk_dispatch d;
	struct sqk_result res;
	uint32_t user[16] = { 0 };
	unsigned bad = 0;
	uint64_t ex = 0x00ff00ffull | 0xf0f0f0f0ull << 32;
	int rc;

	T_REQUIRE(kco_asm_text(src, mcpu, "", code, sizeof(code)), "llvm-mc for %s", mcpu);
	memset(host, 0xee, sizeof(host));
	for (unsigned p = 0; p < 2; p++)
		for (uint32_t i = 0; i < 1024; i++) {
			uint32_t v = (p ? 0xb0000000u : 0xa0000000u) + i;

			memcpy(host[p] + 4 * i, &v, 4);
		}
	for (unsigned p = 2; p < NPAGES; p++)
		memset(host[p], 0, 4096);
	memset(big, 0, sizeof(big));
	memset(huge, 0, sizeof(huge));
	T_REQUIRE(tvm_dispatch(&d, gfxv, CODE_VA, 64, 64), "family of %s", mcpu);
	d.rsrc1 = 3; /* 32 VGPRs: the program uses v0-v25 */
	d.user_data = user;
	rc = sqk_run(&d, &env, &res);
	CHECK(rc == -EFAULT && res.err == -EFAULT, "%s: sqk_run %d (%s)", mcpu, rc, res.msg);
	CHECK_EQ(res.fault_va, 0x61000ull, "%s: the fault's address", mcpu);
	CHECK(res.fault_write, "%s: the fault is a write", mcpu);
	for (unsigned l = 0; l < 64; l++) {
		/* dwords across a page, both address forms */
		bad += at(0x50f80 + 4 * l) != want_src(0x40f80 + 4 * l);
		bad += at(0x50c00 + 4 * l) != want_src(0x40f80 + 4 * l);
		/* lanes in reverse, both address forms */
		bad += at(0x50e00 + 4 * l) != want_src(0x40000 + 252 - 4 * l);
		bad += at(0x50d00 + 252 - 4 * l) != want_src(0x40000 + 4 * l);
		for (unsigned i = 0; i < 4; i++) {
			/* dwordx4 within a page, across a page */
			bad += at(0x50400 + 16 * l + 4 * i) != want_src(0x40000 + 16 * l + 4 * i);
			bad += at(0x51100 + 16 * l + 4 * i) != want_src(0x40e00 + 16 * l + 4 * i);
		}
		/* partial EXEC: the lane's id in its lanes only */
		bad += at(0x51800 + 4 * l) != ((ex >> l & 1) ? l : 0);
		bad += at(0x51a00 + 4 * l) != ((ex >> l & 1) ? l - 1 : 7u);
		/* low halves wrapping: lane by lane */
		bad += at(0x200000000 + 4 * l) != (l < 32 ? l : 0);
		if (l >= 32)
			bad += at(0x100000080 + 4 * (l - 32)) != l;
		/* one late lane elsewhere (its low half, its high half) */
		bad += at(0x51d00 + 4 * l) != (l == 45 ? 0 : l);
		bad += at(0x50000 + 4 * l) != (l == 37 ? 0 : l);
		bad += at(0x200000100 + 4 * l) != (l == 50 ? 0 : l);
		/* the 64 KiB mapping: each page at its place */
		bad += big[l] != l;
		bad += big[0x5000 / 4 + l] != 0x100 + l;
		/* the 2 MiB mapping: each page at its place */
		bad += huge[l] != l;
		bad += huge[300 * 1024 + l] != 0x200 + l;
		/* the store into the unmapped page: the lanes before the fault */
		bad += at(0x60f80 + 4 * l) != (l < 32 ? l : 0);
	}
	CHECK(bad == 0, "%s: %u dwords wrong (0x50f80: %#x, 0x51100: %#x)", mcpu, bad, at(0x50f80),
	      at(0x51100));
	for (unsigned i = 0; i < 4; i++)
		CHECK_EQ(at(0x51f00 + 4 * i), want_src(0x40ff8 + 4 * i),
			 "%s: s_load_dwordx4 across a page, dword %u", mcpu, i);
	for (unsigned i = 0; i < 2; i++)
		CHECK_EQ(at(0x51f10 + 4 * i), want_src(0x41000 + 4 * i),
			 "%s: s_load_dwordx2 within a page, dword %u", mcpu, i);
	CHECK(at(0x51e00) == 45 && at(0x50900) == 37 && at(0x1000001c8) == 50,
	      "%s: the late lanes' own addresses: %u %u %u", mcpu, at(0x51e00), at(0x50900),
	      at(0x1000001c8));
	/* carry out of lane id + 0xffffffff: lane != 0, in EXEC's lanes */
	CHECK_EQ(at(0x51c00), (uint32_t)(ex & ~1ull), "%s: VCC lo", mcpu);
	CHECK_EQ(at(0x51c04), (uint32_t)(ex >> 32), "%s: VCC hi", mcpu);
}

/* A load from a read-only 64 KiB mapping, then a store to the same page:
 * the write fault, though the load's translation of the block is cached. */
static void run_ro(const char *mcpu, uint32_t gfxv)
{
	static const char ro_src[] = "  v_lshlrev_b32 v1, 2, v0\n"
				     "  v_mov_b32 v3, 0\n"
				     "  v_add_co_u32 v2, vcc, 0xa0000, v1\n"
				     "  global_load_dword v4, v[2:3], off\n"
				     "  s_waitcnt vmcnt(0)\n"
				     "  global_store_dword v[2:3], v0, off\n"
				     "  s_endpgm\n";
	struct sqk_env env = { .ctx = &vm, .xlate = tvm_xlate };
	struct sqk_dispatch d;
	struct sqk_result res;
	uint32_t user[16] = { 0 };
	int rc;

	T_REQUIRE(kco_asm_text(ro_src, mcpu, "", code, sizeof(code)), "llvm-mc for %s", mcpu);
	memset(ro_mem, 0x5a, sizeof(ro_mem));
	T_REQUIRE(tvm_dispatch(&d, gfxv, CODE_VA, 64, 64), "family of %s", mcpu);
	d.user_data = user;
	rc = sqk_run(&d, &env, &res);
	CHECK(rc == -EFAULT && res.fault_write && res.fault_ro && res.fault_va == RO_VA,
	      "%s: a store after a load of a read-only page: %d (%s), va 0x%llx, ro %d", mcpu, rc,
	      res.msg, (unsigned long long)res.fault_va, res.fault_ro);
	CHECK_EQ(ro_mem[0], 0x5a5a5a5au, "%s: the read-only page unchanged", mcpu);
}

/* Three pages of one TLB set, the third read-only; no 64 KiB or 2 MiB
 * block is mapped (each page is translated alone). */
static uint8_t tpage[3][4096];
static uint64_t tva[3];

static void *tlb_xlate(void *ctx, uint64_t va, uint32_t len, bool write, bool *ro)
{
	(void)ctx;
	for (int i = 0; i < 3 && len == 4096; i++)
		if (va == tva[i]) {
			if (write && i == 2) {
				*ro = true;
				return NULL;
			}
			return tpage[i];
		}
	return NULL;
}

static void check_tlb_sets(void)
{
	struct bare_wave *g = bare_wave_new(90010, 64);
	uint64_t p = 0x12345;
	unsigned n = 1;
	uint32_t v = 0;

	g->env.xlate = tlb_xlate;
	tva[0] = p << 12;
	while (n < 3)
		if (sqk_tlb_index(++p) == sqk_tlb_index(tva[0] >> 12))
			tva[n++] = p << 12;
	for (int i = 0; i < 3; i++)
		memset(tpage[i], 0x11 * (i + 1), sizeof(tpage[i]));
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < 3; i++) {
			int rc = sqk_vm_read(&g->w, NULL, tva[i] + 8, &v, 4);

			CHECK(rc == 0 && v == 0x01010101u * 0x11 * (i + 1),
			      "tlb: page %d of one set read 0x%x (rc %d) in round %d", i, v, rc,
			      round);
		}
	/* the read-only page read, another of its set after it: it is in
	 * the set's second entry, read-only */
	CHECK(sqk_vm_read(&g->w, NULL, tva[2], &v, 4) == 0, "tlb: read-only page read");
	CHECK(sqk_vm_read(&g->w, NULL, tva[0], &v, 4) == 0, "tlb: first page read");
	v = 0xdeadbeef;
	CHECK(sqk_vm_write(&g->w, NULL, tva[2] + 4, &v, 4) == -EFAULT && tpage[2][4] == 0x33,
	      "tlb: a write to the read-only page went through its read translation");
	/* the scalar load's own look at the TLB (sqk_salu.c hot_sload()):
	 * the first page in the set's second entry, the second page in its
	 * first, s_load_dword s0, s[2:3], 0x8 of the first page (llvm-mc 22
	 * -mcpu=gfx90a: 0xc0020001 0x00000008) */
	CHECK(sqk_vm_read(&g->w, NULL, tva[1], &v, 4) == 0, "tlb: second page read");
	{
		const uint32_t words[2] = { 0xc0020001u, 0x8u };
		struct sqk_insn in;
		sqk_exec_fn fn;

		CHECK(sqk_decode(g->r.f, words, 2, &in) == 8, "tlb: s_load_dword decoded");
		fn = sqk_smem_hot(&in);
		T_REQUIRE(fn, "tlb: s_load_dword has a hot executor");
		g->w.s[2] = (uint32_t)tva[0], g->w.s[3] = (uint32_t)(tva[0] >> 32);
		g->w.s[0] = 0;
		CHECK(fn(&g->w, &in) == 0 && g->w.s[0] == 0x11111111u,
		      "tlb: a scalar load of the page in its set's second entry read 0x%x",
		      g->w.s[0]);
	}
	bare_wave_free(g);
}

int main(void)
{
	check_tlb_sets();
	if (kco_asm_missing())
		return T_EXIT_SKIP;
	map_init();
	run("gfx90a", 90010);
	run("gfx900", 90000);
	run_ro("gfx90a", 90010);
	return t_result("emu_sqk_wave_mem");
}
