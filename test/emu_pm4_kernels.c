/* SPDX-License-Identifier: MIT */
/*
 * Compiled kernels dispatched through kfdsig_pm4_emit_kernel() on a PM4
 * compute queue of the emulated KFD, compared with the host:
 * test/kernels/sqk_kernels.ll compiled by LLVM 22 at -O0 (private segment
 * buffer, dispatch pointer, kernarg pointer, dispatch id and flat scratch
 * user SGPRs, a stack in scratch) and -O2, for gfx90a (wave64), gfx1030,
 * gfx1010 and gfx1100 (wave32; gfx1100 with architected flat scratch,
 * COMPUTE_DISPATCH_SCRATCH_BASE and 256-byte WAVESIZE units), gfx1200
 * (wave32 and wave64) and gfx1201 (wave32; as gfx1100, the workgroup ids
 * in ttmp9/ttmp7): a vector add whose last workgroup is partial
 * (PARTIAL_TG_EN), an LDS reduction, private arrays (scratch from
 * COMPUTE_TMPRING_SIZE) and 3D ids, reading the workgroup size from the
 * dispatch packet at the dispatch pointer; and test/kernels/pm4_implicit.ll,
 * reading its sizes from the implicit arguments kfdsig_pm4_implicit_args()
 * wrote. gfx942, gfx950 and gfx1250 at -O0 (private arrays through
 * architected flat scratch, COMPUTE_DISPATCH_SCRATCH_BASE; gfx1250 with
 * its own TMPRING_SIZE and RSRC3 offsets) and an LDS reduction on
 * gfx950 and gfx1250 (LDS_SIZE granules of 1280 and 2048 bytes). Also the
 * emitter's refusals, its packets' register layout and the
 * register names kfdsig decode shows. The reduction, private-array and
 * 3D-id checks are emu_sqk_checks.h's, dispatched here (krig.run3). Exit
 * 77 without LLVM 22.
 */
#include "emu_sqk_checks.h"

#include <kfdsig/decode.h>
#include <kfdsig/pm4.h>

#define WAIT_MS 20000

struct prig {
	struct krig k;
	const struct kfdsig_target *t;
	struct kfdsig_kfd_queue *pm4;
	uint64_t scratch_va;
	uint64_t scratch_size;
	int fails;		    /* t_failures when this target's kernels began */
	bool thread_dims;	    /* DISPATCH_DIRECT counts work-items (USE_THREAD_DIMENSIONS) */
	struct kfdsig_kfd_queue *q; /* another queue for the next dispatch, NULL: pm4 */
};

/* Dispatch @name over @grid in groups of @wg through the PM4 queue; the
 * dispatch packet image at the dispatch pointer, a scratch of 256 KiB. */
static int prun3i(struct prig *p, const char *name, const uint32_t grid[3], const uint32_t wg[3],
		  const void *args, size_t nargs, size_t implicit_at)
{
	struct krig *r = &p->k;
	uint64_t kd_va = krig_kd(r, name), karg_va;
	uint8_t *karg = krig_alloc(r, 512, &karg_va);
	uint32_t buf[KFDSIG_PM4_KERNEL_MAX_DW];
	int n;

	/* after a failure on this target the unit is known wrong: a kernel
	 * on it may loop for ever, and the verdict is in */
	if (t_failures > p->fails)
		return -ECANCELED;
	memset(karg, 0, 512);
	memcpy(karg, args, nargs);
	{
		struct kfdsig_pm4_kernel k = krig_pm4_kernel(r, kd_va, grid, wg, karg_va,
							     p->scratch_va, p->scratch_size);

		if (implicit_at)
			T_REQUIRE(kfdsig_pm4_implicit_args(&k, karg + implicit_at,
							   512 - implicit_at) == 0,
				  "implicit arguments");
		n = kfdsig_pm4_emit_kernel(p->t, &k, buf, KFDSIG_PM4_KERNEL_MAX_DW);
		CHECK(n > 0 && n == kfdsig_pm4_kernel_dw(p->t, &k), "%s: emit %d (%s)", name, n,
		      n < 0 ? kfdsig_last_error() : "");
		if (n <= 0)
			return -EINVAL;
	}
	if (p->thread_dims) {
		/* the same dispatch counted in work-items */
		for (int i = 0; i + 5 <= n; i++)
			if (buf[i] >> 30 == 3 && (buf[i] >> 8 & 0xff) == 0x15) {
				for (int d = 0; d < 3; d++)
					buf[i + 1 + d] = grid[d];
				buf[i + 4] |= KFDSIG_PM4_DI_USE_THREAD_DIMENSIONS;
			}
	}
	if (p->q) {
		T_REQUIRE(kfdsig_kfd_queue_submit(p->q, buf, (uint32_t)n, WAIT_MS) == 0, "submit");
		return 0;
	}
	T_REQUIRE(kfdsig_kfd_queue_submit(p->pm4, buf, (uint32_t)n, WAIT_MS) == 0, "submit");
	/* done when the engine is idle; a queue that stopped (a wave's
	 * fault or exception, a bad packet) never will be */
	{
		uint32_t exc;

		n = krig_wait_idle(&p->k, p->pm4, WAIT_MS, &exc);
		if (n == -EIO)
			fprintf(stderr, "%s: the PM4 queue stopped (exception %u)\n", name, exc);
	}
	return n;
}

