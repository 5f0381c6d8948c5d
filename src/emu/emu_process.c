/* SPDX-License-Identifier: MIT */
/*
 * The emulator's KFD processes (creation and release) and its process
 * model: kfdsig_emu_set_process_model(), fork handling for the per-pid model
 * (pthread_atfork: the child forgets the parent's KFD processes, whose
 * engine threads it does not have), the fd table for dup'd fds and the
 * device numbers of emulated files (emu_host.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "emu/emu_debug.h"
#include "emu/emu_host.h"
#include "emu/emu_priv.h"

/* ---- processes (kfd_process.c create_process / kfd_process_wq_release) - */

/* The last reference went (emu->proc_release): free its events and memory. */
void emu_proc_free(struct emu_proc *p)
{
	emu_sysfs_proc_remove(p);
	emu_dbg_proc_free(p);
	emu_events_fini(p);
	emu_proc_free_memory(p);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	free(p);
}

int emu_proc_new(struct kfdsig_emu *emu, struct emu_proc **out)
{
	struct emu_proc *p = calloc(1, sizeof(*p));
	pthread_condattr_t ca;

	if (!p)
		return -ENOMEM;
	p->emu = emu;
	p->pasid = emu->next_pasid;
	for (uint32_t i = 0; i < emu->ngpus; i++)
		p->dev_pasid[i] = emu_version_at_least(emu, 18) ? emu->next_pasid++ : p->pasid;
	if (!emu_version_at_least(emu, 18) || !emu->ngpus)
		emu->next_pasid++;
	p->pid = getpid();
	p->refs = 1;
	if (emu->task_name[0])
		snprintf(p->task_name, sizeof(p->task_name), "%s", emu->task_name);
	else if (prctl(PR_GET_NAME, p->task_name) != 0)
		snprintf(p->task_name, sizeof(p->task_name), "kfdsig");
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->cond, &ca);
	pthread_condattr_destroy(&ca);
	emu_events_init(p);
	p->next = emu->procs;
	emu->procs = p;
	*out = p;
	return 0;
}

/* ---- process model ---------------------------------------------------- */

int kfdsig_emu_set_process_model(struct kfdsig_emu *emu, enum kfdsig_emu_process_model model)
{
	bool busy;

	if (!emu || (model != KFDSIG_EMU_PROCESS_PER_OPEN && model != KFDSIG_EMU_PROCESS_PER_PID))
		return set_error(EINVAL, "unknown emulator process model %d", (int)model);
	pthread_mutex_lock(&emu->lock);
	busy = emu->files || emu->procs;
	pthread_mutex_unlock(&emu->lock);
	if (busy)
		return set_error(EBUSY, "the process model is set before the first open");
	if (model == emu->pmodel)
		return 0;
	emu->pmodel = model;
	if (model == KFDSIG_EMU_PROCESS_PER_PID)
		emu_fork_register(emu);
	else
		emu_fork_unregister(emu);
	return 0;
}

/* ---- fork ------------------------------------------------------------- */

/* Per-pid emulators. The atfork handlers take every emulator lock in the
 * documented order (emu->lock, proc->lock, gpu->smi_lock, smi->lock) so no
 * engine or waiter thread holds one at the fork; the child owns them all
 * and releases them. */
static pthread_mutex_t fork_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kfdsig_emu *fork_list;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void lock_emu(struct kfdsig_emu *emu)
{
	pthread_mutex_lock(&emu->lock);
	for (struct emu_proc *p = emu->procs; p; p = p->next)
		pthread_mutex_lock(&p->lock);
	for (uint32_t i = 0; i < emu->ngpus; i++) {
		pthread_mutex_lock(&emu->gpus[i].smi_lock);
		emu_smi_fork_lock(&emu->gpus[i], true);
	}
}

static void unlock_emu(struct kfdsig_emu *emu)
{
	for (uint32_t i = emu->ngpus; i-- > 0;) {
		emu_smi_fork_lock(&emu->gpus[i], false);
		pthread_mutex_unlock(&emu->gpus[i].smi_lock);
	}
	for (struct emu_proc *p = emu->procs; p; p = p->next)
		pthread_mutex_unlock(&p->lock);
	pthread_mutex_unlock(&emu->lock);
}

static void fork_prepare(void)
{
	pthread_mutex_lock(&fork_lock);
	for (struct kfdsig_emu *emu = fork_list; emu; emu = emu->fork_next)
		lock_emu(emu);
}

static void fork_parent(void)
{
	for (struct kfdsig_emu *emu = fork_list; emu; emu = emu->fork_next)
		unlock_emu(emu);
	pthread_mutex_unlock(&fork_lock);
}

/* In the child: the parent's processes are not ours. Their queues' engine
 * threads do not exist here (never joined, only freed), their memory is
 * unmapped from the emulator's side, waiters of other threads (absent too)
 * keep their events allocated. Locks and condition variables are not
 * destroyed: a condvar may count waiters that never return. */
static void forget_proc(struct emu_proc *p)
{
	while (p->queues) {
		struct emu_queue *q = p->queues;
		p->queues = q->next;
		free(q);
	}
	emu_dbg_forget(p);
	emu_events_fini(p);
	emu_proc_free_memory(p);
	free(p);
}

