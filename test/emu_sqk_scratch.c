/* SPDX-License-Identifier: MIT */
/*
 * Private memory lives in the queue's scratch backing, where the hardware
 * puts it: a kernel (test/kernels/sqk_scratch.ll) stores 8 dwords of a
 * pattern of its work-item id into a private array; the CPU then finds
 * every one in the scratch buffer at the interleaved address (LLVM
 * AMDGPUUsage "Private Segment": dword e of lane l of the wave in slot s
 * at s * WAVESIZE + e * 4 * lanes + 4 * l), each wave in a slot of its
 * own; stored through SCRATCH or swizzled MUBUF (pstore) and through FLAT
 * into the private aperture (pflat: FLAT_SCRATCH from the flat scratch
 * init SGPRs on gfx9/gfx10, architected on gfx11). Through an AQL queue whose amd_queue_t offers the scratch (as ROCr
 * does) and a PM4 dispatch of kfdsig_pm4_emit_kernel() over it, on gfx90a
 * (wave64), gfx1030 (wave32) and gfx1100 (architected flat scratch,
 * wave32; WAVES per shader engine: a scratch of exactly a workgroup's
 * waves is WAVES = waves / engines, which the CP reads as all of them). A workgroup with more waves than the scratch has slots is a
 * memory violation (the queue stops on the VM fault), never memory of the
 * emulator's own. On gfx1201 a wave sets its scratch base itself
 * (t_scratch_base_gfx12()). A dispatch wanting more private memory than
 * the queue offers waits for the runtime's allocation (ROCr's dynamic
 * scratch request), and only for it (t_aql_request()). On nodes of 8 XCCs (gfx942, gfx1250) the
 * library's amd_queue_t gives each XCC its share of the scratch as ROCr
 * does, and a gfx1250 workgroup runs in one share (t_aql_xcc()). Exit 77
 * without LLVM 22.
 */
#include <kfdsig/pm4.h>

#include "emu/emu_priv.h"
#include "emu_sqk_util.h"

#define WAIT_MS 20000
#define WG 256u
#define NDW 8u

static const char *ll_path(void)
{
	return KFDSIG_SOURCE_DIR "/test/kernels/sqk_scratch.ll";
}

static uint32_t pat(uint32_t tid, uint32_t k)
{
	return 0xa5000000u | tid << 8 | k;
}

/* The scratch @scr (@slots slots of @wave bytes) after a workgroup of WG
 * work-items in waves of @lanes: every wave's dwords at their interleaved
 * places in a slot no other wave has; out[] the xor of each one's. */
static void check(const char *what, const uint8_t *scr, uint32_t slots, uint32_t wave,
		  unsigned lanes, const uint32_t *out)
{
	unsigned nw = WG / lanes, bad = 0, found = 0;
	uint32_t used[64] = { 0 };

	for (uint32_t i = 0; i < WG; i++) {
		uint32_t x = 0;

		for (uint32_t k = 0; k < NDW; k++)
			x ^= pat(i, k);
		bad += out[i] != x;
	}
	CHECK(bad == 0, "%s: %u of %u work-items read back wrong private dwords", what, bad, WG);
	for (unsigned w = 0; w < nw; w++) {
		bool ok = false;

		/* the slot and the array's first element (the frame's layout
		 * is the compiler's) where lane 0's first dword is */
		for (uint32_t s = 0; s < slots && !ok; s++)
			for (uint32_t e = 0; (e + NDW) * 4 * lanes <= wave && !ok; e++) {
				const uint8_t *b = scr + (size_t)s * wave;
				uint32_t v;
				unsigned miss = 0;

				memcpy(&v, b + (size_t)e * 4 * lanes, 4);
				if (v != pat(w * lanes, 0))
					continue;
				for (uint32_t k = 0; k < NDW; k++)
					for (unsigned l = 0; l < lanes; l++) {
						memcpy(&v, b + ((size_t)(e + k) * lanes + l) * 4,
						       4);
						miss += v != pat(w * lanes + l, k);
					}
				if (miss)
					continue;
				ok = true;
				found++;
				CHECK(!used[s]++, "%s: wave %u shares scratch slot %u", what, w, s);
			}
		CHECK(ok, "%s: wave %u's private dwords are not interleaved in a slot", what, w);
	}
	CHECK(found == nw, "%s: %u of %u waves found in the scratch", what, found, nw);
}

