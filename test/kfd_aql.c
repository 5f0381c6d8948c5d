/* SPDX-License-Identifier: MIT */
/*
 * AQL queues end to end on the emulated KFD: kfdsig_kfd_queue_create(
 * KFDSIG_QUEUE_AQL), packets submitted through kfdsig_kfd_queue_submit(),
 * the emulated packet processor (src/emu/emu_aql.c). Packets are written
 * here by hand from the HSA spec 2.9 layouts (header 0x1503: BARRIER_AND,
 * barrier bit, system-scope acquire and release; completion signal at byte
 * 56; dependency signals from byte 8) and ROCr's AQL_PM4_IB vendor packet;
 * the amd_signal_t by hand from ROCr amd_hsa_signal.h (kind 1 at 0, value
 * at 8, mailbox at 16, event id at 24). Each wait is bounded (t_wait: a
 * lost wake-up fails) and the interrupt must name the event (the
 * emulator's interrupt trace: CP end-of-pipe, full id, fast path).
 */
#include <unistd.h>

#include <kfdsig/aql.h>

#include "kfd_stall.h"

#define WAIT_MS 5000
#define HDR_BARRIER_AND 0x1503u
#define HDR_BARRIER_OR 0x1505u

struct rig {
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
	const struct kfdsig_target *t;
	uint32_t gpu;
	const struct kfdsig_kfd_bo *mem; /* signals and scratch */
	uint64_t *page, page_va;
	struct kfdsig_kfd_queue *q;
};

static void rig_open(struct rig *r, const char *spec)
{
	memset(r, 0, sizeof(*r));
	r->emu = t_emu(spec);
	r->kfd = t_open(r->emu);
	r->gpu = t_gpu(r->kfd, 0);
	r->t = kfdsig_kfd_device(r->kfd, 0)->target;
	T_REQUIRE(!kfdsig_kfd_alloc(r->kfd, r->gpu, 8192, KFDSIG_KFD_MEM_GTT_UNCACHED, &r->mem) &&
			  !kfdsig_kfd_map(r->kfd, r->mem, NULL, 0),
		  "memory");
	memset(r->mem->cpu, 0, 8192);
	T_REQUIRE(!kfdsig_kfd_queue_create(r->kfd, r->gpu, KFDSIG_QUEUE_AQL, NULL, &r->q),
		  "AQL queue");
}

static void rig_close(struct rig *r)
{
	kfdsig_kfd_queue_destroy(r->q);
	kfdsig_kfd_close(r->kfd);
	kfdsig_emu_destroy(r->emu);
}

/* amd_signal_t number @i of the buffer (64 bytes each), by hand. */
static uint64_t *sig(struct rig *r, unsigned int i)
{
	return (uint64_t *)((char *)r->mem->cpu + 64 * i);
}

static uint64_t sig_va(struct rig *r, unsigned int i)
{
	return r->mem->va + 64ull * i;
}

static void sig_init(struct rig *r, unsigned int i, int64_t value, uint64_t mailbox, uint32_t id)
{
	uint64_t *s = sig(r, i);

	memset(s, 0, 64);
	s[0] = 1; /* AMD_SIGNAL_KIND_USER */
	s[1] = (uint64_t)value;
	s[2] = mailbox;
	s[3] = id; /* event_id, reserved1 */
}

static void barrier(uint32_t *d, uint32_t hdr, uint64_t dep, uint64_t completion)
{
	memset(d, 0, 64);
	d[0] = hdr;
	d[2] = (uint32_t)dep;
	d[3] = (uint32_t)(dep >> 32);
	d[14] = (uint32_t)completion;
	d[15] = (uint32_t)(completion >> 32);
}

static bool signalled(struct rig *r, uint32_t id, uint32_t timeout)
{
	enum kfdsig_wait_result res;

	return t_wait1(r->kfd, id, NULL, timeout, &res) == 0 && res == KFDSIG_WAIT_COMPLETE;
}

/* The signal of the work submitted: a halted queue, a doorbell the engine
 * never saw or a signal lost end the test at once (kfd_stall.h). */
static bool fenced(struct rig *r, uint32_t id)
{
	return t_fence(r->emu, t_pasid(r->emu, r->kfd), r->kfd, r->q, id, NULL, WAIT_MS,
		       r->t->name);
}

