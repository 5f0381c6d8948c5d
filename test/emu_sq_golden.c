/* SPDX-License-Identifier: MIT */
/*
 * Emulated shader unit on hand-written golden programs: the kernel-argument
 * signal stub of each family as instruction words (LLVM 22 encodings of the
 * LLVM AMDGPUUsage "Memory Model" release sequences, written here as data), so the decoder and the
 * interpreter are checked without any LLVM tool. Also feeds random words
 * to the decoder and printer (no crash, only the documented errors).
 */
#include "emu_sq_util.h"

#define KERNARG_VA 0x10000ull
#define PAGE_VA 0x7f0000200000ull
#define CODE_VA 0x7f0000400000ull
#define SLOTS 4096

struct golden {
	enum kfdsig_family family;
	unsigned n; /* words */
	uint32_t w[24];
	enum sq_op ops[16]; /* expected op sequence, INVALID-terminated */
	uint32_t
		sq_mask; /* the kfd_signal_event_interrupt() calls of cik_event_interrupt.c and kfd_int_process_v9/v10/v11.c width */
};

#define SLOAD2 KFDSIG_SQ_OP_S_LOAD
#define VMOV KFDSIG_SQ_OP_V_MOV_B32
#define WAIT KFDSIG_SQ_OP_S_WAITCNT
#define STORE KFDSIG_SQ_OP_STORE
#define TAIL \
	KFDSIG_SQ_OP_S_MOV_B32, KFDSIG_SQ_OP_S_NOP, KFDSIG_SQ_OP_S_SENDMSG, KFDSIG_SQ_OP_S_ENDPGM

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
	  { SLOAD2, SLOAD2, VMOV, VMOV, WAIT, VMOV, VMOV, STORE, WAIT, TAIL },
	  0xff },
	/* gfx9: global_store_dwordx2 v[2:3], v[0:1], off; s_waitcnt vmcnt(0) */
	{ KFDSIG_FAMILY_GFX9,
	  16,
	  { 0xc0060080, 0x00000000, 0xc0020100, 0x00000008, 0x7e000281, 0x7e020280, 0xbf8cc07f,
	    0x7e040202, 0x7e060203, 0xdc748000, 0x007f0002, 0xbf8c0f70, 0xbefc0004, 0xbf800000,
	    0xbf900001, 0xbf810000 },
	  { SLOAD2, SLOAD2, VMOV, VMOV, WAIT, VMOV, VMOV, STORE, WAIT, TAIL },
	  0xffffff },
	/* gfx90a: + buffer_wbl2 glc scc (0xe0a0c000) before the wait */
	{ KFDSIG_FAMILY_GFX90A,
	  18,
	  { 0xc0060080, 0x00000000, 0xc0020100, 0x00000008, 0x7e000281, 0x7e020280, 0xbf8cc07f,
	    0x7e040202, 0x7e060203, 0xdc748000, 0x007f0002, 0xe0a0c000, 0x00000000, 0xbf8c0f70,
	    0xbefc0004, 0xbf800000, 0xbf900001, 0xbf810000 },
	  { SLOAD2, SLOAD2, VMOV, VMOV, WAIT, VMOV, VMOV, STORE, KFDSIG_SQ_OP_BUFFER_WBL2, WAIT,
	    TAIL },
	  0xffffff },
	/* gfx94x: store sc0 sc1 (0xde758000), buffer_wbl2 sc0 sc1 */
	{ KFDSIG_FAMILY_GFX94X,
	  18,
	  { 0xc0060080, 0x00000000, 0xc0020100, 0x00000008, 0x7e000281, 0x7e020280, 0xbf8cc07f,
	    0x7e040202, 0x7e060203, 0xde758000, 0x007f0002, 0xe0a0c000, 0x00000000, 0xbf8c0f70,
	    0xbefc0004, 0xbf800000, 0xbf900001, 0xbf810000 },
	  { SLOAD2, SLOAD2, VMOV, VMOV, WAIT, VMOV, VMOV, STORE, KFDSIG_SQ_OP_BUFFER_WBL2, WAIT,
	    TAIL },
	  0xffffff },
	/* gfx10.1: SMEM 0xf4.., soffset null 0x7d; s_waitcnt_vscnt null, 0
	 * (0xbbfd0000); s_mov_b32 is SOP1 op 3 (0xbefc0304) */
	{ KFDSIG_FAMILY_GFX10_1,
	  16,
	  { 0xf4040080, 0xfa000000, 0xf4000100, 0xfa000008, 0x7e000281, 0x7e020280, 0xbf8cc07f,
	    0x7e040202, 0x7e060203, 0xdc748000, 0x007d0002, 0xbbfd0000, 0xbefc0304, 0xbf800000,
	    0xbf900001, 0xbf810000 },
	  { SLOAD2, SLOAD2, VMOV, VMOV, WAIT, VMOV, VMOV, STORE, KFDSIG_SQ_OP_S_WAITCNT_VSCNT,
	    TAIL },
	  0x7fffff },
	{ KFDSIG_FAMILY_GFX10_3,
	  16,
	  { 0xf4040080, 0xfa000000, 0xf4000100, 0xfa000008, 0x7e000281, 0x7e020280, 0xbf8cc07f,
	    0x7e040202, 0x7e060203, 0xdc748000, 0x007d0002, 0xbbfd0000, 0xbefc0304, 0xbf800000,
	    0xbf900001, 0xbf810000 },
	  { SLOAD2, SLOAD2, VMOV, VMOV, WAIT, VMOV, VMOV, STORE, KFDSIG_SQ_OP_S_WAITCNT_VSCNT,
	    TAIL },
	  0x7fffff },
	/* gfx11: s_waitcnt lgkmcnt(0) = 0xbf89fc07; global_store_b64 0xdc6e0000;
	 * s_waitcnt_vscnt null, 0 = 0xbc7c0000; m0 = 125 (0xbefd0004);
	 * s_sendmsg 0xbfb60001; s_endpgm 0xbfb00000 */
	{ KFDSIG_FAMILY_GFX11,
	  16,
	  { 0xf4040080, 0xf8000000, 0xf4000100, 0xf8000008, 0x7e000281, 0x7e020280, 0xbf89fc07,
	    0x7e040202, 0x7e060203, 0xdc6e0000, 0x007c0002, 0xbc7c0000, 0xbefd0004, 0xbf800000,
	    0xbfb60001, 0xbfb00000 },
	  { SLOAD2, SLOAD2, VMOV, VMOV, WAIT, VMOV, VMOV, STORE, KFDSIG_SQ_OP_S_WAITCNT_VSCNT,
	    TAIL },
	  0xffffff },
	/* gfx12: s_wait_kmcnt 0; global_store_b64 ... scope:SCOPE_SYS (96 bits);
	 * global_wb scope:SCOPE_SYS; s_wait_storecnt 0 */
	{ KFDSIG_FAMILY_GFX12,
	  20,
	  { 0xf4002080, 0xf8000000, 0xf4000100, 0xf8000008, 0x7e000281, 0x7e020280, 0xbfc70000,
	    0x7e040202, 0x7e060203, 0xee06c07c, 0x000c0000, 0x00000002, 0xee0b007c, 0x000c0000,
	    0x00000000, 0xbfc10000, 0xbefd0004, 0xbf800000, 0xbfb60001, 0xbfb00000 },
	  { SLOAD2, SLOAD2, VMOV, VMOV, KFDSIG_SQ_OP_S_WAIT_KMCNT, VMOV, VMOV, STORE,
	    KFDSIG_SQ_OP_GLOBAL_WB, KFDSIG_SQ_OP_S_WAIT_STORECNT, TAIL },
	  0xffffff },
};