static unsigned lanes_of(const char *mcpu, const char *attrs)
{
	return strncmp(mcpu, "gfx10", 5) == 0 || strncmp(mcpu, "gfx11", 5) == 0
		       ? (strstr(attrs, "wavefrontsize64") ? 64u : 32u)
		       : 64u;
}

static void t_aql(const struct kco *co, const char *spec, unsigned lanes, const char *what)
{
	static const char *const kn[] = { "pstore", "pflat" };

	for (unsigned i = 0; i < 2; i++) {
		struct krig r;
		uint64_t args[2];
		uint32_t *out;
		char w[96];

		snprintf(w, sizeof(w), "%s AQL %s", what, kn[i]);
		krig_open(&r, spec, 1u << 20);
		krig_load(&r, co);
		out = krig_alloc(&r, 4 * WG, &args[0]);
		krig_alloc(&r, 8 * WG, &args[1]);
		memset(r.scratch->cpu, 0, KRIG_SCRATCH_BYTES);
		CHECK(krig_run(&r, kn[i], WG, WG, args, sizeof(args), WAIT_MS) == 0, "%s: ran", w);
		/* the library's amd_queue_t: 16 slots of 64 lanes x 4 KiB */
		check(w, r.scratch->cpu, 16, 64 * KRIG_SCRATCH_LANE, lanes, out);
		krig_close(&r);
	}
}

/* The emulated queue behind @kq. */
static struct emu_queue *emu_queue_of(struct krig *r, const struct kfdsig_kfd_queue *kq)
{
	struct emu_proc *p = emu_proc_get(r->emu, r->pasid);
	struct emu_queue *found = NULL;

	T_REQUIRE(p, "proc");
	pthread_mutex_lock(&p->lock);
	for (struct emu_queue *q = p->queues; q; q = q->next)
		if (q->id == (uint32_t)kfdsig_kfd_queue_id(kq))
			found = q;
	pthread_mutex_unlock(&p->lock);
	emu_proc_put(p);
	T_REQUIRE(found, "the emulated queue");
	return found;
}

/* Wait up to WAIT_MS for *@v to read @want (0) or anything else (1). */
static bool wait_u64(const volatile uint64_t *v, uint64_t want, bool other)
{
	uint64_t t0 = t_now_ms();

	while ((__atomic_load_n(v, __ATOMIC_ACQUIRE) == want) == other)
		if (t_now_ms() - t0 > WAIT_MS)
			return false;
		else
			usleep(100);
	return true;
}

/*
 * A dispatch wanting more private memory per lane than the amd_queue_t
 * offers, on a queue with a queue_inactive_signal, as ROCr makes it
 * (amd_aql_queue.cpp AqlQueue::DynamicScratchHandler()): the CP sets the
 * signal to 1 (wave64) or 0x401 (wave32), writes the signal's event id
 * to its mailbox, and holds the dispatch; the "runtime" here rewrites
 * scratch_wave64_lane_byte_size and, only then, stores 0. While the value
 * is not 0 the dispatch must not run, even with the fields already
 * sufficient (ROCr's handler reads the packet at the read index and
 * asserts that it is a valid dispatch: a packet run and retired under a
 * pending request aborts it): the CP is seen to look again at least twice
 * (scratch_waits) with the dispatch still pending. After the store the
 * dispatch runs once, with the private memory in the scratch.
 */
