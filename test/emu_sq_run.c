/* SPDX-License-Identifier: MIT */
/*
 * Emulated shader unit, execution: run the signal stubs of every family
 * (the real sources from src/shaders when present, and this test's own
 * per-family programs written from LLVM AMDGPUUsage "Memory Model" and SIDefines.h SendMsg) on every target with
 * event ids 1, 255, 256 and 4095, and check
 *   - the 64-bit value 1 lands in signal_page[id] and nothing else moves;
 *   - the s_sendmsg carries the full id in m0 and the SQ interrupt data is
 *     m0 cut to the generation's width (golden widths below, written from
 *     the kfd_signal_event_interrupt() calls of cik_event_interrupt.c and kfd_int_process_v9/v10/v11.c, not read from the table): 256 on gfx8 gives 0;
 *   - the store is ordered before the message and released at system
 *     scope; variants without the release (or with the wrong one for the
 *     generation) are flagged;
 *   - a stub whose m0 is id & 0xff reports the truncated id;
 *   - an unimplemented instruction is refused with its address, a store to
 *     an unmapped address faults, an SGPR read before its load was waited
 *     for is an error.
 * Skips (77) without LLVM 22.
 */
#include "emu_sq_util.h"

#define KERNARG_VA 0x7f0000010000ull
#define PAGE_VA 0x7f0000200000ull
#define PAGE_SLOTS 4096
#define UNMAPPED_VA 0x7f0000900000ull
#define CODE_VA 0x7f0000400000ull

static const uint32_t ids[] = { 1, 255, 256, 4095 };

/* Golden SQ interrupt data width per family (the kfd_signal_event_interrupt() calls of cik_event_interrupt.c and kfd_int_process_v9/v10/v11.c): gfx8 8 bits
 * (cik data & 0xff), gfx9-family 24, gfx10.x 23, gfx11/gfx12 24. */
static uint32_t golden_sq_mask(enum kfdsig_family f)
{
	switch (f) {
	case KFDSIG_FAMILY_GFX8:
		return 0xff;
	case KFDSIG_FAMILY_GFX10_1:
	case KFDSIG_FAMILY_GFX10_3:
		return 0x7fffff;
	default:
		return 0xffffff;
	}
}

/* Each family's spelling of the stub pieces. */
struct syntax {
	enum kfdsig_family family;
	const char *ld64, *ld32; /* scalar loads */
	const char *wait_km;	 /* wait for the kernel-argument loads */
	const char *store;	 /* store of v[0:1] to v[2:3] */
	const char *release;	 /* the generation's system-scope release */
	/* Wrong releases that must be flagged (NULL: none for the family). */
	const char *bad[3];
};