static const uint32_t ids[] = { 1, 255, 256, 4095 };

static int find_store(const struct sq_report *rep)
{
	for (unsigned i = 0; i < rep->nevents; i++)
		if (rep->ev[i].kind == KFDSIG_SQ_EV_STORE)
			return (int)i;
	return 0;
}

static int run(const struct kfdsig_target *t, const uint32_t *code, unsigned nwords, uint32_t id,
	       struct sq_report *rep, uint64_t **page_out, struct sqt_mem *mem)
{
	uint64_t slot = PAGE_VA + 8ull * id;
	uint32_t sgprs[2] = { (uint32_t)KERNARG_VA, 0 };
	uint8_t *ka;
	struct sq_env env = { mem, sqt_read, sqt_write, NULL };
	struct sq_wave w = { .target = t,
			     .code = code,
			     .code_size = 4u * nwords,
			     .code_va = CODE_VA,
			     .entry_va = CODE_VA,
			     .sgprs = sgprs,
			     .num_sgprs = 2,
			     .wave_size = t->level >= KFDSIG_GFX10 ? 32 : 64 };

	memset(mem, 0, sizeof(*mem));
	ka = sqt_map(mem, KERNARG_VA, 16, 0);
	memcpy(ka, &slot, 8);
	memcpy(ka + 8, &id, 4);
	*page_out = (uint64_t *)sqt_map(mem, PAGE_VA, SLOTS * 8, 0xff);
	return sq_run(&w, &env, rep);
}