static void t_aql_request(const struct kco *co, const char *spec, unsigned lanes, const char *what)
{
	struct krig r;
	struct emu_queue *q;
	uint8_t *aq;
	uint64_t args[2], kd_va, karg_va, sig_va, inact_va, box_va, *inact, *box, waits;
	uint32_t d[16] = { 0 }, *out, lane64, small = 4, exc = 0;
	const uint32_t grid[3] = { WG, 1, 1 }, wg[3] = { WG, 1, 1 };
	int64_t *sig;
	char w[96];

	snprintf(w, sizeof(w), "%s AQL scratch request", what);
	krig_open(&r, spec, 1u << 20);
	krig_load(&r, co);
	out = krig_alloc(&r, 4 * WG, &args[0]);
	krig_alloc(&r, 8 * WG, &args[1]);
	memset(r.scratch->cpu, 0, KRIG_SCRATCH_BYTES);
	/* amd_signal_t: kind 1 at 0, value 0 at 8, mailbox at 16, event id at 24 */
	inact = krig_alloc(&r, 64, &inact_va);
	box = krig_alloc(&r, 8, &box_va);
	memset(inact, 0, 64);
	inact[0] = 1;
	inact[2] = box_va;
	inact[3] = 77;
	*box = 0;
	/* the library's amd_queue_t, read_dispatch_id at the read pointer:
	 * too little per lane, and the inactive signal */
	q = emu_queue_of(&r, r.q);
	aq = q->rptr;
	memcpy(&lane64, aq + 0x30, 4);
	CHECK_EQ(lane64, KRIG_SCRATCH_LANE, "%s: the library's lane bytes", w);
	memcpy(aq + 0x30, &small, 4);
	memcpy(aq + 0x40, &inact_va, 8);

	kd_va = krig_kd(&r, "pstore");
	memcpy(krig_alloc(&r, 512, &karg_va), args, sizeof(args));
	sig = krig_alloc(&r, 64, &sig_va);
	memset(sig, 0, 64);
	sig[0] = 1;
	sig[1] = 1;
	{
		struct kfdsig_aql_dispatch a =
			krig_aql_dispatch(&r, kd_va, grid, wg, karg_va, sig_va);

		T_REQUIRE(kfdsig_aql_emit_dispatch(
				  d, &a,
				  KFDSIG_AQL_ACQUIRE(KFDSIG_AQL_SCOPE_SYSTEM) |
					  KFDSIG_AQL_RELEASE(KFDSIG_AQL_SCOPE_SYSTEM)) == 64,
			  "dispatch packet");
	}
	T_REQUIRE(kfdsig_kfd_queue_submit(r.q, d, 16, WAIT_MS) == 0, "submit");
	CHECK(wait_u64(&inact[1], 0, true) && inact[1] == (lanes == 32 ? 0x401u : 1u),
	      "%s: the CP asks for scratch (inactive signal %#llx, want %#x)", w,
	      (unsigned long long)inact[1], lanes == 32 ? 0x401u : 1u);
	CHECK(wait_u64(box, 0, true) && *box == 77,
	      "%s: the signal's event id in its mailbox (%llu)", w, (unsigned long long)*box);
	CHECK_EQ(__atomic_load_n(&sig[1], __ATOMIC_ACQUIRE), 1, "%s: held, not run", w);

	/* the runtime's allocation: the fields first, the store of 0 later */
	__atomic_store_n(box, 0, __ATOMIC_RELAXED);
	__atomic_store_n((uint32_t *)(void *)(aq + 0x30), lane64, __ATOMIC_RELEASE);
	waits = __atomic_load_n(&q->scratch_waits, __ATOMIC_ACQUIRE);
	{
		uint64_t t0 = t_now_ms();

		while (__atomic_load_n(&q->scratch_waits, __ATOMIC_ACQUIRE) < waits + 2 &&
		       __atomic_load_n(&sig[1], __ATOMIC_ACQUIRE) == 1 && t_now_ms() - t0 < WAIT_MS)
			usleep(100);
	}
	CHECK(__atomic_load_n(&sig[1], __ATOMIC_ACQUIRE) == 1 &&
		      __atomic_load_n(&q->consumed, __ATOMIC_ACQUIRE) == 0,
	      "%s: the dispatch waits while the request is pending, fields or not", w);
	CHECK(__atomic_load_n(&q->scratch_waits, __ATOMIC_ACQUIRE) >= waits + 2,
	      "%s: the CP looks again while the request is pending (%llu times)", w,
	      (unsigned long long)(__atomic_load_n(&q->scratch_waits, __ATOMIC_ACQUIRE) - waits));

	__atomic_store_n(&inact[1], 0, __ATOMIC_RELEASE);
	CHECK(wait_u64((const uint64_t *)&sig[1], 0, false), "%s: runs once the runtime stores 0",
	      w);
	CHECK(!krig_halted(&r, r.q, &exc), "%s: the queue runs on (exception %u)", w, exc);
	CHECK(inact[1] == 0 && *box == 0, "%s: asked once (signal %#llx, mailbox %llu)", w,
	      (unsigned long long)inact[1], (unsigned long long)*box);
	check(w, r.scratch->cpu, 16, 64 * KRIG_SCRATCH_LANE, lanes, out);
	krig_close(&r);
}