static const struct syntax syntaxes[] = {
	{ KFDSIG_FAMILY_GFX8,
	  "s_load_dwordx2",
	  "s_load_dword",
	  "s_waitcnt lgkmcnt(0)",
	  "flat_store_dwordx2 v[2:3], v[0:1]",
	  "s_waitcnt vmcnt(0) lgkmcnt(0)",
	  /* a flat store also counts on lgkmcnt: our safe reading */
	  { "s_waitcnt lgkmcnt(0)", "s_waitcnt vmcnt(1)", "s_waitcnt vmcnt(0)" } },
	{ KFDSIG_FAMILY_GFX9,
	  "s_load_dwordx2",
	  "s_load_dword",
	  "s_waitcnt lgkmcnt(0)",
	  "global_store_dwordx2 v[2:3], v[0:1], off",
	  "s_waitcnt vmcnt(0)",
	  { "s_waitcnt lgkmcnt(0)", "s_waitcnt vmcnt(1)", NULL } },
	{ KFDSIG_FAMILY_GFX90A,
	  "s_load_dwordx2",
	  "s_load_dword",
	  "s_waitcnt lgkmcnt(0)",
	  "global_store_dwordx2 v[2:3], v[0:1], off",
	  ".long 0xe0a0c000, 0x00000000\ns_waitcnt vmcnt(0)",
	  { "s_waitcnt vmcnt(0)", ".long 0xe0a0c000, 0x00000000",
	    "buffer_wbl2\ns_waitcnt vmcnt(0)" } },
	{ KFDSIG_FAMILY_GFX94X,
	  "s_load_dwordx2",
	  "s_load_dword",
	  "s_waitcnt lgkmcnt(0)",
	  "global_store_dwordx2 v[2:3], v[0:1], off sc0 sc1",
	  "buffer_wbl2 sc0 sc1\ns_waitcnt vmcnt(0)",
	  { "s_waitcnt vmcnt(0)", "buffer_wbl2 sc0 sc1", "buffer_wbl2 sc1\ns_waitcnt vmcnt(0)" } },
	{ KFDSIG_FAMILY_GFX10_1,
	  "s_load_dwordx2",
	  "s_load_dword",
	  "s_waitcnt lgkmcnt(0)",
	  "global_store_dwordx2 v[2:3], v[0:1], off",
	  "s_waitcnt_vscnt null, 0x0",
	  /* stores are counted by vscnt from gfx10 */
	  { "s_waitcnt vmcnt(0)", "s_waitcnt_vscnt null, 0x1", NULL } },
	{ KFDSIG_FAMILY_GFX10_3,
	  "s_load_dwordx2",
	  "s_load_dword",
	  "s_waitcnt lgkmcnt(0)",
	  "global_store_dwordx2 v[2:3], v[0:1], off",
	  "s_waitcnt_vscnt null, 0x0",
	  { "s_waitcnt vmcnt(0)", "s_waitcnt_vscnt null, 0x1", NULL } },
	{ KFDSIG_FAMILY_GFX11,
	  "s_load_b64",
	  "s_load_b32",
	  "s_waitcnt lgkmcnt(0)",
	  "global_store_b64 v[2:3], v[0:1], off",
	  "s_waitcnt_vscnt null, 0x0",
	  { "s_waitcnt vmcnt(0)", "s_waitcnt_vscnt null, 0x1", NULL } },
	{ KFDSIG_FAMILY_GFX12,
	  "s_load_b64",
	  "s_load_b32",
	  "s_wait_kmcnt 0x0",
	  "global_store_b64 v[2:3], v[0:1], off scope:SCOPE_SYS",
	  "global_wb scope:SCOPE_SYS\ns_wait_storecnt 0x0",
	  { "s_wait_storecnt 0x0", "global_wb scope:SCOPE_SYS",
	    "global_wb scope:SCOPE_DEV\ns_wait_storecnt 0x0" } },
};

static const struct syntax *syntax_of(enum kfdsig_family f)
{
	for (unsigned i = 0; i < sizeof(syntaxes) / sizeof(syntaxes[0]); i++)
		if (syntaxes[i].family == f)
			return &syntaxes[i];
	return NULL;
}

static const char *mcpu_of(enum kfdsig_family f)
{
	for (unsigned i = 0; i < SQT_NFAMILIES; i++)
		if (sqt_families[i].family == f)
			return sqt_families[i].mcpu;
	return NULL;
}

/* Kernel-argument form: args {u64 slot_va; u32 id} at s[0:1].
 * pre_wait: text before the kernarg wait (e.g. an unknown instruction);
 * wait: the kernarg wait; release; m0: the m0 source; nop. */
static void kernarg_src(char *buf, size_t len, const struct syntax *sx, const char *wait,
			const char *extra, const char *release, const char *m0, bool nop)
{
	snprintf(buf, len,
		 "%s s[2:3], s[0:1], 0x0\n"
		 "%s s4, s[0:1], 0x8\n"
		 "v_mov_b32 v0, 1\n"
		 "v_mov_b32 v1, 0\n"
		 "%s\n"
		 "%s\n"
		 "v_mov_b32 v2, s2\n"
		 "v_mov_b32 v3, s3\n"
		 "%s\n"
		 "%s\n"
		 "s_mov_b32 m0, %s\n"
		 "%s"
		 "s_sendmsg sendmsg(MSG_INTERRUPT)\n"
		 "s_endpgm\n",
		 sx->ld64, sx->ld32, wait, extra, sx->store, release, m0, nop ? "s_nop 0\n" : "");
}

/* Raw form: slot address and m0 as literals; the message first when
 * msg_first (to show the order is reported as it happened). */
