/* SPDX-License-Identifier: MIT */
/*
 * The other fence path: amdgpu user-mode queues on the render node
 * (docs/fence-paths.md). Each case makes compute user queues
 * (DRM_AMDGPU_USERQ) in the render node's VM that the case's KFD process
 * acquired, ends each submission with kfdsig_userq_emit_submit() (the
 * queue's PROTECTED_FENCE_SIGNAL writes its kernel-owned seq64 slot and
 * raises the end-of-pipe interrupt that names the queue's doorbell),
 * attaches the fence to a syncobj (DRM_AMDGPU_USERQ_SIGNAL) and waits on
 * it (DRM_IOCTL_SYNCOBJ_WAIT). A submission is held back by a
 * FENCE_WAIT_MULTI on a gate word the CPU opens once the waiter sleeps,
 * so that the fence is signalled by the interrupt, not found at the start
 * of the wait.
 *
 * The kernel's side: amdgpu_userq.c (create), amdgpu_userq_fence.c
 * amdgpu_userq_signal_ioctl() (the fence's sequence number is the queue's
 * write pointer, read from its wptr buffer), amdgpu_userq_wait_ioctl()
 * (the {seq64 address, value} pairs for FENCE_WAIT_MULTI),
 * amdgpu_userq_fence_driver_process() (every fence whose number the slot
 * has reached), gfx_v11_0.c / gfx_v12_0.c *_eop_irq().
 *
 * The ioctls go through the case's kfdsig_kfd_ops, so the same code runs
 * on a real render node and on the emulated one (in process with
 * --emulate, or under kfdsig exec --emulate). A kernel without user
 * queues (before Linux 6.16, the user_queue module parameter 0, or no
 * compute engine in AMDGPU_INFO's userq_ip_mask) skips every case.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kfdsig/userq.h>

#include "case.h"
#include "suite/userq_env.h"

/* how long a gate stays closed once the waiter started (the waiter then
 * sleeps in the kernel), and the "still blocked" look */
#define GATE_MS 60
#define BLOCKED_MS 40
#define RING_DW UQ_RING_DW
#define OFF_FENCE UQ_OFF_FENCE
#define OFF_GATE UQ_OFF_GATE
#define cpu_of uq_env_cpu
#define va_of uq_env_va

/* Open the render node or end the case: SKIP without compute user queues,
 * else FAIL. */
static enum suite_result uq_open(struct suite_ctx *c, struct uq_env *e)
{
	int r = uq_env_open(e, c->d->ops, c->kfd, c->dev);

	if (r == -ENOTSUP)
		return suite_skip(c, "%s", e->why);
	if (r)
		return suite_fail(c, "%s", e->why);
	return SUITE_PASS;
}

static enum suite_result step(struct uq_env *e, struct suite_ctx *c, int r)
{
	return r ? suite_fail(c, "%s", e->why) : SUITE_PASS;
}

static uint64_t ms_of(uint64_t ns)
{
	return ns / 1000000;
}

/* The gate: a thread opens it @GATE_MS after it starts (the case sleeps in
 * its wait by then; if it does not, the wait finds the fence signalled at
 * its start, which passes too). */
struct gate {
	volatile uint64_t *word;
	pthread_t th;
	bool started;
};