static void check_golden(const struct golden *g)
{
	for (size_t ti = 0; ti < kfdsig_target_count(); ti++) {
		const struct kfdsig_target *t = kfdsig_target_at(ti);
		uint64_t pc = CODE_VA;
		unsigned i = 0;

		if (t->family != g->family)
			continue;
		/* Decoded op sequence. */
		while (g->ops[i] != KFDSIG_SQ_OP_INVALID) {
			struct sq_insn in;
			int r = sq_decode(t, g->w, 4u * (g->n), CODE_VA, pc, &in);

			CHECK(r > 0, "%s: decode at 0x%llx: %s", t->name, (unsigned long long)pc,
			      kfdsig_last_error());
			if (r <= 0)
				break;
			CHECK_EQ(in.op, g->ops[i], "%s: op %u", t->name, i);
			pc += (unsigned)r;
			i++;
		}
		CHECK_EQ(pc, CODE_VA + 4u * (g->n), "%s: program length", t->name);

		for (unsigned k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
			struct sq_report rep;
			struct sqt_mem mem;
			uint64_t *page;
			int r = run(t, g->w, g->n, ids[k], &rep, &page, &mem);
			unsigned other = 0, msgs = 0;

			CHECK_EQ(r, 0, "%s id %u: %s", t->name, ids[k], rep.msg);
			CHECK_EQ(page[ids[k]], 1, "%s id %u: slot", t->name, ids[k]);
			for (unsigned s = 0; s < SLOTS; s++)
				other += s != ids[k] && page[s] != ~0ull;
			CHECK_EQ(other, 0, "%s: other slots", t->name);
			for (unsigned e = 0; e < rep.nevents; e++) {
				const struct sq_event *ev = &rep.ev[e];

				if (ev->kind != KFDSIG_SQ_EV_MSG)
					continue;
				msgs++;
				CHECK(ev->interrupt && ev->released && !ev->m0_hazard,
				      "%s id %u: message flags", t->name, ids[k]);
				CHECK_EQ(ev->m0, ids[k], "%s: m0", t->name);
				CHECK_EQ(ev->sq_data, ids[k] & g->sq_mask, "%s id %u: SQ data",
					 t->name, ids[k]);
			}
			CHECK_EQ(msgs, 1, "%s: messages", t->name);
			if (g->family == KFDSIG_FAMILY_GFX8 && ids[k] == 256)
				CHECK(rep.ev[rep.nevents - 2].sq_data == 0, "gfx8: 256 gives 0");
			sqt_mem_free(&mem);
		}
	}
}

/* Swap one release word of a golden program and expect a flag. */
static void check_bad_release(enum kfdsig_family fam, unsigned word, uint32_t repl,
			      const char *what)
{
	for (unsigned gi = 0; gi < sizeof(goldens) / sizeof(goldens[0]); gi++) {
		const struct golden *g = &goldens[gi];
		struct sq_report rep;
		struct sqt_mem mem;
		uint32_t w[24];
		uint64_t *page;
		const struct kfdsig_target *t = NULL;

		if (g->family != fam)
			continue;
		for (size_t ti = 0; ti < kfdsig_target_count() && !t; ti++)
			if (kfdsig_target_at(ti)->family == fam)
				t = kfdsig_target_at(ti);
		memcpy(w, g->w, sizeof(w));
		w[word] = repl;
		CHECK_EQ(run(t, w, g->n, 5, &rep, &page, &mem), 0, "%s: %s", what, rep.msg);
		CHECK(rep.nevents >= 2 && rep.ev[rep.nevents - 2].kind == KFDSIG_SQ_EV_MSG &&
			      !rep.ev[rep.nevents - 2].released,
		      "%s: %s must not release", t->name, what);
		sqt_mem_free(&mem);
	}
}

/* code == NULL: the unit fetches instructions through env->read, as the
 * CP does when it knows only COMPUTE_PGM_LO/HI. */
