/* SPDX-License-Identifier: MIT */
/*
 * The shader unit (kernel interpreter), s_trap: on every target with a stub,
 *   - the library's trap stub (KFDSIG_SHADER_TRAP) decodes, prints as
 *     llvm-objdump 22 does ("s_trap 3") and stops the wave at its first
 *     instruction with the trap status and trap id 3 (llvm.debugtrap);
 *   - hand-written programs "s_trap N; s_sendmsg(MSG_INTERRUPT); s_endpgm"
 *     stop at the s_trap with id N: nothing after it runs (no message, no
 *     end), the result's pc is the s_trap's;
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

#include "emu_sq_util.h"
#include "shaders/stubs_gen.h"

#define CODE_VA 0x7f0000400000ull
#define CODE_PAGE 4096

struct golden {
	uint32_t trap, sendmsg_int, endpgm;
};

static struct golden golden_of(const struct kfdsig_target *t)
{
	if (t->family == KFDSIG_FAMILY_GFX11 || t->family == KFDSIG_FAMILY_GFX12)
		return (struct golden){ 0xbf900000u, 0xbfb60001u, 0xbfb00000u };
	return (struct golden){ 0xbf920000u, 0xbf900001u, 0xbf810000u };
}

/* Run @n words at CODE_VA: a full wave, no user SGPRs; the trap hook
 * (answering @ret) with @with_hook. */
static int run(const struct kfdsig_target *t, const uint32_t *code, size_t n, bool with_hook,
	       int ret, struct sqt_wave *r)
{
	memset(r, 0, sizeof(*r));
	memcpy(sqt_map(&r->mem, CODE_VA, CODE_PAGE, 0), code, n * 4);
	r->trap_ret = ret;
	sqt_run_wave(r, t, CODE_VA, NULL, 0, 0, with_hook);
	sqt_mem_free(&r->mem);
	return r->rc;
}

static void check_stub(const struct kfdsig_target *t)
{
	const struct sqk_family *f = sqk_family_of(t->gfx_target_version);
	struct kfdsig_shader_stub s, co;
	struct sqt_wave r;
	struct sqk_insn in;
	char text[64];
	uint32_t code[256 / 4];
	int rc;

	CHECK(f != NULL, "%s: the kernel interpreter does not run it", t->name);
	if (!f)
		return;
	rc = kfdsig_shader_stub(t, KFDSIG_SHADER_RAW | KFDSIG_SHADER_TRAP, &s);
	CHECK(rc == 0, "%s: no trap stub: %s", t->name, kfdsig_last_error());
	if (rc)
		return;
	rc = kfdsig_shader_stub(t, KFDSIG_SHADER_CODE_OBJECT | KFDSIG_SHADER_TRAP, &co);
	CHECK(rc == 0, "%s: no trap code object: %s", t->name, kfdsig_last_error());
	CHECK(s.size >= 8 && s.size <= sizeof(code), "%s: trap stub of %zu bytes", t->name, s.size);
	CHECK_EQ(s.code_size, 8, "%s: s_trap + s_endpgm", t->name);
	CHECK_EQ(s.regs.user_sgprs, 0, "%s: the trap stub takes no arguments", t->name);
	if (!rc && co.entry_offset + 8 <= co.size)
		CHECK(!memcmp(co.bytes + co.entry_offset, s.bytes, 8),
		      "%s: code object and raw trap code differ", t->name);
	if (s.size > sizeof(code))
		return;
	memcpy(code, s.bytes, s.size);
	CHECK_EQ(code[0], golden_of(t).trap | 3, "%s: s_trap 3 word", t->name);
	CHECK_EQ(code[1], golden_of(t).endpgm, "%s: s_endpgm word", t->name);

	CHECK_EQ(sqk_decode(f, code, 2, &in), 4, "%s: decode s_trap", t->name);
	CHECK_EQ(in.op, K_s_trap, "%s: op", t->name);
	CHECK_EQ(in.simm16, 3, "%s: simm16", t->name);
	sqk_format(f, &in, text, sizeof(text));
	CHECK(!strcmp(text, "s_trap 3"), "%s: printed '%s'", t->name, text);

	rc = run(t, code, s.size / 4, false, 0, &r);
	CHECK_EQ(rc, 1, "%s: trap stub: %s", t->name, r.res.msg);
	CHECK(r.res.trapped && !r.res.err, "%s: trapped %d err %d", t->name, r.res.trapped,
	      r.res.err);
	CHECK_EQ(r.res.trap_id, 3, "%s: trap id", t->name);
	CHECK_EQ(r.res.pc, CODE_VA, "%s: pc at the s_trap", t->name);
	CHECK_EQ(r.res.insns, 1, "%s: instructions run", t->name);
	CHECK_EQ(r.nmsg, 0, "%s: messages", t->name);
}