static void raw_src(char *buf, size_t len, const struct syntax *sx, uint64_t slot, uint32_t m0,
		    bool msg_first)
{
	char msg[96];

	snprintf(msg, sizeof(msg),
		 "s_mov_b32 m0, 0x%x\ns_nop 0\ns_sendmsg sendmsg(MSG_INTERRUPT)\n", m0);
	snprintf(buf, len,
		 "v_mov_b32 v0, 1\n"
		 "v_mov_b32 v1, 0\n"
		 "v_mov_b32 v2, 0x%x\n"
		 "v_mov_b32 v3, 0x%x\n"
		 "%s"
		 "%s\n"
		 "%s\n"
		 "%s"
		 "s_endpgm\n",
		 (uint32_t)slot, (uint32_t)(slot >> 32), msg_first ? msg : "", sx->store,
		 sx->release, msg_first ? "" : msg);
}

/* One run: memory with kernarg + signal page; code at CODE_VA. */
struct run {
	struct sqt_mem mem;
	uint64_t *page;
	struct sq_report rep;
	int ret;
	unsigned hook_calls;
	uint32_t hook_sq_data;
};

struct memctx {
	struct sqt_mem mem;
	struct run *run;
};

static int hook_read(void *ctx, uint64_t va, void *dst, uint32_t len)
{
	return sqt_read(&((struct memctx *)ctx)->mem, va, dst, len);
}

static int hook_write(void *ctx, uint64_t va, const void *src, uint32_t len)
{
	return sqt_write(&((struct memctx *)ctx)->mem, va, src, len);
}

static int hook_msg(void *ctx, const struct sq_event *ev)
{
	struct run *r = ((struct memctx *)ctx)->run;

	r->hook_calls++;
	r->hook_sq_data = ev->sq_data;
	return 0;
}

/* Run code (bytes at CODE_VA) from entry with the kernel arguments
 * {slot_va, id} mapped at KERNARG_VA. */
static void do_run(struct run *r, const struct kfdsig_target *t, const uint8_t *code, size_t size,
		   uint64_t entry_off, uint64_t slot_va, uint32_t id, unsigned wave_size)
{
	struct memctx mc;
	uint8_t *ka;
	uint32_t sgprs[2] = { (uint32_t)KERNARG_VA, (uint32_t)(KERNARG_VA >> 32) };
	struct sq_wave w = {
		.target = t,
		.code = code,
		.code_size = size,
		.code_va = CODE_VA,
		.entry_va = CODE_VA + entry_off,
		.sgprs = sgprs,
		.num_sgprs = 2,
		.wave_size = wave_size,
	};
	struct sq_env env = { &mc, hook_read, hook_write, hook_msg };

	memset(r, 0, sizeof(*r));
	memset(&mc, 0, sizeof(mc));
	mc.run = r;
	ka = sqt_map(&mc.mem, KERNARG_VA, 16, 0);
	memcpy(ka, &slot_va, 8);
	memcpy(ka + 8, &id, 4);
	r->page = (uint64_t *)sqt_map(&mc.mem, PAGE_VA, PAGE_SLOTS * 8, 0xff);
	r->ret = sq_run(&w, &env, &r->rep);
	r->mem = mc.mem; /* keep the page for the checks */
}

static int find_event(const struct sq_report *rep, enum sq_event_kind k)
{
	for (unsigned i = 0; i < rep->nevents; i++)
		if (rep->ev[i].kind == k)
			return (int)i;
	return -1;
}

static unsigned count_events(const struct sq_report *rep, enum sq_event_kind k)
{
	unsigned n = 0;

	for (unsigned i = 0; i < rep->nevents; i++)
		n += rep->ev[i].kind == k;
	return n;
}

/* The checks of a good signal: slot written, one released message with
 * the full id in m0 and the SQ data cut to the golden width. */
