/* SPDX-License-Identifier: MIT */
/*
 * AQL queues on gfx8 (gfx801 Carrizo, gfx802 Tonga, gfx803 Fiji/Polaris)
 * on the emulated KFD, made as ROCr 5.2 makes them, through the raw
 * CREATE_QUEUE ioctl:
 *  - the ring's buffer is half the ring size the ioctl names (ROCr maps it
 *    twice; the kernel's kfd_queue.c kfd_queue_acquire_buffers() checks
 *    ring_size / 2 for gfx_target_version 70000-89999), so the undoubled
 *    size is refused;
 *  - the doorbell is 4 bytes (kfd_doorbell.c before SOC15) and is rung as
 *    ROCr's AqlQueue::StoreRelaxed() rings it for the node's doorbell type
 *    (HSA_CAP_DOORBELL_TYPE, bits 12-13 of the topology's capability):
 *    type 0 (Tonga) the position one past the last packet wrapped to the
 *    doubled ring, in dwords; type 1 the packet index + 1, 32 bits;
 *  - barrier-AND packets with completion signals (no shader) complete in
 *    order, across the physical ring's wrap and the doubled ring's, and a
 *    full ring (as many packets as slots, rung at once) runs whole.
 * Packets and amd_signal_t are written by hand (HSA spec 2.9: header
 * 0x1503, completion signal at byte 56; ROCr amd_hsa_signal.h: value at 8).
 * Waits are bounded.
 */
#include <unistd.h>

#include "abi/kfd_ioctl.h"
#include "emu/emu_priv.h"
#include "kfd_util.h"

#define WAIT_MS 5000
#define SLOTS 64u /* the ring's buffer: 4096 bytes */
#define HDR_BARRIER_AND 0x1503u

struct rig {
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
	uint32_t gpu, qid, db_type;
	const struct kfdsig_kfd_bo *ring, *rptr, *wptr, *cwsr, *sigs;
	volatile uint32_t *doorbell;
	uint64_t written; /* packets written */
};

static const struct kfdsig_kfd_bo *mem(struct rig *r, uint64_t size)
{
	const struct kfdsig_kfd_bo *bo = NULL;

	T_REQUIRE(!kfdsig_kfd_alloc(r->kfd, r->gpu, size, KFDSIG_KFD_MEM_GTT_UNCACHED, &bo) &&
			  !kfdsig_kfd_map(r->kfd, bo, NULL, 0),
		  "memory");
	memset(bo->cpu, 0, size);
	return bo;
}

static int create(struct rig *r, uint32_t ring_size)
{
	const struct kfdsig_kfd_device *d = kfdsig_kfd_device(r->kfd, 0);
	struct kfd_ioctl_create_queue_args a = { 0 };
	int rc;

	a.ring_base_address = r->ring->va;
	a.ring_size = ring_size;
	a.read_pointer_address = r->rptr->va;
	a.write_pointer_address = r->wptr->va;
	a.gpu_id = r->gpu;
	a.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE_AQL;
	a.queue_percentage = 100;
	a.queue_priority = 7;
	if (d->cwsr_size) {
		a.ctx_save_restore_address = r->cwsr->va;
		a.ctx_save_restore_size = d->cwsr_size;
		a.ctl_stack_size = d->ctl_stack_size;
	}
	rc = kfdsig_kfd_ioctl(r->kfd, AMDKFD_IOC_CREATE_QUEUE, &a);
	if (!rc) {
		r->qid = a.queue_id;
		CHECK_EQ(a.doorbell_offset & 0xfff, 0,
			 "no byte offset in a pre-SOC15 doorbell offset");
	}
	return rc;
}

static void rig_open(struct rig *r, const char *spec)
{
	const struct kfdsig_kfd_device *d;
	struct emu_proc *p;

	memset(r, 0, sizeof(*r));
	r->emu = t_emu(spec);
	r->kfd = t_open(r->emu);
	r->gpu = t_gpu(r->kfd, 0);
	d = kfdsig_kfd_device(r->kfd, 0);
	T_REQUIRE(!kfdsig_kfd_acquire_vm(r->kfd, r->gpu), "acquire vm");
	r->db_type = (d->capability >> 12) & 3u;
	r->ring = mem(r, SLOTS * 64);
	r->rptr = mem(r, 4096);
	r->wptr = mem(r, 4096);
	r->sigs = mem(r, 4096);
	if (d->cwsr_size)
		r->cwsr = mem(r, ((uint64_t)d->cwsr_size + d->debug_memory_size + 4095) & ~4095ull);
	for (uint32_t i = 0; i < SLOTS; i++)
		((uint32_t *)r->ring->cpu)[i * 16] = 1; /* INVALID */

	CHECK_EQ(create(r, SLOTS * 64), -EINVAL,
		 "%s: a ring the size of its buffer is refused (the kernel checks ring_size / 2)",
		 spec);
	T_REQUIRE(create(r, 2 * SLOTS * 64) == 0, "%s: AQL queue with the doubled ring size", spec);
	p = emu_proc_get(r->emu, t_pasid(r->emu, r->kfd));
	T_REQUIRE(p, "proc");
	pthread_mutex_lock(&p->lock);
	for (struct emu_queue *q = p->queues; q; q = q->next)
		if (q->id == r->qid)
			r->doorbell = (volatile uint32_t *)q->doorbell;
	pthread_mutex_unlock(&p->lock);
	emu_proc_put(p);
	T_REQUIRE(r->doorbell, "doorbell");
}

