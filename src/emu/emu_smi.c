/* SPDX-License-Identifier: MIT */
/*
 * Emulated SMI event clients (amdkfd kfd_smi_events.c): per client an
 * 8192-byte FIFO, a 64-bit event mask written by the client, the opener's
 * pid and CAP_SYS_ADMIN. A line goes to a client whose mask has the event
 * and, for an event of another process, only to a privileged client that
 * set the ALL_PROCESS bit; a line that does not fit in the FIFO is dropped
 * whole. read() returns what is buffered (up to the request) or -EAGAIN,
 * never blocks; write() needs 8 bytes (-EFAULT otherwise); poll() is
 * readable while the FIFO is not empty.
 *
 * Injection (not a kernel behaviour; the spec's smi=NAME[+NAME...]): the
 * first time a client's mask enables one of those events, the emulated GPU
 * raises it for that client alone, so a consumer of SMI events (kfdsig smi,
 * a test) sees a line of each kind without a real fault, throttle or reset.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/opts.h"
#include "emu/emu_priv.h"

struct emu_smi {
	struct emu_gpu *gpu;
	pthread_mutex_t lock;
	uint64_t events;
	pid_t pid;
	bool suser;
	uint64_t inject; /* events still to raise when first enabled */
	char task[32];	 /* the opener's task name (injected lines) */
	int evfd;	 /* the client's fd: readable iff the FIFO is not empty */
	bool ready;
	unsigned char fifo[KFDSIG_SMI_FIFO_SIZE];
	size_t head, len;
	struct emu_smi *next;
};

static void set_ready(struct emu_smi *s, bool ready)
{
	uint64_t v = 1;

	if (ready == s->ready)
		return;
	if (ready) {
		if (write(s->evfd, &v, sizeof(v)) != sizeof(v))
			return;
	} else if (read(s->evfd, &v, sizeof(v)) != sizeof(v)) {
		return;
	}
	s->ready = ready;
}

int emu_smi_open(struct kfdsig_emu *emu, struct emu_gpu *g, struct emu_proc *p, int *fd)
{
	struct emu_smi *s = calloc(1, sizeof(*s));
	struct emu_file *f;
	int r;

	if (!s)
		return -ENOMEM;
	pthread_mutex_init(&s->lock, NULL);
	s->gpu = g;
	s->pid = p->pid;
	s->suser = emu->privileged;
	s->inject = emu->smi_inject;
	snprintf(s->task, sizeof(s->task), "%s", p->task_name);
	pthread_mutex_lock(&emu->lock);
	r = emu_file_new(emu, EMU_FILE_SMI, &f);
	if (!r) {
		f->gpu = g;
		f->smi = s;
		s->evfd = f->efd;
		*fd = emu_file_fd(emu, f);
	}
	pthread_mutex_unlock(&emu->lock);
	if (r) {
		pthread_mutex_destroy(&s->lock);
		free(s);
		return r;
	}
	pthread_mutex_lock(&g->smi_lock);
	s->next = g->smi_clients;
	g->smi_clients = s;
	pthread_mutex_unlock(&g->smi_lock);
	return 0;
}