/* Slots fewer than a workgroup's waves: the queue stops on a VM fault
 * (gfx1030: 7 waves of scratch give WAVES 4, a multiple of its 4 shader
 * engines, for a workgroup of 8). */
static void t_aql_short(const struct kco *co, const char *spec, unsigned lanes, const char *what)
{
	struct krig r;
	uint64_t out_va;
	uint32_t exc = 0;
	int rc;

	/* one slot less than the workgroup's waves */
	krig_open_scratch(&r, spec, 1u << 20, (uint64_t)(WG / lanes - 1) * 64 * 1024, 1024);
	krig_load(&r, co);
	krig_alloc(&r, 4 * WG, &out_va);
	rc = krig_run(&r, "pstore", WG, WG, &out_va, 8, WAIT_MS);
	CHECK(rc == -EIO, "%s AQL: a workgroup the scratch cannot hold never completes (%d)", what,
	      rc);
	CHECK(rc == 0 || (krig_halted(&r, r.q, &exc) && exc == KFDSIG_EMU_QUEUE_VM_FAULT),
	      "%s AQL: too little scratch stops the queue on a VM fault (exception %u)", what, exc);
	/* WAVES a multiple of the node's engines before gfx11 (ROCr
	 * FillComputeTmpRingSize() asserts it): 3 waves for 4 refused */
	{
		KFDSIG_OPTS(kfdsig_queue_opts, qo, .scratch_va = r.scratch->va,
			    .scratch_size = 3 * 64 * 1024, .scratch_lane_bytes = 1024);
		struct kfdsig_kfd_queue *q2 = NULL;

		CHECK(krig_num_se(&r) == 4 &&
			      kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_AQL, &qo, &q2) ==
				      -EINVAL,
		      "%s AQL: scratch of 3 waves for %u shader engines refused", what,
		      krig_num_se(&r));
		if (q2)
			kfdsig_kfd_queue_destroy(q2);
	}
	krig_close(&r);
}

/* @exact: the scratch sized for a workgroup's waves exactly (the waves
 * over the node's shader engines from gfx11 on: WAVES per engine). */
