/* SPDX-License-Identifier: MIT */
/*
 * The wave size the emulated packet processor gives a dispatch, and a
 * dispatch that never ends:
 *   - PM4 DISPATCH_DIRECT with CS_W32_EN and an AQL kernel whose kernel
 *     descriptor sets ENABLE_WAVEFRONT_SIZE32 run 32-lane waves on gfx1030,
 *     and 64-lane waves on gfx900, where the bit is no field
 *     (gc_9_0_sh_mask.h) or reserved (LLVM AMDGPUUsage "Kernel
 *     Descriptor"): a workgroup of 64 work-items stores the number of its
 *     wave's EXEC bits; without the bit gfx1030 runs wave64;
 *   - a program that loops forever (gfx900, PM4) keeps its queue running,
 *     as on hardware: it counts past 2^18 iterations with the queue not
 *     stopped, and destroying the queue ends it (within a bound).
 * The programs are instruction words (llvm-mc 22 -show-encoding), no LLVM
 * needed.
 */
#include <pthread.h>
#include <unistd.h>

#include <kfdsig/pm4.h>

#include "kfd_util.h"

#define WAIT_MS 20000
#define OUT_OFF 0x1000u
#define KD_OFF 0x2000u
#define LOOPS (1u << 18)

/* s_bcnt1_i32_b64 s2, exec; v_mov_b32 v0, s2; v_mov_b32 v1, 0;
 * global_store_dword v1, v0, s[0:1]; s_endpgm */
static const uint32_t count9[] = { 0xbe820d7e, 0x7e000202, 0x7e020280,
				   0xdc708000, 0x00000001, 0xbf810000 };
static const uint32_t count10[] = { 0xbe82107e, 0x7e000202, 0x7e020280,
				    0xdc708000, 0x00000001, 0xbf810000 };
/* gfx900: v_mov_b32 v1, 0; v_mov_b32 v2, 0; loop: v_add_u32 v2, 1, v2;
 * global_store_dword v1, v2, s[0:1]; s_branch loop */
static const uint32_t loop9[] = { 0x7e020280, 0x7e040280, 0x68040481,
				  0xdc708000, 0x00000201, 0xbf82fffc };

struct rig {
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
	uint32_t gpu;
	int pasid;
	const struct kfdsig_kfd_bo *bo;
	uint8_t *cpu;
	uint64_t va;
	struct kfdsig_kfd_queue *q;
};

static void rig_open(struct rig *r, const char *spec, enum kfdsig_queue_type type,
		     const uint32_t *code, size_t n)
{
	memset(r, 0, sizeof(*r));
	r->emu = t_emu(spec);
	r->kfd = t_open(r->emu);
	r->gpu = t_gpu(r->kfd, 0);
	r->pasid = t_pasid(r->emu, r->kfd);
	T_REQUIRE(!kfdsig_kfd_alloc(r->kfd, r->gpu, 0x10000, KFDSIG_KFD_MEM_GTT_UNCACHED, &r->bo) &&
			  !kfdsig_kfd_map(r->kfd, r->bo, NULL, 0),
		  "memory");
	r->cpu = r->bo->cpu;
	r->va = r->bo->va;
	memset(r->cpu, 0, 0x10000);
	memcpy(r->cpu, code, n * 4);
	T_REQUIRE(!kfdsig_kfd_queue_create(r->kfd, r->gpu, type, NULL, &r->q), "queue");
}

static void rig_close(struct rig *r)
{
	if (r->q)
		kfdsig_kfd_queue_destroy(r->q);
	kfdsig_kfd_close(r->kfd);
	kfdsig_emu_destroy(r->emu);
}

static bool halted(const struct rig *r, uint32_t *exc)
{
	struct kfdsig_emu_queue_info qi = { 0 };

	if (kfdsig_emu_queue_info(r->emu, r->pasid, (uint32_t)kfdsig_kfd_queue_id(r->q), &qi))
		return true;
	*exc = qi.exception;
	return qi.halted;
}

