/* SPDX-License-Identifier: MIT */
/*
 * The kernel interpreter's release check (src/emu/sq/sqk_rel.c): an
 * s_sendmsg(MSG_INTERRUPT) sent while a store of its wave was not released
 * at system scope is reported, on every family the interpreter runs, on
 * the signal stubs and on code LLVM 22 compiles alike:
 *   - the real stubs (src/shaders, both forms, every target of the family,
 *     event ids 1, 255, 256 and 4095) store 1 in the slot, touch nothing
 *     else and send one released interrupt with the id in m0;
 *   - this test's programs, written from LLVM AMDGPUUsage "Memory Model"
 *     (the system-scope release of each generation: waits on gfx8-gfx11,
 *     buffer_wbl2 sc0 sc1 then the wait on gfx90a/gfx94x/gfx950,
 *     global_wb scope:SCOPE_SYS then s_wait_storecnt on gfx12): with the
 *     release, released; without it, or with a release that is not
 *     system scope or not waited for, reported, naming the s_sendmsg and
 *     the store; a message before the store is not; a store to an
 *     unmapped page faults before any message;
 *   - gfx8/gfx9: an s_sendmsg right after an SALU write of m0 is reported
 *     as the m0 hazard, and not after an s_nop;
 *   - gfx10/gfx11 atomics: one returning data is released by a vmcnt wait,
 *     not a vscnt one; one without return the other way round;
 *   - an SGPR read before the wait for the scalar load writing it is
 *     reported, naming the read and the load (none in the stubs, the
 *     programs with their waits, or llc's code), for each register the
 *     load writes (a range across s63/s64 too) and none past them, with
 *     more loads pending than the check keeps too;
 *   - kernels compiled by llc 22 -O2 from IR (a store, then a release
 *     fence at system scope or none, then llvm.amdgcn.s.sendmsg):
 *     released with the fence, reported without.
 * Skips (77) without LLVM 22.
 */
#include "emu_sq_util.h"

#include "emu/sq/sqk_exec.h"

#define KERNARG_VA 0x7f0000010000ull
#define PAGE_VA 0x7f0000200000ull
#define PAGE_SLOTS 4096
#define UNMAPPED_VA 0x7f0000900000ull
#define CODE_VA 0x7f0000400000ull

static const uint32_t ids[] = { 1, 255, 256, 4095 };

/* Each family's spelling of the programs' pieces. */
struct syntax {
	enum kfdsig_family family;
	const char *ld64, *ld32, *wait_km, *store, *release;
	const char *bad[3]; /* releases that are not system scope */
};