static void t_pm4(const struct kco *co, const char *spec, const char *tname, unsigned lanes,
		  const char *what, const char *kname, bool exact)
{
	const struct kfdsig_target *t = kfdsig_target_by_name(tname);
	const struct kfdsig_kfd_bo *scr;
	struct kfdsig_kfd_queue *q;
	struct krig r;
	uint64_t out_va, kd_va, karg_va, ptrs_va;
	uint32_t exc = 0, *out, buf[KFDSIG_PM4_KERNEL_MAX_DW], tmpring = 0, unit;
	uint8_t *karg;
	const uint64_t size = 1u << 20;
	int n;

	T_REQUIRE(t, "target %s", tname);
	krig_open(&r, spec, 1u << 20);
	krig_load(&r, co);
	out = krig_alloc(&r, 4 * WG, &out_va);
	karg = krig_alloc(&r, 64, &karg_va);
	memcpy(karg, &out_va, 8);
	krig_alloc(&r, 8 * WG, &ptrs_va);
	memcpy(karg + 8, &ptrs_va, 8);
	kd_va = krig_kd(&r, kname);
	T_REQUIRE(!kfdsig_kfd_alloc(r.kfd, r.gpu, size, KFDSIG_KFD_MEM_GTT_UNCACHED, &scr) &&
			  !kfdsig_kfd_map(r.kfd, scr, NULL, 0) &&
			  !kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_PM4, NULL, &q),
		  "PM4 queue and scratch");
	memset(scr->cpu, 0, size);
	{
		KFDSIG_OPTS(kfdsig_pm4_kernel, k, .kd = r.cpu + (kd_va - r.va), .kd_va = kd_va,
			    .grid = { WG, 1, 1 }, .workgroup = { WG, 1, 1 }, .kernarg_va = karg_va,
			    .dispatch_va = karg_va, .scratch_va = scr->va, .scratch_size = size,
			    .num_se = krig_num_se(&r));

		n = kfdsig_pm4_emit_kernel(t, &k, buf, KFDSIG_PM4_KERNEL_MAX_DW);
		T_REQUIRE(n > 0, "%s: emit (%s)", what, kfdsig_last_error());
		if (exact) {
			/* WAVESIZE from the first packets: WG / lanes waves */
			for (int i = 0; i + 2 < n; i++)
				if (buf[i] >> 30 == 3 && (buf[i] >> 8 & 0xff) == 0x76 &&
				    buf[i + 1] == KFDSIG_PM4_SH_COMPUTE_TMPRING_SIZE)
					tmpring = buf[i + 2];
			k.scratch_size = (uint64_t)(WG / lanes) * (tmpring >> 12) *
					 KFDSIG_PM4_TMPRING_UNIT(t->level);
			n = kfdsig_pm4_emit_kernel(t, &k, buf, KFDSIG_PM4_KERNEL_MAX_DW);
			T_REQUIRE(n > 0, "%s: emit (%s)", what, kfdsig_last_error());
		}
	}
	/* the slots as programmed: SET_SH_REG of COMPUTE_TMPRING_SIZE */
	for (int i = 0; i + 2 < n; i++)
		if (buf[i] >> 30 == 3 && (buf[i] >> 8 & 0xff) == 0x76 &&
		    buf[i + 1] == KFDSIG_PM4_SH_COMPUTE_TMPRING_SIZE)
			tmpring = buf[i + 2];
	unit = KFDSIG_PM4_TMPRING_UNIT(t->level);
	T_REQUIRE(tmpring & 0xfff, "%s: COMPUTE_TMPRING_SIZE programmed", what);
	if (exact)
		CHECK((tmpring & 0xfff) * (t->level >= KFDSIG_GFX11 ? krig_num_se(&r) : 1u) ==
			      WG / lanes,
		      "%s: WAVES %u for %u waves", what, tmpring & 0xfff, WG / lanes);
	CHECK(kfdsig_kfd_queue_submit(q, buf, (uint32_t)n, WAIT_MS) == 0 &&
		      krig_wait_idle(&r, q, WAIT_MS, &exc) == 0,
	      "%s PM4 %s: ran (queue exception %u)", what, kname, exc);
	{
		char w[96];

		snprintf(w, sizeof(w), "%s PM4 %s%s", what, kname, exact ? " exact" : "");
		/* from gfx11 on WAVES slots per shader engine */
		check(w, scr->cpu,
		      (tmpring & 0xfff) * (t->level >= KFDSIG_GFX11 ? krig_num_se(&r) : 1u),
		      (tmpring >> 12) * unit, lanes, out);
	}
	kfdsig_kfd_queue_destroy(q);
	krig_close(&r);
}

/* gfx12: a wave sets its flat scratch base with s_setreg_b32
 * HW_REG_SCRATCH_BASE_LO/HI (LLVM SIDefines.h ids 20 and 21, gfx10/11's
 * FLAT_SCR_LO/HI), as kfdtest's ScratchCopyDword does; reads it back and
 * stores lane 0's dword at private offset 0, which lands at that base. */