/* Until the engine consumed what was submitted (0) or the queue stopped
 * (-EIO, its exception in *exc): in slices, giving up at once on a stop. */
static int wait_done(const struct rig *r, uint32_t *exc)
{
	for (uint64_t t0 = t_now_ms();;) {
		if (kfdsig_kfd_queue_wait_idle(r->q, 20) == 0)
			return 0;
		if (halted(r, exc))
			return -EIO;
		if (t_now_ms() - t0 > WAIT_MS)
			return -ETIMEDOUT;
	}
}

/* SET_SH_REG of @n registers from @reg. */
static uint32_t *sh(uint32_t *o, uint32_t reg, const uint32_t *v, unsigned n)
{
	T_REQUIRE(!kfdsig_pm4_header(o, KFDSIG_PM4_OP_SET_SH_REG, 1 + n, KFDSIG_PM4_HDR_COMPUTE),
		  "header");
	o[1] = reg;
	memcpy(o + 2, v, 4 * n);
	return o + 2 + n;
}

/* One workgroup of @threads work-items, 2 user SGPRs (the output's
 * address), the program at the buffer's start. */
static void submit_pm4(struct rig *r, unsigned threads, bool w32)
{
	uint32_t pkt[64], *o = pkt;
	const uint64_t out = r->va + OUT_OFF;
	const uint32_t pgm[2] = { (uint32_t)(r->va >> 8), (uint32_t)(r->va >> 40) };
	const uint32_t rsrc[2] = { 0, 2u << 1 }; /* USER_SGPR 2 */
	const uint32_t ud[2] = { (uint32_t)out, (uint32_t)(out >> 32) };
	const uint32_t nt[3] = { threads, 1, 1 };

	o = sh(o, KFDSIG_PM4_SH_COMPUTE_PGM_LO, pgm, 2);
	o = sh(o, KFDSIG_PM4_SH_COMPUTE_PGM_RSRC1, rsrc, 2);
	o = sh(o, KFDSIG_PM4_SH_COMPUTE_USER_DATA_0, ud, 2);
	o = sh(o, KFDSIG_PM4_SH_COMPUTE_NUM_THREAD_X, nt, 3);
	T_REQUIRE(!kfdsig_pm4_header(o, KFDSIG_PM4_OP_DISPATCH_DIRECT, 4, KFDSIG_PM4_HDR_COMPUTE),
		  "header");
	o[1] = o[2] = o[3] = 1;
	o[4] = KFDSIG_PM4_DI_COMPUTE_SHADER_EN | (w32 ? KFDSIG_PM4_DI_CS_W32_EN : 0);
	o += 5;
	CHECK(!kfdsig_kfd_queue_submit(r->q, pkt, (uint32_t)(o - pkt), WAIT_MS), "submit");
}

/* AQL: a kernel descriptor (kernarg pointer in s[0:1], the wave32 bit
 * @w32) and a dispatch of 64 work-items; the kernel arguments are the
 * output. */
static void submit_aql(struct rig *r, bool w32)
{
	uint8_t *kd = r->cpu + KD_OFF;
	const uint64_t kd_va = r->va + KD_OFF, out = r->va + OUT_OFF;
	const int64_t entry = -(int64_t)KD_OFF;
	const uint32_t rsrc2 = 2u << 1;
	/* kernel_code_properties: ENABLE_SGPR_KERNARG_SEGMENT_PTR (bit 3),
	 * ENABLE_WAVEFRONT_SIZE32 (bit 10) */
	const uint16_t props = (uint16_t)(1u << 3 | (w32 ? 1u << 10 : 0));
	/* HSA KERNEL_DISPATCH, one dimension; workgroup and grid 64 */
	uint32_t pkt[16] = { 0x00010002, 64 | 1u << 16, 1, 64, 1, 1, 0, 0 };

	memcpy(kd + 16, &entry, 8);
	memcpy(kd + 52, &rsrc2, 4);
	memcpy(kd + 56, &props, 2);
	pkt[8] = (uint32_t)kd_va;
	pkt[9] = (uint32_t)(kd_va >> 32);
	pkt[10] = (uint32_t)out;
	pkt[11] = (uint32_t)(out >> 32);
	CHECK(!kfdsig_kfd_queue_submit(r->q, pkt, 16, WAIT_MS), "submit");
}

