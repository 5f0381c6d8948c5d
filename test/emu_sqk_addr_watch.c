/* SPDX-License-Identifier: MIT */
/*
 * Address watch points in the kernel interpreter's vector memory path
 * (FLAT, GLOBAL, MUBUF, a whole wave's consecutive GLOBAL load;
 * sqk_env.watches, with a trap handler run as code), on GC 9 (gfx90a,
 * gfx942) and GC 10.3 (gfx1030). Expected behaviour, read from amdkfd and the gfx9 trap handler:
 *   - a watch point covers the 64-byte line of its address: TCP_WATCH_CNTL
 *     MASK is the user mask >> 6 (amdgpu_amdkfd_gfx_v8.h
 *     ADDRESS_WATCH_REG_ADDLOW_SHIFT), so address bits [5:0] never count
 *     and a mask bit 0 in [29:6] drops that bit from the compare; on GC 10
 *     (gfx1030) MASK is mask >> 7 (kgd_gfx_v10_set_address_watch()): a
 *     128-byte line;
 *   - modes (kfd_ioctl.h kfd_dbg_trap_address_watch_mode): read hits
 *     loads only, nonread stores (and atomics), all every access;
 *   - a hit enters the handler after the access (the loaded value is in
 *     its register, the next instruction has not run) with TRAPSTS
 *     ADDR_WATCH0 = bit 7, ADDR_WATCH1-3 = bits 12-14
 *     (cwsr_trap_handler_gfx9.asm SQ_WAVE_TRAPSTS_EXCP_HI); the handler's
 *     s_rfe_b64 to ttmp0/1 resumes at the next instruction;
 *   - no watch point, or a miss: no trap;
 *   - without precise memory operations (sqk_watch.late) the hit is
 *     reported after the next instruction, or at s_endpgm (check_late()).
 * The handler reports TRAPSTS in m0 of an interrupt message; the kernel
 * then sends its own (m0 0x1234) and stores the loaded dword. Needs
 * llvm-mc 22.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emu/sq/sqk_exec.h"
#include "emu_sqk_util.h"
#include "kfd_util.h"

#define DATA_VA TRIG_DATA_VA
#define ACC_OFF 0x100 /* the access */
#define RES_OFF 0x800 /* where the kernel stores what it loaded */

/* @acc: the access to DATA_VA + @off */
static const char *src(const char *acc, uint32_t off)
{
	static char buf[4096];
	uint64_t a = DATA_VA + off, res = DATA_VA + RES_OFF;

	snprintf(buf, sizeof(buf),
		 ".text\n"
		 "  v_mov_b32 v0, 0x%x\n"
		 "  v_mov_b32 v1, 0x%x\n"
		 "  v_mov_b32 v2, 0\n"
		 "  v_mov_b32 v5, 0x55\n"
		 "  %s\n"
		 "  s_waitcnt vmcnt(0) & lgkmcnt(0)\n"
		 "  s_mov_b32 m0, 0x1234\n"
		 "  s_sendmsg sendmsg(MSG_INTERRUPT)\n"
		 "  v_mov_b32 v6, 0x%x\n"
		 "  v_mov_b32 v7, 0x%x\n"
		 "  flat_store_dword v[6:7], v2\n"
		 "  s_waitcnt vmcnt(0) & lgkmcnt(0)\n"
		 "  s_endpgm\n"
		 ".org 0x%x\n"
		 "  s_getreg_b32 ttmp14, hwreg(HW_REG_TRAPSTS)\n"
		 "  s_mov_b32 m0, ttmp14\n"
		 "  s_sendmsg sendmsg(MSG_INTERRUPT)\n"
		 "  s_and_b32 ttmp1, ttmp1, 0xffff\n"
		 "  s_rfe_b64 ttmp[0:1]\n",
		 (unsigned)a, (unsigned)(a >> 32), acc, (unsigned)res, (unsigned)(res >> 32),
		 TRIG_HANDLER_OFF);
	return buf;
}

struct tcase {
	const char *name;
	const char *acc;
	uint32_t off;	 /* access at DATA_VA + off */
	uint8_t id;	 /* the watch point's id */
	uint8_t mode;	 /* KFD_DBG_TRAP_ADDRESS_WATCH_MODE_* */
	uint32_t mask;	 /* the user's mask */
	unsigned nwatch; /* 0: none set */
	uint32_t sts;	 /* TRAPSTS the handler sees, 0: no trap */
	bool gc10_hit;	 /* GC 10 (128-byte lines): ADDR_WATCH0 instead */
};