static const struct syntax syntaxes[] = {
	{ KFDSIG_FAMILY_GFX8,
	  "s_load_dwordx2",
	  "s_load_dword",
	  "s_waitcnt lgkmcnt(0)",
	  "flat_store_dwordx2 v[2:3], v[0:1]",
	  "s_waitcnt vmcnt(0) lgkmcnt(0)",
	  /* a FLAT store to memory counts on vmcnt only (what llc waits
	   * for after one to a global pointer) */
	  { "s_waitcnt lgkmcnt(0)", "s_waitcnt vmcnt(1)", NULL } },
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
	  /* buffer_wbl2 with glc and scc, as llc emits it */
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
	  /* stores count on vscnt from gfx10 */
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

/* ---- a dispatch of one wave on a small memory ----------------------- */

/* Run the code (@size bytes, loaded at CODE_VA) from @entry on a full
 * wave with the kernel arguments {slot_va, id}: in s[0:1] (@props 0, the
 * PM4 form), or where the kernel descriptor's user SGPRs @props
 * (kernel_code_properties, USER_SGPR_COUNT @user) put the pointer. */
static void do_run_kd(struct sqt_wave *r, const struct kfdsig_target *t, const uint8_t *code,
		      size_t size, uint64_t entry, uint64_t slot_va, uint32_t id, uint16_t props,
		      unsigned user, bool wave64, unsigned nlanes)
{
	const struct sqk_family *f = sqk_family_of(t->gfx_target_version);
	struct sqk_env env;
	uint32_t ud[16] = { (uint32_t)KERNARG_VA, (uint32_t)(KERNARG_VA >> 32) };
	struct sqk_dispatch d = { 0 };
	uint8_t *ka, *cp;
	unsigned lanes = t->level >= KFDSIG_GFX10 ? 32 : 64;
	bool w32 = lanes == 32;

	if (wave64) /* the other wave size of gfx10 on */
		w32 = false, lanes = 64;
	if (nlanes)
		lanes = nlanes;

	memset(r, 0, sizeof(*r));
	env = sqt_env(r, false);
	cp = sqt_map(&r->mem, CODE_VA, (uint32_t)((size + 4095) & ~4095ul), 0);
	memcpy(cp, code, size);
	ka = sqt_map(&r->mem, KERNARG_VA, 4096, 0);
	memcpy(ka, &slot_va, 8);
	memcpy(ka + 8, &id, 4);
	r->page = (uint64_t *)sqt_map(&r->mem, PAGE_VA, PAGE_SLOTS * 8, 0xff);
	r->page_slots = PAGE_SLOTS;
	d.fam = f;
	d.entry = CODE_VA + entry;
	d.rsrc1 = 1;	   /* 8 VGPRs */
	d.rsrc2 = 2u << 1; /* USER_SGPR_COUNT 2 */
	d.user_data = ud;
	if (props) {
		d.aql = true;
		d.props = props;
		d.kernarg = KERNARG_VA;
		d.rsrc2 = user << 1;
	}
	d.wave32 = w32;
	d.wg[0] = d.grid[0] = lanes;
	d.wg[1] = d.wg[2] = d.grid[1] = d.grid[2] = 1;
	r->rc = sqk_run(&d, &env, &r->res);
}

static void do_run(struct sqt_wave *r, const struct kfdsig_target *t, const uint8_t *code,
		   size_t size, uint64_t entry, uint64_t slot_va, uint32_t id)
{
	do_run_kd(r, t, code, size, entry, slot_va, id, 0, 0, false, 0);
}

/* The instruction at @pc of the code (decoded by the family's decoder). */
static unsigned op_at(const struct kfdsig_target *t, const uint8_t *code, size_t size, uint64_t pc)
{
	struct sqk_insn in;
	uint32_t w[3] = { 0 };
	uint64_t off = pc - CODE_VA;
	size_t n = off < size ? (size - off) / 4 : 0;

	if (!n)
		return K_INVALID;
	memcpy(w, code + off, (n > 3 ? 3 : n) * 4);
	return sqk_decode(sqk_family_of(t->gfx_target_version), w, n > 3 ? 3 : (unsigned)n, &in)
		       ? in.op
		       : K_INVALID;
}

/* A good signal: the slot holds 1, nothing else moved, one interrupt with
 * @m0, released, no m0 hazard. */
static void check_signal(const struct kfdsig_target *t, struct sqt_wave *r, uint32_t id,
			 uint32_t m0, const char *what)
{
	unsigned bad = 0;

	CHECK_EQ(r->rc, 0, "%s %s id %u: run failed: %s", t->name, what, id, r->res.msg);
	CHECK_EQ(r->page[id], 1, "%s %s id %u: slot value", t->name, what, id);
	for (unsigned i = 0; i < PAGE_SLOTS; i++)
		bad += i != id && r->page[i] != ~0ull;
	CHECK_EQ(bad, 0, "%s %s id %u: other slots written", t->name, what, id);
	CHECK(r->nmsg == 1 && r->res.interrupts == 1, "%s %s id %u: %u messages (%llu counted)",
	      t->name, what, id, r->nmsg, (unsigned long long)r->res.interrupts);
	CHECK_EQ(r->msg_m0, m0, "%s %s id %u: m0", t->name, what, id);
	CHECK_EQ(r->stored_at_msg, 1, "%s %s id %u: the store must precede the message", t->name,
		 what, id);
	CHECK(r->res.unreleased == 0 && r->nchk == 0,
	      "%s %s id %u: reported (%llu unreleased, %llu m0 hazards, kind %u at 0x%llx)",
	      t->name, what, id, (unsigned long long)r->res.unreleased,
	      (unsigned long long)r->res.m0_hazards, r->kind[0], (unsigned long long)r->pc[0]);
}

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

		if (t->family != fam || !sqk_family_of(t->gfx_target_version))
			continue;
		for (unsigned k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
			uint64_t slot = PAGE_VA + 8ull * ids[k];
			uint32_t lo = (uint32_t)slot, hi = (uint32_t)(slot >> 32);
			uint8_t *patched = malloc(o.size);
			struct sqt_wave r;

			do_run(&r, t, o.text, o.size, (uint64_t)co, slot, ids[k]);
			check_signal(t, &r, ids[k], ids[k], "stub");
			sqt_mem_free(&r.mem);
			memcpy(patched, o.text, o.size);
			memcpy(patched + plo - 4, &lo, 4);
			memcpy(patched + phi - 4, &hi, 4);
			memcpy(patched + pid - 4, &ids[k], 4);
			do_run(&r, t, patched, o.size, (uint64_t)raw, 0, 0);
			check_signal(t, &r, ids[k], ids[k], "raw stub");
			sqt_mem_free(&r.mem);
			free(patched);
		}
	}
	sqt_obj_free(&o);
}

