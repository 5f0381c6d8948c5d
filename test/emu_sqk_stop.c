/* SPDX-License-Identifier: MIT */
/*
 * A running dispatch notices its queue's stop (destroy, suspend, a fault
 * on another queue) within a bounded number of instructions, however many
 * waves its workgroup has: a workgroup of 1024 work-items (16 wave64 or 32
 * wave32 waves) that branches to itself forever runs on sqk_run() directly,
 * and the env's stop() turns true after a given number of polls. The
 * interpreter must return -EINTR having executed no more than 256
 * instructions per poll (sqk_wave.c STOP_POLL), not a quantum of every wave
 * of the workgroup first (16 x 4096 instructions). No LLVM needed: the
 * code is one SOPP word. And the loop counts a taken branch once, going
 * on at its target: s_branch over one s_endpgm to another ends the wave
 * after two instructions (a loop that ran the branch again until its
 * quantum ended would count thousands).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emu/sq/sqk.h"
#include "kfd_util.h"

#define CODE_VA 0x10000ull
#define POLL 256 /* sqk_wave.c STOP_POLL */

static uint32_t code[1024];

struct stopper {
	unsigned calls, true_from;
};

static void *xlate(void *ctx, uint64_t va, uint32_t len, bool write, bool *ro)
{
	(void)ctx;
	*ro = true;
	if (!write && va >= CODE_VA && len <= sizeof(code) && va - CODE_VA <= sizeof(code) - len)
		return (uint8_t *)code + (va - CODE_VA);
	return NULL;
}

static bool stop(void *ctx)
{
	struct stopper *s = ctx;

	return ++s->calls >= s->true_from;
}

static void run(const char *name, uint32_t gfxv, bool wave32, unsigned true_from)
{
	struct stopper st = { 0, true_from };
	struct sqk_env env = { .ctx = &st, .xlate = xlate, .stop = stop };
	struct sqk_dispatch d = { 0 };
	struct sqk_result res;
	int rc;

	/* s_branch -1: SOPP (0x17f << 23), opcode 2 (S_BRANCH in the GFX9 and
	 * RDNA2 ISA manuals' SOPP tables), SIMM16 -1: the branch target is
	 * PC + 4 + SIMM16 * 4, the instruction itself */
	for (size_t i = 0; i < sizeof(code) / 4; i++)
		code[i] = 0xbf82ffffu;
	d.fam = sqk_family_of(gfxv);
	T_REQUIRE(d.fam, "family of %s", name);
	d.entry = CODE_VA;
	d.rsrc1 = 0; /* 8 VGPRs */
	d.aql = true;
	d.wave32 = wave32;
	d.wg[0] = d.grid[0] = 1024;
	d.wg[1] = d.wg[2] = d.grid[1] = d.grid[2] = 1;
	rc = sqk_run(&d, &env, &res);
	CHECK_EQ(rc, -EINTR, "%s: a stopped dispatch", name);
	CHECK_EQ(res.err, -EINTR, "%s: the result says stopped", name);
	CHECK_EQ(res.waves, wave32 ? 32u : 16u, "%s: waves launched", name);
	CHECK(st.calls == true_from, "%s: stop() polled %u times, true from the %u-th", name,
	      st.calls, true_from);
	CHECK(res.insns <= (uint64_t)true_from * POLL,
	      "%s: %llu instructions before the stop was seen (at most %u per poll, %u polls)",
	      name, (unsigned long long)res.insns, POLL, true_from);
	CHECK(res.insns >= (uint64_t)true_from * (POLL - 1), "%s: %llu instructions for %u polls",
	      name, (unsigned long long)res.insns, true_from);
}

/* s_branch +1 (to PC + 4 + 4), s_endpgm (skipped), s_endpgm: SOPP opcodes
 * 2 and 1 in the GFX9 and RDNA2 ISA manuals' SOPP tables */
static void branch_once(const char *name, uint32_t gfxv)
{
	struct stopper st = { 0, ~0u };
	struct sqk_env env = { .ctx = &st, .xlate = xlate, .stop = stop };
	struct sqk_dispatch d = { 0 };
	struct sqk_result res;
	int rc;

	code[0] = 0xbf820001u;
	code[1] = 0xbf810000u;
	code[2] = 0xbf810000u;
	d.fam = sqk_family_of(gfxv);
	T_REQUIRE(d.fam, "family of %s", name);
	d.entry = CODE_VA;
	d.aql = true;
	d.wg[0] = d.grid[0] = 64;
	d.wg[1] = d.wg[2] = d.grid[1] = d.grid[2] = 1;
	rc = sqk_run(&d, &env, &res);
	CHECK_EQ(rc, 0, "%s: branch over s_endpgm: %s", name, res.msg);
	CHECK_EQ(res.insns, 2ull, "%s: instructions run (the branch once, then s_endpgm)", name);
}

int main(void)
{
	branch_once("gfx90a", 90010);
	branch_once("gfx1030", 100300);
	run("gfx90a", 90010, false, 1);
	run("gfx90a", 90010, false, 40);
	run("gfx900", 90000, false, 3);
	run("gfx1030 wave32", 100300, true, 1);
	run("gfx1030 wave32", 100300, true, 70);
	run("gfx1030 wave64", 100300, false, 5);
	return t_result("emu_sqk_stop");
}