/* A dispatch's return code: true when it ran; false, reported, when it
 * did not; false, silent, when it was not run after an earlier failure. */
static bool ran(int rc, const char *what, const char *kernel)
{
	if (rc == -ECANCELED)
		return false;
	CHECK(rc == 0, "%s %s ran (%d)", what, kernel, rc);
	return rc == 0;
}

static int prun3(struct prig *p, const char *name, const uint32_t grid[3], const uint32_t wg[3],
		 const void *args, size_t nargs)
{
	return prun3i(p, name, grid, wg, args, nargs, 0);
}

static int prun(struct prig *p, const char *name, uint32_t grid, uint32_t wg, const void *args,
		size_t nargs)
{
	const uint32_t g[3] = { grid, 1, 1 }, w[3] = { wg, 1, 1 };

	return prun3(p, name, g, w, args, nargs);
}

/* krig_run3() through prun3() (krig.run3): emu_sqk_checks.h's checks on
 * the PM4 queue; @ms is WAIT_MS. */
static int prig_run3(struct krig *r, const char *name, const uint32_t grid[3], const uint32_t wg[3],
		     const void *args, size_t nargs, unsigned ms)
{
	(void)ms;
	return prun3((struct prig *)((char *)r - offsetof(struct prig, k)), name, grid, wg, args,
		     nargs);
}

/* A rig on the emulated @spec (the emitter's @target) with @co loaded, a
 * PM4 queue and a scratch of 256 KiB; emu_sqk_checks.h's checks dispatch
 * through it. */
static void prig_open(struct prig *p, const char *spec, const char *target, const struct kco *co)
{
	uint8_t *s;

	memset(p, 0, sizeof(*p));
	p->fails = t_failures;
	krig_open(&p->k, spec, 16u << 20);
	p->k.run3 = prig_run3;
	p->t = kfdsig_target_by_name(target);
	T_REQUIRE(!kfdsig_kfd_queue_create(p->k.kfd, p->k.gpu, KFDSIG_QUEUE_PM4, NULL, &p->pm4),
		  "PM4 queue");
	krig_load(&p->k, co);
	p->scratch_size = 256u << 10;
	s = krig_alloc(&p->k, p->scratch_size, &p->scratch_va);
	memset(s, 0, p->scratch_size);
}

static void prig_close(struct prig *p)
{
	kfdsig_kfd_queue_destroy(p->pm4);
	krig_close(&p->k);
}

/* sqk_kernels.ll's vadd buffers for @n work-items in @ka: a and b, then
 * c 64 bytes longer and filled with 0xcd; the kernel's count argument
 * bounds nothing (the grid alone does). */
static void vadd_args(struct prig *p, uint32_t n, struct krig_args *ka)
{
	krig_args(&p->k, ka, (const uint64_t[]){ 4 * n, 4 * n, 4 * n + 64 }, 3, 1u << 30);
	memset(ka->p[2], 0xcd, 4 * n + 64);
}

/* sqk_kernels.ll's vadd bounded by the grid alone, the last workgroup
 * partial. */
static void t_vadd_grid(struct prig *p, const char *what)
{
	const uint32_t n = 1000;
	struct krig_args ka;
	float *a, *b, *c;
	unsigned bad = 0;

	vadd_args(p, n, &ka);
	a = ka.p[0], b = ka.p[1], c = ka.p[2];
	for (uint32_t i = 0; i < n; i++)
		a[i] = (float)i * 0.37f - 11.0f, b[i] = 1.0f / (float)(i + 1);
	/* the grid alone stops at n: the last workgroup is 40 wide */
	if (!ran(prun(p, "vadd", n, 64, ka.va, ka.nargs), what, "vadd"))
		return;
	for (uint32_t i = 0; i < n; i++)
		bad += c[i] != a[i] + b[i] * 2.5f + (float)i;
	CHECK(bad == 0, "%s vadd: %u of %u wrong (c[1] %g)", what, bad, n, (double)c[1]);
	CHECK(((uint32_t *)c)[n] == 0xcdcdcdcdu, "%s vadd: nothing past the partial group", what);
}

/* test/kernels/pm4_implicit.ll: its sizes from the implicit arguments
 * kfdsig_pm4_implicit_args() wrote (at kernarg + 8), over 100 work-items
 * in groups of 64 (the second one partial). */
static void t_implicit(struct prig *p, const char *what)
{
	const uint32_t grid[3] = { 100, 1, 1 }, wg[3] = { 64, 1, 1 };
	uint64_t out_va;
	uint32_t *out = krig_alloc(&p->k, 4 * 128, &out_va);
	unsigned bad = 0;

	memset(out, 0xcd, 4 * 128);
	if (!ran(prun3i(p, "implicit", grid, wg, &out_va, 8, 8), what, "implicit"))
		return;
	for (uint32_t i = 0; i < 100; i++)
		bad += out[i] != ((i < 64 ? 64u : 36u) | 2u << 12 | 1u << 24);
	CHECK(bad == 0 && out[100] == 0xcdcdcdcdu,
	      "%s implicit arguments: %u of 100 wrong (out[0] 0x%x, out[70] 0x%x)", what, bad,
	      out[0], out[70]);
}