#define LOAD "flat_load_dword v2, v[0:1]"
#define GLOAD "global_load_dword v2, v[0:1], off"
#define STORE "flat_store_dword v[0:1], v5"
/* a buffer at DATA_VA (DATA_VA's low half is 0: v0 is the offset) */
#define BUF "s_mov_b32 s4, 0\n s_mov_b32 s5, 0x7f13\n s_mov_b32 s6, 0x1000\n s_mov_b32 s7, 0\n "
/* a whole wave's consecutive dwords from DATA_VA + ACC_OFF (saddr + 4 *
 * lane, EXEC full for the access only): the whole-wave path */
#define WLOAD                                                                                  \
	"s_mov_b64 exec, -1\n v_mbcnt_lo_u32_b32 v9, -1, 0\n v_mbcnt_hi_u32_b32 v9, -1, v9\n " \
	"v_lshlrev_b32 v9, 2, v9\n s_mov_b32 s8, 0x100\n s_mov_b32 s9, 0x7f13\n "              \
	"global_load_dword v2, v9, s[8:9]\n s_mov_b64 exec, 1"
#define BLOAD BUF "buffer_load_dword v2, v0, s[4:7], 0 offen"
#define BSTORE BUF "buffer_store_dword v5, v0, s[4:7], 0 offen"

static const struct tcase cases[] = {
	{ "read watch, load", LOAD, ACC_OFF, 0, 0, 0xffffffffu, 1, 1u << 7 },
	{ "read watch, global load", GLOAD, ACC_OFF, 0, 0, 0xffffffffu, 1, 1u << 7 },
	{ "read watch, whole-wave global load", WLOAD, ACC_OFF, 0, 0, 0xffffffffu, 1, 1u << 7 },
	{ "read watch, store", STORE, ACC_OFF, 0, 0, 0xffffffffu, 1, 0 },
	{ "nonread watch, store", STORE, ACC_OFF, 0, 1, 0xffffffffu, 1, 1u << 7 },
	{ "nonread watch, load", LOAD, ACC_OFF, 0, 1, 0xffffffffu, 1, 0 },
	{ "all watch, load", LOAD, ACC_OFF, 0, 3, 0xffffffffu, 1, 1u << 7 },
	{ "watch id 2", LOAD, ACC_OFF, 2, 0, 0xffffffffu, 1, 1u << 13 },
	{ "same 64-byte line", LOAD, ACC_OFF + 0x3c, 0, 0, 0xffffffffu, 1, 1u << 7 },
	{ "next 64-byte line", LOAD, ACC_OFF + 0x40, 0, 0, 0xffffffffu, 1, 0, true },
	{ "next 128-byte line", LOAD, ACC_OFF + 0x80, 0, 0, 0xffffffffu, 1, 0 },
	{ "next line, bit 6 masked off", LOAD, ACC_OFF + 0x40, 0, 0, ~0x40u, 1, 1u << 7 },
	{ "read watch, buffer load", BLOAD, ACC_OFF, 0, 0, 0xffffffffu, 1, 1u << 7 },
	{ "nonread watch, buffer store", BSTORE, ACC_OFF, 1, 1, 0xffffffffu, 1, 1u << 12 },
	{ "read watch, buffer store", BSTORE, ACC_OFF, 0, 0, 0xffffffffu, 1, 0 },
	{ "no watch point", LOAD, ACC_OFF, 0, 0, 0xffffffffu, 0, 0 },
};