/* ---- this test's programs, one object per family -------------------- */

enum {
	C_GOOD, /* the release: released */
	C_NONE, /* no release */
	C_BAD0, /* bad[0..2] */
	C_BAD1,
	C_BAD2,
	C_LATE,	  /* the message before the store */
	C_HAZARD, /* no s_nop between the m0 write and the message */
	C_M0LOW,  /* m0 = the id's low 8 bits */
	C_NOWAIT, /* the loaded SGPRs read before the wait for the loads */
	C_NCASES
};

/* Kernel-argument form: args {u64 slot_va; u32 id} at s[0:1]; @m0 the
 * instruction setting m0. */
static size_t kernarg_case(char *buf, size_t len, unsigned i, const struct syntax *sx,
			   const char *wait, const char *release, const char *m0, bool nop)
{
	return (size_t)snprintf(buf, len,
				"case%u:\n"
				"%s s[2:3], s[0:1], 0x0\n"
				"%s s4, s[0:1], 0x8\n"
				"v_mov_b32 v0, 1\n"
				"v_mov_b32 v1, 0\n"
				"%s\n"
				"v_mov_b32 v2, s2\n"
				"v_mov_b32 v3, s3\n"
				"%s\n"
				"%s\n"
				"%s\n"
				"%s"
				"s_sendmsg sendmsg(MSG_INTERRUPT)\n"
				"s_endpgm\n",
				i, sx->ld64, sx->ld32, wait, sx->store, release, m0,
				nop ? "s_nop 0\n" : "");
}