/* The read index at the write index, or the test ends when it cannot be. */
static bool idle(struct rig *r)
{
	return !t_queue_idle(r->emu, t_pasid(r->emu, r->kfd), r->q, WAIT_MS, r->t->name);
}

static void check_irq(struct rig *r, uint32_t id, const char *what)
{
	CHECK(!t_irq_fast(r->emu, t_pasid(r->emu, r->kfd), KFDSIG_EMU_IRQ_CP_EOP,
			  r->t->cp_eop_id_bits, id, r->t->name),
	      "%s %s: the interrupt names event %u", r->t->name, what, id);
}

/* A barrier-AND whose completion signal is the event's interrupt signal. */
static void test_signal(const char *spec)
{
	struct rig r;
	struct kfdsig_event ev;
	uint32_t d[16];

	rig_open(&r, spec);
	ev = t_event(r.kfd, KFDSIG_EVENT_SIGNAL, true);
	T_REQUIRE(!kfdsig_kfd_signal_page(r.kfd, &r.page, &r.page_va), "page");
	sig_init(&r, 0, 1, r.page_va + 8ull * ev.id, ev.id);
	barrier(d, HDR_BARRIER_AND, 0, sig_va(&r, 0));
	CHECK(kfdsig_kfd_queue_submit(r.q, d, 16, WAIT_MS) == 0, "submit: %s", kfdsig_last_error());
	CHECK(fenced(&r, ev.id), "%s: event %u signalled", r.t->name, ev.id);
	check_irq(&r, ev.id, "barrier-AND");
	CHECK_EQ(__atomic_load_n(&sig(&r, 0)[1], __ATOMIC_ACQUIRE), 0,
		 "%s: the signal value was decremented", r.t->name);
	/* The mailbox store itself is proven by the trace: the fast path finds
	 * the slot signalled (the kernel then resets it to all-ones). */
	CHECK(idle(&r), "%s: read index reaches the write index", r.t->name);

	/* A dependency: the barrier waits until the dependency's value is 0. */
	sig_init(&r, 1, 1, 0, 0); /* dependency, no mailbox */
	sig_init(&r, 2, 1, r.page_va + 8ull * ev.id, ev.id);
	barrier(d, HDR_BARRIER_AND, sig_va(&r, 1), sig_va(&r, 2));
	CHECK(kfdsig_kfd_queue_submit(r.q, d, 16, WAIT_MS) == 0, "submit");
	CHECK(!signalled(&r, ev.id, 50), "%s: the barrier waits for its dependency", r.t->name);
	CHECK_EQ(__atomic_load_n(&sig(&r, 2)[1], __ATOMIC_ACQUIRE), 1,
		 "%s: not completed before the dependency", r.t->name);
	__atomic_store_n(&sig(&r, 1)[1], 0, __ATOMIC_RELEASE);
	CHECK(fenced(&r, ev.id), "%s: signalled once the dependency is 0", r.t->name);
	check_irq(&r, ev.id, "barrier with dependency");

	/* barrier-OR: one of two dependencies at 0 is enough. */
	sig_init(&r, 3, 5, 0, 0);
	sig_init(&r, 4, 0, 0, 0);
	sig_init(&r, 5, 1, r.page_va + 8ull * ev.id, ev.id);
	barrier(d, HDR_BARRIER_OR, sig_va(&r, 3), sig_va(&r, 5));
	d[4] = (uint32_t)sig_va(&r, 4);
	d[5] = (uint32_t)(sig_va(&r, 4) >> 32);
	CHECK(kfdsig_kfd_queue_submit(r.q, d, 16, WAIT_MS) == 0, "submit");
	CHECK(fenced(&r, ev.id), "%s: barrier-OR", r.t->name);
	check_irq(&r, ev.id, "barrier-OR");
	rig_close(&r);
}

/* The highest event id: the full id reaches the kernel. */
static void test_high_id(const char *spec)
{
	struct rig r;
	struct kfdsig_event ev = { 0 };
	uint32_t d[16];

	rig_open(&r, spec);
	while (ev.id < KFDSIG_SIGNAL_EVENT_LIMIT - 1)
		ev = t_event(r.kfd, KFDSIG_EVENT_SIGNAL, true);
	T_REQUIRE(!kfdsig_kfd_signal_page(r.kfd, &r.page, &r.page_va), "page");
	sig_init(&r, 0, 1, r.page_va + 8ull * ev.id, ev.id);
	barrier(d, HDR_BARRIER_AND, 0, sig_va(&r, 0));
	CHECK(kfdsig_kfd_queue_submit(r.q, d, 16, WAIT_MS) == 0, "submit");
	CHECK(fenced(&r, ev.id), "%s: event %u", r.t->name, ev.id);
	check_irq(&r, ev.id, "high id");
	rig_close(&r);
}