static void t_scratch_base_gfx12(void)
{
	static struct trig t;
	struct sqk_result res;
	uint64_t base = TRIG_DATA_VA + 0x100;
	char src[1024];
	int rc;

	memset(&t, 0, sizeof(t));
	snprintf(src, sizeof(src),
		 ".text\n"
		 "  s_mov_b32 s4, 0x%x\n"
		 "  s_mov_b32 s5, 0x%x\n"
		 "  s_setreg_b32 hwreg(HW_REG_SCRATCH_BASE_LO), s4\n"
		 "  s_setreg_b32 hwreg(HW_REG_SCRATCH_BASE_HI), s5\n"
		 "  s_getreg_b32 s6, hwreg(HW_REG_SCRATCH_BASE_LO)\n"
		 "  s_mov_b32 exec_lo, 1\n"
		 "  s_mov_b32 exec_hi, 0\n"
		 "  v_mov_b32 v1, 0x5ca1ab1e\n"
		 "  scratch_store_b32 off, v1, off\n"
		 "  v_mov_b32 v2, s6\n"
		 "  v_mov_b32 v3, 0x%x\n"
		 "  v_mov_b32 v4, 0x%x\n"
		 "  global_store_b32 v[3:4], v2, off\n"
		 "  s_endpgm\n"
		 ".org 0x%x\n"
		 "  s_endpgm\n",
		 (unsigned)base, (unsigned)(base >> 32), (unsigned)TRIG_DATA_VA,
		 (unsigned)(TRIG_DATA_VA >> 32), TRIG_HANDLER_OFF);
	trig_asm(&t, src, "gfx1201");
	rc = trig_run(&t, 120001, &res);
	CHECK(rc == 0, "gfx1201 SCRATCH_BASE: rc %d (%s)", rc, res.msg);
	CHECK_EQ(t.data[0], (uint32_t)base, "gfx1201: SCRATCH_BASE_LO reads back");
	CHECK_EQ(t.data[0x100 / 4], 0x5ca1ab1eu, "gfx1201: private offset 0 at the base");
}

/* The amd_queue_t the library wrote for queue @q: its read pointer's
 * address (the emulator's record of the queue) less 0x80. */
static const uint8_t *amd_queue(const struct krig *r, const struct kfdsig_kfd_queue *q)
{
	struct emu_proc *p = emu_proc_get((struct kfdsig_emu *)r->emu, r->pasid);
	const uint8_t *aq = NULL;

	T_REQUIRE(p, "emulated process");
	pthread_mutex_lock(&p->lock);
	for (struct emu_queue *e = p->queues; e; e = e->next)
		if (e->id == (uint32_t)kfdsig_kfd_queue_id(q))
			aq = (const uint8_t *)e->rptr - 0x80;
	pthread_mutex_unlock(&p->lock);
	emu_proc_put(p);
	T_REQUIRE(aq, "the queue's read pointer");
	return aq;
}

/* On a node of 8 XCCs the library's amd_queue_t sizes the scratch as ROCr
 * amd_aql_queue.cpp does: WAVES of one XCC's share before gfx11
 * (FillComputeTmpRingSize(): (size / NumXcc) / wave, a multiple of one
 * XCC's engines), per engine of the node from gfx11 (_Gfx12(): the waves
 * over NumShaderBanks), the byte size one XCC's share (InitScratchSRD()).
 * And a gfx1250 workgroup runs in one XCC's share of such a scratch: the
 * emulated CP takes one XCC's slots (WAVES x engines / XCCs), which that
 * share holds. */