void emu_smi_release(struct emu_smi *s)
{
	struct emu_gpu *g = s->gpu;
	struct emu_smi **pp;

	pthread_mutex_lock(&g->smi_lock);
	for (pp = &g->smi_clients; *pp && *pp != s; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = s->next;
	pthread_mutex_unlock(&g->smi_lock);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

void emu_smi_fork_lock(struct emu_gpu *g, bool lock)
{
	for (struct emu_smi *s = g->smi_clients; s; s = s->next) {
		if (lock)
			pthread_mutex_lock(&s->lock);
		else
			pthread_mutex_unlock(&s->lock);
	}
}

void emu_smi_fork_child(struct emu_gpu *g)
{
	/* The clients stay allocated: the parent's files (inherited fds)
	 * still name them until the child closes those. */
	for (struct emu_smi *s = g->smi_clients; s; s = s->next)
		pthread_mutex_unlock(&s->lock);
	g->smi_clients = NULL;
}

ssize_t emu_smi_read(struct emu_smi *s, void *buf, size_t len)
{
	size_t n, first;

	pthread_mutex_lock(&s->lock);
	if (!s->len) {
		pthread_mutex_unlock(&s->lock);
		return -EAGAIN;
	}
	n = len < s->len ? len : s->len;
	first = KFDSIG_SMI_FIFO_SIZE - s->head;
	if (first > n)
		first = n;
	memcpy(buf, s->fifo + s->head, first);
	memcpy((char *)buf + first, s->fifo, n - first);
	s->head = (s->head + n) % KFDSIG_SMI_FIFO_SIZE;
	s->len -= n;
	if (!s->len)
		set_ready(s, false);
	pthread_mutex_unlock(&s->lock);
	return (ssize_t)n;
}

/* Append one whole line to @s's FIFO (s->lock held); false: no room, the
 * line is lost as kfd_smi_event_add loses it. */
static bool fifo_push(struct emu_smi *s, const char *line, size_t len)
{
	size_t tail, first;

	if (KFDSIG_SMI_FIFO_SIZE - s->len < len)
		return false;
	tail = (s->head + s->len) % KFDSIG_SMI_FIFO_SIZE;
	first = KFDSIG_SMI_FIFO_SIZE - tail;
	if (first > len)
		first = len;
	memcpy(s->fifo + tail, line, first);
	memcpy(s->fifo, line + first, len - first);
	s->len += len;
	set_ready(s, true);
	return true;
}

/* kfd_smi_event_add: "%x " then the body, in a 96-byte buffer; the length. */
static size_t smi_line(char *line, size_t size, uint32_t type, const char *body, size_t body_len)
{
	int hdr = snprintf(line, size, "%x ", type);
	size_t len = (size_t)hdr + body_len;

	if (len > size - 1)
		len = size - 1;
	memcpy(line + hdr, body, len - (size_t)hdr);
	return len;
}

ssize_t emu_smi_write(struct emu_smi *s, const void *buf, size_t len)
{
	uint64_t mask, fire;

	if (!buf || len < sizeof(mask))
		return -EFAULT;
	memcpy(&mask, buf, sizeof(mask));
	__atomic_store_n(&s->events, mask, __ATOMIC_RELEASE);
	pthread_mutex_lock(&s->lock);
	fire = s->inject & mask;
	s->inject &= ~fire;
	for (; fire; fire &= fire - 1) {
		uint32_t type = (uint32_t)__builtin_ctzll(fire) + 1;
		/* the kernel's SMI time stamps: ktime_get_boottime_ns() */
		KFDSIG_OPTS(kfdsig_emu_smi_args, a, .pid = s->pid, .task_name = s->task,
			    .throttle_bitmask = 1, .throttle_counter = 1,
			    .ns = emu_host_ns(CLOCK_BOOTTIME));
		char body[KFDSIG_SMI_MSG_SIZE], line[KFDSIG_SMI_MSG_SIZE];
		int n;

		if (type == KFD_SMI_EVENT_GPU_PRE_RESET || type == KFD_SMI_EVENT_GPU_POST_RESET) {
			/* reset sequence 1, the cause text kfdsig_emu_gpu_reset uses */
			a.trigger = 1;
			a.task_name = EMU_RESET_CAUSE_HANG;
		}
		/* kfd_smi_event_page_fault_start / _end: 'W'rite or 'R'ead,
		 * 'M'igrated or 'U'pdated */
		if (type == KFD_SMI_EVENT_PAGE_FAULT_START)
			a.flag = 'W';
		else if (type == KFD_SMI_EVENT_PAGE_FAULT_END)
			a.flag = 'M';
		n = emu_smi_format(type, s->gpu->gpu_id, &a, body, sizeof(body), NULL);
		if (n >= 0)
			fifo_push(s, line, smi_line(line, sizeof(line), type, body, (size_t)n));
	}
	pthread_mutex_unlock(&s->lock);
	return sizeof(mask);
}

/* kfd_smi_ev_enabled */
static bool enabled(const struct emu_smi *s, pid_t pid, uint32_t type)
{
	uint64_t all = 1ull << (KFD_SMI_EVENT_ALL_PROCESS - 1);
	uint64_t events = __atomic_load_n(&s->events, __ATOMIC_ACQUIRE);

	if (pid && s->pid != pid && !(s->suser && (events & all)))
		return false;
	return events & (1ull << (type - 1));
}

int emu_smi_add(struct emu_gpu *g, pid_t filter_pid, uint32_t type, const char *body,
		size_t body_len)
{
	char line[KFDSIG_SMI_MSG_SIZE];
	int got = 0;
	size_t len;

	if (!type || type > 64)
		return -EINVAL;
	len = smi_line(line, sizeof(line), type, body, body_len);
	pthread_mutex_lock(&g->smi_lock);
	for (struct emu_smi *s = g->smi_clients; s; s = s->next) {
		if (!enabled(s, filter_pid, type))
			continue;
		pthread_mutex_lock(&s->lock);
		got += fifo_push(s, line, len);
		pthread_mutex_unlock(&s->lock);
	}
	pthread_mutex_unlock(&g->smi_lock);
	return got;
}

/* The body of an event of @type with the kernel's KFD_EVENT_FMT_* (kfd_ioctl.h)
 * into @body; its length, or -EINVAL for a type without a format. *filter
 * (if given): the pid the line is for (0: every client that asked). */
int emu_smi_format(uint32_t type, uint32_t gpu_id, const struct kfdsig_emu_smi_args *a, char *body,
		   size_t size, pid_t *filter)
{
	const char *task = a->task_name ? a->task_name : "";
	pid_t only = 0;
	int n;

	switch (type) {
	case KFD_SMI_EVENT_VMFAULT:
		n = snprintf(body, size, "%x:%s\n", (unsigned)a->pid, task);
		break;
	case KFD_SMI_EVENT_THERMAL_THROTTLE:
		n = snprintf(body, size, "%llx:%llx\n", (unsigned long long)a->throttle_bitmask,
			     (unsigned long long)a->throttle_counter);
		break;
	case KFD_SMI_EVENT_GPU_PRE_RESET:
	case KFD_SMI_EVENT_GPU_POST_RESET:
		n = snprintf(body, size, "%x %s\n", (unsigned)a->trigger, task);
		break;
	case KFD_SMI_EVENT_PAGE_FAULT_START:
	case KFD_SMI_EVENT_PAGE_FAULT_END:
		n = snprintf(body, size, "%lld -%d @%lx(%x) %c\n", (long long)a->ns, a->pid,
			     (unsigned long)a->addr, gpu_id, a->flag);
		only = a->pid;
		break;
	case KFD_SMI_EVENT_MIGRATE_START:
		n = snprintf(body, size, "%lld -%d @%lx(%lx) %x->%x %x:%x %d\n", (long long)a->ns,
			     a->pid, (unsigned long)a->addr, (unsigned long)a->size, a->from, a->to,
			     a->prefetch_loc, a->preferred_loc, a->trigger);
		only = a->pid;
		break;
	case KFD_SMI_EVENT_MIGRATE_END:
		n = snprintf(body, size, "%lld -%d @%lx(%lx) %x->%x %d %d\n", (long long)a->ns,
			     a->pid, (unsigned long)a->addr, (unsigned long)a->size, a->from, a->to,
			     a->trigger, a->error_code);
		only = a->pid;
		break;
	case KFD_SMI_EVENT_QUEUE_EVICTION:
		n = snprintf(body, size, "%lld -%d %x %d\n", (long long)a->ns, a->pid, gpu_id,
			     a->trigger);
		only = a->pid;
		break;
	case KFD_SMI_EVENT_QUEUE_RESTORE:
		/* %c of 0 when not rescheduled: a NUL byte in the line */
		n = snprintf(body, size, "%lld -%d %x %c\n", (long long)a->ns, a->pid, gpu_id,
			     a->flag);
		only = a->pid;
		break;
	case KFD_SMI_EVENT_UNMAP_FROM_GPU:
		n = snprintf(body, size, "%lld -%d @%lx(%lx) %x %d\n", (long long)a->ns, a->pid,
			     (unsigned long)a->addr, (unsigned long)a->size, gpu_id, a->trigger);
		only = a->pid;
		break;
	case KFDSIG_SMI_EVENT_PROCESS_START:
	case KFDSIG_SMI_EVENT_PROCESS_END:
		n = snprintf(body, size, "%x %s\n", (unsigned)a->pid, task);
		break;
	default:
		return -EINVAL;
	}
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= size)
		n = (int)size - 1;
	if (filter)
		*filter = only;
	return n;
}

int kfdsig_emu_smi_emit(struct kfdsig_emu *emu, uint32_t gpu_id, uint32_t type,
			const struct kfdsig_emu_smi_args *user_args)
{
	struct kfdsig_emu_smi_args args;
	struct emu_gpu *g;
	char body[KFDSIG_SMI_MSG_SIZE];
	pid_t filter = 0;
	int n;

	if (!emu)
		return -EINVAL;
	g = emu_gpu_by_id(emu, gpu_id);
	if (!g)
		return -ENOENT;
	n = opts_copy(&args, sizeof(args), user_args, "kfdsig_emu_smi_args");
	if (n)
		return n;
	if (args.pad_0[0] | args.pad_0[1] | args.pad_0[2])
		return set_error(EINVAL, "kfdsig_emu_smi_args.pad_0 must be 0");
	n = emu_smi_format(type, gpu_id, &args, body, sizeof(body), &filter);
	if (n < 0)
		return n;
	return emu_smi_add(g, filter, type, body, (size_t)n);
}