static void check(const char *mcpu, uint32_t gfxv, const struct tcase *t)
{
	static struct trig r;
	struct sqk_result res;
	unsigned k = 0;
	uint32_t sts = t->gc10_hit && gfxv >= 100000 ? 1u << 7 : t->sts;
	int rc;

	memset(&r, 0, sizeof(r));
	r.tba = TRIG_CODE_VA + TRIG_HANDLER_OFF;
	r.nwatch = t->nwatch;
	r.wp[0] = (struct sqk_watch){
		.addr = DATA_VA + ACC_OFF, .mask = t->mask, .mode = t->mode, .id = t->id
	};
	trig_asm(&r, src(t->acc, t->off), mcpu);
	r.data[t->off / 4] = 0xabcd0123u;
	rc = trig_run(&r, gfxv, &res);
	CHECK(rc == 0 && !res.trapped, "%s: %s: rc %d (%s)", mcpu, t->name, rc, res.msg);
	if (sts) {
		CHECK(r.n >= 1 && r.msg[0] == (1u | SQK_MSG_PRIV) && r.m0[0] == sts,
		      "%s: %s: handler TRAPSTS %#x (msg %#x), want %#x", mcpu, t->name, r.m0[0],
		      r.msg[0], sts);
		k = 1;
	}
	CHECK_EQ(r.n, k + 1, "%s: %s: messages", mcpu, t->name);
	CHECK(r.msg[k] == 1u && r.m0[k] == 0x1234u,
	      "%s: %s: the next instruction runs once, after the handler", mcpu, t->name);
	if (strstr(t->acc, "store"))
		CHECK_EQ(r.data[t->off / 4], 0x55u, "%s: %s: stored", mcpu, t->name);
	else
		CHECK_EQ(r.data[RES_OFF / 4], 0xabcd0123u, "%s: %s: loaded before the trap", mcpu,
			 t->name);
}

/* Without precise memory operations (sqk_watch.late: the debugger's
 * SINGLE_MEM_OP off) the hit is reported when the access returns: here
 * after the next instruction (v4 = 2 when the handler copies it to v8;
 * 1 when precise, as kfdtest's HitAddressWatch tells the two apart), and
 * before the wave ends when s_endpgm follows the access (@end). */
static void check_late(const char *mcpu, uint32_t gfxv, bool late, bool end)
{
	static struct trig r;
	static char buf[2048];
	struct sqk_result res;
	uint64_t a = DATA_VA + ACC_OFF, out = DATA_VA + RES_OFF;
	int rc;

	snprintf(buf, sizeof(buf),
		 ".text\n"
		 "  v_mov_b32 v0, 0x%x\n"
		 "  v_mov_b32 v1, 0x%x\n"
		 "  v_mov_b32 v4, 1\n"
		 "  v_mov_b32 v8, 0\n"
		 "  flat_load_dword v2, v[0:1]\n"
		 "%s"
		 "  v_mov_b32 v4, 2\n"
		 "  v_mov_b32 v6, 0x%x\n"
		 "  v_mov_b32 v7, 0x%x\n"
		 "  flat_store_dword v[6:7], v8\n"
		 "  s_waitcnt vmcnt(0) & lgkmcnt(0)\n"
		 "  s_endpgm\n"
		 ".org 0x%x\n"
		 "  s_getreg_b32 ttmp14, hwreg(HW_REG_TRAPSTS)\n"
		 "  s_mov_b32 m0, ttmp14\n"
		 "  s_sendmsg sendmsg(MSG_INTERRUPT)\n"
		 "  v_mov_b32 v8, v4\n"
		 "  s_and_b32 ttmp1, ttmp1, 0xffff\n"
		 "  s_rfe_b64 ttmp[0:1]\n",
		 (unsigned)a, (unsigned)(a >> 32), end ? "  s_endpgm\n" : "", (unsigned)out,
		 (unsigned)(out >> 32), TRIG_HANDLER_OFF);
	memset(&r, 0, sizeof(r));
	r.tba = TRIG_CODE_VA + TRIG_HANDLER_OFF;
	r.nwatch = 1;
	r.wp[0] = (struct sqk_watch){
		.addr = a, .mask = 0xffffffffu, .mode = 0, .id = 0, .late = late
	};
	trig_asm(&r, buf, mcpu);
	rc = trig_run(&r, gfxv, &res);
	CHECK(rc == 0 && r.n == 1 && r.m0[0] == 1u << 7, "%s: late %d end %d: rc %d, %u messages",
	      mcpu, late, end, rc, r.n);
	if (!end)
		CHECK_EQ(r.data[RES_OFF / 4], late ? 2u : 1u,
			 "%s: the handler ran after %s instruction", mcpu,
			 late ? "the next" : "no");
}

int main(void)
{
	if (kco_asm_missing())
		return T_EXIT_SKIP;
	/* every wave runs (none is recorded for replay): the run loop takes
	 * its late-watch tests only from the dispatch's watches */
	sqk_replay_off = true;
	check_late("gfx1030", 100300, false, false);
	check_late("gfx1030", 100300, true, false);
	check_late("gfx1030", 100300, true, true);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		check("gfx90a", 90010, &cases[i]);
		check("gfx942", 90402, &cases[i]);
		check("gfx1030", 100300, &cases[i]);
	}
	return t_result("emu_sqk_addr_watch");
}
