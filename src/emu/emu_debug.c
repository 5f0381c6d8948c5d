/* SPDX-License-Identifier: MIT */
/*
 * The emulated KFD's debugger and runtime-enable interface (emu_debug.h):
 * AMDKFD_IOC_RUNTIME_ENABLE and AMDKFD_IOC_DBG_TRAP with the checks and
 * errnos of today's kfd_chardev.c (kfd_ioctl_runtime_enable(),
 * runtime_enable(), runtime_disable(), kfd_ioctl_set_debug_trap()),
 * kfd_debug.c (kfd_dbg_trap_enable/disable, kfd_dbg_ev_raise,
 * kfd_set_dbg_ev_from_interrupt, kfd_dbg_send_exception_to_runtime,
 * kfd_dbg_ev_query_debug_event, kfd_dbg_trap_query_exception_info,
 * kfd_dbg_trap_device_snapshot, the wave launch and watch operations),
 * kfd_device_queue_manager.c (suspend_queues, resume_queues,
 * wait_on_destroy_queue, destroy_queue_cpsch), kfd_process_queue_manager.c
 * (pqm_get_queue_snapshot) and kfd_process.c
 * (kfd_send_exception_to_runtime).
 *
 * Processes: the target of DBG_TRAP is found by its pid (the emulated
 * process's pid, the caller's own unless kfdsig_emu_set_proc_pid() gave
 * it a stand-in's), the debugger is the calling KFD process. The ptrace
 * rule is checked against the real processes: a target with another pid
 * must have the calling thread as its tracer (/proc/PID/status TracerPid,
 * which is ptrace_parent()); one with the caller's own pid is the caller
 * itself (target == p in the kernel), which needs no tracing. Identity
 * is the pid: a process lent to a stand-in is the stand-in, even to the
 * process that opened it.
 *
 * Locking: the target's p->lock guards p->dbg and its queues' debug
 * fields (the kernel's p->mutex and p->event_mutex); a waiting runtime
 * enable and a waiting queue destroy sleep on dbg->cond with it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <kfdsig/debug.h>

#include "emu/emu_debug.h"
#include "emu/emu_host.h"

/* kfd_ioctl.h enum kfd_dbg_runtime_state */
#define RT_DISABLED 0u
#define RT_ENABLED 1u

/* Address watch points per GPU: 4 (kfd_debug.c kfd_dbg_get_dev_watch_id()
 * walks MAX_WATCH_ADDRESSES, 4, in kfd_priv.h). */
#define EMU_WATCH_POINTS 4

struct emu_dbg {
	pthread_cond_t cond;
	/* runtime side: kfd_process runtime_info, runtime_enable_sema */
	uint32_t runtime_state;
	uint64_t r_debug;
	uint32_t ttmp_setup;
	uint32_t sema;
	bool retry; /* is_runtime_retry */
	/* debugger side */
	bool trap_enabled;
	int dbg_fd; /* our dup of the debugger's dbg_fd (fget), -1 */
	struct emu_proc *debugger;
	uint64_t enable_mask; /* exception_enable_mask */
	uint64_t status;      /* process exception_status */
	uint64_t dev_status[EMU_MAX_GPUS];
	bool vmf_valid[EMU_MAX_GPUS];
	struct kfd_hsa_memory_exception_data vmf[EMU_MAX_GPUS];
	uint32_t launch_mode;	     /* KFD_DBG_TRAP_WAVE_LAUNCH_MODE_* */
	uint32_t trap_override;	     /* enabled wave traps */
	uint32_t flags;		     /* KFD_DBG_TRAP_FLAG_* */
	uint8_t watch[EMU_MAX_GPUS]; /* bit per watch point in use */
	/* each point's address, mask and KFD_DBG_TRAP_ADDRESS_WATCH_MODE_* */
	uint64_t watch_addr[EMU_MAX_GPUS][EMU_WATCH_POINTS];
	uint32_t watch_mask[EMU_MAX_GPUS][EMU_WATCH_POINTS];
	uint8_t watch_mode[EMU_MAX_GPUS][EMU_WATCH_POINTS];
	/* a debugger in another process (per-pid model): the shared state
	 * (struct dbg_link) and whether this process follows it */
	struct dbg_link *link;
	bool remote;
};

static void link_sync(struct emu_proc *p, struct emu_dbg *d);
static void link_raise(struct emu_dbg *d, uint64_t mask, int gi, const void *data, size_t len);
static int link_sema_down(struct emu_proc *p, struct emu_dbg *d);

static struct emu_dbg *dbg_of(struct emu_proc *p)
{
	struct emu_dbg *d = p->dbg;

	if (d)
		return d;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	pthread_cond_init(&d->cond, NULL);
	d->dbg_fd = -1;
	p->dbg = d;
	return d;
}

/* ---- raising exceptions (kfd_debug.c kfd_dbg_ev_raise) ------------------ */

/* Record @mask on its source and tell the debugger when it subscribed.
 * @gi: the GPU index (-1: none), @qid: the queue (-1: none). Returns
 * whether the debugger took it. p->lock held. */
static bool ev_raise(struct emu_proc *p, uint64_t mask, int gi, int qid, const void *data,
		     size_t len)
{
	struct emu_dbg *d = p->dbg;

	if (d && d->link)
		link_sync(p, d);
	if (!d || !d->trap_enabled)
		return false;
	if (d->remote && (mask & (KFDSIG_EC_MASK_DEVICE | KFDSIG_EC_MASK_PROCESS)))
		link_raise(d, mask, gi, data, len);
	else if (mask & KFDSIG_EC_MASK_DEVICE) {
		if (gi >= 0) {
			d->dev_status[gi] |= mask & KFDSIG_EC_MASK_DEVICE;
			/* the first violation's data is kept until cleared */
			if ((mask & KFDSIG_EC_MASK(KFDSIG_EC_DEVICE_MEMORY_VIOLATION)) &&
			    !d->vmf_valid[gi] && data && len == sizeof(d->vmf[gi])) {
				memcpy(&d->vmf[gi], data, len);
				d->vmf_valid[gi] = true;
			}
		}
	} else if (mask & KFDSIG_EC_MASK_PROCESS) {
		d->status |= mask & KFDSIG_EC_MASK_PROCESS;
	} else {
		for (struct emu_queue *q = p->queues; q; q = q->next)
			if ((int)q->g->index == gi && (int)q->id == qid) {
				q->exception_status |= mask;
				break;
			}
	}
	if (!(d->enable_mask & mask))
		return false;
	/* kernel_write(dbg_ev_file, ".", 1): the debugger polls its fd */
	if (d->dbg_fd >= 0) {
		static const char dot = '.';
		struct pollfd pfd = { .fd = d->dbg_fd, .events = POLLOUT };

		/* Emulator choice: a file that cannot take the byte now (a
		 * full pipe) loses it instead of blocking an engine thread;
		 * the kernel's kernel_write would block there. The status
		 * stays for QUERY_DEBUG_EVENT either way. */
		if (poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLOUT)) {
			ssize_t w = write(d->dbg_fd, &dot, 1);
			(void)w;
		}
	}
	return true;
}

/* kfd_process.c kfd_send_exception_to_runtime() (its work handler): read
 * err_payload_addr and err_event_id from the queue's context save area
 * header, OR @mask into the payload word, set the event. The header and
 * the payload are user memory, read and written as get_user/put_user do.
 * p->lock held, inside emu_wake_begin/end. */
static void send_to_runtime(struct emu_proc *p, struct emu_queue *q, uint64_t mask)
{
	abi_cwsr_header h;
	uint64_t cur;

	if (!q->cwsr_va || emu_copy_from_user(&h, (const void *)(uintptr_t)q->cwsr_va, sizeof(h)))
		return;
	if (h.err_payload_addr &&
	    !emu_copy_from_user(&cur, (const void *)(uintptr_t)h.err_payload_addr, sizeof(cur))) {
		cur |= mask;
		emu_copy_to_user((void *)(uintptr_t)h.err_payload_addr, &cur, sizeof(cur));
	}
	/* kfd_set_event(): only a signal event can be set; others are
	 * ignored (-EINVAL, not reported) */
	emu_set_event_ioctl(p, h.err_event_id);
}

/* The interrupt handlers that report exceptions (kfd_int_process_v9.c,
 * _v10.c, _v11.c, _v12_1.c) call kfd_set_dbg_ev_from_interrupt(); the
 * gfx7/8 handler (cik_event_interrupt.c) does not. */
static bool reports_exceptions(const struct emu_gpu *g)
{
	return g->gen.irq != KFDSIG_IRQ_CIK;
}

