/* SPDX-License-Identifier: MIT */
/*
 * The shader unit (kernel interpreter) on hand-written golden programs:
 * the kernel-argument signal stub of each family as instruction words
 * (LLVM 22 encodings of the LLVM AMDGPUUsage "Memory Model" release
 * sequences, written here as data), so the decoder, the interpreter and
 * its release check are checked without any LLVM tool:
 *   - each program decodes to the expected operations, runs on every
 *     target of its family, stores 1 in the slot and nothing else, and
 *     sends one released interrupt with the id in m0, whose IV context
 *     words give back the id cut to the generation's width;
 *   - a release swapped for one that is not system scope (or none) is
 *     reported by the release check, naming the s_sendmsg and the store;
 *   - an instruction running past the mapped code faults where the
 *     mapping ends; running off the code faults; a scalar load from an
 *     unmapped address faults (not a write); a word that is no
 *     instruction stops the wave as illegal, naming its address, before
 *     the message; s_code_end is not executed; bad arguments are refused,
 *     wave32 on a family with wave64 only and wave64 on gfx1250 (wave32
 *     only) among them;
 *   - the IV context words of every target decode as amdkfd decodes them;
 *   - random words: decode and print never crash and only fail as
 *     documented.
 */
#include "emu_sq_util.h"

#include "emu/emu_gen.h"

#define KERNARG_VA 0x10000ull
#define PAGE_VA 0x7f0000200000ull
#define CODE_VA 0x7f0000400000ull
#define UNMAPPED_VA 0x7f0000900000ull
#define SLOTS 4096

struct golden {
	enum kfdsig_family family;
	unsigned n; /* words */
	uint32_t w[24];
	uint16_t ops[16]; /* expected operations (enum sqk_op), K_INVALID-terminated */
	/* the SQ interrupt data's width: the kfd_signal_event_interrupt()
	 * calls of cik_event_interrupt.c and kfd_int_process_v9/v10/v11.c */
	uint32_t sq_mask;
};

#define SLOAD2 K_s_load_dwordx2, K_s_load_dword
#define VMOV K_v_mov_b32
#define WAIT K_s_waitcnt
#define STORE K_global_store_dwordx2
#define TAIL K_s_mov_b32, K_s_nop, K_s_sendmsg, K_s_endpgm