/* AQL_PM4_IB (gfx9): the IB's WRITE_DATA runs, then the completion. */
static void test_pm4_ib(const char *spec)
{
	struct rig r;
	struct kfdsig_event ev;
	uint32_t d[16] = { 0 }, *ib;
	uint64_t ib_va, dst_va;

	rig_open(&r, spec);
	ev = t_event(r.kfd, KFDSIG_EVENT_SIGNAL, true);
	T_REQUIRE(!kfdsig_kfd_signal_page(r.kfd, &r.page, &r.page_va), "page");
	sig_init(&r, 0, 1, r.page_va + 8ull * ev.id, ev.id);
	ib = (uint32_t *)((char *)r.mem->cpu + 4096);
	ib_va = r.mem->va + 4096;
	dst_va = r.mem->va + 6000;
	/* WRITE_DATA (soc15d.h): PACKET3(0x37, 3), DST_SEL 5 (memory) |
	 * WR_CONFIRM, address lo/hi, one data dword. */
	ib[0] = 3u << 30 | 3u << 16 | 0x37u << 8;
	ib[1] = 5u << 8 | 1u << 20;
	ib[2] = (uint32_t)dst_va;
	ib[3] = (uint32_t)(dst_va >> 32);
	ib[4] = 0xa91a91u;
	d[0] = 0x1500u | 1u << 16; /* VENDOR_SPECIFIC, format AMD_AQL_FORMAT_PM4_IB */
	d[1] = 0xc0023f00u;	   /* INDIRECT_BUFFER, 4 dwords */
	d[2] = (uint32_t)ib_va;
	d[3] = (uint32_t)(ib_va >> 32);
	d[4] = 5u | 1u << 23; /* IB_SIZE 5, IB_VALID */
	d[5] = 10;	      /* dw_cnt_remain */
	d[14] = (uint32_t)sig_va(&r, 0);
	d[15] = (uint32_t)(sig_va(&r, 0) >> 32);
	CHECK(kfdsig_kfd_queue_submit(r.q, d, 16, WAIT_MS) == 0, "submit");
	CHECK(fenced(&r, ev.id), "%s: PM4-IB packet", r.t->name);
	check_irq(&r, ev.id, "AQL_PM4_IB");
	CHECK_EQ(*(volatile uint32_t *)((char *)r.mem->cpu + 6000), 0xa91a91u,
		 "%s: the IB ran before the completion", r.t->name);
	rig_close(&r);
}

/*
 * KERNEL_DISPATCH on the emulated shader unit: kfdsig's signal stub (raw:
 * literals patched; code object: its own kernel descriptor's properties and
 * the {slot, id} kernel arguments through the kernarg SGPRs) sends the
 * interrupt itself, then the completion signal's own interrupt follows.
 * The kernel descriptor is written here (LLVM AMDGPUUsage "Kernel
 * Descriptor": entry byte offset at 16, kernel_code_properties at 56, bit
 * 10 wavefront size 32).
 */