static void check_program(const struct kfdsig_target *t, uint16_t simm16)
{
	const struct sqk_family *f = sqk_family_of(t->gfx_target_version);
	struct golden g = golden_of(t);
	uint32_t code[4] = { g.trap | simm16, g.sendmsg_int, g.endpgm, g.endpgm };
	struct sqt_wave r;
	struct sqk_insn in;
	char text[64], want[64];
	int rc;

	if (!f)
		return;
	/* Stops at the s_trap: no message, nothing after it. */
	rc = run(t, code, 4, false, 0, &r);
	CHECK_EQ(rc, 1, "%s s_trap 0x%x: %s", t->name, simm16, r.res.msg);
	CHECK(r.res.trapped, "%s s_trap 0x%x: not trapped", t->name, simm16);
	CHECK_EQ(r.res.trap_id, simm16 & 0xff, "%s s_trap 0x%x: id", t->name, simm16);
	CHECK_EQ(r.res.pc, CODE_VA, "%s s_trap 0x%x: pc", t->name, simm16);
	CHECK(r.nmsg == 0 && r.res.interrupts == 0,
	      "%s s_trap 0x%x: the message after the s_trap ran", t->name, simm16);
	CHECK_EQ(r.res.insns, 1, "%s s_trap 0x%x: instructions after it ran", t->name, simm16);

	/* A hook that stops the wave (0) is the same as none. */
	rc = run(t, code, 4, true, 0, &r);
	CHECK(rc == 1 && r.res.trapped && r.ntrap == 1 && r.nmsg == 0 &&
		      r.trap_id == (simm16 & 0xff),
	      "%s s_trap 0x%x, hook 0: rc %d traps %u msgs %u id %u", t->name, simm16, rc, r.ntrap,
	      r.nmsg, r.trap_id);

	/* A hook that returns past the s_trap: the wave goes on. */
	rc = run(t, code, 4, true, 1, &r);
	CHECK(rc == 0 && !r.res.trapped && r.ntrap == 1 && r.nmsg == 1,
	      "%s s_trap 0x%x, hook 1: rc %d traps %u msgs %u (%s)", t->name, simm16, rc, r.ntrap,
	      r.nmsg, r.res.msg);

	/* A failing hook stops the wave with its error. */
	rc = run(t, code, 4, true, -EIO, &r);
	CHECK(rc == -EIO && !r.res.trapped && r.nmsg == 0, "%s: failing hook: rc %d", t->name, rc);

	CHECK(sqk_decode(f, code, 4, &in) == 4 && in.op == K_s_trap, "%s: decode 0x%08x", t->name,
	      code[0]);
	sqk_format(f, &in, text, sizeof(text));
	snprintf(want, sizeof(want), simm16 <= 64 ? "s_trap %u" : "s_trap 0x%x", simm16);
	CHECK(!strcmp(text, want), "%s: printed '%s', want '%s'", t->name, text, want);
}

/* The word that is s_trap on gfx11+ is s_sendmsg before: the generations'
 * tables must not be mixed up. */
static void check_cross(const struct kfdsig_target *t)
{
	struct golden g = golden_of(t);
	uint32_t code[2] = { 0xbf900001u, g.endpgm };
	struct sqt_wave r;
	int rc;

	if (!sqk_family_of(t->gfx_target_version))
		return;
	rc = run(t, code, 2, false, 0, &r);
	if (g.trap == 0xbf900000u)
		CHECK(rc == 1 && r.res.trap_id == 1 && r.nmsg == 0,
		      "%s: 0xbf900001 is s_trap 1 here: rc %d msgs %u", t->name, rc, r.nmsg);
	else
		CHECK(rc == 0 && !r.res.trapped && r.nmsg == 1,
		      "%s: 0xbf900001 is s_sendmsg here: rc %d msgs %u", t->name, rc, r.nmsg);
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