static void wave_size(const char *spec, bool aql, bool w32, uint32_t want)
{
	const bool gfx9 = !strncmp(spec, "gfx9", 4);
	struct rig r;
	uint32_t exc = 0, got;

	rig_open(&r, spec, aql ? KFDSIG_QUEUE_AQL : KFDSIG_QUEUE_PM4, gfx9 ? count9 : count10, 6);
	if (aql)
		submit_aql(&r, w32);
	else
		submit_pm4(&r, 64, w32);
	CHECK(wait_done(&r, &exc) == 0 && !halted(&r, &exc),
	      "%s %s: the dispatch ends (exception %u)", spec, aql ? "AQL" : "PM4", exc);
	memcpy(&got, r.cpu + OUT_OFF, 4);
	CHECK_EQ(got, want, "%s %s%s: lanes of a wave", spec, aql ? "AQL" : "PM4",
		 w32 ? " asking for wave32" : "");
	rig_close(&r);
}

struct destroyer {
	struct kfdsig_kfd_queue *q;
	int rc;
	bool done;
};

static void *destroy_thread(void *arg)
{
	struct destroyer *d = arg;

	d->rc = kfdsig_kfd_queue_destroy(d->q);
	__atomic_store_n(&d->done, true, __ATOMIC_RELEASE);
	return NULL;
}

static void forever(void)
{
	struct rig r;
	struct destroyer de = { 0 };
	pthread_t th;
	uint32_t n = 0, exc = 0;
	uint64_t t0 = t_now_ms();
	bool stopped = false;

	rig_open(&r, "gfx900", KFDSIG_QUEUE_PM4, loop9, 6);
	submit_pm4(&r, 1, false);
	while (t_now_ms() - t0 < WAIT_MS) {
		n = __atomic_load_n((uint32_t *)(r.cpu + OUT_OFF), __ATOMIC_RELAXED);
		if (n >= LOOPS || (stopped = halted(&r, &exc)))
			break;
		usleep(1000);
	}
	CHECK(n >= LOOPS && !stopped,
	      "a looping wave runs on: %u iterations, queue stopped %d (%u)", n, stopped, exc);
	/* the queue's destruction ends it (the waves' stop poll) */
	de.q = r.q;
	r.q = NULL;
	T_REQUIRE(!pthread_create(&th, NULL, destroy_thread, &de), "thread");
	for (t0 = t_now_ms(); !__atomic_load_n(&de.done, __ATOMIC_ACQUIRE);) {
		if (t_now_ms() - t0 > 5000) {
			fprintf(stderr, "FAIL: destroying the queue of a looping dispatch hangs\n");
			_exit(1);
		}
		usleep(1000);
	}
	pthread_join(th, NULL);
	CHECK_EQ(de.rc, 0, "queue destroy");
	n = __atomic_load_n((uint32_t *)(r.cpu + OUT_OFF), __ATOMIC_RELAXED);
	usleep(2000);
	CHECK_EQ(__atomic_load_n((uint32_t *)(r.cpu + OUT_OFF), __ATOMIC_RELAXED), n,
		 "the wave stopped with its queue");
	rig_close(&r);
}

int main(void)
{
	wave_size("gfx900", false, true, 64);
	wave_size("gfx900", true, true, 64);
	wave_size("gfx1030", false, true, 32);
	wave_size("gfx1030", false, false, 64);
	wave_size("gfx1030", true, true, 32);
	forever();
	return t_result("emu_cp_wave_size");
}