static void *gate_thread(void *arg)
{
	struct gate *g = arg;

	usleep(GATE_MS * 1000);
	__atomic_store_n(g->word, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void gate_open_later(struct gate *g, volatile uint64_t *word)
{
	g->word = word;
	g->started = !pthread_create(&g->th, NULL, gate_thread, g);
	if (!g->started)
		__atomic_store_n(word, 1, __ATOMIC_RELEASE);
}

static void gate_join(struct gate *g)
{
	if (g->started)
		pthread_join(g->th, NULL);
	g->started = false;
}

/* Open queue 0's gate @GATE_MS from now and wait on syncobj *@h for at
 * most @bound ms: SYNCOBJ_WAIT's result, its time in *@ms. */
static int gated_wait(struct uq_env *e, const uint32_t *h, uint32_t bound, uint64_t *ms)
{
	struct gate gt = { 0 };
	uint64_t ns = 0;
	int r;

	gate_open_later(&gt, cpu_of(&e->q[0], OFF_GATE));
	r = uq_env_sync_wait(e, h, 1, false, bound, NULL, &ns);
	*ms = ms_of(ns);
	gate_join(&gt);
	return r;
}

static struct kfdsig_userq_fence_ref gate_ref(const struct uq_queue *q)
{
	return (struct kfdsig_userq_fence_ref){ .va = va_of(q, OFF_GATE), .value = 1 };
}

/* The newest interrupt the emulated handler took for this process (0:
 * none, or hardware). */
static uint64_t irq_mark(struct suite_ctx *c)
{
	struct kfdsig_emu_irq_record r;

	if (!c->d->emu || kfdsig_emu_irq_trace(c->d->emu, c->pasid, &r, 1) != 1)
		return 0;
	return r.seq;
}

/*
 * On the emulated kernel: the CP end-of-pipe interrupts taken since @mark,
 * oldest first, as doorbell indices (the IV's context id: gfx_v11_0.c
 * gfx_v11_0_eop_irq() reads src_data[0] as the queue's doorbell). The
 * userq handler wakes the fence's waiters before amdkfd's handler has
 * seen the same entry, so the records are waited for until @want came
 * (bounded). Return how many (at most @max), or -1 on hardware (no trace).
 */
static int eop_doorbells(struct suite_ctx *c, uint64_t mark, uint32_t *db, int want, int max)
{
	struct kfdsig_emu_irq_record r[32];
	int k = 0;

	if (!c->d->emu)
		return -1;
	for (int tries = 0; tries < 1000 && k < want; tries++) {
		int n = kfdsig_emu_irq_trace(c->d->emu, c->pasid, r, 32);

		k = 0;
		for (int i = 0; i < n; i++)
			if (r[i].seq > mark && r[i].source == KFDSIG_EMU_IRQ_CP_EOP && k < max)
				db[k++] = r[i].context_id0;
		if (k < want)
			usleep(1000);
	}
	return k;
}

/*
 * A case's set-up: the render node (uq_open()), queues 0 .. @nq - 1
 * (uq_env_queue()) and a syncobj in each of the @nh handles, in order.
 * SUITE_PASS, or the result to return (everything closed then).
 */
static enum suite_result uq_setup(struct suite_ctx *c, struct uq_env *e, int nq, uint32_t *const *h,
				  int nh)
{
	enum suite_result r = uq_open(c, e);

	if (r != SUITE_PASS)
		return r; /* uq_open() leaves nothing open */
	for (int i = 0; r == SUITE_PASS && i < nq; i++)
		r = step(e, c, uq_env_queue(e, i));
	for (int i = 0; r == SUITE_PASS && i < nh; i++)
		r = step(e, c, uq_env_syncobj(e, h[i]));
	if (r != SUITE_PASS)
		uq_env_close(e);
	return r;
}

/* uq_setup() with the syncobj handles listed, or return its result. */
#define SETUP(c, e, nq, ...)                                                                      \
	do {                                                                                      \
		uint32_t *const h_[] = { __VA_ARGS__ };                                           \
		enum suite_result r_ = uq_setup(c, e, nq, h_, (int)(sizeof(h_) / sizeof(h_[0]))); \
		if (r_ != SUITE_PASS)                                                             \
			return r_;                                                                \
	} while (0)

#define TRY(e, expr)                           \
	do {                                   \
		enum suite_result r_ = (expr); \
		if (r_ != SUITE_PASS) {        \
			uq_env_close(e);       \
			return r_;             \
		}                              \
	} while (0)

#define UQ_CHECK(e, cond, ...)                                             \
	do {                                                               \
		if (!(cond)) {                                             \
			enum suite_result r_ = suite_fail(c, __VA_ARGS__); \
			uq_env_close(e);                                   \
			return r_;                                         \
		}                                                          \
	} while (0)

/* userq.signal: one gated submission; its fence wakes the sleeping waiter
 * through the end-of-pipe interrupt of its doorbell. */
static enum suite_result uq_signal(struct suite_ctx *c)
{
	struct uq_env e;
	struct kfdsig_userq_fence_ref g, got[4];
	uint32_t h, n = 4, db[4];
	uint64_t seq, ms, mark;
	uint32_t bound = suite_bound_ms(c, 2000);
	int r, k;

	SETUP(c, &e, 2, &h);
	g = gate_ref(&e.q[0]);
	mark = irq_mark(c);
	TRY(&e, step(&e, c, uq_env_submit(&e, 0, &g, 1, h, &seq)));
	r = uq_env_sync_wait(&e, &h, 1, false, 0, NULL, NULL);
	UQ_CHECK(&e, r == -ETIME, "the fence before the gate opened: %d, expected -ETIME", r);
	/* the fence as the kernel knows it: the queue's seq64 slot (not the
	 * user fence) and the sequence number the submission ends at */
	r = uq_env_wait_refs(&e, 1, h, got, &n);
	UQ_CHECK(&e, r == 0 && n == 1, "USERQ_WAIT on the pending fence: %d, %u pairs", r, n);
	UQ_CHECK(&e, got[0].value == seq,
		 "USERQ_WAIT names sequence number %llu, the submission ends at %llu",
		 (unsigned long long)got[0].value, (unsigned long long)seq);
	UQ_CHECK(&e, got[0].va != va_of(&e.q[0], OFF_FENCE) && got[0].va != g.va,
		 "USERQ_WAIT names 0x%llx, not the kernel's seq64 slot",
		 (unsigned long long)got[0].va);
	r = gated_wait(&e, &h, bound, &ms);
	UQ_CHECK(&e, r == 0, "SYNCOBJ_WAIT on fence %llu: %d", (unsigned long long)seq, r);
	/* the wait's last look at the slot at its timeout would find it
	 * passed: only the interrupt ends it early */
	UQ_CHECK(&e, ms < bound / 2,
		 "fence %llu woke the waiter after %llu ms of %u: by the timeout, not the "
		 "interrupt",
		 (unsigned long long)seq, (unsigned long long)ms, bound);
	UQ_CHECK(&e, *cpu_of(&e.q[0], OFF_FENCE) == seq, "user fence %llu, expected %llu",
		 (unsigned long long)*cpu_of(&e.q[0], OFF_FENCE), (unsigned long long)seq);
	k = eop_doorbells(c, mark, db, 1, 4);
	UQ_CHECK(&e, k < 0 || k == 1, "%d end-of-pipe interrupts for one PROTECTED_FENCE_SIGNAL",
		 k);
	uq_env_close(&e);
	if (k < 0)
		return suite_note(c, "fence %llu woke the waiter in %llu ms",
				  (unsigned long long)seq, (unsigned long long)ms);
	return suite_note(c, "fence %llu woke the waiter in %llu ms: EOP interrupt, doorbell %u",
			  (unsigned long long)seq, (unsigned long long)ms, db[0]);
}

/* userq.cross-queue: queue B waits on the GPU (FENCE_WAIT_MULTI on the
 * pair USERQ_WAIT returns) for A's fence; A's interrupt comes first, then
 * B's. */
static enum suite_result uq_cross(struct suite_ctx *c)
{
	struct uq_env e;
	struct kfdsig_userq_fence_ref g, got[4];
	uint32_t sa, sb, n = 4, db[4];
	uint64_t seq_a, seq_b, ms, mark;
	uint32_t bound = suite_bound_ms(c, 2000);
	int r, k;

	SETUP(c, &e, 2, &sa, &sb);
	g = gate_ref(&e.q[0]);
	mark = irq_mark(c);
	TRY(&e, step(&e, c, uq_env_submit(&e, 0, &g, 1, sa, &seq_a)));
	r = uq_env_wait_refs(&e, 1, sa, got, &n);
	UQ_CHECK(&e, r == 0 && n == 1 && got[0].value == seq_a,
		 "USERQ_WAIT for A's fence %llu: %d, %u pairs, value %llu",
		 (unsigned long long)seq_a, r, n, (unsigned long long)(n ? got[0].value : 0));
	TRY(&e, step(&e, c, uq_env_submit(&e, 1, got, n, sb, &seq_b)));
	r = uq_env_sync_wait(&e, &sb, 1, false, BLOCKED_MS, NULL, NULL);
	UQ_CHECK(&e, r == -ETIME,
		 "B's fence before A's: %d, expected -ETIME (B did not wait for A on the GPU)", r);
	UQ_CHECK(&e, *cpu_of(&e.q[1], OFF_FENCE) == 0,
		 "B's user fence %llu while A's gate is closed: B ran past its FENCE_WAIT_MULTI",
		 (unsigned long long)*cpu_of(&e.q[1], OFF_FENCE));
	r = gated_wait(&e, &sb, bound, &ms);
	UQ_CHECK(&e, r == 0, "SYNCOBJ_WAIT on B's fence %llu: %d", (unsigned long long)seq_b, r);
	UQ_CHECK(&e, ms < bound / 2,
		 "B's fence woke the waiter after %llu ms of %u: by the timeout, not the interrupt",
		 (unsigned long long)ms, bound);
	UQ_CHECK(&e, *cpu_of(&e.q[0], OFF_FENCE) == seq_a && *cpu_of(&e.q[1], OFF_FENCE) == seq_b,
		 "user fences %llu %llu, expected %llu %llu",
		 (unsigned long long)*cpu_of(&e.q[0], OFF_FENCE),
		 (unsigned long long)*cpu_of(&e.q[1], OFF_FENCE), (unsigned long long)seq_a,
		 (unsigned long long)seq_b);
	r = uq_env_sync_wait(&e, &sa, 1, false, 0, NULL, NULL);
	UQ_CHECK(&e, r == 0, "A's fence once B's is signalled: %d", r);
	k = eop_doorbells(c, mark, db, 2, 4);
	/* one from each queue's doorbell (B's is A's + 2: 64-bit doorbells,
	 * offsets 0 and 1); in either order: A's CP thread records its
	 * interrupt after the slot write that lets B's run on */
	UQ_CHECK(&e, k < 0 || (k == 2 && (db[1] == db[0] + 2 || db[0] == db[1] + 2)),
		 "%d end-of-pipe interrupts (doorbells %u, %u), expected one of A's and one of "
		 "B's",
		 k, k > 0 ? db[0] : 0, k > 1 ? db[1] : 0);
	uq_env_close(&e);
	return suite_note(c, "B (fence %llu) waited on the GPU for A (fence %llu), woke in %llu ms",
			  (unsigned long long)seq_b, (unsigned long long)seq_a,
			  (unsigned long long)ms);
}

/* userq.out-of-order: A's fence is held back, B's is not: a WAIT_ANY on
 * both wakes for B (first_signaled 1) while A's stays pending; on one queue
 * a later fence implies the earlier (the slot passed both). */
static enum suite_result uq_ooo(struct suite_ctx *c)
{
	struct uq_env e;
	uint64_t ns = 0;
	struct kfdsig_userq_fence_ref g;
	uint32_t sa, sb, sa2, both[2], first = ~0u;
	uint64_t seq_a, seq_b, seq_a2, ms;
	uint32_t bound = suite_bound_ms(c, 2000);
	int r;

	SETUP(c, &e, 2, &sa, &sa2, &sb);
	g = gate_ref(&e.q[0]);
	TRY(&e, step(&e, c, uq_env_submit(&e, 0, &g, 1, sa, &seq_a)));
	TRY(&e, step(&e, c, uq_env_submit(&e, 0, NULL, 0, sa2, &seq_a2)));
	TRY(&e, step(&e, c, uq_env_submit(&e, 1, NULL, 0, sb, &seq_b)));
	both[0] = sa;
	both[1] = sb;
	r = uq_env_sync_wait(&e, both, 2, false, bound, &first, &ns);
	ms = ms_of(ns);
	UQ_CHECK(&e, r == 0 && first == 1,
		 "WAIT_ANY on A (held back) and B: %d, first_signaled %u, expected 0 and 1 (B)", r,
		 first);
	r = uq_env_sync_wait(&e, &sa, 1, false, 0, NULL, NULL);
	UQ_CHECK(&e, r == -ETIME, "A's fence %llu while its gate is closed: %d, expected -ETIME",
		 (unsigned long long)seq_a, r);
	r = uq_env_sync_wait(&e, &sa2, 1, false, BLOCKED_MS, NULL, NULL);
	UQ_CHECK(&e, r == -ETIME,
		 "A's second fence %llu before its first: %d, expected -ETIME (one queue "
		 "completes in order)",
		 (unsigned long long)seq_a2, r);
	r = gated_wait(&e, &sa2, bound, &ms);
	UQ_CHECK(&e, r == 0 && ms < bound / 2,
		 "A's second fence %llu: %d after %llu ms of %u (the interrupt, not the timeout)",
		 (unsigned long long)seq_a2, r, (unsigned long long)ms, bound);
	r = uq_env_sync_wait(&e, &sa, 1, false, 0, NULL, NULL);
	UQ_CHECK(&e, r == 0, "A's first fence %llu once the slot passed %llu: %d",
		 (unsigned long long)seq_a, (unsigned long long)seq_a2, r);
	uq_env_close(&e);
	return suite_note(c, "B's fence %llu before A's %llu and %llu", (unsigned long long)seq_b,
			  (unsigned long long)seq_a, (unsigned long long)seq_a2);
}

/*
 * userq.seq-wrap: the sequence number is the queue's 64-bit dword write
 * pointer. It does not wrap in practice: it starts at 0 with the queue
 * (the MQD's read pointer) and would need 2^64 dwords; a program cannot
 * start it near the top, since the CP would run the ring from 0 to there.
 * What wraps is the ring: the case submits past the ring's end in rounds,
 * each fence waited for, and checks that the sequence numbers keep
 * counting (not the position in the ring) and that each fence still wakes
 * its waiter.
 */
static enum suite_result uq_wrap(struct suite_ctx *c)
{
	struct uq_env e;
	uint64_t ns = 0;
	uint32_t h[2];
	uint64_t seq = 0, last = 0, ms;
	uint32_t bound = suite_bound_ms(c, 2000);
	unsigned rounds = 0;
	int r;

	SETUP(c, &e, 1, &h[0], &h[1]);
	/* a round: a few submissions, the last one's fence waited for
	 * (the ring never holds more than a round) */
	while (e.q[0].wptr < 2 * RING_DW + RING_DW / 2) {
		for (int k = 0; k < 8; k++) {
			TRY(&e, step(&e, c, uq_env_submit(&e, 0, NULL, 0, h[rounds & 1], &seq)));
			UQ_CHECK(&e, seq > last, "sequence number %llu after %llu",
				 (unsigned long long)seq, (unsigned long long)last);
			last = seq;
		}
		r = uq_env_sync_wait(&e, &h[rounds & 1], 1, false, bound, NULL, &ns);
		ms = ms_of(ns);
		UQ_CHECK(&e, r == 0 && ms < bound / 2,
			 "fence %llu (round %u, ring position %llu): %d after %llu ms of %u",
			 (unsigned long long)seq, rounds, (unsigned long long)(seq % RING_DW), r,
			 (unsigned long long)ms, bound);
		UQ_CHECK(&e, *cpu_of(&e.q[0], OFF_FENCE) == seq, "user fence %llu, expected %llu",
			 (unsigned long long)*cpu_of(&e.q[0], OFF_FENCE), (unsigned long long)seq);
		rounds++;
	}
	UQ_CHECK(&e, seq > 2 * RING_DW, "the last fence %llu is not past two rings of %u dwords",
		 (unsigned long long)seq, RING_DW);
	uq_env_close(&e);
	return suite_note(c,
			  "%u rounds, the ring of %u dwords wrapped twice, the last fence %llu "
			  "(the seq64 value itself cannot wrap: 2^64 dwords from 0)",
			  rounds, RING_DW, (unsigned long long)seq);
}

/*
 * userq.reset: a queue whose fence never comes (held back by a gate that
 * stays closed) is reset by the kernel's hang detection once the lockup
 * timeout passes (amdgpu_userq.c amdgpu_userq_hang_detect_work()), and its
 * fence is force-completed (amdgpu_userq_fence.c
 * amdgpu_userq_fence_driver_force_completion(): error -ECANCELED, the
 * seq64 slot takes its sequence number): the syncobj waiter wakes, the
 * work the queue did not reach stays undone (no user fence), and another
 * queue's GPU wait on the fence goes on.
 */
static enum suite_result uq_reset(struct suite_ctx *c)
{
	struct uq_env e;
	uint64_t ns = 0;
	struct kfdsig_userq_fence_ref g, got[4];
	uint32_t sa, sb, n = 4;
	uint64_t seq_a, seq_b, ms;
	uint32_t bound = suite_bound_ms(c, 10000);
	int r;

	SETUP(c, &e, 2, &sa, &sb);
	g = gate_ref(&e.q[0]);
	TRY(&e, step(&e, c, uq_env_submit(&e, 0, &g, 1, sa, &seq_a)));
	r = uq_env_sync_wait(&e, &sa, 1, false, bound, NULL, &ns);
	ms = ms_of(ns);
	if (r == -ETIME && !c->d->emu) {
		uq_env_close(&e);
		return suite_skip(c,
				  "this kernel did not reset the hung user queue within %u ms (its "
				  "hang detection, amdgpu_userq_hang_detect_work(), is newer, or "
				  "its lockup_timeout longer)",
				  bound);
	}
	UQ_CHECK(&e, r == 0,
		 "the hung queue's fence %llu: %d after %llu ms of %u, expected the reset to "
		 "complete it",
		 (unsigned long long)seq_a, r, (unsigned long long)ms, bound);
	UQ_CHECK(&e, *cpu_of(&e.q[0], OFF_FENCE) == 0,
		 "user fence %llu: the queue ran past its closed gate, it was not reset",
		 (unsigned long long)*cpu_of(&e.q[0], OFF_FENCE));
	/* the slot holds the reset fence's number: a GPU wait on it passes */
	r = uq_env_wait_refs(&e, 1, sa, got, &n);
	UQ_CHECK(&e, r == 0 && (n == 0 || (n == 1 && got[0].value == seq_a)),
		 "USERQ_WAIT on the reset fence %llu: %d, %u pairs, value %llu",
		 (unsigned long long)seq_a, r, n, (unsigned long long)(n ? got[0].value : 0));
	TRY(&e, step(&e, c, uq_env_submit(&e, 1, got, n, sb, &seq_b)));
	r = uq_env_sync_wait(&e, &sb, 1, false, suite_bound_ms(c, 2000), NULL, &ns);
	UQ_CHECK(&e, r == 0 && *cpu_of(&e.q[1], OFF_FENCE) == seq_b,
		 "a queue waiting on the GPU for the reset fence: %d, user fence %llu, expected "
		 "%llu",
		 r, (unsigned long long)*cpu_of(&e.q[1], OFF_FENCE), (unsigned long long)seq_b);
	__atomic_store_n(cpu_of(&e.q[0], OFF_GATE), 1, __ATOMIC_RELEASE);
	uq_env_close(&e);
	return suite_note(c,
			  "the hung queue was reset after %llu ms: fence %llu completed without "
			  "its work, a GPU wait on it went on",
			  (unsigned long long)ms, (unsigned long long)seq_a);
}

static const struct suite_case cases[] = {
	{ "userq.signal",
	  "a user queue's PROTECTED_FENCE_SIGNAL writes its seq64 slot with the submission's ring "
	  "position and its end-of-pipe interrupt wakes the SYNCOBJ_WAIT on the fence "
	  "USERQ_SIGNAL attached (fast, not at the timeout)",
	  "GFX11 and GFX12.0 with compute user queues (Linux 6.16+); skipped elsewhere",
	  SUITE_ENGINE_NONE, 0, uq_signal },
	{ "userq.cross-queue",
	  "a second user queue waits on the GPU (FENCE_WAIT_MULTI on USERQ_WAIT's seq64 address "
	  "and value) for the first queue's fence, then signals its own",
	  NULL, SUITE_ENGINE_NONE, 0, uq_cross },
	{ "userq.out-of-order",
	  "fences of two queues complete out of order (WAIT_ANY wakes for the later queue's, "
	  "first_signaled 1); on one queue a later fence implies the earlier",
	  NULL, SUITE_ENGINE_NONE, 0, uq_ooo },
	{ "userq.seq-wrap",
	  "the ring wraps (past 2.5 rings of submissions) while the sequence numbers keep "
	  "counting and every fence wakes its waiter",
	  "the seq64 value is the 64-bit dword write pointer from 0: it cannot wrap in practice",
	  SUITE_ENGINE_NONE, 0, uq_wrap },
	{ "userq.reset", "a hung user queue is reset and its pending fences end", NULL,
	  SUITE_ENGINE_NONE, 0, uq_reset },
};

const struct suite_group suite_group_userq = { "userq", cases, sizeof(cases) / sizeof(cases[0]) };