static const struct golden goldens[] = {
	/* gfx8: s_load_dwordx2 s[2:3]; s_load_dword s4; v_mov v0,1; v_mov v1,0;
	 * s_waitcnt lgkmcnt(0); v_mov v2,s2; v_mov v3,s3;
	 * flat_store_dwordx2 v[2:3], v[0:1]; s_waitcnt vmcnt(0) lgkmcnt(0);
	 * s_mov_b32 m0, s4; s_nop 0; s_sendmsg(MSG_INTERRUPT); s_endpgm */
	{ KFDSIG_FAMILY_GFX8,
	  16,
	  { 0xc0060080, 0x00000000, 0xc0020100, 0x00000008, 0x7e000281, 0x7e020280, 0xbf8c007f,
	    0x7e040202, 0x7e060203, 0xdc740000, 0x00000002, 0xbf8c0070, 0xbefc0004, 0xbf800000,
	    0xbf900001, 0xbf810000 },
	  { SLOAD2, VMOV, VMOV, WAIT, VMOV, VMOV, K_flat_store_dwordx2, WAIT, TAIL },
	  0xff },
	/* gfx9: global_store_dwordx2 v[2:3], v[0:1], off; s_waitcnt vmcnt(0) */
	{ KFDSIG_FAMILY_GFX9,
	  16,
	  { 0xc0060080, 0x00000000, 0xc0020100, 0x00000008, 0x7e000281, 0x7e020280, 0xbf8cc07f,
	    0x7e040202, 0x7e060203, 0xdc748000, 0x007f0002, 0xbf8c0f70, 0xbefc0004, 0xbf800000,
	    0xbf900001, 0xbf810000 },
	  { SLOAD2, VMOV, VMOV, WAIT, VMOV, VMOV, STORE, WAIT, TAIL },
	  0xffffff },
	/* gfx90a: + buffer_wbl2 glc scc (0xe0a0c000) before the wait */
	{ KFDSIG_FAMILY_GFX90A,
	  18,
	  { 0xc0060080, 0x00000000, 0xc0020100, 0x00000008, 0x7e000281, 0x7e020280, 0xbf8cc07f,
	    0x7e040202, 0x7e060203, 0xdc748000, 0x007f0002, 0xe0a0c000, 0x00000000, 0xbf8c0f70,
	    0xbefc0004, 0xbf800000, 0xbf900001, 0xbf810000 },
	  { SLOAD2, VMOV, VMOV, WAIT, VMOV, VMOV, STORE, K_buffer_wbl2, WAIT, TAIL },
	  0xffffff },
	/* gfx94x: store sc0 sc1 (0xde758000), buffer_wbl2 sc0 sc1 */
	{ KFDSIG_FAMILY_GFX94X,
	  18,
	  { 0xc0060080, 0x00000000, 0xc0020100, 0x00000008, 0x7e000281, 0x7e020280, 0xbf8cc07f,
	    0x7e040202, 0x7e060203, 0xde758000, 0x007f0002, 0xe0a0c000, 0x00000000, 0xbf8c0f70,
	    0xbefc0004, 0xbf800000, 0xbf900001, 0xbf810000 },
	  { SLOAD2, VMOV, VMOV, WAIT, VMOV, VMOV, STORE, K_buffer_wbl2, WAIT, TAIL },
	  0xffffff },
	/* gfx10.1: SMEM 0xf4.., soffset null 0x7d; s_waitcnt_vscnt null, 0
	 * (0xbbfd0000); s_mov_b32 is SOP1 op 3 (0xbefc0304) */
	{ KFDSIG_FAMILY_GFX10_1,
	  16,
	  { 0xf4040080, 0xfa000000, 0xf4000100, 0xfa000008, 0x7e000281, 0x7e020280, 0xbf8cc07f,
	    0x7e040202, 0x7e060203, 0xdc748000, 0x007d0002, 0xbbfd0000, 0xbefc0304, 0xbf800000,
	    0xbf900001, 0xbf810000 },
	  { SLOAD2, VMOV, VMOV, WAIT, VMOV, VMOV, STORE, K_s_waitcnt_vscnt, TAIL },
	  0x7fffff },
	{ KFDSIG_FAMILY_GFX10_3,
	  16,
	  { 0xf4040080, 0xfa000000, 0xf4000100, 0xfa000008, 0x7e000281, 0x7e020280, 0xbf8cc07f,
	    0x7e040202, 0x7e060203, 0xdc748000, 0x007d0002, 0xbbfd0000, 0xbefc0304, 0xbf800000,
	    0xbf900001, 0xbf810000 },
	  { SLOAD2, VMOV, VMOV, WAIT, VMOV, VMOV, STORE, K_s_waitcnt_vscnt, TAIL },
	  0x7fffff },
	/* gfx11: s_waitcnt lgkmcnt(0) = 0xbf89fc07; global_store_b64 0xdc6e0000;
	 * s_waitcnt_vscnt null, 0 = 0xbc7c0000; m0 = 125 (0xbefd0004);
	 * s_sendmsg 0xbfb60001; s_endpgm 0xbfb00000 */
	{ KFDSIG_FAMILY_GFX11,
	  16,
	  { 0xf4040080, 0xf8000000, 0xf4000100, 0xf8000008, 0x7e000281, 0x7e020280, 0xbf89fc07,
	    0x7e040202, 0x7e060203, 0xdc6e0000, 0x007c0002, 0xbc7c0000, 0xbefd0004, 0xbf800000,
	    0xbfb60001, 0xbfb00000 },
	  { SLOAD2, VMOV, VMOV, WAIT, VMOV, VMOV, STORE, K_s_waitcnt_vscnt, TAIL },
	  0xffffff },
	/* gfx12: s_wait_kmcnt 0; global_store_b64 ... scope:SCOPE_SYS (96 bits);
	 * global_wb scope:SCOPE_SYS; s_wait_storecnt 0 */
	{ KFDSIG_FAMILY_GFX12,
	  20,
	  { 0xf4002080, 0xf8000000, 0xf4000100, 0xf8000008, 0x7e000281, 0x7e020280, 0xbfc70000,
	    0x7e040202, 0x7e060203, 0xee06c07c, 0x000c0000, 0x00000002, 0xee0b007c, 0x000c0000,
	    0x00000000, 0xbfc10000, 0xbefd0004, 0xbf800000, 0xbfb60001, 0xbfb00000 },
	  { SLOAD2, VMOV, VMOV, K_s_wait_kmcnt, VMOV, VMOV, STORE, K_global_wb, K_s_wait_storecnt,
	    TAIL },
	  0xffffff },
};