static void check_signal(const struct kfdsig_target *t, struct run *r, uint32_t id,
			 uint32_t want_m0, unsigned wave_size, const char *what)
{
	const struct sq_report *rep = &r->rep;
	int st = find_event(rep, KFDSIG_SQ_EV_STORE), msg = find_event(rep, KFDSIG_SQ_EV_MSG);
	uint32_t mask = golden_sq_mask(t->family);
	unsigned bad = 0;

	CHECK_EQ(r->ret, 0, "%s %s id %u: run failed: %s", t->name, what, id, rep->msg);
	CHECK(rep->ended, "%s %s id %u: no s_endpgm", t->name, what, id);
	CHECK_EQ(r->page[id], 1, "%s %s id %u: slot value", t->name, what, id);
	for (unsigned i = 0; i < PAGE_SLOTS; i++)
		bad += i != id && r->page[i] != ~0ull;
	CHECK_EQ(bad, 0, "%s %s id %u: other slots written", t->name, what, id);
	CHECK_EQ(count_events(rep, KFDSIG_SQ_EV_MSG), 1, "%s %s id %u: messages", t->name, what,
		 id);
	CHECK(st >= 0 && msg > st, "%s %s id %u: store (%d) must precede the message (%d)", t->name,
	      what, id, st, msg);
	if (st < 0 || msg < 0)
		return;
	CHECK_EQ(rep->ev[st].va, PAGE_VA + 8ull * id, "%s %s: store address", t->name, what);
	CHECK_EQ(rep->ev[st].bytes, 8, "%s %s: store size", t->name, what);
	CHECK_EQ(rep->ev[st].value, 1, "%s %s: store value", t->name, what);
	CHECK_EQ(rep->ev[st].lanes, wave_size, "%s %s: active lanes", t->name, what);
	CHECK_EQ(rep->ev[st].writes, 1, "%s %s: identical lanes coalesce", t->name, what);
	CHECK(rep->ev[msg].interrupt, "%s %s: not MSG_INTERRUPT", t->name, what);
	CHECK_EQ(rep->ev[msg].msg_id, 1, "%s %s: message id", t->name, what);
	CHECK_EQ(rep->ev[msg].m0, want_m0, "%s %s id %u: m0", t->name, what, id);
	CHECK_EQ(rep->ev[msg].sq_data, want_m0 & mask, "%s %s id %u: SQ data", t->name, what, id);
	CHECK(rep->ev[msg].released, "%s %s id %u: store not released (event %d): %s", t->name,
	      what, id, rep->ev[msg].unreleased, rep->msg);
	CHECK(!rep->ev[msg].m0_hazard, "%s %s: m0 hazard", t->name, what);
	{
		uint32_t c0, c1;

		sq_iv_context(t, want_m0, &c0, &c1);
		CHECK(rep->ev[msg].ctx0 == c0 && rep->ev[msg].ctx1 == c1, "%s %s: IV context",
		      t->name, what);
	}
	CHECK_EQ(r->hook_calls, 1, "%s %s: message hook calls", t->name, what);
	CHECK_EQ(r->hook_sq_data, want_m0 & mask, "%s %s: hook saw the SQ data", t->name, what);
	CHECK_EQ(rep->ev[rep->nevents - 1].kind, KFDSIG_SQ_EV_END, "%s %s: last event", t->name,
		 what);
}

static unsigned wave_of(const struct kfdsig_target *t)
{
	return t->level >= KFDSIG_GFX10 ? 32 : 64;
}

/* Real stubs: both forms, every target of the family, every id. */
static void run_real_stub(const char *path, const char *mcpu, enum kfdsig_family fam)
{
	struct sqt_obj o;
	int64_t co, raw, plo, phi, pid;

	if (sqt_assemble_file(path, mcpu, &o)) {
		CHECK(0, "could not assemble %s", path);
		return;
	}
	co = sqt_sym(&o, "kfdsig_signal");
	raw = sqt_sym(&o, "kfdsig_signal_raw");
	plo = sqt_sym(&o, "kfdsig_patch_slot_lo");
	phi = sqt_sym(&o, "kfdsig_patch_slot_hi");
	pid = sqt_sym(&o, "kfdsig_patch_event_id");
	CHECK(co >= 0 && raw >= 0 && plo >= 4 && phi >= 4 && pid >= 4, "%s: stub symbols missing",
	      path);
	if (co < 0 || raw < 0 || plo < 4 || phi < 4 || pid < 4) {
		sqt_obj_free(&o);
		return;
	}
	for (size_t ti = 0; ti < kfdsig_target_count(); ti++) {
		const struct kfdsig_target *t = kfdsig_target_at(ti);

		if (t->family != fam)
			continue;
		for (unsigned k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
			uint64_t slot = PAGE_VA + 8ull * ids[k];
			uint32_t lo = (uint32_t)slot, hi = (uint32_t)(slot >> 32);
			uint8_t *patched = malloc(o.size);
			struct run r;

			do_run(&r, t, o.text, o.size, (uint64_t)co, slot, ids[k], wave_of(t));
			check_signal(t, &r, ids[k], ids[k], wave_of(t), "stub");
			sqt_mem_free(&r.mem);

			/* The raw blob: literals end at the patch labels. */
			memcpy(patched, o.text, o.size);
			memcpy(patched + plo - 4, &lo, 4);
			memcpy(patched + phi - 4, &hi, 4);
			memcpy(patched + pid - 4, &ids[k], 4);
			do_run(&r, t, patched, o.size, (uint64_t)raw, 0, 0, wave_of(t));
			check_signal(t, &r, ids[k], ids[k], wave_of(t), "raw stub");
			sqt_mem_free(&r.mem);
			free(patched);
		}
	}
	sqt_obj_free(&o);
}