void emu_queue_exception(struct emu_queue *q, uint32_t ec)
{
	struct emu_proc *p;
	uint64_t mask;

	if (!q || !ec || ec >= KFDSIG_EC_MAX || !reports_exceptions(q->g))
		return;
	p = q->p;
	mask = KFDSIG_EC_MASK(ec);
	emu_wake_begin();
	pthread_mutex_lock(&p->lock);
	/* kfd_set_dbg_ev_from_interrupt(): the debugger first; a queue
	 * exception it does not take goes to an enabled runtime */
	if (!ev_raise(p, mask, (int)q->g->index, (int)q->id, NULL, 0) &&
	    (mask & KFDSIG_EC_MASK_QUEUE) && p->dbg && p->dbg->runtime_state == RT_ENABLED)
		send_to_runtime(p, q, mask);
	pthread_mutex_unlock(&p->lock);
	emu_wake_end();
}

void emu_device_exception(struct emu_proc *p, struct emu_gpu *g, uint32_t ec, const void *data,
			  size_t len)
{
	if (!p || !g || !ec || ec >= KFDSIG_EC_MAX || !reports_exceptions(g))
		return;
	pthread_mutex_lock(&p->lock);
	ev_raise(p, KFDSIG_EC_MASK(ec), (int)g->index, -1, data, len);
	pthread_mutex_unlock(&p->lock);
}

bool emu_queue_may_fetch(const struct emu_queue *q)
{
	return !__atomic_load_n(&q->suspended, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&q->inactive, __ATOMIC_ACQUIRE);
}

bool emu_queue_may_launch(const struct emu_queue *q)
{
	const struct emu_dbg *d = __atomic_load_n(&q->p->dbg, __ATOMIC_ACQUIRE);

	return !d || __atomic_load_n(&d->launch_mode, __ATOMIC_ACQUIRE) != KFDSIG_DBG_LAUNCH_HALT;
}

bool emu_dbg_runtime_enabled(struct emu_proc *p)
{
	bool on;

	pthread_mutex_lock(&p->lock);
	on = p->dbg && p->dbg->runtime_state == RT_ENABLED;
	pthread_mutex_unlock(&p->lock);
	return on;
}

bool emu_dbg_trap_enabled(struct emu_proc *p)
{
	bool on;

	/* The flag follows the activation, not the enable:
	 * kfd_dbg_trap_enable() activates at once only when the runtime is
	 * enabled and otherwise defers it to RUNTIME_ENABLE (kfd_chardev.c
	 * runtime_enable -> kfd_dbg_trap_activate); runtime_disable
	 * deactivates (kfd_dbg_trap_deactivate clears the flag). The emulated
	 * process has its pdds, and so its TMA, from its start, so the
	 * CWSR-initialisation path that copies debug_trap_enabled
	 * (kfd_process.c kfd_process_device_init_cwsr_dgpu) does not arise. */
	pthread_mutex_lock(&p->lock);
	if (p->dbg && p->dbg->link)
		link_sync(p, p->dbg);
	on = p->dbg && p->dbg->trap_enabled && p->dbg->runtime_state == RT_ENABLED;
	pthread_mutex_unlock(&p->lock);
	return on;
}

uint64_t emu_dbg_trap_base(struct emu_queue *q)
{
	uint64_t tba;

	if (!emu_dbg_trap_enabled(q->p))
		return 0;
	pthread_mutex_lock(&q->p->lock);
	tba = q->p->pdd[q->g->index].tba;
	pthread_mutex_unlock(&q->p->lock);
	return tba;
}

uint32_t emu_dbg_wave_traps(struct emu_proc *p)
{
	uint32_t m;

	pthread_mutex_lock(&p->lock);
	m = p->dbg && p->dbg->trap_enabled ? p->dbg->trap_override : 0;
	pthread_mutex_unlock(&p->lock);
	return m &
	       (KFDSIG_DBG_TRAP_MASK_TRAP_ON_WAVE_START | KFDSIG_DBG_TRAP_MASK_TRAP_ON_WAVE_END);
}

unsigned emu_dbg_watches(struct emu_queue *q, uint64_t addr[4], uint32_t mask[4], uint8_t mode[4])
{
	struct emu_proc *p = q->p;
	unsigned n = 0;

	pthread_mutex_lock(&p->lock);
	/* the address watch exception is enabled by the wave launch
	 * override's KFD_DBG_TRAP_MASK_DBG_ADDRESS_WATCH (kfd_debug.c
	 * kfd_dbg_trap_set_wave_launch_override() programs it into the
	 * SPI's trap enable mask) */
	if (p->dbg && p->dbg->trap_enabled &&
	    (p->dbg->trap_override & KFDSIG_DBG_TRAP_MASK_DBG_ADDRESS_WATCH)) {
		struct emu_dbg *d = p->dbg;

		for (unsigned i = 0; i < EMU_WATCH_POINTS && i < 4; i++) {
			if (!(d->watch[q->g->index] & (1u << i)))
				continue;
			addr[n] = d->watch_addr[q->g->index][i];
			mask[n] = d->watch_mask[q->g->index][i];
			mode[n] = (uint8_t)(d->watch_mode[q->g->index][i] | i << 4);
			/* SET_FLAGS KFD_DBG_TRAP_FLAG_SINGLE_MEM_OP: the
			 * wave waits for each memory operation, so the
			 * exception is precise */
			if (d->flags & KFDSIG_DBG_FLAG_SINGLE_MEM_OP)
				mode[n] |= EMU_DBG_WATCH_PRECISE;
			n++;
		}
	}
	pthread_mutex_unlock(&p->lock);
	return n;
}

bool emu_dbg_ev_from_interrupt(struct emu_queue *q, uint32_t doorbell_id, uint64_t mask)
{
	struct emu_proc *p = q->p;
	struct emu_queue *t;
	bool took = false;

	if (!mask || !reports_exceptions(q->g))
		return false;
	emu_wake_begin();
	pthread_mutex_lock(&p->lock);
	/* the queue of this GPU with that doorbell (the emulator's doorbell
	 * id is the queue id, emu_queue.c) */
	for (t = p->queues; t; t = t->next)
		if (t->g == q->g && t->id == doorbell_id)
			break;
	if (ev_raise(p, mask, (int)q->g->index, t ? (int)t->id : -1, NULL, 0))
		took = true;
	else if (t && (mask & KFDSIG_EC_MASK_QUEUE) && p->dbg &&
		 p->dbg->runtime_state == RT_ENABLED) {
		send_to_runtime(p, t, mask);
		took = true;
	}
	pthread_mutex_unlock(&p->lock);
	emu_wake_end();
	return took;
}

void emu_dbg_queue_new(struct emu_queue *q)
{
	/* kfd_chardev.c kfd_ioctl_create_queue(): once pqm_create_queue()
	 * has made the queue, a queue created under a debugger is reported
	 * as EC_QUEUE_NEW, before the ioctl returns and so before anything
	 * can run on it: its EC_QUEUE_NEW is raised before any wave exception
	 * of it. It cannot be suspended until the debugger clears that bit
	 * (kfd_device_queue_manager.c suspend_single_queue()). */
	ev_raise(q->p, KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_NEW), (int)q->g->index, (int)q->id, NULL, 0);
}

/* The kernel's interruptible waits (down_interruptible,
 * wait_event_interruptible) end early when a signal comes: the ioctl
 * fails with -EINTR and the caller calls again. The emulator has no
 * signal to wait for: its waits end after EMU_DBG_WAIT_MS as if one came
 * (the library retries -EINTR; a raw caller, a fuzzer, is not stuck).
 * p->lock held, released while waiting. Return: 0 or -EINTR. */
#define EMU_DBG_WAIT_MS 1000

static int dbg_wait(struct emu_dbg *d, struct emu_proc *p, const struct timespec *until)
{
	return pthread_cond_timedwait(&d->cond, &p->lock, until) == ETIMEDOUT ? -EINTR : 0;
}

static struct timespec deadline(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += EMU_DBG_WAIT_MS / 1000;
	return ts;
}

int emu_dbg_queue_delete(struct emu_queue *q)
{
	struct emu_proc *p = q->p;
	struct timespec until = deadline();

	/* kfd_device_queue_manager.c wait_on_destroy_queue(): destroying a
	 * suspended queue of a debugged process waits for its resume */
	while (p->dbg && p->dbg->trap_enabled && q->suspended)
		if (dbg_wait(p->dbg, p, &until))
			return -EINTR;
	/* destroy_queue_cpsch(): EC_DEVICE_QUEUE_DELETE, doorbell -1 */
	ev_raise(p, KFDSIG_EC_MASK(KFDSIG_EC_DEVICE_QUEUE_DELETE), (int)q->g->index, -1, NULL, 0);
	return 0;
}