static const uint32_t ids[] = { 1, 255, 256, 4095 };

/* Map the program (@nwords at @code_va, in a page of its own: @code_va
 * at its end when @at_end) and the kernel arguments {slot, id}. */
static void setup(struct sqt_wave *r, const uint32_t *code, unsigned nwords, uint64_t code_va,
		  uint64_t slot, uint32_t id, uint64_t **page)
{
	uint64_t base = code_va & ~4095ull;
	uint8_t *ka;

	memset(r, 0, sizeof(*r));
	memcpy(sqt_map(&r->mem, base, 4096, 0) + (code_va - base), code, 4u * nwords);
	ka = sqt_map(&r->mem, KERNARG_VA, 4096, 0);
	memcpy(ka, &slot, 8);
	memcpy(ka + 8, &id, 4);
	*page = (uint64_t *)sqt_map(&r->mem, PAGE_VA, SLOTS * 8, 0xff);
	r->page = *page;
	r->page_slots = SLOTS;
}

static int run(struct sqt_wave *r, const struct kfdsig_target *t, uint64_t entry)
{
	uint32_t user[2] = { (uint32_t)KERNARG_VA, 0 };

	return sqt_run_wave(r, t, entry, user, 2, 0, false);
}

/* The SQ interrupt data, ENCODING and PRIV of the IV context words, as
 * cik_event_interrupt.c and kfd_int_process_v9/v10/v11.c read them
 * (KFD_CONTEXT_ID_GET_SQ_INT_DATA and the v10/v11 masks). */
static uint32_t iv_data(const struct kfdsig_target *t, uint32_t c0, uint32_t c1, uint32_t *enc,
			uint32_t *priv)
{
	switch (t->level) {
	case KFDSIG_GFX8:
		*enc = 1; /* not in the CIK handler */
		*priv = 0;
		return c0 & 0xff;
	case KFDSIG_GFX9:
		*enc = (c0 >> 26) & 3;
		*priv = (c0 >> 13) & 1;
		return (c0 & 0xfff) | ((c0 >> 16) & 0xf000) | ((c1 << 16) & 0xff0000);
	case KFDSIG_GFX10:
	case KFDSIG_GFX10_3:
		*enc = (c1 >> 6) & 3;
		*priv = (c0 >> 24) & 1;
		return c0 & 0x7fffff;
	default:
		*enc = (c1 >> 6) & 3;
		*priv = (c0 >> 26) & 1;
		return c0 & 0xffffff;
	}
}

static int gen_of(const struct kfdsig_target *t, struct emu_gen *g)
{
	return emu_gen_derive(g, t->gc_ip, t->sdma_ip, t->gfx_target_version, 0, 0);
}