/* Assemble src for the family and run it. */
static int run_src(struct run *r, const struct kfdsig_target *t, const char *src, uint64_t slot,
		   uint32_t id, struct sqt_obj *keep)
{
	struct sqt_obj o;

	if (sqt_assemble(src, mcpu_of(t->family), &o)) {
		CHECK(0, "%s: could not assemble:\n%s", t->name, src);
		memset(r, 0, sizeof(*r));
		return -1;
	}
	do_run(r, t, o.text, o.size, 0, slot, id, wave_of(t));
	if (keep)
		*keep = o;
	else
		sqt_obj_free(&o);
	return 0;
}

static void run_family_cases(const struct kfdsig_target *t)
{
	const struct syntax *sx = syntax_of(t->family);
	char src[2048];
	struct run r;

	/* Our own reference program: good for every id. */
	for (unsigned k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
		kernarg_src(src, sizeof(src), sx, sx->wait_km, "", sx->release, "s4", true);
		if (run_src(&r, t, src, PAGE_VA + 8ull * ids[k], ids[k], NULL) == 0)
			check_signal(t, &r, ids[k], ids[k], wave_of(t), "reference");
		sqt_mem_free(&r.mem);

		/* m0 = id & 0xff (the 8-bit-m0 bug): the store still lands
		 * at the full id, the message carries the truncated id. */
		raw_src(src, sizeof(src), sx, PAGE_VA + 8ull * ids[k], ids[k] & 0xff, false);
		if (run_src(&r, t, src, 0, 0, NULL) == 0) {
			int m = find_event(&r.rep, KFDSIG_SQ_EV_MSG);

			check_signal(t, &r, ids[k], ids[k] & 0xff, wave_of(t), "m0 & 0xff");
			if (m >= 0 && ids[k] > 0xff)
				CHECK(r.rep.ev[m].sq_data != ids[k], "%s: truncated id %u passed",
				      t->name, ids[k]);
		}
		sqt_mem_free(&r.mem);
	}

	/* gfx8: 256 reaches KFD as 0 (hand-written expectation). */
	if (t->family == KFDSIG_FAMILY_GFX8) {
		kernarg_src(src, sizeof(src), sx, sx->wait_km, "", sx->release, "s4", true);
		if (run_src(&r, t, src, PAGE_VA + 8 * 256, 256, NULL) == 0) {
			int m = find_event(&r.rep, KFDSIG_SQ_EV_MSG);

			CHECK(m >= 0 && r.rep.ev[m].m0 == 256 && r.rep.ev[m].sq_data == 0,
			      "%s: id 256 must give SQ data 0", t->name);
		}
		sqt_mem_free(&r.mem);
	}

	/* No release at all: flagged, pointing at the store. */
	kernarg_src(src, sizeof(src), sx, sx->wait_km, "", "", "s4", true);
	if (run_src(&r, t, src, PAGE_VA + 8, 1, NULL) == 0) {
		int m = find_event(&r.rep, KFDSIG_SQ_EV_MSG);
		int st = find_event(&r.rep, KFDSIG_SQ_EV_STORE);

		CHECK_EQ(r.ret, 0, "%s: no-release run: %s", t->name, r.rep.msg);
		CHECK(m >= 0 && !r.rep.ev[m].released, "%s: missing release not flagged", t->name);
		CHECK(m >= 0 && r.rep.ev[m].unreleased == st, "%s: unreleased store index",
		      t->name);
		CHECK_EQ(r.page[1], 1, "%s: the store itself still lands", t->name);
	}
	sqt_mem_free(&r.mem);

	/* The wrong release for the generation: flagged too. */
	for (unsigned b = 0; b < 3; b++) {
		if (!sx->bad[b])
			continue;
		kernarg_src(src, sizeof(src), sx, sx->wait_km, "", sx->bad[b], "s4", true);
		if (run_src(&r, t, src, PAGE_VA + 8, 1, NULL) == 0) {
			int m = find_event(&r.rep, KFDSIG_SQ_EV_MSG);

			CHECK_EQ(r.ret, 0, "%s: run: %s", t->name, r.rep.msg);
			CHECK(m >= 0 && !r.rep.ev[m].released,
			      "%s: release '%s' must not count as a system-scope release", t->name,
			      sx->bad[b]);
		}
		sqt_mem_free(&r.mem);
	}

	/* Message before the store: the log keeps program order. */
	raw_src(src, sizeof(src), sx, PAGE_VA + 8 * 7, 7, true);
	if (run_src(&r, t, src, 0, 0, NULL) == 0) {
		int m = find_event(&r.rep, KFDSIG_SQ_EV_MSG);
		int st = find_event(&r.rep, KFDSIG_SQ_EV_STORE);

		CHECK(m >= 0 && st > m, "%s: message (%d) must be logged before the store (%d)",
		      t->name, m, st);
		CHECK_EQ(r.page[7], 1, "%s: late store lands", t->name);
	}
	sqt_mem_free(&r.mem);

	/* gfx8/9: without the s_nop the m0 hazard is flagged. */
	kernarg_src(src, sizeof(src), sx, sx->wait_km, "", sx->release, "s4", false);
	if (run_src(&r, t, src, PAGE_VA + 8, 1, NULL) == 0) {
		int m = find_event(&r.rep, KFDSIG_SQ_EV_MSG);

		CHECK(m >= 0 && r.rep.ev[m].m0_hazard == (t->level <= KFDSIG_GFX9),
		      "%s: m0 hazard flag", t->name);
	}
	sqt_mem_free(&r.mem);

	/* Using the loaded SGPRs before waiting for the loads. */
	kernarg_src(src, sizeof(src), sx, "s_nop 0", "", sx->release, "s4", true);
	if (run_src(&r, t, src, PAGE_VA + 8, 1, NULL) == 0) {
		CHECK_EQ(r.ret, -EPROTO, "%s: SGPR read before the load wait", t->name);
		CHECK(strstr(r.rep.msg, "s2 read before the scalar load at") != NULL,
		      "%s: hazard message: %s", t->name, r.rep.msg);
		CHECK_EQ(count_events(&r.rep, KFDSIG_SQ_EV_MSG), 0, "%s: no message", t->name);
	}
	sqt_mem_free(&r.mem);

	/* An unimplemented instruction: refused with its address. */
	kernarg_src(src, sizeof(src), sx, sx->wait_km,
		    t->level >= KFDSIG_GFX12 ? "s_add_co_u32 s5, s5, 1" : "s_add_u32 s5, s5, 1",
		    sx->release, "s4", true);
	{
		struct sqt_obj o;

		if (run_src(&r, t, src, PAGE_VA + 8, 1, &o) == 0) {
			char want[48];
			/* it follows 2 loads (8 bytes each), 2 v_mov, the wait */
			uint64_t at = CODE_VA + 8 + 8 + 4 + 4 + 4;

			snprintf(want, sizeof(want), "at 0x%llx:", (unsigned long long)at);
			CHECK_EQ(r.ret, -ENOTSUP, "%s: unknown instruction", t->name);
			CHECK_EQ(r.rep.pc, at, "%s: failing pc", t->name);
			CHECK(strstr(r.rep.msg, want) != NULL, "%s: message '%s' lacks '%s'",
			      t->name, r.rep.msg, want);
			CHECK(strstr(r.rep.msg, "SOP2") != NULL,
			      "%s: message names the encoding: %s", t->name, r.rep.msg);
			CHECK_EQ(r.page[1], ~0ull, "%s: nothing stored", t->name);
			CHECK_EQ(count_events(&r.rep, KFDSIG_SQ_EV_MSG), 0, "%s: no message",
				 t->name);
			sqt_obj_free(&o);
		}
		sqt_mem_free(&r.mem);
	}

	/* A store to an unmapped address faults; no message follows. */
	kernarg_src(src, sizeof(src), sx, sx->wait_km, "", sx->release, "s4", true);
	if (run_src(&r, t, src, UNMAPPED_VA, 1, NULL) == 0) {
		CHECK_EQ(r.ret, -EFAULT, "%s: store fault", t->name);
		CHECK(r.rep.fault && r.rep.fault_write, "%s: fault flags", t->name);
		CHECK_EQ(r.rep.fault_va, UNMAPPED_VA, "%s: fault address", t->name);
		CHECK(strstr(r.rep.msg, "memory fault: store to") != NULL, "%s: %s", t->name,
		      r.rep.msg);
		CHECK_EQ(count_events(&r.rep, KFDSIG_SQ_EV_MSG), 0, "%s: no message after fault",
			 t->name);
	}
	sqt_mem_free(&r.mem);
}