/* DISPATCH_DIRECT in work-items (USE_THREAD_DIMENSIONS): whole groups run
 * as the same grid in workgroups would; a partial group in this mode is not
 * run on a guess: the queue stops at it with the bad-packet exception. */
static void t_thread_dims(struct prig *p, const char *what)
{
	const uint32_t n = 256;
	struct krig_args ka;
	float *a, *b, *c;
	unsigned bad = 0;

	vadd_args(p, n, &ka);
	a = ka.p[0], b = ka.p[1], c = ka.p[2];
	for (uint32_t i = 0; i < n; i++)
		a[i] = (float)i, b[i] = 2.0f;
	p->thread_dims = true;
	if (ran(prun(p, "vadd", n, 64, ka.va, ka.nargs), what, "thread dimensions")) {
		for (uint32_t i = 0; i < n; i++)
			bad += c[i] != a[i] + b[i] * 2.5f + (float)i;
		CHECK(bad == 0 && ((uint32_t *)c)[n] == 0xcdcdcdcdu,
		      "%s thread dimensions: %u of %u wrong, c[n] 0x%x", what, bad, n,
		      ((uint32_t *)c)[n]);
	}

	/* 250 work-items in groups of 64: a partial group, on a queue of its own */
	if (t_failures == p->fails) {
		uint32_t exc;
		int rc;

		T_REQUIRE(
			!kfdsig_kfd_queue_create(p->k.kfd, p->k.gpu, KFDSIG_QUEUE_PM4, NULL, &p->q),
			"PM4 queue");
		CHECK(prun(p, "vadd", 250, 64, ka.va, ka.nargs) == 0, "%s submit", what);
		/* a queue stopped at a packet never reads as idle: its read
		 * pointer stays at the packet (idle = the dispatch ran) */
		rc = krig_wait_idle(&p->k, p->q, WAIT_MS, &exc);
		CHECK(rc == -EIO && exc == KFDSIG_EMU_QUEUE_BAD_OPCODE,
		      "%s thread dimensions, partial group: the queue stops at the packet "
		      "(wait %d: %s, exception %u)",
		      what, rc,
		      rc == 0	   ? "it ran to the end"
		      : rc == -EIO ? "stopped"
				   : "timed out",
		      exc);
		kfdsig_kfd_queue_destroy(p->q);
		p->q = NULL;
	}
	p->thread_dims = false;
}

/* COMPUTE_TMPRING_SIZE and COMPUTE_PGM_RSRC3 where @t's register map has
 * them: GC 12.1 (gfx_target_version 120500) moves both
 * (gc_12_1_0_offset.h regCOMPUTE_TMPRING_SIZE 0x1bb6, regCOMPUTE_PGM_RSRC3
 * 0x1bc3); the offsets of gfx10-12.0 are other registers there. */
static uint32_t tmpring_off(const struct kfdsig_target *t)
{
	return t->gfx_target_version == 120500 ? KFDSIG_PM4_SH_COMPUTE_TMPRING_SIZE_GC12_1
					       : KFDSIG_PM4_SH_COMPUTE_TMPRING_SIZE;
}

/* The scratch base (>> 8, 0: none), TMPRING_SIZE and LDS_SIZE granules
 * one dispatch of @k programs on @t; on GC 12.1 nothing at gfx12.0's
 * TMPRING_SIZE and RSRC3 offsets, RSRC3 at its own. */
static void t_sbase(const struct kfdsig_target *t, const struct kfdsig_pm4_kernel *k,
		    uint32_t sbase, uint32_t tmpring, uint32_t lds_granules)
{
	uint32_t b[KFDSIG_PM4_KERNEL_MAX_DW], base = 0, tmp = 0xdead, rsrc2 = 0, stray = 0,
					      rsrc3 = 0;
	int n = kfdsig_pm4_emit_kernel(t, k, b, KFDSIG_PM4_KERNEL_MAX_DW);

	CHECK(n > 0, "%s: emit %d (%s)", t->name, n, n < 0 ? kfdsig_last_error() : "");
	for (int i = 0; i < n;) {
		uint32_t cnt = (b[i] >> 16 & 0x3fff) + 1;

		if ((b[i] >> 8 & 0xff) == KFDSIG_PM4_OP_SET_SH_REG)
			for (uint32_t j = 1; j < cnt; j++) {
				uint32_t reg = b[i + 1] + j - 1, v = b[i + 1 + j];

				if (reg == KFDSIG_PM4_SH_COMPUTE_DISPATCH_SCRATCH_BASE_LO)
					base = v;
				else if (reg == tmpring_off(t))
					tmp = v;
				else if (reg == KFDSIG_PM4_SH_COMPUTE_PGM_RSRC2)
					rsrc2 = v;
				else if (reg == KFDSIG_PM4_SH_COMPUTE_PGM_RSRC3_GC12_1)
					rsrc3++;
				else if (t->gfx_target_version == 120500 &&
					 (reg == KFDSIG_PM4_SH_COMPUTE_TMPRING_SIZE ||
					  reg == KFDSIG_PM4_SH_COMPUTE_PGM_RSRC3_GFX10))
					stray = reg;
			}
		i += (int)cnt + 1;
	}
	if (t->gfx_target_version == 120500)
		CHECK(!stray && rsrc3 == 1,
		      "%s: SH 0x%x written (gfx12.0's TMPRING_SIZE/RSRC3), RSRC3 at 0x223 %u times",
		      t->name, stray, rsrc3);
	CHECK(base == sbase, "%s: scratch base 0x%x (want 0x%x)", t->name, base, sbase);
	CHECK(tmp == tmpring, "%s: TMPRING_SIZE 0x%x (want 0x%x)", t->name, tmp, tmpring);
	CHECK((rsrc2 >> 15 & 0x1ff) == lds_granules, "%s: LDS_SIZE %u (want %u)", t->name,
	      rsrc2 >> 15 & 0x1ff, lds_granules);
}