static void t_aql_xcc(void)
{
	static const struct {
		const char *spec;
		bool gfx11;
	} tg[] = { { "gfx942", false }, { "gfx1250", true } };
	const uint32_t lane = 256, share = 9u * 64u * 256u; /* 9 waves an XCC */

	for (size_t i = 0; i < sizeof(tg) / sizeof(tg[0]); i++) {
		struct krig r;
		const uint8_t *aq;
		uint32_t nx, se, tmpring, waves, wave = lane * 64, unit = tg[i].gfx11 ? 256 : 1024;
		uint64_t bytes, size;

		krig_open_scratch(&r, tg[i].spec, 1u << 20, share, lane);
		nx = kfdsig_kfd_device(r.kfd, 0)->num_xcc;
		size = (uint64_t)share * nx;
		se = krig_num_se(&r);
		T_REQUIRE(nx == 8 && se, "%s: 8 XCCs (%u), engines %u", tg[i].spec, nx, se);
		aq = amd_queue(&r, r.q);
		memcpy(&tmpring, aq + 0x8c, 4);
		memcpy(&bytes, aq + 0xa8, 8);
		if (tg[i].gfx11) {
			waves = (uint32_t)(size / wave / se);
		} else {
			waves = (uint32_t)(size / nx / wave);
			if (se / nx)
				waves -= waves % (se / nx);
		}
		CHECK((tmpring & 0xfff) == waves && tmpring >> 12 == wave / unit,
		      "%s: COMPUTE_TMPRING_SIZE 0x%x, want WAVES %u, WAVESIZE %u", tg[i].spec,
		      tmpring, waves, wave / unit);
		CHECK_EQ(bytes, (uint64_t)share, "%s: the scratch byte size of one XCC",
			 tg[i].spec);
		if (tg[i].gfx11) {
			struct kco co;
			uint64_t out_va;
			uint32_t *out;

			T_REQUIRE(kco_build(ll_path(), "gfx1250", "", 3, &co) == 0,
				  "compile gfx1250");
			krig_load(&r, &co);
			out = krig_alloc(&r, 4 * WG, &out_va);
			memset(r.scratch->cpu, 0, size);
			CHECK(krig_run(&r, "pstore", WG, WG, &out_va, 8, WAIT_MS) == 0,
			      "gfx1250, 8 XCCs: a workgroup in one XCC's share of the scratch");
			check("gfx1250 8 XCCs AQL pstore", r.scratch->cpu, waves * se / nx, wave,
			      32, out);
			kco_free(&co);
		}
		krig_close(&r);
	}
}

int main(void)
{
	static const struct {
		const char *spec, *mcpu, *attrs;
	} tg[] = {
		{ "gfx90a", "gfx90a", "" },
		{ "gfx1030", "gfx1030", "" },
		{ "gfx1100", "gfx1100", "" },
	};

	if (!kco_llvm() || kco_asm_missing()) {
		printf("SKIP: no LLVM 22 (opt, llc, ld.lld) in %s\n", KFDSIG_LLVM22_BIN);
		return T_EXIT_SKIP;
	}
	t_scratch_base_gfx12();
	for (size_t i = 0; i < sizeof(tg) / sizeof(tg[0]); i++) {
		struct kco co;
		unsigned lanes = lanes_of(tg[i].mcpu, tg[i].attrs);
		char what[64];

		snprintf(what, sizeof(what), "%s", tg[i].mcpu);
		T_REQUIRE(kco_build(ll_path(), tg[i].mcpu, tg[i].attrs, 3, &co) == 0, "compile %s",
			  what);
		t_aql(&co, tg[i].spec, lanes, what);
		t_pm4(&co, tg[i].spec, tg[i].mcpu, lanes, what, "pstore", false);
		t_pm4(&co, tg[i].spec, tg[i].mcpu, lanes, what, "pflat", false);
		/* gfx1100: WAVES per shader engine, the emulated CP reading
		 * WAVES x engines slots (the workgroup's 8 waves in 4 x 2) */
		if (i == 2)
			t_pm4(&co, tg[i].spec, tg[i].mcpu, lanes, what, "pstore", true);
		if (i == 1)
			t_aql_short(&co, tg[i].spec, lanes, what);
		if (i < 2)
			t_aql_request(&co, tg[i].spec, lanes, what);
		kco_free(&co);
	}
	t_aql_xcc();
	return t_result("emu_sqk_scratch");
}