/* ---- suspend / resume (kfd_device_queue_manager.c) ---------------------- */

/* Wake the queue's engine (it sleeps on its doorbell word). */
static void kick(struct emu_queue *q)
{
	syscall(SYS_futex, (uint32_t *)q->doorbell, FUTEX_WAKE, 0x7fffffff, NULL, NULL, 0);
}

/* The engine parks at a packet boundary once it sees the flag
 * (emu_doorbell.c); wait for that, as suspend_queues waits for the
 * preemption (HWS unmap with the grace period). Bounded: a queue that does
 * not park in 2 s is reported with KFD_DBG_QUEUE_ERROR_MASK, as a failed
 * preemption is. p->lock not held. */
static bool wait_parked(struct emu_queue *q)
{
	struct timespec ts;
	uint64_t end;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	end = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec + 2000000000ull;
	for (int i = 0;; i++) {
		if (__atomic_load_n(&q->parked, __ATOMIC_ACQUIRE) ||
		    __atomic_load_n(&q->stop, __ATOMIC_ACQUIRE))
			return true;
		/* by the clock: a usleep() lasts longer than asked */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		if ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec >= end)
			return false;
		if (i % 100 == 0)
			kick(q);
		usleep(10);
	}
}

/* Is @id (status bits masked) in the array? Its index or -1
 * (kfd_device_queue_manager.c q_array_get_index). */
static int q_index(uint32_t id, const uint32_t *ids, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (KFDSIG_DBG_QUEUE_ID(ids[i]) == id)
			return (int)i;
	return -1;
}

/* The user's queue id array, copied in (memdup_user): -EFAULT, -ENOMEM,
 * or -EINVAL for a count the kernel could not allocate. */
static int ids_in(uint64_t uptr, uint32_t n, uint32_t **out)
{
	uint32_t *ids;

	*out = NULL;
	if (!n)
		return 0;
	if ((uint64_t)n * sizeof(uint32_t) > EMU_KMALLOC_MAX)
		return -ENOMEM;
	ids = malloc((size_t)n * sizeof(uint32_t));
	if (!ids)
		return -ENOMEM;
	if (emu_copy_from_user(ids, (const void *)(uintptr_t)uptr, (size_t)n * sizeof(uint32_t))) {
		free(ids);
		return -EFAULT;
	}
	*out = ids;
	return 0;
}

/* suspend_queues(): every listed id starts INVALID and is cleared when its
 * queue stops; a new queue (EC_QUEUE_NEW pending) is skipped (-EBUSY in
 * suspend_single_queue, left INVALID); an already suspended one counts.
 * Returns the number suspended. Takes and drops p->lock. */
static int suspend(struct emu_proc *p, uint64_t clear, uint64_t uptr, uint32_t n)
{
	struct emu_queue *stopped[32];
	uint32_t *ids, nstopped = 0;
	int r, total = 0;

	if ((r = ids_in(uptr, n, &ids)) < 0)
		return r;
	for (uint32_t i = 0; i < n; i++)
		ids[i] |= KFDSIG_DBG_QUEUE_INVALID;
	pthread_mutex_lock(&p->lock);
	for (struct emu_queue *q = p->queues; q; q = q->next) {
		int k = q_index(q->id, ids, n);

		if (k < 0)
			continue;
		if (q->exception_status & KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_NEW))
			continue;
		if (!q->suspended) {
			__atomic_store_n(&q->suspended, true, __ATOMIC_RELEASE);
			if (nstopped < 32)
				stopped[nstopped++] = q;
		}
		ids[k] &= ~KFDSIG_DBG_QUEUE_INVALID;
		q->exception_status &= ~clear;
		total++;
	}
	pthread_mutex_unlock(&p->lock);
	/* the preemption: each newly suspended engine parks */
	for (uint32_t i = 0; i < nstopped; i++)
		if (!wait_parked(stopped[i])) {
			int k = q_index(stopped[i]->id, ids, n);
			if (k >= 0)
				ids[k] |= KFDSIG_DBG_QUEUE_ERROR;
			total--;
		}
	if (n && emu_copy_to_user((void *)(uintptr_t)uptr, ids, (size_t)n * sizeof(uint32_t)))
		total = -EFAULT;
	free(ids);
	return total;
}

/* resume_queues(): the listed ids (NULL: every queue) start INVALID and
 * are cleared as their queues run again. p->lock held. */
static int resume(struct emu_proc *p, uint64_t uptr, uint32_t n, bool all)
{
	uint32_t *ids = NULL;
	int r, total = 0;

	if (!all && (r = ids_in(uptr, n, &ids)) < 0)
		return r;
	for (uint32_t i = 0; ids && i < n; i++)
		ids[i] |= KFDSIG_DBG_QUEUE_INVALID;
	for (struct emu_queue *q = p->queues; q; q = q->next) {
		int k = all ? -1 : q_index(q->id, ids, n);

		if (!all && k < 0)
			continue;
		if (q->suspended) {
			__atomic_store_n(&q->suspended, false, __ATOMIC_RELEASE);
			kick(q);
		}
		if (k >= 0)
			ids[k] &= ~KFDSIG_DBG_QUEUE_INVALID;
		total++;
	}
	if (p->dbg)
		pthread_cond_broadcast(&p->dbg->cond); /* a waiting destroy */
	if (ids && n &&
	    emu_copy_to_user((void *)(uintptr_t)uptr, ids, (size_t)n * sizeof(uint32_t)))
		total = -EFAULT;
	free(ids);
	return total;
}

/* ---- RUNTIME_ENABLE (kfd_chardev.c) ------------------------------------- */

/* down_interruptible(&p->runtime_enable_sema); an interrupted wait
 * leaves is_runtime_retry set, and the next RUNTIME_ENABLE call waits
 * again without raising anew (kfd_chardev.c runtime_enable() /
 * runtime_disable()). */
static int sema_down(struct emu_proc *p, struct emu_dbg *d)
{
	struct timespec until = deadline();

	if (d->remote) {
		int r = link_sema_down(p, d);

		d->retry = r != 0;
		return r;
	}
	while (!d->sema)
		if (dbg_wait(d, p, &until)) {
			d->retry = true;
			return -EINTR;
		}
	d->sema--;
	d->retry = false;
	return 0;
}

/* ---- a debugger in another process (per-pid model) ----------------------- */

/*
 * amdkfd keeps the debug state in the target's kfd_process, which the
 * debugger reaches by pid (kfd_lookup_process_by_pid); ENABLE of a traced
 * process without a KFD process creates one for it (kfd_chardev.c
 * kfd_ioctl_set_debug_trap(): kfd_create_process(task)). Under the
 * interposer every process has its own emulator, and the debugger attaches
 * while its target is stopped (ptrace), so nothing can answer on the
 * target's side: the state a debugger in another process needs lives in a
 * small shared page named after the target (its pid and start time, so a
 * reused pid is another page). The target creates it at RUNTIME_ENABLE
 * (so that a later debugger sees its runtime state, kfd_dbg_trap_enable()
 * copies runtime_info) and the debugger at ENABLE when it does not exist
 * yet (the process the kernel would create). The target follows it at
 * RUNTIME_ENABLE and at each exception it raises (link_sync).
 *
 * What crosses: the runtime state and its handshake
 * (EC_PROCESS_RUNTIME, runtime_enable_sema), the exception enable mask,
 * process and device exceptions with the memory-violation data, the
 * debugger's event file (the target opens it through /proc/PID/fd, so it
 * writes the same file kernel_write() would). What does not: queue-level
 * state and the operations on the target's queues and waves (suspend,
 * resume, queue snapshot, wave launch, watch points, flags), which need the
 * target's engines: those fail fast with -ENODEV (the errno of a target
 * that has no device for the operation) and are documented in
 * docs/debug.md.
 */
#define LINK_MAGIC 0x4b444247u /* "KDBG" */

struct dbg_link {
	uint32_t magic;
	uint32_t target_mapped; /* the target follows it */
	pthread_mutex_t mu;	/* process-shared, robust */
	uint32_t trap_enabled;
	int32_t debugger; /* pid of the debugging process, 0 */
	int32_t dbg_fd;	  /* the debugger's copy of its event file */
	uint32_t runtime_state;
	uint32_t ttmp_setup;
	uint32_t sema; /* runtime_enable_sema (futex word) */
	uint64_t r_debug;
	uint64_t enable_mask;
	uint64_t status;
	uint64_t dev_status[EMU_MAX_GPUS];
	uint32_t vmf_valid[EMU_MAX_GPUS];
	struct kfd_hsa_memory_exception_data vmf[EMU_MAX_GPUS];
};