static void run_family_cases(const struct kfdsig_target *t, const char *mcpu)
{
	const struct syntax *sx = syntax_of(t->family);
	char *src = calloc(1, 16384), m0[32];
	size_t n = 0;
	struct sqt_obj o;

	if (!sx || !src) {
		CHECK(0, "%s: no syntax", t->name);
		free(src);
		return;
	}
	for (unsigned i = 0; i < C_NCASES; i++) {
		const char *rel = sx->release;

		if (i == C_NONE)
			rel = "";
		else if (i >= C_BAD0 && i <= C_BAD2)
			rel = sx->bad[i - C_BAD0] ? sx->bad[i - C_BAD0] : sx->release;
		/* C_M0LOW: m0 = id & 0xff */
		snprintf(m0, sizeof(m0), "%s",
			 i == C_M0LOW ? "s_and_b32 m0, s4, 0xff" : "s_mov_b32 m0, s4");
		if (i == C_LATE) {
			n += (size_t)snprintf(
				src + n, 16384 - n,
				"case%u:\n%s s[2:3], s[0:1], 0x0\n%s s4, s[0:1], 0x8\n"
				"v_mov_b32 v0, 1\nv_mov_b32 v1, 0\n%s\n"
				"v_mov_b32 v2, s2\nv_mov_b32 v3, s3\n"
				"s_mov_b32 m0, s4\ns_nop 0\n"
				"s_sendmsg sendmsg(MSG_INTERRUPT)\n%s\n%s\ns_endpgm\n",
				i, sx->ld64, sx->ld32, sx->wait_km, sx->store, sx->release);
			continue;
		}
		n += kernarg_case(src + n, 16384 - n, i, sx,
				  i == C_NOWAIT ? "s_nop 0" : sx->wait_km, rel, m0, i != C_HAZARD);
	}
	if (sqt_assemble(src, mcpu, &o)) {
		CHECK(0, "%s: could not assemble:\n%s", t->name, src);
		free(src);
		return;
	}
	free(src);
	for (unsigned i = 0; i < C_NCASES; i++) {
		char name[16];
		int64_t e;
		struct sqt_wave r;

		snprintf(name, sizeof(name), "case%u", i);
		e = sqt_sym(&o, name);
		CHECK(e >= 0, "%s: no %s", t->name, name);
		if (e < 0)
			continue;
		if (i >= C_BAD0 && i <= C_BAD2 && !sx->bad[i - C_BAD0])
			continue;
		for (unsigned k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
			uint32_t id = ids[k];

			if (k && i != C_GOOD && i != C_M0LOW)
				break;
			do_run(&r, t, o.text, o.size, (uint64_t)e, PAGE_VA + 8ull * id, id);
			switch (i) {
			case C_GOOD:
				check_signal(t, &r, id, id, "reference");
				if (k || t->level < KFDSIG_GFX10)
					break;
				/* wave64 from gfx10 on, whole and with 3 lanes */
				for (unsigned v = 0; v < 2; v++) {
					sqt_mem_free(&r.mem);
					do_run_kd(&r, t, o.text, o.size, (uint64_t)e,
						  PAGE_VA + 8ull * id, id, 0, 0, true, v ? 3 : 0);
					check_signal(t, &r, id, id,
						     v ? "wave64, 3 lanes" : "wave64");
				}
				break;
			case C_M0LOW:
				check_signal(t, &r, id, id & 0xff, "m0 & 0xff");
				break;
			case C_LATE:
				CHECK(r.rc == 0 && r.page[id] == 1 && r.nmsg == 1,
				      "%s: late store: rc %d slot %llx msgs %u: %s", t->name, r.rc,
				      (unsigned long long)r.page[id], r.nmsg, r.res.msg);
				CHECK(r.res.unreleased == 0 && r.nchk == 0,
				      "%s: a store after the message is not reported", t->name);
				CHECK_EQ(r.stored_at_msg, 0,
					 "%s: the message goes before the late store", t->name);
				break;
			case C_HAZARD: {
				bool want = t->level <= KFDSIG_GFX9;

				CHECK(r.rc == 0 && r.page[id] == 1, "%s: hazard run: %s", t->name,
				      r.res.msg);
				CHECK_EQ(r.res.m0_hazards, want ? 1u : 0u, "%s: m0 hazard count",
					 t->name);
				CHECK_EQ(r.res.unreleased, 0, "%s: hazard case released", t->name);
				if (want)
					CHECK(r.nchk == 1 && r.kind[0] == SQK_CHECK_M0_HAZARD &&
						      op_at(t, o.text, o.size, r.pc[0]) ==
							      K_s_sendmsg &&
						      r.res.m0_hazard_pc == r.pc[0],
					      "%s: the hazard names the s_sendmsg", t->name);
				break;
			}
			case C_NOWAIT:
				/* v_mov_b32 v2, s2 reads the load's s2: reported,
				 * naming the read and the load; the run goes on */
				CHECK(r.rc == 0 && r.res.sgpr_unwaited >= 1 && r.nchk >= 1 &&
					      r.kind[0] == SQK_CHECK_SGPR_UNWAITED,
				      "%s: SGPR read before the load wait: rc %d, %llu reports",
				      t->name, r.rc, (unsigned long long)r.res.sgpr_unwaited);
				CHECK(op_at(t, o.text, o.size, r.pc[0]) == K_v_mov_b32 &&
					      r.pc[0] == r.res.sgpr_unwaited_pc,
				      "%s: the report names the read (0x%llx)", t->name,
				      (unsigned long long)r.pc[0]);
				CHECK(r.store_pc[0] == CODE_VA + e &&
					      r.res.sgpr_unwaited_load_pc == CODE_VA + e,
				      "%s: the report names the load writing s[2:3] (0x%llx)",
				      t->name, (unsigned long long)r.store_pc[0]);
				break;
			default: /* C_NONE, C_BAD*: reported, naming both */
				CHECK(r.rc == 0 && r.page[id] == 1 && r.nmsg == 1,
				      "%s case %u: run: rc %d: %s", t->name, i, r.rc, r.res.msg);
				CHECK(r.res.unreleased == 1 && r.res.interrupts == 1,
				      "%s: release '%s' must be reported (%llu)", t->name,
				      i == C_NONE ? "(none)" : sx->bad[i - C_BAD0],
				      (unsigned long long)r.res.unreleased);
				CHECK(r.nchk == 1 && r.kind[0] == SQK_CHECK_UNRELEASED &&
					      r.pc[0] == r.res.unreleased_pc &&
					      r.store_pc[0] == r.res.unreleased_store_pc,
				      "%s case %u: the hook and the result agree", t->name, i);
				CHECK(op_at(t, o.text, o.size, r.pc[0]) == K_s_sendmsg,
				      "%s case %u: the report names the s_sendmsg (0x%llx)",
				      t->name, i, (unsigned long long)r.pc[0]);
				CHECK(sqk_mem_kind(op_at(t, o.text, o.size, r.store_pc[0])) == 2,
				      "%s case %u: the report names the store (0x%llx)", t->name, i,
				      (unsigned long long)r.store_pc[0]);
				break;
			}
			sqt_mem_free(&r.mem);
		}
	}
	/* a store to an unmapped page faults; no message follows */
	{
		struct sqt_wave r;

		do_run(&r, t, o.text, o.size, (uint64_t)sqt_sym(&o, "case0"), UNMAPPED_VA, 1);
		CHECK(r.rc == -EFAULT && r.res.fault_va == UNMAPPED_VA && r.res.fault_write,
		      "%s: store fault: rc %d at 0x%llx", t->name, r.rc,
		      (unsigned long long)r.res.fault_va);
		CHECK(r.nmsg == 0 && r.res.interrupts == 0, "%s: no message after the fault",
		      t->name);
		sqt_mem_free(&r.mem);
	}
	sqt_obj_free(&o);
}