/* The SQ data the IV of an interrupt with @m0 carries on @t. */
static uint32_t sq_data(const struct kfdsig_target *t, uint32_t m0)
{
	struct emu_gen g;
	uint32_t c0 = 0, c1 = 0, enc, priv;

	if (gen_of(t, &g) || emu_gen_sq_iv_context(&g, m0, &c0, &c1))
		return ~0u;
	return iv_data(t, c0, c1, &enc, &priv);
}

static void check_golden(const struct golden *g)
{
	unsigned ntargets = 0;

	for (size_t ti = 0; ti < kfdsig_target_count(); ti++) {
		const struct kfdsig_target *t = kfdsig_target_at(ti);
		const struct sqk_family *f = sqk_family_of(t->gfx_target_version);
		uint64_t pc = 0;
		unsigned i = 0;

		if (t->family != g->family)
			continue;
		/* every target but those LLVM 22 has no ISA for (gfx1170,
		 * gfx1171: their waves are illegal instructions) */
		CHECK(f != NULL || t->llvm_added_in > 22,
		      "%s: the kernel interpreter does not run it", t->name);
		if (!f)
			continue;
		ntargets++;
		/* Decoded operation sequence. */
		while (g->ops[i] != K_INVALID && pc < 4u * g->n) {
			struct sqk_insn in;
			unsigned r = sqk_decode(f, g->w + pc / 4, g->n - (unsigned)pc / 4, &in);

			CHECK(r > 0, "%s: decode at +0x%llx", t->name, (unsigned long long)pc);
			if (!r)
				break;
			CHECK_EQ(in.op, g->ops[i], "%s: op %u is %s", t->name, i,
				 sqk_op_name(in.op));
			pc += r;
			i++;
		}
		CHECK(pc == 4u * g->n && g->ops[i] == K_INVALID, "%s: program length", t->name);

		for (unsigned k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
			struct sqt_wave r;
			uint64_t *page;
			unsigned other = 0;

			setup(&r, g->w, g->n, CODE_VA, PAGE_VA + 8ull * ids[k], ids[k], &page);
			run(&r, t, CODE_VA);
			CHECK_EQ(r.rc, 0, "%s id %u: %s", t->name, ids[k], r.res.msg);
			CHECK_EQ(page[ids[k]], 1, "%s id %u: slot", t->name, ids[k]);
			for (unsigned s = 0; s < SLOTS; s++)
				other += s != ids[k] && page[s] != ~0ull;
			CHECK_EQ(other, 0, "%s: other slots", t->name);
			CHECK(r.nmsg == 1 && r.res.interrupts == 1, "%s: messages %u", t->name,
			      r.nmsg);
			CHECK_EQ(r.msg_m0, ids[k], "%s: m0", t->name);
			CHECK_EQ(r.stored_at_msg, 1, "%s: the store lands before the message",
				 t->name);
			CHECK(r.nchk == 0 && !r.res.unreleased && !r.res.m0_hazards &&
				      !r.res.sgpr_unwaited,
			      "%s id %u: release check reported kind %u at 0x%llx", t->name, ids[k],
			      r.kind[0], (unsigned long long)r.pc[0]);
			CHECK_EQ(sq_data(t, r.msg_m0), ids[k] & g->sq_mask, "%s id %u: SQ data",
				 t->name, ids[k]);
			sqt_mem_free(&r.mem);
		}
	}
	CHECK(ntargets > 0, "family %d: no target", g->family);
}