/* The page's name: pid and start time (/proc/PID/stat field 22). */
static int link_name(pid_t pid, char *name, size_t n)
{
	char path[64], buf[1024], *rp;
	unsigned long long start = 0;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -ESRCH;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -ESRCH;
	buf[len] = 0;
	rp = strrchr(buf, ')');
	/* after the comm: state is field 3, starttime field 22 */
	for (int field = 2; rp && field < 22; field++)
		rp = strchr(rp + 1, ' ');
	if (!rp || sscanf(rp + 1, "%llu", &start) != 1)
		return -ESRCH;
	snprintf(name, n, "/kfdsig-dbg-%d-%llu", (int)pid, start);
	return 0;
}

/* Map @pid's page, creating it with @create. NULL: absent or no memory. */
static struct dbg_link *link_map(pid_t pid, bool create)
{
	struct dbg_link *l;
	struct stat st;
	char name[96];
	bool made = false;
	int fd;

	if (link_name(pid, name, sizeof(name)))
		return NULL;
	fd = shm_open(name, O_RDWR | O_CLOEXEC | (create ? O_CREAT | O_EXCL : 0), 0600);
	if (fd >= 0 && create)
		made = true;
	else if (fd < 0 && create && errno == EEXIST)
		fd = shm_open(name, O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		return NULL;
	if (made && ftruncate(fd, sizeof(*l))) {
		close(fd);
		shm_unlink(name);
		return NULL;
	}
	/* a page another process is still making: wait for its size */
	for (int i = 0; i < 1000 && !fstat(fd, &st) && st.st_size < (off_t)sizeof(*l); i++)
		usleep(1000);
	l = mmap(NULL, sizeof(*l), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (l == MAP_FAILED)
		return NULL;
	if (made) {
		pthread_mutexattr_t ma;

		pthread_mutexattr_init(&ma);
		pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
		pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST);
		pthread_mutex_init(&l->mu, &ma);
		pthread_mutexattr_destroy(&ma);
		__atomic_store_n(&l->magic, LINK_MAGIC, __ATOMIC_RELEASE);
	}
	for (int i = 0; i < 1000 && __atomic_load_n(&l->magic, __ATOMIC_ACQUIRE) != LINK_MAGIC; i++)
		usleep(1000);
	if (__atomic_load_n(&l->magic, __ATOMIC_ACQUIRE) != LINK_MAGIC) {
		munmap(l, sizeof(*l));
		return NULL;
	}
	return l;
}

/* Bounded: a holder stopped by its tracer must not hang the other side
 * (the kernel's mutex_lock_interruptible: -EINTR, the library retries). */
static int link_lock(struct dbg_link *l)
{
	struct timespec until;
	int r;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 1;
	r = pthread_mutex_timedlock(&l->mu, &until);
	if (r == EOWNERDEAD) {
		pthread_mutex_consistent(&l->mu);
		r = 0;
	}
	return r ? -EINTR : 0;
}

/* The page of this process, removed when it exits. */
static char own_link[96];
static pid_t own_link_pid;

__attribute__((destructor)) static void link_remove(void)
{
	if (own_link[0] && own_link_pid == getpid())
		shm_unlink(own_link);
}

void emu_host_debug_exit(void)
{
	link_remove();
}

/* A page is named after its target's pid and start time: when no process
 * has both any more, the target is gone and so is every use of the page
 * (a debugger of a gone pid gets -ESRCH). */
void emu_host_reap_debug_pages(void)
{
	DIR *d = opendir("/dev/shm");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char name[96], now[96];
		unsigned long long start;
		int pid, end = 0;

		if (strncmp(de->d_name, "kfdsig-dbg-", 11) ||
		    sscanf(de->d_name, "kfdsig-dbg-%d-%llu%n", &pid, &start, &end) != 2 ||
		    de->d_name[end] || pid <= 0)
			continue;
		snprintf(name, sizeof(name), "/kfdsig-dbg-%d-%llu", pid, start);
		if (link_name(pid, now, sizeof(now)) || strcmp(now, name))
			shm_unlink(name);
	}
	closedir(d);
}

/* The target's side: map its page (creating it with @create), once.
 * p->lock held. Per-pid model and the process's own primary only. */
static void link_target(struct emu_proc *p, struct emu_dbg *d, bool create)
{
	if (d->link || p->emu->pmodel != KFDSIG_EMU_PROCESS_PER_PID || p->secondary ||
	    p->pid != getpid())
		return;
	d->link = link_map(p->pid, create);
	if (!d->link)
		return;
	__atomic_store_n(&d->link->target_mapped, 1, __ATOMIC_RELEASE);
	if (!link_name(p->pid, own_link, sizeof(own_link)))
		own_link_pid = getpid();
}

/* Publish the runtime state to the page. p->lock held. */
static void link_publish(struct emu_dbg *d)
{
	if (!d->link || link_lock(d->link))
		return;
	d->link->runtime_state = d->runtime_state;
	d->link->r_debug = d->r_debug;
	d->link->ttmp_setup = d->ttmp_setup;
	pthread_mutex_unlock(&d->link->mu);
}

/* The target follows its page: a debugger in another process enabled or
 * disabled the trap interface, or changed the enable mask; a debugger that
 * is gone has detached (kfd_process_notifier_release). p->lock held. */
static void link_sync(struct emu_proc *p, struct emu_dbg *d)
{
	struct dbg_link *l = d->link;
	bool on;
	pid_t dbg;
	int fd;

	(void)p;
	if (link_lock(l))
		return;
	dbg = l->debugger;
	on = l->trap_enabled && dbg > 0 && dbg != getpid() && !(kill(dbg, 0) < 0 && errno == ESRCH);
	if (on && !d->remote && !d->trap_enabled) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)dbg, (int)l->dbg_fd);
		fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		d->dbg_fd = fd; /* -1: the events stay for the queries */
		d->remote = true;
		d->trap_enabled = true;
	}
	if (d->remote) {
		if (!on) {
			if (d->dbg_fd >= 0)
				close(d->dbg_fd);
			d->dbg_fd = -1;
			d->remote = false;
			d->trap_enabled = false;
			d->enable_mask = 0;
		} else {
			d->enable_mask = l->enable_mask;
		}
	}
	pthread_mutex_unlock(&l->mu);
}

/* ev_raise for a remote debugger: process and device exceptions go to the
 * page, where its queries find them. */
static void link_raise(struct emu_dbg *d, uint64_t mask, int gi, const void *data, size_t len)
{
	struct dbg_link *l = d->link;

	if (link_lock(l))
		return;
	if (mask & KFDSIG_EC_MASK_DEVICE) {
		if (gi >= 0 && gi < EMU_MAX_GPUS) {
			l->dev_status[gi] |= mask & KFDSIG_EC_MASK_DEVICE;
			if ((mask & KFDSIG_EC_MASK(KFDSIG_EC_DEVICE_MEMORY_VIOLATION)) &&
			    !l->vmf_valid[gi] && data && len == sizeof(l->vmf[gi])) {
				memcpy(&l->vmf[gi], data, len);
				l->vmf_valid[gi] = 1;
			}
		}
	} else {
		l->status |= mask & KFDSIG_EC_MASK_PROCESS;
	}
	pthread_mutex_unlock(&l->mu);
}

/* runtime_enable_sema of a remotely debugged target: wait for the
 * debugger's EC_PROCESS_RUNTIME (SEND_RUNTIME_EVENT), bounded as
 * dbg_wait; a debugger that detaches meanwhile ends the wait (emulator
 * choice: the handshake has no one left to answer). p->lock held and
 * released while waiting. */
static int link_sema_down(struct emu_proc *p, struct emu_dbg *d)
{
	struct dbg_link *l = d->link;

	for (int i = 0; i < EMU_DBG_WAIT_MS / 10; i++) {
		uint32_t v = __atomic_load_n(&l->sema, __ATOMIC_ACQUIRE);
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		if (v && __atomic_compare_exchange_n(&l->sema, &v, v - 1, false, __ATOMIC_ACQ_REL,
						     __ATOMIC_ACQUIRE))
			return 0;
		if (!__atomic_load_n(&l->trap_enabled, __ATOMIC_ACQUIRE))
			return 0;
		if (v)
			continue;
		pthread_mutex_unlock(&p->lock);
		syscall(SYS_futex, &l->sema, FUTEX_WAIT, 0, &ts, NULL, 0);
		pthread_mutex_lock(&p->lock);
	}
	return -EINTR;
}

static void link_sema_up(struct dbg_link *l)
{
	__atomic_add_fetch(&l->sema, 1, __ATOMIC_ACQ_REL);
	syscall(SYS_futex, &l->sema, FUTEX_WAKE, 0x7fffffff, NULL, NULL, 0);
}