static void test_dispatch(const char *spec, enum kfdsig_shader_form form)
{
	struct rig r;
	struct kfdsig_event ev, done;
	struct kfdsig_shader_stub st;
	uint32_t d[16] = { 0 };
	uint8_t *kd, *code;
	uint64_t kd_va, code_va, karg_va = 0;
	int64_t off;
	uint16_t props = 0;

	rig_open(&r, spec);
	if (kfdsig_shader_stub(r.t, form, &st) < 0) {
		rig_close(&r);
		return; /* no stub for this target (no LLVM at build time) */
	}
	ev = t_event(r.kfd, KFDSIG_EVENT_SIGNAL, true);
	done = t_event(r.kfd, KFDSIG_EVENT_SIGNAL, true);
	T_REQUIRE(!kfdsig_kfd_signal_page(r.kfd, &r.page, &r.page_va), "page");
	kd = (uint8_t *)r.mem->cpu + 1024;
	kd_va = r.mem->va + 1024;
	code = (uint8_t *)r.mem->cpu + 2048;
	code_va = r.mem->va + 2048;
	memset(kd, 0, 64);
	if (form == KFDSIG_SHADER_RAW) {
		T_REQUIRE(st.entry_offset == 0 && st.size <= 2048, "raw stub layout");
		memcpy(code, st.bytes, st.size);
		T_REQUIRE(kfdsig_shader_patch(&st, code, st.size, r.page_va + 8ull * ev.id,
					      ev.id) == 0,
			  "patch");
		props = st.regs.wave_size == 32 ? 1u << 10 : 0;
	} else {
		T_REQUIRE(st.code_size <= 2048, "code size");
		memcpy(code, st.bytes + st.entry_offset, st.code_size);
		memcpy(&props, st.bytes + st.kd_offset + 56, 2);
		karg_va = r.mem->va + 4096 + 512;
		T_REQUIRE(kfdsig_shader_kernargs(&st, (uint8_t *)r.mem->cpu + 4096 + 512, 64,
						 r.page_va + 8ull * ev.id, ev.id) >= 0,
			  "kernargs");
	}
	off = (int64_t)(code_va - kd_va);
	memcpy(kd + 16, &off, 8);
	memcpy(kd + 56, &props, 2);
	sig_init(&r, 0, 1, r.page_va + 8ull * done.id, done.id);
	d[0] = 0x1402u | 1u << 16;	       /* KERNEL_DISPATCH, system scopes, 1 dimension */
	d[1] = (st.regs.wave_size) | 1u << 16; /* one wave per workgroup, 1 x 1 */
	d[2] = 1;
	d[3] = st.regs.wave_size; /* grid: one workgroup */
	d[4] = d[5] = 1;
	d[8] = (uint32_t)kd_va;
	d[9] = (uint32_t)(kd_va >> 32);
	d[10] = (uint32_t)karg_va;
	d[11] = (uint32_t)(karg_va >> 32);
	d[14] = (uint32_t)sig_va(&r, 0);
	d[15] = (uint32_t)(sig_va(&r, 0) >> 32);
	CHECK(kfdsig_kfd_queue_submit(r.q, d, 16, WAIT_MS) == 0, "submit");
	CHECK(fenced(&r, done.id), "%s: dispatch completed", r.t->name);
	check_irq(&r, done.id, "dispatch completion");
	CHECK(fenced(&r, ev.id), "%s %s: the kernel's s_sendmsg woke event %u", r.t->name,
	      form == KFDSIG_SHADER_RAW ? "raw" : "code object", ev.id);
	CHECK(sig(&r, 0)[5] >= sig(&r, 0)[4] && sig(&r, 0)[4] != 0,
	      "%s: start_ts %llu <= end_ts %llu", r.t->name, (unsigned long long)sig(&r, 0)[4],
	      (unsigned long long)sig(&r, 0)[5]);
	rig_close(&r);
}

/* An invalid packet stops the queue with the bad-packet exception. */
static void test_invalid(const char *spec, uint32_t hdr)
{
	struct rig r;
	struct kfdsig_emu_queue_info info = { 0 };
	uint32_t d[16];
	uint64_t t0 = t_now_ms();

	rig_open(&r, spec);
	barrier(d, hdr, 0, 0);
	CHECK(kfdsig_kfd_queue_submit(r.q, d, 16, WAIT_MS) == 0, "submit");
	while (t_now_ms() - t0 < WAIT_MS &&
	       !kfdsig_emu_queue_info(r.emu, t_pasid(r.emu, r.kfd),
				      (uint32_t)kfdsig_kfd_queue_id(r.q), &info) &&
	       !info.halted)
		usleep(200);
	CHECK(info.halted && info.exception == KFDSIG_EMU_QUEUE_BAD_OPCODE,
	      "%s: header 0x%x stops the queue (halted %d, exception %u)", r.t->name, hdr,
	      info.halted, info.exception);
	CHECK_EQ(info.consumed, 0, "%s: nothing completed", r.t->name);
	rig_close(&r);
}