/* Swap one release word of a golden program and expect it reported. */
static void check_bad_release(enum kfdsig_family fam, unsigned word, uint32_t repl,
			      const char *what)
{
	for (unsigned gi = 0; gi < sizeof(goldens) / sizeof(goldens[0]); gi++) {
		const struct golden *g = &goldens[gi];
		const struct kfdsig_target *t = NULL;
		struct sqt_wave r;
		uint32_t w[24];
		uint64_t *page;

		if (g->family != fam)
			continue;
		for (size_t ti = 0; ti < kfdsig_target_count() && !t; ti++)
			if (kfdsig_target_at(ti)->family == fam)
				t = kfdsig_target_at(ti);
		memcpy(w, g->w, sizeof(w));
		w[word] = repl;
		setup(&r, w, g->n, CODE_VA, PAGE_VA + 8 * 5, 5, &page);
		CHECK_EQ(run(&r, t, CODE_VA), 0, "%s: %s", what, r.res.msg);
		CHECK(page[5] == 1 && r.nmsg == 1, "%s %s: the signal still goes", t->name, what);
		CHECK(r.res.unreleased == 1 && r.nchk == 1 && r.kind[0] == SQK_CHECK_UNRELEASED,
		      "%s: %s must not release", t->name, what);
		/* the message is the one before s_endpgm; the store the one
		 * the golden's op list names */
		CHECK_EQ(r.pc[0], CODE_VA + 4u * (g->n - 2), "%s %s: the s_sendmsg", t->name, what);
		CHECK(r.store_pc[0] > CODE_VA && r.store_pc[0] < r.pc[0] &&
			      r.res.unreleased_store_pc == r.store_pc[0],
		      "%s %s: the store at 0x%llx", t->name, what,
		      (unsigned long long)r.store_pc[0]);
		sqt_mem_free(&r.mem);
	}
}

/* Code fetched from memory: an instruction running past the mapping is a
 * fetch fault where the mapping ends; running off the code one at its
 * end. */
static void check_fetch(void)
{
	const struct golden *g = &goldens[7]; /* gfx12: 96-bit stores */
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx1201");
	uint64_t end = CODE_VA + 4096, at = end - 40, *page;
	struct sqt_wave r;

	CHECK_EQ(g->family, KFDSIG_FAMILY_GFX12, "golden order");
	/* the program ends exactly at the end of its page */
	setup(&r, g->w, g->n, end - 4u * g->n, PAGE_VA + 8 * 4095, 4095, &page);
	CHECK_EQ(run(&r, t, end - 4u * g->n), 0, "fetch up to the end: %s", r.res.msg);
	CHECK(page[4095] == 1 && r.nmsg == 1 && r.msg_m0 == 4095 && !r.nchk,
	      "fetch up to the end: signal");
	sqt_mem_free(&r.mem);
	/* cut inside the 96-bit store (words 9-11): its first dword is the
	 * page's last */
	setup(&r, g->w, 10, at, PAGE_VA + 8, 1, &page);
	CHECK_EQ(run(&r, t, at), -EFAULT, "cut code: %s", r.res.msg);
	CHECK(r.res.fault_va == end && !r.res.fault_write, "fetch fault at 0x%llx",
	      (unsigned long long)r.res.fault_va);
	{
		char want[64];

		/* the store's address, its first dword at 0x24 */
		snprintf(want, sizeof(want), "instruction fetch fault at 0x%llx",
			 (unsigned long long)(at + 36));
		CHECK(strstr(r.res.msg, want) != NULL, "'%s' lacks '%s'", r.res.msg, want);
	}
	CHECK(page[1] == ~0ull && r.nmsg == 0, "cut code: nothing stored or sent");
	sqt_mem_free(&r.mem);
	/* gfx9: s_nop; then the mapping ends */
	{
		const uint32_t nop = 0xbf800000;
		const struct kfdsig_target *t9 = kfdsig_target_by_name("gfx900");

		setup(&r, &nop, 1, end - 4, PAGE_VA, 0, &page);
		CHECK_EQ(run(&r, t9, end - 4), -EFAULT, "ran off the code: %s", r.res.msg);
		CHECK(r.res.fault_va == end && r.res.pc == end, "ran off at 0x%llx (pc 0x%llx)",
		      (unsigned long long)r.res.fault_va, (unsigned long long)r.res.pc);
		sqt_mem_free(&r.mem);
	}
}

/* A scalar load from an unmapped address, a word that is no instruction,
 * s_code_end. */