int emu_runtime_enable(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	abi_runtime_enable_args *a = data;
	struct emu_dbg *d;
	int r = 0;

	(void)emu;
	pthread_mutex_lock(&p->lock);
	d = dbg_of(p);
	if (!d) {
		r = -ENOMEM;
		goto out;
	}
	/* the page a debugger in another process finds (struct dbg_link) */
	link_target(p, d, true);
	if (d->link)
		link_sync(p, d);
	if (d->retry) {
		/* an interrupted enable or disable: wait again */
		r = d->trap_enabled ? sema_down(p, d) : 0;
		d->retry = r != 0;
		goto out;
	}
	if (a->mode_mask & KFDSIG_RUNTIME_ENABLE_MODE_ENABLE) {
		/* runtime_enable(): -EBUSY unless disabled (a pending enable
		 * is already ENABLED), -EEXIST once a queue exists */
		if (d->runtime_state != RT_DISABLED) {
			r = -EBUSY;
			goto out;
		}
		if (p->queues) {
			r = -EEXIST;
			goto out;
		}
		d->runtime_state = RT_ENABLED;
		d->r_debug = a->r_debug;
		d->ttmp_setup = !!(a->mode_mask & KFDSIG_RUNTIME_ENABLE_MODE_TTMP_SAVE);
		link_publish(d);
		if (d->trap_enabled) {
			/* tell the debugger, wait for its EC_PROCESS_RUNTIME */
			ev_raise(p, KFDSIG_EC_MASK(KFDSIG_EC_PROCESS_RUNTIME), -1, -1, NULL, 0);
			r = sema_down(p, d);
		}
	} else {
		/* runtime_disable() */
		bool was = d->runtime_state == RT_ENABLED;

		d->runtime_state = RT_DISABLED;
		d->r_debug = 0;
		link_publish(d);
		if (d->trap_enabled) {
			if (was) {
				resume(p, 0, 0, true);
				d->launch_mode = 0;
			}
			ev_raise(p, KFDSIG_EC_MASK(KFDSIG_EC_PROCESS_RUNTIME), -1, -1, NULL, 0);
			if ((r = sema_down(p, d)) < 0)
				goto out;
		}
		d->ttmp_setup = 0;
		link_publish(d);
	}
out:
	pthread_mutex_unlock(&p->lock);
	return r;
}

/* ---- DBG_TRAP ------------------------------------------------------------ */

/* /proc/PID/status TracerPid: the tracer thread's id, 0 when untraced,
 * -1 when the process is gone. */
static pid_t tracer_of(pid_t pid)
{
	char path[64], line[128];
	pid_t t = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "TracerPid:", 10)) {
			t = (pid_t)strtol(line + 10, NULL, 10);
			break;
		}
	fclose(f);
	return t;
}

/* kfd_lookup_process_by_pid(): the KFD process of @pid, with a reference.
 * Several emulated processes may share the caller's pid (one per open):
 * another one than the caller is preferred, newest first. */
static struct emu_proc *lookup(struct kfdsig_emu *emu, struct emu_proc *caller, pid_t pid)
{
	struct emu_proc *found = NULL;

	pthread_mutex_lock(&emu->lock);
	for (struct emu_proc *p = emu->procs; p; p = p->next) {
		if (p->closed || p->pid != pid)
			continue;
		if (p != caller) {
			found = p;
			break;
		}
		found = p;
	}
	if (found)
		found->refs++;
	pthread_mutex_unlock(&emu->lock);
	return found;
}