static void fork_child(void)
{
	for (struct kfdsig_emu *emu = fork_list; emu; emu = emu->fork_next) {
		struct emu_proc *p, *next;

		for (uint32_t i = 0; i < emu->ngpus; i++) {
			emu_smi_fork_child(&emu->gpus[i]);
			pthread_mutex_unlock(&emu->gpus[i].smi_lock);
		}
		/* Inherited fds stay open in the child: their files remain,
		 * but a KFD file belongs to the parent's process (ioctl:
		 * -EBADF) and an SMI file to the parent's stream. */
		for (struct emu_file *f = emu->files; f; f = f->next) {
			if (f->kind == EMU_FILE_KFD)
				f->proc = NULL;
			if (f->kind == EMU_FILE_SMI)
				f->smi = NULL;
			/* a render file's user queues ran on the parent's
			 * threads and VM: the child's file has none (their
			 * state is left to the parent, not freed here) */
			if (f->kind == EMU_FILE_RENDER)
				f->drm = NULL;
		}
		p = emu->procs;
		emu->procs = NULL;
		for (; p; p = next) {
			next = p->next;
			pthread_mutex_unlock(&p->lock);
			forget_proc(p);
		}
		pthread_mutex_unlock(&emu->lock);
	}
	pthread_mutex_unlock(&fork_lock);
}

static void fork_init(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

void emu_fork_register(struct kfdsig_emu *emu)
{
	pthread_once(&fork_once, fork_init);
	pthread_mutex_lock(&fork_lock);
	emu->fork_next = fork_list;
	fork_list = emu;
	pthread_mutex_unlock(&fork_lock);
}

void emu_fork_unregister(struct kfdsig_emu *emu)
{
	struct kfdsig_emu **pp;

	pthread_mutex_lock(&fork_lock);
	for (pp = &fork_list; *pp && *pp != emu; pp = &(*pp)->fork_next)
		;
	if (*pp)
		*pp = emu->fork_next;
	pthread_mutex_unlock(&fork_lock);
}

/* ---- host helpers (emu_host.h) ------------------------------------------ */

void emu_host_set_fd_hook(struct kfdsig_emu *emu, void (*hook)(void *ctx, int fd, bool added),
			  void *ctx)
{
	pthread_mutex_lock(&emu->lock);
	emu->fd_hook = hook;
	emu->fd_hook_ctx = ctx;
	pthread_mutex_unlock(&emu->lock);
}

void emu_host_set_diag(struct kfdsig_emu *emu, void (*fn)(void *ctx, const char *line), void *ctx)
{
	pthread_mutex_lock(&emu->lock);
	emu->diag = fn;
	emu->diag_ctx = ctx;
	pthread_mutex_unlock(&emu->lock);
}

int emu_host_dup(struct kfdsig_emu *emu, int oldfd, int newfd)
{
	struct emu_file *f;
	int r;

	pthread_mutex_lock(&emu->lock);
	f = emu_file_get(emu, oldfd);
	r = f ? emu_fd_add(emu, f, newfd) : -EBADF;
	pthread_mutex_unlock(&emu->lock);
	return r;
}

int emu_host_forget(struct kfdsig_emu *emu, int fd)
{
	return emu_fd_remove(emu, fd, false);
}

bool emu_host_has_fd(struct kfdsig_emu *emu, int fd)
{
	bool r;

	pthread_mutex_lock(&emu->lock);
	r = emu_file_get(emu, fd) != NULL;
	pthread_mutex_unlock(&emu->lock);
	return r;
}

bool emu_host_render_minor(struct kfdsig_emu *emu, unsigned minor)
{
	for (uint32_t i = 0; i < emu->ngpus; i++)
		if (emu->gpus[i].render_minor == minor)
			return true;
	return false;
}

int emu_host_fd_rdev(struct kfdsig_emu *emu, int fd, unsigned *major, unsigned *minor)
{
	struct emu_file *f;
	int r = 0;

	pthread_mutex_lock(&emu->lock);
	f = emu_file_get(emu, fd);
	if (f && f->kind == EMU_FILE_KFD) {
		*major = EMU_KFD_MAJOR;
		*minor = 0;
	} else if (f && f->kind == EMU_FILE_RENDER) {
		*major = EMU_DRM_MAJOR;
		*minor = f->gpu->render_minor;
	} else {
		r = -ENOENT; /* SMI fds are anonymous inodes: the eventfd's */
	}
	pthread_mutex_unlock(&emu->lock);
	return r;
}

#define QUIET_PROCS 16

void emu_host_quiet(struct kfdsig_emu *emu, uint64_t horizon_ns, struct emu_quiet *s)
{
	struct emu_proc *procs[QUIET_PROCS];
	uint32_t np = 0;
	struct timespec ts;
	uint64_t now;
	pid_t me = getpid();

	memset(s, 0, sizeof(*s));
	s->gpu_idle = true;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	pthread_mutex_lock(&emu->lock);
	for (struct emu_proc *p = emu->procs; p; p = p->next) {
		if (p->pid != me)
			continue;
		if (np == QUIET_PROCS) {
			s->gpu_idle = false; /* not all seen: not idle */
			break;
		}
		p->refs++;
		procs[np++] = p;
	}
	pthread_mutex_unlock(&emu->lock);
	s->activity = __atomic_load_n(&emu->ioctl_calls, __ATOMIC_RELAXED);
	for (uint32_t i = 0; i < np; i++) {
		struct emu_proc *p = procs[i];

		pthread_mutex_lock(&p->lock);
		s->activity += p->irq_count + __atomic_load_n(&p->wait_wakeups, __ATOMIC_RELAXED);
		for (struct emu_queue *q = p->queues; q; q = q->next) {
			s->queues++;
			if (__atomic_load_n(&q->halted, __ATOMIC_ACQUIRE))
				s->halted++;
			if (emu_engine_busy(q))
				s->gpu_idle = false;
			s->activity += __atomic_load_n(&q->consumed, __ATOMIC_ACQUIRE);
		}
		s->waits += emu_events_stalled(p, now, horizon_ns, s->ids, EMU_QUIET_IDS, &s->nids);
		pthread_mutex_unlock(&p->lock);
		emu_proc_put(p);
	}
}