/* Argument checks, limits and the loads' own faults, on one target. */
static void misc_cases(void)
{
	const struct kfdsig_target *t9 = kfdsig_target_by_name("gfx906");
	const struct kfdsig_target *t10 = kfdsig_target_by_name("gfx1030");
	const uint32_t endpgm9[] = { 0xbf800000, 0xbf810000 }; /* s_nop 0; s_endpgm */
	const uint32_t nop_only[] = { 0xbf800000, 0xbf800000 };
	const uint32_t code_end10[] = { 0xbf800000, 0xbf9f0000 }; /* s_nop 0; s_code_end */
	/* s_load_dword s4, s[0:1], 0x8 ; s_endpgm */
	const uint32_t load9[] = { 0xc0020100, 0x00000008, 0xbf810000 };
	struct sqt_mem mem = { 0 };
	struct sq_env env = { &mem, sqt_read, sqt_write, NULL };
	struct sq_wave w = { .target = t9,
			     .code = endpgm9,
			     .code_size = sizeof(endpgm9),
			     .code_va = CODE_VA,
			     .entry_va = CODE_VA,
			     .wave_size = 64 };
	struct sq_report rep;
	uint32_t sgprs[2] = { 0x1000, 0 };

	CHECK_EQ(sq_run(&w, &env, &rep), 0, "nop+endpgm: %s", rep.msg);
	CHECK(rep.ended && rep.insns == 2 && rep.pc == CODE_VA + 4, "endpgm report");
	w.wave_size = 32;
	CHECK_EQ(sq_run(&w, &env, &rep), -EINVAL, "wave32 on gfx9");
	CHECK(strstr(rep.msg, "wave32") != NULL, "wave32 message: %s", rep.msg);
	w.wave_size = 64;
	w.entry_va = CODE_VA + 8;
	CHECK_EQ(sq_run(&w, &env, &rep), -EINVAL, "entry past the code");
	w.entry_va = CODE_VA;
	w.code = nop_only;
	CHECK_EQ(sq_run(&w, &env, &rep), -EPROTO, "ran off the code");
	CHECK(strstr(rep.msg, "ran off the code buffer at 0x7f0000400008") != NULL, "%s", rep.msg);
	w.max_insns = 1;
	CHECK_EQ(sq_run(&w, &env, &rep), -ELOOP, "instruction budget");
	w.max_insns = 0;
	w.target = t10;
	w.code = code_end10;
	CHECK_EQ(sq_run(&w, &env, &rep), -EPROTO, "s_code_end executed");
	CHECK(strstr(rep.msg, "s_code_end executed") != NULL, "%s", rep.msg);
	/* Scalar load from an unmapped kernarg pointer. */
	w.target = t9;
	w.code = load9;
	w.code_size = sizeof(load9);
	w.sgprs = sgprs;
	w.num_sgprs = 2;
	CHECK_EQ(sq_run(&w, &env, &rep), -EFAULT, "load fault");
	CHECK(rep.fault && !rep.fault_write && rep.fault_va == 0x1008, "load fault report");
	sqt_map(&mem, 0x1000, 16, 0x5a);
	CHECK_EQ(sq_run(&w, &env, &rep), 0, "load: %s", rep.msg);
	CHECK(rep.nevents == 2 && rep.ev[0].kind == KFDSIG_SQ_EV_LOAD &&
		      rep.ev[0].value == 0x5a5a5a5a && rep.ev[0].va == 0x1008,
	      "load event");
	CHECK_EQ(sq_run(NULL, &env, &rep), -EINVAL, "NULL wave");
	CHECK_EQ(sq_run(&w, NULL, &rep), -EINVAL, "NULL env");
	CHECK_EQ(sq_run(&w, &env, NULL), -EINVAL, "NULL report");
	sqt_mem_free(&mem);
	CHECK(!strcmp(sq_event_name(KFDSIG_SQ_EV_MSG), "msg"), "event name");
	CHECK(!strcmp(sq_scope_name(KFDSIG_SQ_SCOPE_SYS), "sys"), "scope name");
}

