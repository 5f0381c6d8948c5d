/* SPDX-License-Identifier: MIT */
/*
 * The kernel interpreter runs a second-level trap handler as code when the
 * env names one (sqk_env.trap_base), on GC 9 (gfx90a, gfx942), GC 11
 * (gfx1100) and GC 12 (gfx1201), each with its own cause register and
 * doorbell message (src() below):
 *   - s_trap N enters it with ttmp0 = PC[31:0] of the s_trap and
 *     ttmp1 = PC[47:32] | N << 16 (the kernel's cwsr_trap_handler_gfx9.asm
 *     S_SAVE_PC_HI_TRAP_ID_MASK), TRAPSTS 0; the handler's s_rfe_b64
 *     returns to the address in its operand (here past the s_trap);
 *   - MSG_GET_DOORBELL (s_sendmsg 10) leaves the doorbell id in EXEC_LO
 *     with bit 31 clear; s_sendmsg MSG_INTERRUPT inside the handler
 *     carries SQK_MSG_PRIV (kfd_int_process_v9.c context_id0 PRIV), and
 *     outside it does not;
 *   - the wave start and end traps (SQK_WAVE_TRAP_START/_END) enter it
 *     before the first instruction and at s_endpgm, with TRAPSTS bit 23 /
 *     24 (kfdtest's TrapHandlerIsa reads 0x1800000 before GFX11), and the
 *     wave still ends once;
 *   - without a handler (trap_base 0) s_trap stops the wave as before.
 * The handler reports TRAPSTS through m0 of a first interrupt message and
 * the doorbell with trap code 2 (0x800) through a second one; the kernel
 * stores the handler's copy of ttmp1 after the trap. Needs llvm-mc 22.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emu/sq/sqk.h"
#include "emu_sqk_util.h"
#include "kfd_util.h"

/* kernel: s_trap 5 (unless @endonly), then an ordinary interrupt message
 * (m0 0x1234) and a store of v7 (the handler's copy of ttmp1) to TRIG_DATA_VA.
 * handler: the trap cause in m0 (message 1), the doorbell id | 0x800
 * (message 2), past the s_trap unless the cause is a wave start or end, as
 * kfdtest's TrapHandlerIsa per generation (@gen 9, 11 or 12): GC 9/10
 * TRAPSTS and s_sendmsg 10, wave start/end 0x1800000; GC 11 TRAPSTS and
 * s_sendmsg_rtn_b32 MSG_RTN_GET_DOORBELL, wave start 0x20000 only (the end
 * trap steps past the s_endpgm); GC 12 EXCP_FLAG_PRIV, wave start/end
 * 0x300; GC 11/12 write IB_STS and STATUS back before s_rfe_b64. */
static const char *src(int gen, bool endonly)
{
	static char buf[4096];
	const char *wait = gen >= 12 ? "s_wait_storecnt 0" : "s_waitcnt vmcnt(0) & lgkmcnt(0)";
	const char *cause = gen >= 12 ? "HW_REG_EXCP_FLAG_PRIV" : "HW_REG_TRAPSTS";
	const char *doorbell =
		gen < 11   ? "  s_mov_b32 ttmp2, exec_lo\n"
			     "  s_mov_b32 exec_lo, 0x80000000\n"
			     "  s_sendmsg 10\n"
			     "  s_mov_b32 ttmp3, exec_lo\n"
			     "  s_mov_b32 exec_lo, ttmp2\n"
		: gen < 12 ? "  s_sendmsg_rtn_b32 ttmp3, sendmsg(MSG_RTN_GET_DOORBELL)\n"
			     "  s_waitcnt lgkmcnt(0)\n"
			     "  s_and_b32 ttmp3, ttmp3, 0x3ff\n"
			   : "  s_sendmsg_rtn_b32 ttmp3, sendmsg(MSG_RTN_GET_DOORBELL)\n"
			     "  s_wait_kmcnt 0\n"
			     "  s_and_b32 ttmp3, ttmp3, 0x3ff\n";
	unsigned wave = gen < 11 ? 0x1800000u : gen < 12 ? 0x20000u : 0x300u;
	const char *restore = gen < 11 ? ""
				       : "  s_setreg_b32 hwreg(HW_REG_IB_STS), ttmp2\n"
					 "  s_setreg_b32 hwreg(HW_REG_STATUS), ttmp12\n";

	snprintf(buf, sizeof(buf),
		 ".text\n"
		 "%s"
		 "  s_mov_b32 m0, 0x1234\n"
		 "  s_sendmsg sendmsg(MSG_INTERRUPT)\n"
		 "  v_mov_b32 v0, 0x%x\n"
		 "  v_mov_b32 v1, 0x%x\n"
		 "  flat_store_dword v[0:1], v7\n"
		 "  %s\n"
		 "  s_endpgm\n"
		 ".org 0x%x\n"
		 "  s_getreg_b32 ttmp14, hwreg(%s)\n"
		 "  s_mov_b32 m0, ttmp14\n"
		 "  s_sendmsg sendmsg(MSG_INTERRUPT)\n"
		 "  v_mov_b32 v7, ttmp1\n"
		 "%s"
		 "  s_or_b32 ttmp3, ttmp3, 0x800\n"
		 "  s_mov_b32 m0, ttmp3\n"
		 "  s_sendmsg sendmsg(MSG_INTERRUPT)\n"
		 "  s_and_b32 ttmp2, ttmp14, 0x%x\n"
		 "  s_cbranch_scc1 RET\n"
		 "  s_add_u32 ttmp0, ttmp0, 4\n"
		 "  s_addc_u32 ttmp1, ttmp1, 0\n"
		 "RET:\n"
		 "  s_and_b32 ttmp1, ttmp1, 0xffff\n"
		 "%s"
		 "  s_rfe_b64 ttmp[0:1]\n",
		 endonly ? "" : "  v_mov_b32 v7, 0\n  s_trap 5\n", (unsigned)TRIG_DATA_VA,
		 (unsigned)(TRIG_DATA_VA >> 32), wait, TRIG_HANDLER_OFF, cause, doorbell, wave,
		 restore);
	return buf;
}