static int dbg_enable(struct emu_proc *p, struct emu_proc *target, abi_dbg_trap_args *a)
{
	struct emu_dbg *d = dbg_of(target);
	abi_runtime_info ri;
	uint32_t copy;
	int fd;

	if (!d)
		return -ENOMEM;
	if (d->trap_enabled)
		return -EALREADY;
	/* kfd_dbg_trap_enable(): every GPU of the target must be SOC15
	 * (GC 9+); the emulated process has a pdd on every GPU */
	for (uint32_t i = 0; i < target->emu->ngpus; i++)
		if (target->emu->gpus[i].gen.gc[0] < 9)
			return -ENODEV;
	copy = a->enable.rinfo_size < sizeof(ri) ? a->enable.rinfo_size : sizeof(ri);
	/* fget(dbg_fd): any open file; KFD only ever writes one byte to it */
	if ((int)a->enable.dbg_fd < 0 || fcntl((int)a->enable.dbg_fd, F_GETFD) < 0)
		return -EBADF;
	fd = fcntl((int)a->enable.dbg_fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return -EBADF;
	d->dbg_fd = fd;
	d->trap_enabled = true;
	d->debugger = target != p ? p : NULL;
	ri.r_debug = d->r_debug;
	ri.runtime_state = d->runtime_state;
	ri.ttmp_setup = d->ttmp_setup;
	a->enable.rinfo_size = sizeof(ri);
	if (copy && emu_copy_to_user((void *)(uintptr_t)a->enable.rinfo_ptr, &ri, copy)) {
		/* kfd_dbg_trap_deactivate() but the session stays */
		return -EFAULT;
	}
	d->enable_mask = a->enable.exception_mask;
	return 0;
}

/* kfd_dbg_trap_disable() via kfd_dbg_trap_deactivate(): resume every
 * queue, launch mode normal, watch points and flags cleared, the file
 * released. p->lock held. */
static void dbg_disable(struct emu_proc *target)
{
	struct emu_dbg *d = target->dbg;

	if (!d || !d->trap_enabled)
		return;
	resume(target, 0, 0, true);
	__atomic_store_n(&d->launch_mode, 0, __ATOMIC_RELEASE);
	d->trap_override = 0;
	d->flags = 0;
	memset(d->watch, 0, sizeof(d->watch));
	if (d->dbg_fd >= 0)
		close(d->dbg_fd);
	d->dbg_fd = -1;
	d->debugger = NULL;
	d->trap_enabled = false;
	d->enable_mask = 0;
}

/* kfd_debug.c kfd_dbg_ev_query_debug_event(): the first queue, then
 * device, then the process whose pending exceptions include an enabled one
 * (exception_status & exception_enable_mask); the report is its whole
 * exception_status, the enabled bits and any others, and only the caller's
 * clear mask (exception_clear_mask) is cleared from it: a bit left out of
 * that mask stays pending and comes again with the source's next report.
 * kfd_dbg_trap_query_exception_info() (query_info below) clears one
 * exception, and only with clear_exception set. */
static int query_event(struct emu_proc *t, abi_dbg_trap_args *a)
{
	struct emu_dbg *d = t->dbg;
	uint64_t clear = a->query_debug_event.exception_mask;

	a->query_debug_event.exception_mask = 0;
	a->query_debug_event.gpu_id = 0;
	a->query_debug_event.queue_id = 0;
	for (struct emu_queue *q = t->queues; q; q = q->next)
		if (q->exception_status & d->enable_mask) {
			a->query_debug_event.exception_mask = q->exception_status;
			a->query_debug_event.queue_id = q->id;
			a->query_debug_event.gpu_id = q->g->gpu_id;
			q->exception_status &= ~clear;
			return 0;
		}
	for (uint32_t i = 0; i < t->emu->ngpus; i++)
		if (d->dev_status[i] & d->enable_mask) {
			a->query_debug_event.exception_mask = d->dev_status[i];
			a->query_debug_event.gpu_id = t->emu->gpus[i].gpu_id;
			d->dev_status[i] &= ~clear;
			return 0;
		}
	if (d->status & d->enable_mask) {
		a->query_debug_event.exception_mask = d->status;
		d->status &= ~clear;
		return 0;
	}
	return -EAGAIN;
}

/* kfd_debug.c kfd_dbg_trap_query_exception_info(): the queue (by queue
 * id), GPU or process the code belongs to; -ENODATA when that exception
 * is not pending; with clear_exception its one bit is cleared. */
static int query_info(struct emu_proc *t, abi_dbg_trap_args *a)
{
	struct emu_dbg *d = t->dbg;
	uint32_t ec = a->query_exception_info.exception_code;
	uint32_t src = a->query_exception_info.source_id;
	bool clr = a->query_exception_info.clear_exception;
	void *info = (void *)(uintptr_t)a->query_exception_info.info_ptr;
	uint32_t room = a->query_exception_info.info_size, size = 0;
	uint64_t m, *st = NULL;

	if (!info)
		return -EINVAL;
	if (!ec || ec >= 64)
		return -EINVAL;
	m = KFDSIG_EC_MASK(ec);
	if (m & KFDSIG_EC_MASK_QUEUE) {
		for (struct emu_queue *q = t->queues; q && !st; q = q->next)
			if (q->id == src)
				st = &q->exception_status;
		if (!st)
			return -EINVAL;
		if (!(*st & m))
			return -ENODATA;
	} else if (m & KFDSIG_EC_MASK_DEVICE) {
		struct emu_gpu *g = emu_gpu_by_id(t->emu, src);
		uint32_t gi;

		if (!g)
			return -EINVAL;
		gi = g->index;
		st = &d->dev_status[gi];
		if (!(*st & m))
			return -ENODATA;
		if (ec == KFDSIG_EC_DEVICE_MEMORY_VIOLATION) {
			size = d->vmf_valid[gi] ? sizeof(d->vmf[gi]) : 0;
			if (emu_copy_to_user(info, &d->vmf[gi], room < size ? room : size))
				return -EFAULT;
			if (clr)
				d->vmf_valid[gi] = false;
		}
	} else if (m & KFDSIG_EC_MASK_PROCESS) {
		st = &d->status;
		if (!(*st & m))
			return -ENODATA;
		if (ec == KFDSIG_EC_PROCESS_RUNTIME) {
			abi_runtime_info ri = { d->r_debug, d->runtime_state, d->ttmp_setup };

			size = sizeof(ri);
			if (emu_copy_to_user(info, &ri, room < size ? room : size))
				return -EFAULT;
		}
	} else {
		return -EINVAL;
	}
	a->query_exception_info.info_size = size;
	if (clr)
		*st &= ~m;
	return 0;
}

/* pqm_get_queue_snapshot() / set_queue_snapshot_entry() */
static int queue_snapshot(struct emu_proc *t, abi_dbg_trap_args *a)
{
	uint32_t want = a->queue_snapshot.num_queues, esz = a->queue_snapshot.entry_size, n = 0;
	uint64_t clear = a->queue_snapshot.exception_mask;
	char *buf = (char *)(uintptr_t)a->queue_snapshot.snapshot_buf_ptr;
	abi_queue_snapshot_entry e;
	uint32_t copy;

	a->queue_snapshot.num_queues = 0;
	if (!esz)
		return -EINVAL;
	copy = esz < sizeof(e) ? esz : sizeof(e);
	a->queue_snapshot.entry_size = copy;
	for (struct emu_queue *q = t->queues; q; q = q->next) {
		if (n < want) {
			memset(&e, 0, sizeof(e));
			e.exception_status = q->exception_status;
			e.ring_base_address = q->ring_va;
			e.write_pointer_address = q->wptr_va;
			e.read_pointer_address = q->rptr_va;
			e.ctx_save_restore_address = q->cwsr_va;
			e.ctx_save_restore_area_size = q->cwsr_size;
			e.queue_id = q->id;
			e.gpu_id = q->g->gpu_id;
			e.ring_size = q->ring_size;
			e.queue_type = q->type;
			q->exception_status &= ~clear;
			if (emu_copy_to_user(buf + (uint64_t)n * esz, &e, copy)) {
				a->queue_snapshot.num_queues = n;
				return -EFAULT;
			}
		}
		n++;
	}
	a->queue_snapshot.num_queues = n;
	return 0;
}

/* kfd_dbg_trap_device_snapshot(); the topology values are the ones the
 * emulated sysfs prints (emu_sysfs.c) */
static int device_snapshot(struct kfdsig_emu *emu, uint64_t *dev_status, abi_dbg_trap_args *a)
{
	char *buf = (char *)(uintptr_t)a->device_snapshot.snapshot_buf_ptr;
	uint32_t esz = a->device_snapshot.entry_size, want = a->device_snapshot.num_devices;
	uint64_t clear = a->device_snapshot.exception_mask;
	abi_dbg_device_info_entry e;
	uint32_t copy, n;

	if (!buf || !esz)
		return -EINVAL;
	n = want < emu->ngpus ? want : emu->ngpus;
	a->device_snapshot.num_devices = emu->ngpus;
	copy = esz < sizeof(e) ? esz : sizeof(e);
	a->device_snapshot.entry_size = copy;
	for (uint32_t i = 0; i < n; i++) {
		struct emu_gpu *g = &emu->gpus[i];
		struct kfd_process_device_apertures ap;

		emu_gpu_apertures(g, &ap);
		memset(&e, 0, sizeof(e));
		e.exception_status = dev_status[i];
		e.lds_base = ap.lds_base;
		e.lds_limit = ap.lds_limit;
		e.scratch_base = ap.scratch_base;
		e.scratch_limit = ap.scratch_limit;
		e.gpuvm_base = ap.gpuvm_base;
		e.gpuvm_limit = ap.gpuvm_limit;
		e.gpu_id = g->gpu_id;
		emu_sysfs_node_info(emu, g, &e.location_id, &e.vendor_id, &e.device_id,
				    &e.simd_count, &e.max_waves_per_simd, &e.array_count,
				    &e.simd_arrays_per_engine, &e.capability, &e.debug_prop);
		e.revision_id = 0;
		e.subsystem_vendor_id = 0x1002;
		e.subsystem_device_id = g->device_id;
		e.fw_version = g->mec_fw;
		e.gfx_target_version = g->gen.gfxv;
		e.num_xcc = g->num_xcc;
		if (clear)
			dev_status[i] &= ~clear;
		if (emu_copy_to_user(buf + (uint64_t)i * esz, &e, copy))
			return -EFAULT;
	}
	return 0;
}

/* The operations on the hardware: they need the runtime enabled
 * (kfd_chardev.c kfd_ioctl_set_debug_trap(): -EPERM otherwise). */
static bool op_needs_runtime(uint32_t op)
{
	switch (op) {
	case KFDSIG_DBG_OP_SET_WAVE_LAUNCH_OVERRIDE:
	case KFDSIG_DBG_OP_SET_WAVE_LAUNCH_MODE:
	case KFDSIG_DBG_OP_SUSPEND_QUEUES:
	case KFDSIG_DBG_OP_RESUME_QUEUES:
	case KFDSIG_DBG_OP_SET_NODE_ADDRESS_WATCH:
	case KFDSIG_DBG_OP_CLEAR_NODE_ADDRESS_WATCH:
	case KFDSIG_DBG_OP_SET_FLAGS:
		return true;
	default:
		return false;
	}
}

/* DBG_TRAP on a process of another emulator (the per-pid model's other
 * processes): the checks of kfd_ioctl_set_debug_trap() in its order, the
 * operations on the target's page (see struct dbg_link). */
static int remote_trap(struct kfdsig_emu *emu, pid_t pid, abi_dbg_trap_args *a)
{
	struct dbg_link *l;
	int r = 0;
	pid_t self = (pid_t)syscall(SYS_gettid);

	/* "is not PTRACED and cannot be debugged" */
	if (a->op != KFDSIG_DBG_OP_DISABLE && tracer_of(pid) != self)
		return -EPERM;
	/* ENABLE creates the process the kernel would (kfd_create_process) */
	l = link_map(pid, a->op == KFDSIG_DBG_OP_ENABLE);
	if (!l)
		return -ESRCH;
	if ((r = link_lock(l))) {
		munmap(l, sizeof(*l));
		return r;
	}
	if (a->op != KFDSIG_DBG_OP_ENABLE && !l->trap_enabled) {
		r = -EINVAL;
		goto out;
	}
	if (op_needs_runtime(a->op)) {
		/* -EPERM before runtime enable, as for a local target; then
		 * the target's engines, which this process cannot reach */
		r = l->runtime_state != RT_ENABLED ? -EPERM : -ENODEV;
		goto out;
	}
	switch (a->op) {
	case KFDSIG_DBG_OP_ENABLE: {
		abi_runtime_info ri;
		uint32_t copy =
			a->enable.rinfo_size < sizeof(ri) ? a->enable.rinfo_size : sizeof(ri);
		int fd;

		if (l->trap_enabled) {
			r = -EALREADY;
			break;
		}
		for (uint32_t i = 0; i < emu->ngpus; i++)
			if (emu->gpus[i].gen.gc[0] < 9) {
				r = -ENODEV;
				goto out;
			}
		if ((int)a->enable.dbg_fd < 0 || fcntl((int)a->enable.dbg_fd, F_GETFD) < 0 ||
		    (fd = fcntl((int)a->enable.dbg_fd, F_DUPFD_CLOEXEC, 0)) < 0) {
			r = -EBADF;
			break;
		}
		ri.r_debug = l->r_debug;
		ri.runtime_state = l->runtime_state;
		ri.ttmp_setup = l->ttmp_setup;
		a->enable.rinfo_size = sizeof(ri);
		if (copy && emu_copy_to_user((void *)(uintptr_t)a->enable.rinfo_ptr, &ri, copy)) {
			close(fd);
			r = -EFAULT;
			break;
		}
		l->dbg_fd = fd;
		l->debugger = getpid();
		l->enable_mask = a->enable.exception_mask;
		l->trap_enabled = 1;
		break;
	}
	case KFDSIG_DBG_OP_DISABLE:
		if (l->debugger == getpid() && l->dbg_fd >= 0)
			close(l->dbg_fd);
		l->dbg_fd = -1;
		l->debugger = 0;
		l->trap_enabled = 0;
		l->enable_mask = 0;
		pthread_mutex_unlock(&l->mu);
		link_sema_up(l); /* a target waiting in its handshake */
		/* a page made for a process that never came is ours to remove */
		if (!__atomic_load_n(&l->target_mapped, __ATOMIC_ACQUIRE)) {
			char name[96];

			if (!link_name(pid, name, sizeof(name)))
				shm_unlink(name);
		}
		munmap(l, sizeof(*l));
		return 0;
	case KFDSIG_DBG_OP_SEND_RUNTIME_EVENT: {
		uint64_t m = a->send_runtime_event.exception_mask;

		m &= ~KFDSIG_EC_MASK(KFDSIG_EC_DEVICE_MEMORY_VIOLATION);
		if (m & KFDSIG_EC_MASK(KFDSIG_EC_PROCESS_RUNTIME)) {
			pthread_mutex_unlock(&l->mu);
			link_sema_up(l);
			if (link_lock(l)) {
				munmap(l, sizeof(*l));
				return 0;
			}
			m &= ~KFDSIG_EC_MASK(KFDSIG_EC_PROCESS_RUNTIME);
		}
		if (m)
			r = -ENODEV; /* a queue of the target's engines */
		break;
	}
	case KFDSIG_DBG_OP_SET_EXCEPTIONS_ENABLED:
		l->enable_mask = a->set_exceptions_enabled.exception_mask;
		break;
	case KFDSIG_DBG_OP_QUERY_DEBUG_EVENT: {
		/* kfd_dbg_ev_query_debug_event() over what the page holds:
		 * devices, then the process */
		uint64_t clear = a->query_debug_event.exception_mask;

		a->query_debug_event.exception_mask = 0;
		a->query_debug_event.gpu_id = 0;
		a->query_debug_event.queue_id = 0;
		r = -EAGAIN;
		for (uint32_t i = 0; i < emu->ngpus && r; i++)
			if (l->dev_status[i] & l->enable_mask) {
				a->query_debug_event.exception_mask = l->dev_status[i];
				a->query_debug_event.gpu_id = emu->gpus[i].gpu_id;
				l->dev_status[i] &= ~clear;
				r = 0;
			}
		if (r && (l->status & l->enable_mask)) {
			a->query_debug_event.exception_mask = l->status;
			l->status &= ~clear;
			r = 0;
		}
		break;
	}
	case KFDSIG_DBG_OP_QUERY_EXCEPTION_INFO: {
		uint32_t ec = a->query_exception_info.exception_code;
		void *info = (void *)(uintptr_t)a->query_exception_info.info_ptr;
		uint32_t room = a->query_exception_info.info_size, size = 0;
		bool clr = a->query_exception_info.clear_exception;
		uint64_t m, *st;

		if (!info || !ec || ec >= 64) {
			r = -EINVAL;
			break;
		}
		m = KFDSIG_EC_MASK(ec);
		if (m & KFDSIG_EC_MASK_DEVICE) {
			struct emu_gpu *g = emu_gpu_by_id(emu, a->query_exception_info.source_id);

			if (!g) {
				r = -EINVAL;
				break;
			}
			st = &l->dev_status[g->index];
			if (!(*st & m)) {
				r = -ENODATA;
				break;
			}
			if (ec == KFDSIG_EC_DEVICE_MEMORY_VIOLATION) {
				size = l->vmf_valid[g->index] ? sizeof(l->vmf[0]) : 0;
				if (emu_copy_to_user(info, &l->vmf[g->index],
						     room < size ? room : size)) {
					r = -EFAULT;
					break;
				}
				if (clr)
					l->vmf_valid[g->index] = 0;
			}
		} else if (m & KFDSIG_EC_MASK_PROCESS) {
			st = &l->status;
			if (!(*st & m)) {
				r = -ENODATA;
				break;
			}
			if (ec == KFDSIG_EC_PROCESS_RUNTIME) {
				abi_runtime_info ri = { l->r_debug, l->runtime_state,
							l->ttmp_setup };

				size = sizeof(ri);
				if (emu_copy_to_user(info, &ri, room < size ? room : size)) {
					r = -EFAULT;
					break;
				}
			}
		} else {
			r = -ENODEV; /* a queue of the target's engines */
			break;
		}
		a->query_exception_info.info_size = size;
		if (clr)
			*st &= ~m;
		break;
	}
	case KFDSIG_DBG_OP_GET_DEVICE_SNAPSHOT:
		r = device_snapshot(emu, l->dev_status, a);
		break;
	case KFDSIG_DBG_OP_GET_QUEUE_SNAPSHOT:
		r = -ENODEV; /* the target's queues */
		break;
	default:
		r = -EINVAL;
	}
out:
	pthread_mutex_unlock(&l->mu);
	munmap(l, sizeof(*l));
	return r;
}

/* kfd_chardev.c kfd_ioctl_set_debug_trap(): the checks in the kernel's
 * order, then the operation on the target under its lock. */
int emu_dbg_trap(struct kfdsig_emu *emu, struct emu_proc *p, void *data)
{
	abi_dbg_trap_args *a = data;
	pid_t pid = (pid_t)a->pid;
	struct emu_proc *t;
	struct emu_dbg *d;
	bool self;
	int r = 0;

	/* find_get_pid / get_pid_task: no such process */
	if (pid <= 0 || (kill(pid, 0) < 0 && errno == ESRCH))
		return -ESRCH;
	/* kfd_lookup_process_by_pid (ENABLE of a traced process without a
	 * KFD process creates one in the kernel; the emulator cannot make a
	 * KFD process for another process: -ESRCH) */
	t = lookup(emu, p, pid);
	if (!t && emu->pmodel == KFDSIG_EMU_PROCESS_PER_PID && pid != getpid())
		return remote_trap(emu, pid, a);
	if (!t)
		return -ESRCH;
	/* "is not PTRACED and cannot be debugged": the caller must be the
	 * target or its tracer (ptrace_parent(target) == current: the
	 * calling thread) */
	self = t->pid == getpid(); /* a stand-in's pid is another process */
	if (!self && a->op != KFDSIG_DBG_OP_DISABLE &&
	    tracer_of(pid) != (pid_t)syscall(SYS_gettid)) {
		emu_proc_put(t);
		return -EPERM;
	}
	pthread_mutex_lock(&t->lock);
	d = dbg_of(t);
	if (!d) {
		r = -ENOMEM;
		goto out;
	}
	if (a->op != KFDSIG_DBG_OP_ENABLE && !d->trap_enabled) {
		r = -EINVAL; /* "not debug enabled for op" */
		goto out;
	}
	/* the hardware operations need the runtime enabled: -EPERM
	 * (kfd_chardev.c kfd_ioctl_set_debug_trap()) */
	if (op_needs_runtime(a->op) && d->runtime_state != RT_ENABLED) {
		r = -EPERM;
		goto out;
	}
	switch (a->op) {
	case KFDSIG_DBG_OP_ENABLE:
		r = dbg_enable(p, t, a);
		break;
	case KFDSIG_DBG_OP_DISABLE:
		dbg_disable(t);
		break;
	case KFDSIG_DBG_OP_SEND_RUNTIME_EVENT: {
		/* kfd_dbg_send_exception_to_runtime() */
		uint64_t m = a->send_runtime_event.exception_mask;

		if (m & KFDSIG_EC_MASK(KFDSIG_EC_DEVICE_MEMORY_VIOLATION))
			m &= ~KFDSIG_EC_MASK(KFDSIG_EC_DEVICE_MEMORY_VIOLATION);
		if (m & KFDSIG_EC_MASK(KFDSIG_EC_PROCESS_RUNTIME)) {
			d->sema++; /* up(&p->runtime_enable_sema) */
			pthread_cond_broadcast(&d->cond);
			m &= ~KFDSIG_EC_MASK(KFDSIG_EC_PROCESS_RUNTIME);
		}
		if (m) {
			struct emu_queue *q = t->queues;

			while (q && q->id != a->send_runtime_event.queue_id)
				q = q->next;
			if (!q) {
				r = -EINVAL;
				break;
			}
			emu_wake_begin();
			send_to_runtime(t, q, m);
			/* the caller's ioctl bracket delivers the wakes */
			emu_wake_end();
		}
		break;
	}
	case KFDSIG_DBG_OP_SET_EXCEPTIONS_ENABLED:
		d->enable_mask = a->set_exceptions_enabled.exception_mask;
		break;
	case KFDSIG_DBG_OP_SET_WAVE_LAUNCH_OVERRIDE: {
		/* kfd_dbg_trap_set_wave_launch_override():
		 * kfd_dbg_validate_trap_override_request() asks every GPU of
		 * the process (the emulated process has a pdd on each) for
		 * the traps it supports and the modes it takes, first error
		 * wins (emu_gen_trap_override()); a request beyond the
		 * supported traps is -EACCES; the supported mask goes back to
		 * the caller either way (kfd_ioctl() copies the arguments out
		 * on failure too). The new mask is (bits & request) |
		 * (previous & ~request) (set_wave_launch_trap_override());
		 * the mode is the hardware's EXCP_REPLACE, how the traps
		 * combine with the wave's own, not how the masks combine. */
		uint32_t mode = a->launch_override.override_mode;
		uint32_t en = a->launch_override.enable_mask;
		uint32_t req = a->launch_override.support_request_mask, sup = 0xffffffffu;
		uint32_t prev = d->trap_override;

		for (uint32_t i = 0; i < emu->ngpus && !r; i++)
			r = emu_gen_trap_override(&emu->gpus[i].gen, mode, &sup);
		a->launch_override.support_request_mask = sup;
		if (r)
			break;
		if (req & ~sup) {
			r = -EACCES;
			break;
		}
		d->trap_override = (en & req) | (prev & ~req);
		a->launch_override.enable_mask = prev;
		break;
	}
	case KFDSIG_DBG_OP_SET_WAVE_LAUNCH_MODE: {
		uint32_t m = a->launch_mode.launch_mode;

		/* kfd_dbg_trap_set_wave_launch_mode(): NORMAL, HALT, DEBUG */
		if (m != KFDSIG_DBG_LAUNCH_NORMAL && m != KFDSIG_DBG_LAUNCH_HALT &&
		    m != KFDSIG_DBG_LAUNCH_DEBUG) {
			r = -EINVAL;
			break;
		}
		__atomic_store_n(&d->launch_mode, m, __ATOMIC_RELEASE);
		break;
	}
	case KFDSIG_DBG_OP_SUSPEND_QUEUES: {
		uint64_t clear = a->suspend_queues.exception_mask;
		uint64_t uptr = a->suspend_queues.queue_array_ptr;
		uint32_t n = a->suspend_queues.num_queues;

		/* waits for the engines with the lock dropped */
		pthread_mutex_unlock(&t->lock);
		r = suspend(t, clear, uptr, n);
		emu_proc_put(t);
		return r;
	}
	case KFDSIG_DBG_OP_RESUME_QUEUES:
		r = resume(t, a->resume_queues.queue_array_ptr, a->resume_queues.num_queues,
			   !a->resume_queues.queue_array_ptr);
		break;
	case KFDSIG_DBG_OP_SET_NODE_ADDRESS_WATCH:
	case KFDSIG_DBG_OP_CLEAR_NODE_ADDRESS_WATCH: {
		bool set = a->op == KFDSIG_DBG_OP_SET_NODE_ADDRESS_WATCH;
		struct emu_gpu *g = emu_gpu_by_id(emu, set ? a->set_node_address_watch.gpu_id
							   : a->clear_node_address_watch.gpu_id);
		uint32_t id;

		if (!g) {
			r = -ENODEV; /* no pdd of the target on that gpu_id */
			break;
		}
		if (!set) {
			/* kfd_dbg_trap_clear_dev_address_watch(): an id this
			 * debugger did not set is -EINVAL */
			id = a->clear_node_address_watch.id;
			if (id >= EMU_WATCH_POINTS || !(d->watch[g->index] & (1u << id))) {
				r = -EINVAL;
				break;
			}
			d->watch[g->index] &= (uint8_t) ~(1u << id);
			break;
		}
		for (id = 0; id < EMU_WATCH_POINTS && (d->watch[g->index] & (1u << id)); id++)
			;
		if (id == EMU_WATCH_POINTS) {
			r = -ENOMEM; /* kfd_dbg_get_dev_watch_id(): none free */
			break;
		}
		d->watch[g->index] |= (uint8_t)(1u << id);
		d->watch_addr[g->index][id] = a->set_node_address_watch.address;
		d->watch_mask[g->index][id] = a->set_node_address_watch.mask;
		d->watch_mode[g->index][id] = (uint8_t)(a->set_node_address_watch.mode & 3);
		a->set_node_address_watch.id = id;
		break;
	}
	case KFDSIG_DBG_OP_SET_FLAGS: {
		/* kfd_dbg_trap_set_flags(): SINGLE_MEM_OP needs precise memory
		 * operations on every GPU (-EACCES); the previous flags come
		 * back */
		uint32_t f = a->set_flags.flags, prev = d->flags;
		uint32_t known = KFDSIG_DBG_FLAG_SINGLE_MEM_OP;

		/* 1.21: LDS out-of-address-range exceptions, on GC 12.1 (the
		 * v12_1 class) only; elsewhere -EACCES like SINGLE_MEM_OP
		 * without its capability (that errno is UNVERIFIED for this
		 * flag). 1.20 (expert scheduling mode trap handler) changes
		 * no ioctl: nothing to gate. */
		if (emu_version_at_least(emu, 21))
			known |= KFDSIG_DBG_FLAG_LDS_OUT_OF_ADDR_RANGE;
		if (f & ~known) {
			r = -EINVAL;
			break;
		}
		for (uint32_t i = 0; i < emu->ngpus && (f & KFDSIG_DBG_FLAG_LDS_OUT_OF_ADDR_RANGE);
		     i++)
			if (emu->gpus[i].gen.irq != KFDSIG_IRQ_V12_1)
				r = -EACCES;
		for (uint32_t i = 0; i < emu->ngpus && (f & KFDSIG_DBG_FLAG_SINGLE_MEM_OP); i++) {
			uint32_t cap = 0, prop = 0;

			emu_gen_debug_caps(&emu->gpus[i].gen, &cap, &prop);
			if (!(cap & KFDSIG_CAP_TRAP_DEBUG_PRECISE_MEMORY_OPS))
				r = -EACCES;
		}
		if (r)
			break;
		d->flags = f;
		a->set_flags.flags = prev;
		break;
	}
	case KFDSIG_DBG_OP_QUERY_DEBUG_EVENT:
		r = query_event(t, a);
		break;
	case KFDSIG_DBG_OP_QUERY_EXCEPTION_INFO:
		r = query_info(t, a);
		break;
	case KFDSIG_DBG_OP_GET_QUEUE_SNAPSHOT:
		r = queue_snapshot(t, a);
		break;
	case KFDSIG_DBG_OP_GET_DEVICE_SNAPSHOT:
		r = device_snapshot(emu, d->dev_status, a);
		break;
	default:
		r = -EINVAL; /* "Invalid option" */
	}
out:
	pthread_mutex_unlock(&t->lock);
	emu_proc_put(t);
	return r;
}

/* ---- lifetime ------------------------------------------------------------- */

void emu_dbg_proc_free(struct emu_proc *p)
{
	struct kfdsig_emu *emu = p->emu;
	struct emu_dbg *d = p->dbg;

	/* kfd_process_notifier_release: a debugger that goes away detaches
	 * from the processes it debugs */
	pthread_mutex_lock(&emu->lock);
	for (struct emu_proc *t = emu->procs; t; t = t->next) {
		if (t == p)
			continue;
		pthread_mutex_lock(&t->lock);
		if (t->dbg && t->dbg->debugger == p)
			dbg_disable(t);
		pthread_mutex_unlock(&t->lock);
	}
	pthread_mutex_unlock(&emu->lock);
	if (!d)
		return;
	pthread_cond_destroy(&d->cond);
	emu_dbg_forget(p);
}

void emu_dbg_forget(struct emu_proc *p)
{
	struct emu_dbg *d = p->dbg;

	if (!d)
		return;
	if (d->dbg_fd >= 0)
		close(d->dbg_fd);
	if (d->link)
		munmap(d->link, sizeof(*d->link));
	free(d); /* the condvar may count waiters of the parent's threads */
	p->dbg = NULL;
}

int kfdsig_emu_set_proc_pid(struct kfdsig_emu *emu, int pasid, pid_t pid)
{
	struct emu_proc *p;

	if (!emu || pid <= 0)
		return set_error(EINVAL, "bad emulator or pid");
	p = emu_proc_get(emu, pasid);
	if (!p)
		return set_error(ESRCH, "no emulated KFD process with PASID %d", pasid);
	pthread_mutex_lock(&emu->lock);
	p->pid = pid;
	pthread_mutex_unlock(&emu->lock);
	emu_proc_put(p);
	return 0;
}