/*
 * A 4 KiB ring (64 slots) past its end twice, one packet per doorbell: on
 * gfx8 the doorbell's position wraps at the doubled ring (128 packets), and
 * a doorbell in the wrong form for the node's type leaves some packet of
 * the first 128 unrun after its own doorbell (the emulated CP runs a slot
 * only when the doorbell has passed it). Every packet decrements one
 * signal; each is waited for (bounded) before the next is rung, so that
 * the packet its doorbell missed is seen whatever the two threads' timing.
 */
static void test_wrap(const char *spec)
{
	struct kfdsig_queue_opts o = KFDSIG_OPTS_INIT(kfdsig_queue_opts, .ring_size = 4096);
	const unsigned n = 300;
	struct rig r;
	uint32_t d[16];
	int64_t left = -1;

	rig_open(&r, spec);
	kfdsig_kfd_queue_destroy(r.q);
	T_REQUIRE(!kfdsig_kfd_queue_create(r.kfd, r.gpu, KFDSIG_QUEUE_AQL, &o, &r.q),
		  "%s: AQL queue of 4 KiB", spec);
	sig_init(&r, 0, n, 0, 0);
	barrier(d, HDR_BARRIER_AND, 0, sig_va(&r, 0));
	for (unsigned i = 0; i < n; i++) {
		if (kfdsig_kfd_queue_submit(r.q, d, 16, WAIT_MS) != 0) {
			CHECK(0, "%s: packet %u submitted: %s", spec, i, kfdsig_last_error());
			break;
		}
		for (int t = 0; t < WAIT_MS && __atomic_load_n(&sig(&r, 0)[1], __ATOMIC_ACQUIRE) >
						       (int64_t)(n - i - 1);
		     t++)
			usleep(1000);
		left = (int64_t)__atomic_load_n(&sig(&r, 0)[1], __ATOMIC_ACQUIRE);
		if (left != (int64_t)(n - i - 1)) {
			CHECK(0, "%s: packet %u ran after its doorbell (signal %lld)", spec, i,
			      (long long)left);
			break;
		}
	}
	CHECK(idle(&r), "%s: the ring drains", spec);
	left = (int64_t)__atomic_load_n(&sig(&r, 0)[1], __ATOMIC_ACQUIRE);
	CHECK_EQ(left, 0, "%s: all %u packets completed", spec, n);
	rig_close(&r);
}

int main(void)
{
	static const char *const specs[] = { "gfx900",	"gfx90a",  "gfx942",
					     "gfx1030", "gfx1100", "gfx1201" };
	struct rig r;

	/* gfx8: the doubled ring and the 4-byte doorbell of each type (gfx802
	 * Tonga: type 0, dwords of the doubled ring; gfx801/gfx803: type 1,
	 * the packet index), as amdkfd and ROCr make and ring them. */
	test_signal("gfx801");
	test_signal("gfx802");
	test_signal("gfx803");
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		test_signal(specs[i]);
	test_high_id("gfx90a");
	test_high_id("gfx1100");
	test_pm4_ib("gfx90a");
	test_dispatch("gfx90a", KFDSIG_SHADER_RAW);
	test_dispatch("gfx1100", KFDSIG_SHADER_RAW);
	test_dispatch("gfx942", KFDSIG_SHADER_CODE_OBJECT);
	test_dispatch("gfx1201", KFDSIG_SHADER_CODE_OBJECT);
	test_invalid("gfx90a", 0x0007);		   /* type 7 */
	test_invalid("gfx1100", 0x0004);	   /* AGENT_DISPATCH */
	test_invalid("gfx90a", 0x0003 | 3u << 9);  /* acquire scope 3 */
	test_invalid("gfx90a", 0x0000 | 2u << 16); /* vendor format 2 */

	test_wrap("gfx802");
	test_wrap("gfx803");
	test_wrap("gfx90a");

	/* Submissions of partial packets are refused. */
	rig_open(&r, "gfx90a");
	{
		uint32_t d[16] = { HDR_BARRIER_AND };

		CHECK_EQ(kfdsig_kfd_queue_submit(r.q, d, 8, WAIT_MS), -EINVAL, "half a packet");
		d[0] = 1; /* INVALID */
		CHECK_EQ(kfdsig_kfd_queue_submit(r.q, d, 16, WAIT_MS), -EINVAL, "INVALID packet");
	}
	rig_close(&r);
	return t_result("kfd_aql");
}