static int run(const char *mcpu, uint32_t gfxv, bool endonly, struct trig *t,
	       struct sqk_result *res)
{
	trig_asm(t, src(gfxv >= 120000 ? 12 : gfxv >= 110000 ? 11 : 9, endonly), mcpu);
	memset(t->data, 0, sizeof(t->data));
	return trig_run(t, gfxv, res);
}

static void check(const char *mcpu, uint32_t gfxv)
{
	static struct trig r;
	struct sqk_result res;
	int rc;
	/* the wave start / end causes and where the trap id sits in ttmp1:
	 * GC 9/10 TRAPSTS bits 23/24 (UNVERIFIED, kfdtest's mask), GC 11
	 * TRAPSTS 0x20000/0x40000, GC 12 EXCP_FLAG_PRIV 0x100/0x200; the id
	 * in [23:16], GC 12 [31:28] */
	uint32_t start = gfxv >= 120000 ? 0x100u : gfxv >= 110000 ? 0x20000u : 1u << 23;
	uint32_t end = gfxv >= 120000 ? 0x200u : gfxv >= 110000 ? 0x40000u : 1u << 24;
	uint32_t id5 = gfxv >= 120000 ? 5u << 28 : 5u << 16;

	/* no handler: the wave stops at the s_trap, nothing after it runs */
	memset(&r, 0, sizeof(r));
	rc = run(mcpu, gfxv, false, &r, &res);
	CHECK(rc == 1 && res.trapped && res.trap_id == 5, "%s: no handler: rc %d trapped %d id %u",
	      mcpu, rc, res.trapped, res.trap_id);
	CHECK_EQ(r.n, 0u, "%s: no handler: no message", mcpu);

	/* s_trap 5 into the handler and back past it */
	memset(&r, 0, sizeof(r));
	r.tba = TRIG_CODE_VA + TRIG_HANDLER_OFF;
	r.doorbell = 0x2a7;
	rc = run(mcpu, gfxv, false, &r, &res);
	CHECK(rc == 0 && !res.trapped, "%s: handler: rc %d trapped %d (%s)", mcpu, rc, res.trapped,
	      res.msg);
	CHECK_EQ(r.n, 3u, "%s: two messages of the handler, one of the kernel", mcpu);
	CHECK(r.msg[0] == (1u | SQK_MSG_PRIV) && r.m0[0] == 0,
	      "%s: TRAPSTS of an s_trap: msg %#x m0 %#x", mcpu, r.msg[0], r.m0[0]);
	CHECK(r.msg[1] == (1u | SQK_MSG_PRIV) && r.m0[1] == (0x2a7u | 0x800u),
	      "%s: doorbell message: msg %#x m0 %#x", mcpu, r.msg[1], r.m0[1]);
	CHECK(r.msg[2] == 1u && r.m0[2] == 0x1234u, "%s: the kernel's own message: msg %#x m0 %#x",
	      mcpu, r.msg[2], r.m0[2]);
	CHECK_EQ(r.data[0], (uint32_t)(TRIG_CODE_VA >> 32) | id5, "%s: ttmp1 = PC[47:32] | trap id",
		 mcpu);

	/* wave start and end traps on a kernel without s_trap */
	memset(&r, 0, sizeof(r));
	r.tba = TRIG_CODE_VA + TRIG_HANDLER_OFF;
	r.traps = SQK_WAVE_TRAP_START | SQK_WAVE_TRAP_END;
	rc = run(mcpu, gfxv, true, &r, &res);
	CHECK(rc == 0 && res.waves == 1, "%s: start/end: rc %d (%s)", mcpu, rc, res.msg);
	CHECK_EQ(r.n, 5u, "%s: start (2), kernel (1), end (2) messages", mcpu);
	CHECK(r.msg[0] == (1u | SQK_MSG_PRIV) && r.m0[0] == start,
	      "%s: wave start TRAPSTS: msg %#x m0 %#x", mcpu, r.msg[0], r.m0[0]);
	CHECK(r.msg[3] == (1u | SQK_MSG_PRIV) && r.m0[3] == end,
	      "%s: wave end TRAPSTS: msg %#x m0 %#x", mcpu, r.msg[3], r.m0[3]);
	CHECK(r.msg[2] == 1u && r.m0[2] == 0x1234u, "%s: the kernel ran between", mcpu);

	/* only the start trap */
	memset(&r, 0, sizeof(r));
	r.tba = TRIG_CODE_VA + TRIG_HANDLER_OFF;
	r.traps = SQK_WAVE_TRAP_START;
	rc = run(mcpu, gfxv, true, &r, &res);
	CHECK(rc == 0 && r.n == 3 && r.m0[0] == start, "%s: start only: rc %d, %u messages", mcpu,
	      rc, r.n);
}

int main(void)
{
	if (kco_asm_missing())
		return T_EXIT_SKIP;
	check("gfx90a", 90010);
	check("gfx942", 90402);
	check("gfx1100", 110000);
	check("gfx1201", 120001);
	return t_result("emu_sqk_trap_handler");
}