/* The packets of one dispatch, read back register by register. */
static void t_layout(void)
{
	const struct kfdsig_target *t9 = kfdsig_target_by_name("gfx90a"),
				   *t10 = kfdsig_target_by_name("gfx1030"),
				   *t11 = kfdsig_target_by_name("gfx1100"),
				   *t94 = kfdsig_target_by_name("gfx942"),
				   *t950 = kfdsig_target_by_name("gfx950"),
				   *t1250 = kfdsig_target_by_name("gfx1250"),
				   *t1201 = kfdsig_target_by_name("gfx1201");
	uint8_t kd[64] = { 0 };
	uint32_t b[KFDSIG_PM4_KERNEL_MAX_DW], rsrc2, user[16] = { 0 }, nuser = 0, tmp = 0xdead,
						     nt[3] = { 0 }, di = 0, dims[3] = { 0 },
						     sbase[2] = { 0 };
	uint16_t props = KFDSIG_KD_SGPR_PRIVATE_SEGMENT_BUFFER | KFDSIG_KD_SGPR_DISPATCH_PTR |
			 KFDSIG_KD_SGPR_KERNARG_SEGMENT_PTR | KFDSIG_KD_SGPR_DISPATCH_ID |
			 KFDSIG_KD_SGPR_FLAT_SCRATCH_INIT | KFDSIG_KD_SGPR_PRIVATE_SEGMENT_SIZE;
	int64_t entry = 256;
	uint32_t priv = 100, lds = 1000;
	int n;

	T_REQUIRE(t9 && t10 && t11 && t94 && t950 && t1250 && t1201, "targets");
	rsrc2 = 13u << 1 | 1u; /* 13 user SGPRs, private offset */
	memcpy(kd + KFDSIG_KD_ENTRY_BYTE_OFFSET, &entry, 8);
	memcpy(kd + KFDSIG_KD_PGM_RSRC2, &rsrc2, 4);
	memcpy(kd + KFDSIG_KD_CODE_PROPERTIES, &props, 2);
	memcpy(kd + KFDSIG_KD_PRIVATE_SEGMENT_FIXED_SIZE, &priv, 4);
	memcpy(kd + KFDSIG_KD_GROUP_SEGMENT_FIXED_SIZE, &lds, 4);
	{
		KFDSIG_OPTS(kfdsig_pm4_kernel, k, .kd = kd, .kd_va = 0x100000,
			    .grid = { 100, 3, 1 }, .workgroup = { 64, 2, 1 },
			    .kernarg_va = 0x200000, .dispatch_va = 0x300040,
			    .dispatch_id = 0x1122334455ull, .scratch_va = 0x400000,
			    .scratch_size = 1u << 20);

		n = kfdsig_pm4_emit_kernel(t9, &k, b, KFDSIG_PM4_KERNEL_MAX_DW);
		CHECK(n > 0 && n == kfdsig_pm4_kernel_dw(t9, &k), "gfx90a layout: %d (%s)", n,
		      kfdsig_last_error());
		/* walk the packets: SET_SH_REG register runs, then DISPATCH_DIRECT */
		for (int i = 0; i < n && n > 0;) {
			uint32_t h = b[i], cnt = (h >> 16 & 0x3fff) + 1, op = h >> 8 & 0xff;

			CHECK((h >> 30) == 3 && (h & 2), "type-3 compute header at %d", i);
			if (op == KFDSIG_PM4_OP_SET_SH_REG) {
				for (uint32_t j = 1; j < cnt; j++) {
					uint32_t reg = b[i + 1] + j - 1, v = b[i + 1 + j];

					if (reg >= KFDSIG_PM4_SH_COMPUTE_USER_DATA_0 &&
					    reg < KFDSIG_PM4_SH_COMPUTE_USER_DATA_0 + 16) {
						user[reg - KFDSIG_PM4_SH_COMPUTE_USER_DATA_0] = v;
						nuser++;
					} else if (reg == KFDSIG_PM4_SH_COMPUTE_TMPRING_SIZE) {
						tmp = v;
					} else if (reg >= KFDSIG_PM4_SH_COMPUTE_NUM_THREAD_X &&
						   reg < KFDSIG_PM4_SH_COMPUTE_NUM_THREAD_X + 3) {
						nt[reg - KFDSIG_PM4_SH_COMPUTE_NUM_THREAD_X] = v;
					} else if (reg == KFDSIG_PM4_SH_COMPUTE_PGM_RSRC2) {
						rsrc2 = v;
					}
				}
			} else {
				CHECK(op == KFDSIG_PM4_OP_DISPATCH_DIRECT && i + 5 == n,
				      "DISPATCH_DIRECT last (op 0x%x at %d)", op, i);
				dims[0] = b[i + 1], dims[1] = b[i + 2], dims[2] = b[i + 3];
				di = b[i + 4];
			}
			i += (int)cnt + 1;
		}
		/* AMDGPUUsage order: V# (4), dispatch ptr, kernarg ptr, dispatch
		 * id, flat scratch init, private segment size */
		CHECK(nuser == 13, "13 user-data registers (%u)", nuser);
		CHECK(user[0] == 0x400000 && (user[3] >> 23 & 1) && (user[3] >> 21 & 3) == 3,
		      "private segment buffer: scratch base, ADD_TID, stride 64 (0x%x 0x%x)",
		      user[0], user[3]);
		CHECK(user[4] == 0x300040 && user[5] == 0, "dispatch ptr at 4 (0x%x)", user[4]);
		CHECK(user[6] == 0x200000 && user[7] == 0, "kernarg ptr at 6 (0x%x)", user[6]);
		CHECK(user[8] == 0x22334455 && user[9] == 0x11, "dispatch id at 8");
		CHECK(user[10] == 0x400000 && user[11] == 0, "flat scratch init at 10");
		CHECK(user[12] == 100, "private segment size at 12 (%u)", user[12]);
		/* 100 bytes x 64 lanes = 6400 -> 7 KiB units; 1 MiB / 7 KiB waves */
		CHECK((tmp >> 12 & 0x1fff) == 7 && (tmp & 0xfff) == (1u << 20) / 7168,
		      "TMPRING_SIZE 0x%x", tmp);
		CHECK((rsrc2 >> 15 & 0x1ff) == 2, "LDS_SIZE: 1000 bytes in two granules (0x%x)",
		      rsrc2);
		CHECK(nt[0] == (64u | 36u << 16) && nt[1] == (2u | 1u << 16) &&
			      nt[2] == (1u | 1u << 16),
		      "NUM_THREAD full/partial 0x%x 0x%x 0x%x", nt[0], nt[1], nt[2]);
		CHECK(dims[0] == 2 && dims[1] == 2 && dims[2] == 1, "group counts %u %u %u",
		      dims[0], dims[1], dims[2]);
		CHECK(di == (KFDSIG_PM4_DI_COMPUTE_SHADER_EN | KFDSIG_PM4_DI_FORCE_START_AT_000 |
			     KFDSIG_PM4_DI_PARTIAL_TG_EN),
		      "initiator 0x%x", di);

		/* refusals */
		k.dispatch_va = 0;
		CHECK(kfdsig_pm4_emit_kernel(t9, &k, b, KFDSIG_PM4_KERNEL_MAX_DW) == -EINVAL,
		      "dispatch pointer 0 refused");
		k.dispatch_va = 0x300040;
		k.scratch_size = 1024;
		CHECK(kfdsig_pm4_emit_kernel(t9, &k, b, KFDSIG_PM4_KERNEL_MAX_DW) == -EINVAL,
		      "scratch smaller than a wave refused");
		k.scratch_size = 1u << 20;
		CHECK(kfdsig_pm4_emit_kernel(t1250, &k, b, KFDSIG_PM4_KERNEL_MAX_DW) == -ENOTSUP,
		      "gfx1250 private memory, num_xcc not known: refused");
		/* a multi-XCC target: private memory only on a one-XCC node
		 * (each XCC's wave slots start at the one scratch base) */
		CHECK(kfdsig_pm4_emit_kernel(t94, &k, b, KFDSIG_PM4_KERNEL_MAX_DW) == -ENOTSUP,
		      "gfx942 private memory, num_xcc not known: refused");
		k.num_xcc = 8;
		CHECK(kfdsig_pm4_emit_kernel(t94, &k, b, KFDSIG_PM4_KERNEL_MAX_DW) == -ENOTSUP,
		      "gfx942 private memory on 8 XCCs: refused");
		k.num_xcc = 9;
		CHECK(kfdsig_pm4_emit_kernel(t94, &k, b, KFDSIG_PM4_KERNEL_MAX_DW) == -EINVAL,
		      "num_xcc above the target's XCCs refused");
		k.num_xcc = 2;
		CHECK(kfdsig_pm4_emit_kernel(t9, &k, b, KFDSIG_PM4_KERNEL_MAX_DW) == -EINVAL,
		      "num_xcc 2 on one-XCC gfx90a refused");
		k.num_xcc = 1;
		CHECK(kfdsig_pm4_emit_kernel(t9, &k, b, KFDSIG_PM4_KERNEL_MAX_DW) > 0,
		      "num_xcc 1 on gfx90a: %s", kfdsig_last_error());
		/* gfx11 and later read WAVES per shader engine: private
		 * memory without the engine count refused, and a scratch below
		 * one wave per engine */
		CHECK(kfdsig_pm4_emit_kernel(t1250, &k, b, KFDSIG_PM4_KERNEL_MAX_DW) == -EINVAL &&
			      strstr(kfdsig_last_error(), "num_se"),
		      "gfx1250 private memory, num_se not known: refused (%s)",
		      kfdsig_last_error());
		CHECK(kfdsig_pm4_emit_kernel(t11, &k, b, KFDSIG_PM4_KERNEL_MAX_DW) == -EINVAL,
		      "gfx1100 private memory, num_se not known: refused");
		k.num_se = 4;
		k.scratch_size = 3 * 6400;
		CHECK(kfdsig_pm4_emit_kernel(t1250, &k, b, KFDSIG_PM4_KERNEL_MAX_DW) == -EINVAL,
		      "gfx1250: 3 waves of scratch for 4 shader engines refused");
		k.scratch_size = 4 * 6400;
		t_sbase(t1250, &k, 0x4000, 25u << 12 | 1u, 1);
		/* before gfx11 WAVES is the total, a multiple of num_se when
		 * given (ROCr FillComputeTmpRingSize() asserts it): 3 waves for
		 * 4 engines refused, 7 written as 4 */
		CHECK(kfdsig_pm4_emit_kernel(t9, &k, b, KFDSIG_PM4_KERNEL_MAX_DW) == -EINVAL,
		      "gfx90a: 3 waves of scratch for 4 shader engines refused");
		k.scratch_size = 7 * 7168;
		t_sbase(t9, &k, 0, 7u << 12 | 4u, 2);
		k.scratch_size = 1u << 20;
		/* gfx942 on a CPX node: architected flat scratch from
		 * DISPATCH_SCRATCH_BASE, gfx9 TMPRING_SIZE (WAVES the total, 146
		 * waves rounded down to a multiple of 4 engines); gfx950 and
		 * gfx1250: LDS granules of 1280 and 2048 bytes */
		t_sbase(t94, &k, 0x4000, 7u << 12 | 144u, 2);
		t_sbase(t950, &k, 0x4000, 7u << 12 | 144u, 1);
		/* gfx1250 on a CPX node: DISPATCH_SCRATCH_BASE, TMPRING_SIZE at
		 * 0x216 in 256-byte units: 100 x 64 lanes = 25 units; WAVES
		 * per engine: the total over 4 engines, over 3 on gfx1201 */
		t_sbase(t1250, &k, 0x4000, 25u << 12 | (1u << 20) / 6400 / 4, 1);
		k.num_se = 3;
		t_sbase(t1201, &k, 0x4000, 25u << 12 | (1u << 20) / 6400 / 3, 2);
		k.num_se = 4;
		priv = 0;
		memcpy(kd + KFDSIG_KD_PRIVATE_SEGMENT_FIXED_SIZE, &priv, 4);
		lds = 2049;
		memcpy(kd + KFDSIG_KD_GROUP_SEGMENT_FIXED_SIZE, &lds, 4);
		k.num_se = 0; /* no private memory: no engine count needed */
		t_sbase(t1250, &k, 0, 0, 2);
		k.num_se = 4;
		t_sbase(t950, &k, 0, 0, 2);
		priv = 100, lds = 1000;
		memcpy(kd + KFDSIG_KD_PRIVATE_SEGMENT_FIXED_SIZE, &priv, 4);
		memcpy(kd + KFDSIG_KD_GROUP_SEGMENT_FIXED_SIZE, &lds, 4);
		CHECK(kfdsig_pm4_emit_kernel(t9, &k, b, 10) == -ENOSPC, "short buffer");
		k.workgroup[0] = 1024;
		CHECK(kfdsig_pm4_emit_kernel(t9, &k, b, KFDSIG_PM4_KERNEL_MAX_DW) == -EINVAL,
		      "2048 work-items per group refused");
		k.workgroup[0] = 64;
		rsrc2 = 12u << 1;
		memcpy(kd + KFDSIG_KD_PGM_RSRC2, &rsrc2, 4);
		CHECK(kfdsig_pm4_emit_kernel(t9, &k, b, KFDSIG_PM4_KERNEL_MAX_DW) == -EINVAL,
		      "more user SGPRs than USER_SGPR_COUNT refused");
		rsrc2 = 13u << 1;
		memcpy(kd + KFDSIG_KD_PGM_RSRC2, &rsrc2, 4);
		props |= KFDSIG_KD_WAVEFRONT_SIZE32;
		memcpy(kd + KFDSIG_KD_CODE_PROPERTIES, &props, 2);
		CHECK(kfdsig_pm4_emit_kernel(t9, &k, b, KFDSIG_PM4_KERNEL_MAX_DW) == -EINVAL,
		      "wave32 on gfx90a refused");

		/* gfx1030 wave32: CS_W32_EN, stride 32; gfx1100: scratch base, 256-byte units */
		n = kfdsig_pm4_emit_kernel(t10, &k, b, KFDSIG_PM4_KERNEL_MAX_DW);
		CHECK(n > 0 && (b[n - 1] & KFDSIG_PM4_DI_CS_W32_EN), "gfx1030 wave32 initiator");
		n = kfdsig_pm4_emit_kernel(t11, &k, b, KFDSIG_PM4_KERNEL_MAX_DW);
		for (int i = 0; i < n - 4; i++)
			if (b[i] >> 8 ==
				    (0xc0000000u | KFDSIG_PM4_OP_SET_SH_REG << 8 | 2u << 16) >> 8 &&
			    b[i + 1] == KFDSIG_PM4_SH_COMPUTE_DISPATCH_SCRATCH_BASE_LO)
				sbase[0] = b[i + 2], sbase[1] = b[i + 3];
			else if (b[i + 1] == KFDSIG_PM4_SH_COMPUTE_TMPRING_SIZE &&
				 (b[i] >> 8 & 0xff) == KFDSIG_PM4_OP_SET_SH_REG)
				tmp = b[i + 2];
		CHECK(n > 0 && sbase[0] == 0x4000 && sbase[1] == 0, "gfx1100 scratch base 0x%x",
		      sbase[0]);
		/* 100 x 32 lanes = 3200 -> 13 units of 256 bytes; WAVES per
		 * engine: the waves 1 MiB holds over 4 */
		CHECK((tmp >> 12) == 13, "gfx1100 WAVESIZE %u", tmp >> 12);
		CHECK((tmp & 0xfff) == (1u << 20) / 3328 / 4,
		      "gfx1100 WAVES %u per engine (want %u)", tmp & 0xfff, (1u << 20) / 3328 / 4);
	}
}