static void rig_close(struct rig *r)
{
	struct kfd_ioctl_destroy_queue_args dq = { .queue_id = r->qid };

	CHECK_EQ(kfdsig_kfd_ioctl(r->kfd, AMDKFD_IOC_DESTROY_QUEUE, &dq), 0, "destroy");
	kfdsig_kfd_close(r->kfd);
	kfdsig_emu_destroy(r->emu);
}

/* amd_signal_t @i (64 bytes each) of the signal page */
static volatile int64_t *sig_value(struct rig *r, unsigned int i)
{
	return (volatile int64_t *)((char *)r->sigs->cpu + 64 * (i % 64) + 8);
}

/* A barrier-AND at the next index, its completion signal @i set to 1. */
static void put(struct rig *r, unsigned int i)
{
	uint32_t *s = (uint32_t *)r->ring->cpu + (r->written % SLOTS) * 16;
	uint64_t sva = r->sigs->va + 64 * (i % 64);

	((uint64_t *)(void *)((char *)r->sigs->cpu + 64 * (i % 64)))[0] = 1; /* kind */
	*sig_value(r, i) = 1;
	memset(s + 1, 0, 60);
	s[14] = (uint32_t)sva;
	s[15] = (uint32_t)(sva >> 32);
	__atomic_store_n(&s[0], HDR_BARRIER_AND, __ATOMIC_RELEASE);
	r->written++;
}

/* Ring the doorbell with the write position as ROCr 5.2 does. */
static void ring(struct rig *r)
{
	uint32_t v = r->db_type == 0 ? (uint32_t)((r->written & (2 * SLOTS - 1)) * 16)
				     : (uint32_t)r->written;

	__atomic_store_n(r->doorbell, v, __ATOMIC_RELEASE);
}

static bool done(struct rig *r, unsigned int i)
{
	uint64_t t0 = t_now_ms();

	while (__atomic_load_n(sig_value(r, i), __ATOMIC_ACQUIRE) != 0) {
		if (t_now_ms() - t0 > WAIT_MS)
			return false;
		usleep(100);
	}
	return true;
}

static void test_target(const char *spec, uint32_t want_type)
{
	struct rig r;
	bool ok = true;
	uint64_t rd;

	rig_open(&r, spec);
	CHECK_EQ(r.db_type, want_type, "%s: doorbell type", spec);

	/* one at a time, 3 times round the doubled ring */
	for (unsigned int i = 0; i < 6 * SLOTS + 5 && ok; i++) {
		put(&r, i);
		ring(&r);
		ok = done(&r, i);
		CHECK(ok, "%s: packet %u completes", spec, i);
	}
	/* a full ring at once: as many packets as slots, then one doorbell
	 * (the doubled ring tells it from an empty one) */
	for (unsigned int i = 0; i < SLOTS; i++)
		put(&r, i);
	ring(&r);
	for (unsigned int i = 0; i < SLOTS && ok; i++) {
		ok = done(&r, i);
		CHECK(ok, "%s: full ring, packet %u completes", spec, i);
	}
	rd = __atomic_load_n((uint64_t *)r.rptr->cpu, __ATOMIC_ACQUIRE);
	CHECK_EQ(rd, r.written, "%s: the 64-bit read index", spec);
	if (!ok) {
		/* a packet did not complete: the next would only wait out its bound */
		rig_close(&r);
		return;
	}

	/* written, not rung: nothing runs */
	put(&r, 0);
	usleep(20000);
	CHECK_EQ(*sig_value(&r, 0), 1, "%s: an unrung packet waits", spec);
	ring(&r);
	CHECK(done(&r, 0), "%s: then runs", spec);
	rig_close(&r);
}

int main(void)
{
	/* kfd_topology.c kfd_topology_add_device(): Tonga type 0, Carrizo,
	 * Fiji and Polaris type 1 */
	test_target("gfx801", 1);
	/* after a failure the others would each wait out a bound first */
	if (!t_failures)
		test_target("gfx802", 0);
	if (!t_failures)
		test_target("gfx803", 1);
	return t_result("kfd_aql_gfx8");
}