static void check_stops(void)
{
	/* gfx9: s_load_dword s4, s[0:1], 0x8 with s[0:1] unmapped; s_waitcnt
	 * lgkmcnt(0); s_endpgm */
	const uint32_t load[] = { 0xc0020100, 0x00000008, 0xbf8cc07f, 0xbf810000 };
	const uint32_t user[2] = { (uint32_t)UNMAPPED_VA, (uint32_t)(UNMAPPED_VA >> 32) };
	const struct kfdsig_target *t9 = kfdsig_target_by_name("gfx900");
	struct sqt_wave r;
	uint64_t *page;

	setup(&r, load, 4, CODE_VA, PAGE_VA, 0, &page);
	sqt_run_wave(&r, t9, CODE_VA, user, 2, 0, false);
	CHECK(r.rc == -EFAULT && !r.res.fault_write && r.res.fault_va == UNMAPPED_VA + 8,
	      "load fault: rc %d at 0x%llx write %d", r.rc, (unsigned long long)r.res.fault_va,
	      r.res.fault_write);
	sqt_mem_free(&r.mem);

	/* Every golden with its s_mov_b32 m0 replaced by a MIMG word (no
	 * instruction the unit decodes): illegal, at its address, after the
	 * store but before the message. */
	for (unsigned gi = 0; gi < sizeof(goldens) / sizeof(goldens[0]); gi++) {
		const struct golden *g = &goldens[gi];
		const struct kfdsig_target *t = NULL;
		uint32_t w[24];
		char want[48];

		for (size_t ti = 0; ti < kfdsig_target_count() && !t; ti++)
			if (kfdsig_target_at(ti)->family == g->family)
				t = kfdsig_target_at(ti);
		memcpy(w, g->w, sizeof(w));
		w[g->n - 4] = 0xf0000000;
		w[g->n - 3] = 0; /* its second dword, in place of the s_nop */
		setup(&r, w, g->n, CODE_VA, PAGE_VA + 8, 1, &page);
		run(&r, t, CODE_VA);
		snprintf(want, sizeof(want), "at 0x%llx",
			 (unsigned long long)(CODE_VA + 4u * (g->n - 4)));
		CHECK(r.rc == -ENOTSUP && r.res.pc == CODE_VA + 4u * (g->n - 4) &&
			      strstr(r.res.msg, want) != NULL,
		      "%s: unknown word: rc %d pc 0x%llx: %s", t->name, r.rc,
		      (unsigned long long)r.res.pc, r.res.msg);
		CHECK(strstr(r.res.msg, "0xf0000000") != NULL, "%s: the message names the word: %s",
		      t->name, r.res.msg);
		CHECK(r.nmsg == 0 && page[1] == 1, "%s: store, no message", t->name);
		sqt_mem_free(&r.mem);
	}

	/* bad arguments */
	{
		struct sqk_dispatch d = { .fam = sqk_family_of(90000) };
		struct sqk_env env = { 0 };
		struct sqk_result res;

		CHECK_EQ(sqk_run(NULL, &env, &res), -EINVAL, "NULL dispatch");
		CHECK_EQ(sqk_run(&d, NULL, &res), -EINVAL, "NULL env");
		CHECK_EQ(sqk_run(&d, &env, &res), -EINVAL, "env without memory");
		CHECK_EQ(res.err, -EINVAL, "the result says so");
		CHECK_EQ(sqk_run(&d, &env, NULL), -EINVAL, "NULL result");
	}
	/* s_nop 0; s_endpgm: the wave ends, two instructions counted */
	{
		const uint32_t w[] = { 0xbf800000, 0xbf810000 };

		setup(&r, w, 2, CODE_VA, PAGE_VA, 0, &page);
		sqt_run_wave(&r, kfdsig_target_by_name("gfx906"), CODE_VA, NULL, 0, 0, false);
		CHECK(r.rc == 0 && r.res.insns == 2 && r.res.waves == 1,
		      "nop + endpgm: rc %d, %llu instructions: %s", r.rc,
		      (unsigned long long)r.res.insns, r.res.msg);
		sqt_mem_free(&r.mem);
	}
	/* wave32 on a family with wave64 only (GCN/CDNA) */
	{
		const uint32_t w[] = { 0xbf810000 };

		setup(&r, w, 1, CODE_VA, PAGE_VA, 0, &page);
		sqt_run_lanes(&r, t9, CODE_VA, 32);
		CHECK(r.rc == -EINVAL && r.res.err == -EINVAL && strstr(r.res.msg, "wave32") &&
			      r.res.waves == 0,
		      "wave32 on gfx900: rc %d: %s", r.rc, r.res.msg);
		sqt_mem_free(&r.mem);
	}
	/* wave64 on a family with wave32 only (gfx1250), which runs wave32
	 * and gfx1200 runs wave64 */
	{
		static const char *const nm[] = { "gfx1250", "gfx1250", "gfx1200" };
		static const unsigned lanes[] = { 64, 32, 64 };
		const uint32_t w[] = { 0xbfb00000 }; /* s_endpgm (gfx11 on) */

		for (int i = 0; i < 3; i++) {
			setup(&r, w, 1, CODE_VA, PAGE_VA, 0, &page);
			sqt_run_lanes(&r, kfdsig_target_by_name(nm[i]), CODE_VA, lanes[i]);
			if (i)
				CHECK(r.rc == 0 && r.res.waves == 1, "wave%u on %s: rc %d: %s",
				      lanes[i], nm[i], r.rc, r.res.msg);
			else
				CHECK(r.rc == -EINVAL && r.res.err == -EINVAL &&
					      strstr(r.res.msg, "wave64") && r.res.waves == 0,
				      "wave64 on gfx1250: rc %d: %s", r.rc, r.res.msg);
			sqt_mem_free(&r.mem);
		}
	}

	/* s_code_end (gfx10 SOPP 0x1f: 0xbf9f0000) is padding, not run */
	{
		const uint32_t w[] = { 0xbf9f0000, 0xbf810000 };

		setup(&r, w, 2, CODE_VA, PAGE_VA, 0, &page);
		run(&r, kfdsig_target_by_name("gfx1030"), CODE_VA);
		CHECK(r.rc == -EPROTO && r.res.pc == CODE_VA && strstr(r.res.msg, "s_code_end"),
		      "s_code_end executed: rc %d: %s", r.rc, r.res.msg);
		sqt_mem_free(&r.mem);
	}
}