/* kfdsig decode names the registers a SET_SH_REG writes, by the target's
 * register map. */
static void t_names(void)
{
	static const struct {
		const char *target;
		uint32_t off;
		const char *name; /* NULL: unnamed */
	} c[] = {
		{ "gfx90a", KFDSIG_PM4_SH_COMPUTE_TMPRING_SIZE, "COMPUTE_TMPRING_SIZE" },
		{ "gfx90a", KFDSIG_PM4_SH_COMPUTE_PGM_RSRC3_GFX90A, "COMPUTE_PGM_RSRC3" },
		{ "gfx900", KFDSIG_PM4_SH_COMPUTE_PGM_RSRC3_GFX90A, NULL },
		{ "gfx1030", KFDSIG_PM4_SH_COMPUTE_PGM_RSRC3_GFX10, "COMPUTE_PGM_RSRC3" },
		{ "gfx1030", KFDSIG_PM4_SH_COMPUTE_DISPATCH_SCRATCH_BASE_LO, NULL },
		{ "gfx1100", KFDSIG_PM4_SH_COMPUTE_DISPATCH_SCRATCH_BASE_LO,
		  "COMPUTE_DISPATCH_SCRATCH_BASE_LO" },
		{ "gfx1201", KFDSIG_PM4_SH_COMPUTE_USER_DATA_0 + 15, "COMPUTE_USER_DATA_15" },
		{ "gfx1030", KFDSIG_PM4_SH_COMPUTE_NUM_THREAD_X + 2, "COMPUTE_NUM_THREAD_Z" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const struct kfdsig_target *t = kfdsig_target_by_name(c[i].target);
		uint32_t dw[3] = { 0xc0017602u, c[i].off, 5 };
		struct kfdsig_packet p = { .ndw = 3,
					   .avail = 3,
					   .dw = dw,
					   .name = "SET_SH_REG",
					   .opcode = KFDSIG_PM4_OP_SET_SH_REG,
					   .engine = KFDSIG_ENGINE_PM4 };
		char buf[512], want[96];

		T_REQUIRE(t, "target %s", c[i].target);
		p.desc = kfdsig_pm4_packet_desc(t, KFDSIG_PM4_OP_SET_SH_REG);
		kfdsig_format_packet_text(&p, 0, buf, sizeof(buf));
		snprintf(want, sizeof(want), "reg_offset=0x%x(%s)", c[i].off,
			 c[i].name ? c[i].name : "");
		CHECK(c[i].name ? strstr(buf, want) != NULL
				: strstr(buf, "reg_offset=0x2") &&
					  !strchr(strstr(buf, "reg_offset"), '('),
		      "%s 0x%x named %s: %s", c[i].target, c[i].off, c[i].name ? c[i].name : "-",
		      buf);
		kfdsig_format_packet_json(&p, 0, buf, sizeof(buf));
		snprintf(want, sizeof(want), "\"reg_name\": \"%s\"", c[i].name ? c[i].name : "");
		CHECK(!c[i].name || strstr(buf, want), "%s json: %s", c[i].target, buf);
	}
}

/* The implicit arguments of a 3D dispatch with partial groups in X and Z. */
static void t_implicit_layout(void)
{
	KFDSIG_OPTS(kfdsig_pm4_kernel, k, .grid = { 100, 8, 5 }, .workgroup = { 64, 8, 2 });
	uint8_t ia[KFDSIG_IMPLICIT_ARGS_DISPATCH_BYTES + 2];
	uint32_t bc[3];
	uint16_t gs[3], rem[3], dims;
	uint64_t off[3];

	memset(ia, 0xab, sizeof(ia));
	CHECK(kfdsig_pm4_implicit_args(&k, ia, sizeof(ia)) == 0, "implicit args written");
	memcpy(bc, ia + KFDSIG_IMPLICIT_BLOCK_COUNT, 12);
	memcpy(gs, ia + KFDSIG_IMPLICIT_GROUP_SIZE, 6);
	memcpy(rem, ia + KFDSIG_IMPLICIT_REMAINDER, 6);
	memcpy(off, ia + KFDSIG_IMPLICIT_GLOBAL_OFFSET, 24);
	memcpy(&dims, ia + KFDSIG_IMPLICIT_GRID_DIMS, 2);
	CHECK(bc[0] == 1 && bc[1] == 1 && bc[2] == 2, "block counts %u %u %u", bc[0], bc[1], bc[2]);
	CHECK(gs[0] == 64 && gs[1] == 8 && gs[2] == 2, "group sizes");
	CHECK(rem[0] == 36 && rem[1] == 0 && rem[2] == 1, "remainders %u %u %u", rem[0], rem[1],
	      rem[2]);
	CHECK(!off[0] && !off[1] && !off[2] && dims == 3, "offsets 0, 3 dims (%u)", dims);
	CHECK(ia[24] == 0xab && ia[39] == 0xab && ia[66] == 0xab, "reserved bytes left alone");
	CHECK(kfdsig_pm4_implicit_args(&k, ia, KFDSIG_IMPLICIT_ARGS_DISPATCH_BYTES - 1) == -EINVAL,
	      "short area refused");
}

int main(void)
{
	static const struct {
		const char *spec, *attrs;
	} tg[] = { { "gfx90a", "" },  { "gfx1030", "" }, { "gfx1010", "" },
		   { "gfx1100", "" }, { "gfx1200", "" }, { "gfx1200", "+wavefrontsize64" },
		   { "gfx1201", "" } };

	t_layout();
	t_names();
	t_implicit_layout();
	/* packets laid out wrong would run the kernels on a wrong setup,
	 * where a wave may loop for ever: the verdict is in already */
	if (t_failures) {
		fprintf(stderr, "the emitter's packets are wrong: the kernels are not run\n");
		return t_result("emu_pm4_kernels");
	}
	if (!kco_llvm()) {
		printf("SKIP: no LLVM 22 (opt, llc, ld.lld) in %s\n", KFDSIG_LLVM22_BIN);
		return t_result("emu_pm4_kernels") ? 1 : T_EXIT_SKIP; /* layout checked */
	}
	for (size_t i = 0; i < sizeof(tg) / sizeof(tg[0]); i++)
		for (int opt = 0; opt <= 2; opt += 2) {
			struct kco co;
			struct prig p;
			char what[64];

			snprintf(what, sizeof(what), "%s%s%s -O%d PM4", tg[i].spec,
				 *tg[i].attrs ? " " : "", tg[i].attrs, opt);
			T_REQUIRE(kco_build(KFDSIG_SOURCE_DIR "/test/kernels/sqk_kernels.ll",
					    tg[i].spec, tg[i].attrs, opt, &co) == 0,
				  "compile %s", what);
			prig_open(&p, tg[i].spec, tg[i].spec, &co);
			t_vadd_grid(&p, what);
			t_reduce(&p.k, what, 256);
			t_reduce(&p.k, what, 64);
			t_priv(&p.k, what);
			t_ids(&p.k, what);
			if (opt == 0)
				t_thread_dims(&p, what);
			kco_free(&co);
			T_REQUIRE(kco_build(KFDSIG_SOURCE_DIR "/test/kernels/pm4_implicit.ll",
					    tg[i].spec, tg[i].attrs, opt, &co) == 0,
				  "compile pm4_implicit.ll %s", what);
			krig_load(&p.k, &co);
			t_implicit(&p, what);
			if (t_failures > p.fails)
				fprintf(stderr, "%s: the kernels after its first failure not run\n",
					what);
			prig_close(&p);
			kco_free(&co);
		}
	/* private memory through architected flat scratch (gfx942, gfx950,
	 * gfx1250 -O0, on a one-XCC node: a CPX partition) and LDS in the wider
	 * granules (gfx950 1280, gfx1250 2048 bytes) */
	{
		static const struct {
			const char *target, *spec;
			int opt;
			bool priv;
		} tx[] = { { "gfx942", "gfx942,partition=cpx", 0, true },
			   { "gfx950", "gfx950,partition=cpx", 0, true },
			   { "gfx1250", "gfx1250,partition=cpx", 0, true },
			   { "gfx1250", "gfx1250", 2, false } };

		for (size_t i = 0; i < sizeof(tx) / sizeof(tx[0]); i++) {
			struct kco co;
			struct prig p;
			char what[64];

			snprintf(what, sizeof(what), "%s -O%d PM4", tx[i].spec, tx[i].opt);
			T_REQUIRE(kco_build(KFDSIG_SOURCE_DIR "/test/kernels/sqk_kernels.ll",
					    tx[i].target, "", tx[i].opt, &co) == 0,
				  "compile %s", what);
			prig_open(&p, tx[i].spec, tx[i].target, &co);
			if (tx[i].priv)
				t_priv(&p.k, what);
			t_reduce(&p.k, what, 256);
			prig_close(&p);
			kco_free(&co);
		}
	}
	return t_result("emu_pm4_kernels");
}