/* Partial EXEC and wave64 on gfx10+: lanes follow EXEC. */
static void exec_cases(void)
{
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx1100");
	const struct syntax *sx = syntax_of(t->family);
	char src[2048];
	struct sqt_obj o;
	struct sqt_mem mem = { 0 };
	struct sq_report rep;

	raw_src(src, sizeof(src), sx, PAGE_VA + 8 * 3, 3, false);
	if (sqt_assemble(src, "gfx1100", &o)) {
		CHECK(0, "assemble exec case");
		return;
	}
	uint64_t *page = (uint64_t *)sqt_map(&mem, PAGE_VA, PAGE_SLOTS * 8, 0xff);
	struct sq_env env = { &mem, sqt_read, sqt_write, NULL };
	struct sq_wave w = { .target = t,
			     .code = o.text,
			     .code_size = o.size,
			     .code_va = CODE_VA,
			     .entry_va = CODE_VA,
			     .wave_size = 64,
			     .exec = 0x5 };

	CHECK_EQ(sq_run(&w, &env, &rep), 0, "exec run: %s", rep.msg);
	int st = find_event(&rep, KFDSIG_SQ_EV_STORE);

	CHECK(st >= 0 && rep.ev[st].lanes == 2 && rep.ev[st].writes == 1, "exec lanes");
	CHECK_EQ(page[3], 1, "exec store");
	w.exec = 0;
	page[3] = ~0ull;
	CHECK_EQ(sq_run(&w, &env, &rep), 0, "wave64 run: %s", rep.msg);
	st = find_event(&rep, KFDSIG_SQ_EV_STORE);
	CHECK(st >= 0 && rep.ev[st].lanes == 64, "wave64 lanes");
	sqt_mem_free(&mem);
	sqt_obj_free(&o);
}