/* The kernel's decode of the IV context words, written from
 * cik_event_interrupt.c and kfd_int_process_v9/v10/v11.c
 * (KFD_CONTEXT_ID_GET_SQ_INT_DATA and the v10/v11 masks), must
 * give back m0 cut to the width, with ENCODING = INST and PRIV = 0. */
static void check_iv_context(void)
{
	const uint32_t m0s[] = { 1, 255, 256, 4095, 0x1234, 0xabcdef, 0x7fffff, 0xffffffff };
	/* golden widths per level: 8, 24, 23, 23, 24, 24 (the kfd_signal_event_interrupt() calls of cik_event_interrupt.c and kfd_int_process_v9/v10/v11.c) */
	const uint32_t mask[] = { 0xff, 0xffffff, 0x7fffff, 0x7fffff, 0xffffff, 0xffffff };

	for (size_t ti = 0; ti < kfdsig_target_count(); ti++) {
		const struct kfdsig_target *t = kfdsig_target_at(ti);
		struct emu_gen g;

		if (gen_of(t, &g))
			continue; /* a GPU the kernel would not probe */
		for (unsigned i = 0; i < sizeof(m0s) / sizeof(m0s[0]); i++) {
			uint32_t c0 = 0, c1 = 0, data, enc, priv;

			CHECK_EQ(emu_gen_sq_iv_context(&g, m0s[i], &c0, &c1), 0, "iv context");
			data = iv_data(t, c0, c1, &enc, &priv);
			CHECK_EQ(data, m0s[i] & mask[t->level], "%s: IV data of m0 0x%x", t->name,
				 m0s[i]);
			CHECK_EQ(enc, 1, "%s: ENCODING INST", t->name);
			CHECK_EQ(priv, 0, "%s: PRIV", t->name);
		}
	}
	CHECK_EQ(emu_gen_sq_iv_context(NULL, 1, NULL, NULL), -EINVAL, "iv context of NULL");
}

