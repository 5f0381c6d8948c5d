/* SPDX-License-Identifier: MIT */
/*
 * Emulated shader unit, s_trap: on every target with a stub,
 *   - the library's trap stub (KFDSIG_SHADER_TRAP) decodes, prints as
 *     llvm-objdump 22 does ("s_trap 3") and stops the wave at its first
 *     instruction with the trap status and trap id 3 (llvm.debugtrap);
 *   - hand-written programs "s_trap N; s_sendmsg(MSG_INTERRUPT); s_endpgm"
 *     stop at the s_trap with id N: nothing after it runs (no message, no
 *     end), the report's pc is the s_trap's;
 *   - a trap hook that returns past the s_trap lets the wave go on to the
 *     message and s_endpgm;
 *   - the trap id is simm16[7:0].
 * The encodings are golden words written from LLVM 22 llvm-mc -show-encoding
 * (SOPInstructions.td): s_trap is SOPP 0x12 through gfx10 (0xbf92xxxx) and
 * 0x10 from gfx11 (0xbf90xxxx), where 0xbf90xxxx is s_sendmsg before
 * gfx11; s_sendmsg 0xbf900001 / 0xbfb60001, s_endpgm 0xbf810000 /
 * 0xbfb00000. No LLVM needed.
 */
#include <string.h>

#include "emu/sq/sq.h"
#include "emu_sq_util.h"
#include "shaders/stubs_gen.h"

#define CODE_VA 0x7f0000400000ull

struct golden {
	uint32_t trap, sendmsg_int, endpgm;
};

static struct golden golden_of(const struct kfdsig_target *t)
{
	if (t->family == KFDSIG_FAMILY_GFX11 || t->family == KFDSIG_FAMILY_GFX12)
		return (struct golden){ 0xbf900000u, 0xbfb60001u, 0xbfb00000u };
	return (struct golden){ 0xbf920000u, 0xbf900001u, 0xbf810000u };
}

struct hook {
	unsigned msgs, traps;
	int ret; /* what the trap hook answers */
	uint8_t last_id;
};

/* The memory (first: the read/write callbacks take it) and the hooks' state. */
struct ctx {
	struct sqt_mem mem;
	struct hook *h;
};

static int on_msg(void *c, const struct sq_event *ev)
{
	(void)ev;
	((struct ctx *)c)->h->msgs++;
	return 0;
}

static int on_trap(void *c, const struct sq_event *ev)
{
	struct hook *h = ((struct ctx *)c)->h;

	h->traps++;
	h->last_id = ev->trap_id;
	return h->ret;
}

static int run(const struct kfdsig_target *t, const uint32_t *code, size_t n, struct hook *h,
	       bool with_hook, struct sq_report *rep)
{
	struct ctx c = { .h = h };
	struct sq_env env = { .ctx = &c, .read = sqt_read, .write = sqt_write };
	struct sq_wave w = { 0 };

	env.message = on_msg;
	if (with_hook)
		env.trap = on_trap;
	w.target = t;
	w.code = code;
	w.code_size = n * 4;
	w.code_va = CODE_VA;
	w.entry_va = CODE_VA;
	w.wave_size = t->family >= KFDSIG_FAMILY_GFX10_1 ? 32 : 64;
	return sq_run(&w, &env, rep);
}

static unsigned count_kind(const struct sq_report *rep, enum sq_event_kind k)
{
	unsigned n = 0;

	for (unsigned i = 0; i < rep->nevents; i++)
		n += rep->ev[i].kind == k;
	return n;
}

static void check_stub(const struct kfdsig_target *t)
{
	static struct sq_report rep;
	struct kfdsig_shader_stub s, co;
	struct hook h = { 0 };
	struct sq_insn in;
	char text[64];
	uint32_t code[256 / 4];
	int r;

	r = kfdsig_shader_stub(t, KFDSIG_SHADER_RAW | KFDSIG_SHADER_TRAP, &s);
	CHECK(r == 0, "%s: no trap stub: %s", t->name, kfdsig_last_error());
	if (r)
		return;
	r = kfdsig_shader_stub(t, KFDSIG_SHADER_CODE_OBJECT | KFDSIG_SHADER_TRAP, &co);
	CHECK(r == 0, "%s: no trap code object: %s", t->name, kfdsig_last_error());
	CHECK(s.size >= 8 && s.size <= sizeof(code), "%s: trap stub of %zu bytes", t->name, s.size);
	CHECK_EQ(s.code_size, 8, "%s: s_trap + s_endpgm", t->name);
	CHECK_EQ(s.regs.user_sgprs, 0, "%s: the trap stub takes no arguments", t->name);
	if (!r && co.entry_offset + 8 <= co.size)
		CHECK(!memcmp(co.bytes + co.entry_offset, s.bytes, 8),
		      "%s: code object and raw trap code differ", t->name);
	if (s.size > sizeof(code))
		return;
	memcpy(code, s.bytes, s.size);
	CHECK_EQ(code[0], golden_of(t).trap | 3, "%s: s_trap 3 word", t->name);
	CHECK_EQ(code[1], golden_of(t).endpgm, "%s: s_endpgm word", t->name);

	r = sq_decode(t, code, s.size, CODE_VA, CODE_VA, &in);
	CHECK_EQ(r, 4, "%s: decode s_trap: %s", t->name, kfdsig_last_error());
	CHECK_EQ(in.op, KFDSIG_SQ_OP_S_TRAP, "%s: op", t->name);
	CHECK_EQ(in.simm16, 3, "%s: simm16", t->name);
	sq_format(t, &in, text, sizeof(text));
	CHECK(!strcmp(text, "s_trap 3"), "%s: printed '%s'", t->name, text);

	r = run(t, code, s.size / 4, &h, false, &rep);
	CHECK_EQ(r, KFDSIG_SQ_TRAPPED, "%s: trap stub: %s", t->name, rep.msg);
	CHECK(rep.trapped && !rep.ended, "%s: trapped %d ended %d", t->name, rep.trapped,
	      rep.ended);
	CHECK_EQ(rep.trap_id, 3, "%s: trap id", t->name);
	CHECK_EQ(rep.pc, CODE_VA, "%s: pc at the s_trap", t->name);
	CHECK_EQ(rep.insns, 1, "%s: instructions run", t->name);
	CHECK(rep.nevents == 1 && rep.ev[0].kind == KFDSIG_SQ_EV_TRAP, "%s: events %u, first %s",
	      t->name, rep.nevents, rep.nevents ? sq_event_name(rep.ev[0].kind) : "-");
}