/* ---- atomics (gfx10 on): with return on vmcnt, without on vscnt -------- */

static void atomics(const char *mcpu, const char *op)
{
	const struct kfdsig_target *t = kfdsig_target_by_name(mcpu);
	static const struct {
		bool ret;
		const char *wait;
		bool released;
	} c[] = {
		{ true, "s_waitcnt vmcnt(0)", true },
		{ true, "s_waitcnt_vscnt null, 0x0", false },
		{ false, "s_waitcnt_vscnt null, 0x0", true },
		{ false, "s_waitcnt vmcnt(0)", false },
	};
	char src[4096];
	size_t n = 0;
	struct sqt_obj o;

	for (unsigned i = 0; i < 4; i++)
		n += (size_t)snprintf(
			src + n, sizeof(src) - n,
			"case%u:\n%s s[2:3], s[0:1], 0x0\n%s s4, s[0:1], 0x8\n"
			"v_mov_b32 v0, 1\nv_mov_b32 v1, 0\ns_waitcnt lgkmcnt(0)\n"
			"v_mov_b32 v2, s2\nv_mov_b32 v3, s3\n"
			"%s %sv[2:3], v[0:1], off%s\n%s\ns_mov_b32 m0, s4\n"
			"s_sendmsg sendmsg(MSG_INTERRUPT)\ns_endpgm\n",
			i, t && t->level >= KFDSIG_GFX11 ? "s_load_b64" : "s_load_dwordx2",
			t && t->level >= KFDSIG_GFX11 ? "s_load_b32" : "s_load_dword", op,
			c[i].ret ? "v[4:5], " : "", c[i].ret ? " glc" : "", c[i].wait);
	if (!t || sqt_assemble(src, mcpu, &o)) {
		CHECK(0, "%s: could not assemble:\n%s", mcpu, src);
		return;
	}
	for (unsigned i = 0; i < 4; i++) {
		char name[16];
		struct sqt_wave r;

		snprintf(name, sizeof(name), "case%u", i);
		do_run(&r, t, o.text, o.size, (uint64_t)sqt_sym(&o, name), PAGE_VA + 8 * 5, 5);
		CHECK(r.rc == 0 && r.page[5] == 1 && r.nmsg == 1, "%s atomic case %u: rc %d: %s",
		      mcpu, i, r.rc, r.res.msg);
		CHECK_EQ(r.res.unreleased, c[i].released ? 0u : 1u,
			 "%s: an atomic %s return, then %s", mcpu, c[i].ret ? "with" : "without",
			 c[i].wait);
		sqt_mem_free(&r.mem);
	}
	sqt_obj_free(&o);
}