static void check_fetch_through_memory(void)
{
	const struct golden *g = &goldens[7]; /* gfx12: 96-bit stores */
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx1201");
	uint32_t sgprs[2] = { (uint32_t)KERNARG_VA, 0 };
	uint64_t slot = PAGE_VA + 8 * 4095, *page;
	uint32_t id = 4095;
	struct sq_report rep;
	struct sqt_mem mem = { 0 };
	struct sq_env env = { &mem, sqt_read, sqt_write, NULL };
	struct sq_wave w = { .target = t,
			     .entry_va = CODE_VA,
			     .sgprs = sgprs,
			     .num_sgprs = 2,
			     .wave_size = 32,
			     .exec = 1 };
	uint8_t *ka = sqt_map(&mem, KERNARG_VA, 16, 0), *code;

	CHECK_EQ(g->family, KFDSIG_FAMILY_GFX12, "golden order");
	memcpy(ka, &slot, 8);
	memcpy(ka + 8, &id, 4);
	page = (uint64_t *)sqt_map(&mem, PAGE_VA, SLOTS * 8, 0xff);
	/* Mapped exactly to the end of s_endpgm: the fetch must shrink. */
	code = sqt_map(&mem, CODE_VA, 4 * g->n, 0);
	memcpy(code, g->w, 4 * g->n);
	CHECK_EQ(sq_run(&w, &env, &rep), 0, "fetch via read: %s", rep.msg);
	CHECK_EQ(page[4095], 1, "fetch via read: slot");
	CHECK(rep.nevents >= 2 && rep.ev[rep.nevents - 2].kind == KFDSIG_SQ_EV_MSG &&
		      rep.ev[rep.nevents - 2].sq_data == 4095 && rep.ev[rep.nevents - 2].released,
	      "fetch via read: message");
	CHECK_EQ(rep.ev[find_store(&rep)].lanes, 1, "EXEC of one lane");
	/* Cut the mapping inside the 96-bit store: an instruction-fetch fault. */
	mem.r[2].size = 4 * 10;
	CHECK_EQ(sq_run(&w, &env, &rep), -EFAULT, "cut code");
	CHECK(rep.fault && !rep.fault_write && rep.fault_va == CODE_VA + 40,
	      "fetch fault at 0x%llx", (unsigned long long)rep.fault_va);
	CHECK(strstr(rep.msg, "instruction fetch at 0x7f0000400024") != NULL, "%s", rep.msg);
	sqt_mem_free(&mem);
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

		for (unsigned i = 0; i < sizeof(m0s) / sizeof(m0s[0]); i++) {
			uint32_t c0 = 0, c1 = 0, data = 0, enc = 0, priv = 0;

			CHECK_EQ(sq_iv_context(t, m0s[i], &c0, &c1), 0, "iv context");
			switch (t->level) {
			case KFDSIG_GFX8:
				data = c0 & 0xff;
				enc = 1; /* not in the CIK handler */
				break;
			case KFDSIG_GFX9:
				data = (c0 & 0xfff) | ((c0 >> 16) & 0xf000) |
				       ((c1 << 16) & 0xff0000);
				enc = (c0 >> 26) & 3;
				priv = (c0 >> 13) & 1;
				break;
			case KFDSIG_GFX10:
			case KFDSIG_GFX10_3:
				data = c0 & 0x7fffff;
				enc = (c1 >> 6) & 3;
				priv = (c0 >> 24) & 1;
				break;
			default:
				data = c0 & 0xffffff;
				enc = (c1 >> 6) & 3;
				priv = (c0 >> 26) & 1;
				break;
			}
			CHECK_EQ(data, m0s[i] & mask[t->level], "%s: IV data of m0 0x%x", t->name,
				 m0s[i]);
			CHECK_EQ(enc, 1, "%s: ENCODING INST", t->name);
			CHECK_EQ(priv, 0, "%s: PRIV", t->name);
		}
	}
	CHECK_EQ(sq_iv_context(NULL, 1, NULL, NULL), -EINVAL, "NULL");
}

/* Random words: decode and print never crash and only fail as documented. */
static void fuzz(void)
{
	uint32_t seed = 0x12345678u;
	unsigned ok = 0, refused = 0;

	for (size_t ti = 0; ti < kfdsig_target_count(); ti++) {
		const struct kfdsig_target *t = kfdsig_target_at(ti);

		for (unsigned i = 0; i < 20000; i++) {
			uint32_t w[4];
			struct sq_insn in;
			char buf[128];
			int r;

			for (unsigned j = 0; j < 4; j++) {
				seed = seed * 1664525u + 1013904223u;
				w[j] = seed;
			}
			/* Bias half of them towards the implemented encodings. */
			if (i & 1)
				w[0] = (w[0] & 0x03ffffff) |
				       ((uint32_t)(0x2f + (i / 2) % 16) << 26);
			r = sq_decode(t, w, 4u * (1 + i % 4), 0, 0, &in);
			CHECK(r > 0 || r == -ENOTSUP || r == -EFAULT, "%s: decode 0x%08x -> %d",
			      t->name, w[0], r);
			if (r > 0) {
				ok++;
				CHECK(r <= 16 && r % 4 == 0, "size %d", r);
				sq_format(t, &in, buf, sizeof(buf));
				sq_format(t, &in, buf, 8); /* truncation */
			} else if (r == -ENOTSUP) {
				refused++;
			}
		}
	}
	CHECK(ok > 1000 && refused > 1000, "fuzz spread: %u decoded, %u refused", ok, refused);
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
	check_fetch_through_memory();
	check_iv_context();
	fuzz();
	return t_result("emu_sq_golden");
}