/* Random words: decode and print never crash and only fail as documented. */
static void fuzz(void)
{
	uint32_t seed = 0x12345678u;
	unsigned ok = 0, refused = 0, printed = 0;

	for (size_t ti = 0; ti < kfdsig_target_count(); ti++) {
		const struct kfdsig_target *t = kfdsig_target_at(ti);
		const struct sqk_family *f = sqk_family_of(t->gfx_target_version);

		if (!f)
			continue;
		for (unsigned i = 0; i < 20000; i++) {
			uint32_t w[4];
			struct sqk_insn in;
			char buf[128];
			unsigned r;
			int p;

			for (unsigned j = 0; j < 4; j++) {
				seed = seed * 1664525u + 1013904223u;
				w[j] = seed;
			}
			/* Bias half of them towards the 64-bit encodings. */
			if (i & 1)
				w[0] = (w[0] & 0x03ffffff) |
				       ((uint32_t)(0x2f + (i / 2) % 16) << 26);
			r = sqk_decode(f, w, 1 + i % 4, &in);
			CHECK(r == 0 || (r == in.size && r % 4 == 0 && r <= 4 * (1 + i % 4)),
			      "%s: decode 0x%08x -> %u", t->name, w[0], r);
			if (!r || in.op == K_INVALID) {
				refused++;
				continue;
			}
			ok++;
			p = sqk_format(f, &in, buf, sizeof(buf));
			CHECK(p == -ENOTSUP || (p > 0 && (size_t)p == strlen(buf)),
			      "%s: print 0x%08x -> %d", t->name, w[0], p);
			printed += p > 0;
			p = sqk_format(f, &in, buf, 8); /* truncation */
			CHECK(p == -ENOTSUP || strlen(buf) < 8, "%s: truncated print", t->name);
		}
	}
	CHECK(ok > 1000 && refused > 1000 && printed > 100,
	      "fuzz spread: %u decoded, %u refused, %u printed", ok, refused, printed);
}

int main(void)
{
	for (unsigned gi = 0; gi < sizeof(goldens) / sizeof(goldens[0]); gi++)
		check_golden(&goldens[gi]);
	/* gfx10: vmcnt(0) does not count stores (vscnt does). */
	check_bad_release(KFDSIG_FAMILY_GFX10_1, 11, 0xbf8c3f70, "s_waitcnt vmcnt(0)");
	/* gfx11: the same, gfx11 field layout. */
	check_bad_release(KFDSIG_FAMILY_GFX11, 11, 0xbf8903f7, "s_waitcnt vmcnt(0)");
	/* gfx94x: buffer_wbl2 sc1 is agent scope. */
	check_bad_release(KFDSIG_FAMILY_GFX94X, 11, 0xe0a08000, "buffer_wbl2 sc1");
	/* gfx90a: a bare buffer_wbl2. */
	check_bad_release(KFDSIG_FAMILY_GFX90A, 11, 0xe0a00000, "bare buffer_wbl2");
	/* gfx12: global_wb scope:SCOPE_DEV (scope 2). */
	check_bad_release(KFDSIG_FAMILY_GFX12, 13, 0x00080000, "global_wb scope:SCOPE_DEV");
	/* gfx9: release replaced by s_nop. */
	check_bad_release(KFDSIG_FAMILY_GFX9, 11, 0xbf800000, "no release");
	check_fetch();
	check_stops();
	check_iv_context();
	fuzz();
	return t_result("emu_sq_golden");
}