/* ---- compiled kernels ----------------------------------------------- */

static const char ir[] = "target triple = \"amdgcn-amd-amdhsa\"\n"
			 "declare void @llvm.amdgcn.s.sendmsg(i32, i32)\n"
			 "define amdgpu_kernel void @rel(ptr addrspace(1) %p, i32 %id) {\n"
			 "  store i64 1, ptr addrspace(1) %p\n"
			 "  fence release\n"
			 "  call void @llvm.amdgcn.s.sendmsg(i32 1, i32 %id)\n"
			 "  ret void\n"
			 "}\n"
			 "define amdgpu_kernel void @norel(ptr addrspace(1) %p, i32 %id) {\n"
			 "  store i64 1, ptr addrspace(1) %p\n"
			 "  call void @llvm.amdgcn.s.sendmsg(i32 1, i32 %id)\n"
			 "  ret void\n"
			 "}\n";

/* The first kernel descriptor's user SGPRs in llc's assembly: the
 * kernel_code_properties bits (LLVM AMDGPUUsage "Kernel Descriptor") and
 * USER_SGPR_COUNT. */
static int kd_user_sgprs(const char *path, uint16_t *props, unsigned *count)
{
	static const char *const bits[] = {
		"private_segment_buffer", "dispatch_ptr", "queue_ptr",
		"kernarg_segment_ptr",	  "dispatch_id",  "flat_scratch_init",
		"private_segment_size"
	};
	char *text = sqt_read_file(path, NULL), *p, *end;
	int rc = -1;

	if (!text)
		return -1;
	p = strstr(text, ".amdhsa_kernel ");
	end = p ? strstr(p, ".end_amdhsa_kernel") : NULL;
	if (p && end) {
		char key[80], *q;

		*end = 0;
		*props = 0;
		for (unsigned i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
			snprintf(key, sizeof(key), ".amdhsa_user_sgpr_%s 1", bits[i]);
			if (strstr(p, key))
				*props |= (uint16_t)(1u << i);
		}
		q = strstr(p, ".amdhsa_user_sgpr_count ");
		if (q && sscanf(q, ".amdhsa_user_sgpr_count %u", count) == 1 &&
		    (*props & (1u << 3)))
			rc = 0;
	}
	free(text);
	return rc;
}

/* .text of @dir/k.bin and the labels of @dir/k.dis. */
static int obj_of(const char *dir, struct sqt_obj *o)
{
	char path[256];

	memset(o, 0, sizeof(*o));
	snprintf(path, sizeof(path), "%s/k.bin", dir);
	o->text = (uint8_t *)sqt_read_file(path, &o->size);
	snprintf(path, sizeof(path), "%s/k.dis", dir);
	o->dis = sqt_read_file(path, NULL);
	if (!o->text || !o->dis) {
		sqt_obj_free(o);
		return -1;
	}
	for (char *l = o->dis; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		unsigned long long a;
		char name[64];

		if (o->nsym < 64 && sscanf(l, "%llx <%63[^>]>:", &a, name) == 2) {
			snprintf(o->sym[o->nsym].name, sizeof(o->sym[0].name), "%s", name);
			o->sym[o->nsym++].addr = a;
		}
	}
	return 0;
}