static void check_program(const struct kfdsig_target *t, uint16_t simm16)
{
	static struct sq_report rep;
	struct golden g = golden_of(t);
	uint32_t code[4] = { g.trap | simm16, g.sendmsg_int, g.endpgm, g.endpgm };
	struct hook h = { 0 };
	struct sq_insn in;
	char text[64], want[64];
	int r;

	/* Stops at the s_trap: no message, no s_endpgm. */
	r = run(t, code, 4, &h, false, &rep);
	CHECK_EQ(r, KFDSIG_SQ_TRAPPED, "%s s_trap 0x%x: %s", t->name, simm16, rep.msg);
	CHECK_EQ(rep.trap_id, simm16 & 0xff, "%s s_trap 0x%x: id", t->name, simm16);
	CHECK_EQ(rep.pc, CODE_VA, "%s s_trap 0x%x: pc", t->name, simm16);
	CHECK(h.msgs == 0 && count_kind(&rep, KFDSIG_SQ_EV_MSG) == 0,
	      "%s s_trap 0x%x: the message after the s_trap ran", t->name, simm16);
	CHECK(count_kind(&rep, KFDSIG_SQ_EV_END) == 0 && !rep.ended, "%s s_trap 0x%x: s_endpgm ran",
	      t->name, simm16);
	CHECK_EQ(count_kind(&rep, KFDSIG_SQ_EV_TRAP), 1, "%s: trap events", t->name);

	/* A hook that stops the wave (0) is the same as none. */
	h = (struct hook){ .ret = 0 };
	r = run(t, code, 4, &h, true, &rep);
	CHECK(r == KFDSIG_SQ_TRAPPED && h.traps == 1 && h.msgs == 0 && h.last_id == (simm16 & 0xff),
	      "%s s_trap 0x%x, hook 0: r %d traps %u msgs %u id %u", t->name, simm16, r, h.traps,
	      h.msgs, h.last_id);

	/* A hook that returns past the s_trap: the wave goes on. */
	h = (struct hook){ .ret = 1 };
	r = run(t, code, 4, &h, true, &rep);
	CHECK(r == 0 && rep.ended && !rep.trapped && h.traps == 1 && h.msgs == 1,
	      "%s s_trap 0x%x, hook 1: r %d ended %d traps %u msgs %u (%s)", t->name, simm16, r,
	      rep.ended, h.traps, h.msgs, rep.msg);

	/* A failing hook stops the wave with its error. */
	h = (struct hook){ .ret = -EIO };
	r = run(t, code, 4, &h, true, &rep);
	CHECK(r == -EIO && !rep.trapped && h.msgs == 0, "%s: failing hook: r %d", t->name, r);

	r = sq_decode(t, code, sizeof(code), CODE_VA, CODE_VA, &in);
	CHECK(r == 4 && in.op == KFDSIG_SQ_OP_S_TRAP, "%s: decode 0x%08x", t->name, code[0]);
	sq_format(t, &in, text, sizeof(text));
	snprintf(want, sizeof(want), simm16 <= 64 ? "s_trap %u" : "s_trap 0x%x", simm16);
	CHECK(!strcmp(text, want), "%s: printed '%s', want '%s'", t->name, text, want);
}

/* The word that is s_trap on gfx11+ is s_sendmsg before: the generations'
 * tables must not be mixed up. */
static void check_cross(const struct kfdsig_target *t)
{
	static struct sq_report rep;
	struct golden g = golden_of(t);
	uint32_t code[2] = { 0xbf900001u, g.endpgm };
	struct hook h = { 0 };
	int r = run(t, code, 2, &h, false, &rep);

	if (g.trap == 0xbf900000u)
		CHECK(r == KFDSIG_SQ_TRAPPED && rep.trap_id == 1 && h.msgs == 0,
		      "%s: 0xbf900001 is s_trap 1 here: r %d msgs %u", t->name, r, h.msgs);
	else
		CHECK(r == 0 && !rep.trapped && h.msgs == 1,
		      "%s: 0xbf900001 is s_sendmsg here: r %d msgs %u", t->name, r, h.msgs);
}

int main(void)
{
	static const uint16_t ids[] = { 0, 1, 2, 3, 64, 65, 0xff, 0x1ff };
	unsigned ntargets = 0;

	for (unsigned i = 0; i < stub_ntargets; i++) {
		const struct kfdsig_target *t = kfdsig_target_by_name(stub_targets[i].name);

		CHECK(t, "stub target %s unknown", stub_targets[i].name);
		if (!t)
			continue;
		ntargets++;
		check_stub(t);
		for (unsigned k = 0; k < sizeof(ids) / sizeof(ids[0]); k++)
			check_program(t, ids[k]);
		check_cross(t);
	}
	CHECK(ntargets >= 8, "only %u targets", ntargets);
	return t_result("emu_sq_trap");
}