int main(void)
{
	char path[1200];
	bool any_real = false;

	if (!sqt_have_llvm()) {
		fprintf(stderr, "SKIP: LLVM 22 tools not found in " SQT_LLVM "\n");
		return T_EXIT_SKIP;
	}
	misc_cases();
	exec_cases();
	CHECK_EQ(SQT_NFAMILIES, (unsigned)KFDSIG_FAMILY_COUNT,
		 "every generation family has a stub source (src/shaders/stubs.cmake)");
	for (unsigned f = 0; f < SQT_NFAMILIES; f++) {
		const struct kfdsig_target *t = kfdsig_target_by_name(sqt_families[f].mcpu);

		CHECK(t != NULL, "no target %s", sqt_families[f].mcpu);
		if (!t)
			continue;
		run_family_cases(t);
		if (sqt_stub_path(sqt_families[f].src, path, sizeof(path))) {
			any_real = true;
			run_real_stub(path, sqt_families[f].mcpu, sqt_families[f].family);
		}
	}
	if (!any_real) {
		struct stat st;

		CHECK(stat(sqt_stub_dir(), &st) != 0, "%s exists but holds no stub sources",
		      sqt_stub_dir());
		fprintf(stderr,
			"note: real stubs not found in %s; reference programs only "
			"(set KFDSIG_STUB_DIR)\n",
			sqt_stub_dir());
	}
	return t_result("emu_sq_run");
}