static void compiled(const struct kfdsig_target *t, const char *mcpu)
{
	char dir[] = "/tmp/kfdsig-sqk-rel-XXXXXX", cmd[2048];
	struct sqt_obj o;
	FILE *f;
	int ok;
	uint16_t props = 0;
	unsigned user = 0;

	if (!mkdtemp(dir))
		return;
	snprintf(cmd, sizeof(cmd), "%s/k.ll", dir);
	f = fopen(cmd, "w");
	if (!f || fputs(ir, f) < 0) {
		CHECK(0, "write %s", cmd);
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	/* the object straight from llc: its assembly does not keep every
	 * bit (gfx90a's buffer_wbl2 prints without the SC bits llc sets) */
	snprintf(cmd, sizeof(cmd),
		 SQT_LLVM
		 "/llc -mtriple=amdgcn-amd-amdhsa -mcpu=%s -O2 %s/k.ll -o %s/k.s && " SQT_LLVM
		 "/llc -mtriple=amdgcn-amd-amdhsa -mcpu=%s -O2 -filetype=obj %s/k.ll -o %s/k.o"
		 " && " SQT_LLVM "/llvm-objcopy -O binary --only-section=.text %s/k.o %s/k.bin"
		 " && " SQT_LLVM "/llvm-objdump -d --mcpu=%s %s/k.o > %s/k.dis",
		 mcpu, dir, dir, mcpu, dir, dir, dir, dir, mcpu, dir, dir);
	ok = sqt_run(cmd) == 0;
	CHECK(ok, "%s: llc -O2", mcpu);
	snprintf(cmd, sizeof(cmd), "%s/k.s", dir);
	if (ok && kd_user_sgprs(cmd, &props, &user) < 0) {
		CHECK(0, "%s: no kernel descriptor's user SGPRs in %s", mcpu, cmd);
		ok = 0;
	}
	if (ok && obj_of(dir, &o) == 0) {
		for (unsigned k = 0; k < 2; k++) {
			int64_t e = sqt_sym(&o, k ? "norel" : "rel");
			struct sqt_wave r;

			CHECK(e >= 0, "%s: kernel symbol", mcpu);
			if (e < 0)
				continue;
			do_run_kd(&r, t, o.text, o.size, (uint64_t)e, PAGE_VA + 8 * 9, 9, props,
				  user, false, 0);
			CHECK(r.rc == 0 && r.page[9] == 1 && r.nmsg == 1 && r.msg_m0 == 9,
			      "%s %s: run: rc %d: %s", mcpu, k ? "norel" : "rel", r.rc, r.res.msg);
			CHECK_EQ(r.res.unreleased, k ? 1u : 0u, "%s %s: reported", mcpu,
				 k ? "without a fence" : "with a release fence");
			CHECK(r.res.sgpr_unwaited == 0 && r.res.m0_hazards == 0,
			      "%s: llc's code reads no SGPR before its load's wait (0x%llx)", mcpu,
			      (unsigned long long)r.res.sgpr_unwaited_pc);
			sqt_mem_free(&r.mem);
		}
		sqt_obj_free(&o);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

/* The SGPRs a scalar load writes are pending until the wait, each of them
 * (the last of a range, a range across s63/s64, one above s63), and no
 * register past them; with more loads pending than the check keeps
 * (SQK_REL_SL), the first load's and the last one's still are. The report
 * names the load at @at. */
#define LD9                                                              \
	"s_load_dword s10, s[0:1], 0x0\ns_load_dword s11, s[0:1], 0x0\n" \
	"s_load_dword s12, s[0:1], 0x0\ns_load_dword s13, s[0:1], 0x0\n" \
	"s_load_dword s14, s[0:1], 0x0\ns_load_dword s15, s[0:1], 0x0\n" \
	"s_load_dword s16, s[0:1], 0x0\ns_load_dword s17, s[0:1], 0x0\n" \
	"last:\ns_load_dword s18, s[0:1], 0x0"
static void sgpr_ranges(void)
{
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx90a");
	static const struct {
		const char *ld, *rd, *at;
		bool pending;
	} c[] = {
		{ "s_load_dwordx8 s[8:15], s[0:1], 0x0", "s15", "case", true },
		{ "s_load_dwordx8 s[60:67], s[0:1], 0x0", "s66", "case", true },
		{ "s_load_dwordx4 s[64:67], s[0:1], 0x0", "s67", "case", true },
		{ "s_load_dwordx2 s[4:5], s[0:1], 0x0", "s6", "case", false },
		{ LD9, "s10", "case", true },
		{ LD9, "s18", "last", true },
	};

	for (unsigned i = 0; t && i < sizeof(c) / sizeof(c[0]); i++) {
		char src[1024];
		struct sqt_obj o;
		struct sqt_wave r;
		int64_t e;

		snprintf(src, sizeof(src),
			 "case:\n%s\nv_mov_b32 v2, %s\ns_waitcnt lgkmcnt(0)\n"
			 "s_endpgm\n",
			 c[i].ld, c[i].rd);
		if (sqt_assemble(src, "gfx90a", &o)) {
			CHECK(0, "gfx90a: could not assemble:\n%s", src);
			continue;
		}
		e = sqt_sym(&o, c[i].at);
		do_run(&r, t, o.text, o.size, (uint64_t)sqt_sym(&o, "case"), PAGE_VA, 1);
		CHECK(r.rc == 0 && (r.res.sgpr_unwaited != 0) == c[i].pending,
		      "%s then a read of %s before the wait: rc %d, %llu reports (want %s)",
		      c[i].ld, c[i].rd, r.rc, (unsigned long long)r.res.sgpr_unwaited,
		      c[i].pending ? "one" : "none");
		if (c[i].pending)
			CHECK(r.res.sgpr_unwaited_load_pc == CODE_VA + (uint64_t)e,
			      "%s: the report names the load at %s", c[i].ld, c[i].at);
		sqt_mem_free(&r.mem);
		sqt_obj_free(&o);
	}
}

int main(void)
{
	char path[1200];
	unsigned nfam = 0;

	if (!sqt_have_llvm() || access(SQT_LLVM "/llc", X_OK) != 0) {
		fprintf(stderr, "SKIP: LLVM 22 tools not found in " SQT_LLVM "\n");
		return T_EXIT_SKIP;
	}
	for (unsigned f = 0; f < SQT_NFAMILIES; f++) {
		const struct kfdsig_target *t = kfdsig_target_by_name(sqt_families[f].mcpu);

		CHECK(t != NULL, "no target %s", sqt_families[f].mcpu);
		if (!t || !sqk_family_of(t->gfx_target_version))
			continue; /* a family the kernel interpreter does not run */
		nfam++;
		run_family_cases(t, sqt_families[f].mcpu);
		compiled(t, sqt_families[f].mcpu);
		if (sqt_stub_path(sqt_families[f].src, path, sizeof(path)))
			run_real_stub(path, sqt_families[f].mcpu, sqt_families[f].family);
		else
			CHECK(0, "%s: no stub source %s in %s", t->name, sqt_families[f].src,
			      sqt_stub_dir());
	}
	CHECK(nfam >= 8, "families the kernel interpreter runs: %u", nfam);
	CHECK_EQ(SQT_NFAMILIES, (unsigned)KFDSIG_FAMILY_COUNT,
		 "every generation family has a stub source (src/shaders/stubs.cmake)");
	atomics("gfx1030", "global_atomic_swap_x2");
	atomics("gfx1100", "global_atomic_swap_b64");
	sgpr_ranges();
	return t_result("emu_sqk_release");
}
