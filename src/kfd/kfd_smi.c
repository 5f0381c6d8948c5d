/* SPDX-License-Identifier: MIT */
/*
 * SMI events: AMDKFD_IOC_SMI_EVENTS gives an anonymous fd; the client
 * writes a 64-bit mask of KFD_SMI_EVENT_MASK_FROM_INDEX() bits, polls and
 * reads text lines "<type hex> <body>\n", each body in the format of its
 * type (KFD_EVENT_FMT_* of kfd_ioctl.h; amdkfd kfd_smi_events.c). Events of
 * other processes need the ALL_PROCESS bit and CAP_SYS_ADMIN; the kernel
 * silently delivers nothing without the capability, so kfdsig refuses the
 * bit up front with a clear error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfd/kfd_priv.h"

struct kfdsig_smi {
	const struct kfdsig_kfd_ops *ops; /* &ops_buf */
	struct kfdsig_kfd_ops ops_buf;	  /* the KFD's table: the fd may outlive it */
	int fd;
	char buf[KFDSIG_SMI_FIFO_SIZE + 1];
	size_t len; /* bytes buffered */
};

int kfdsig_smi_open(struct kfdsig_kfd *kfd, uint32_t gpu_id, uint64_t mask, struct kfdsig_smi **out)
{
	struct kfd_ioctl_smi_events_args args = { 0 };
	const struct kfdsig_kfd_ops *ops;
	struct kfdsig_smi *smi;
	int r;

	if (!kfd || !out)
		return set_error(EINVAL, "NULL argument");
	*out = NULL;
	ops = kfd->ops;
	if (!kfdsig_kfd_has(kfd, KFDSIG_KFD_FEAT_SMI_EVENTS))
		return set_error(ENOTSUP, "SMI events need KFD 1.3, this is %u.%u", kfd->major,
				 kfd->minor);
	if (!kfd_gpu_by_id(kfd, gpu_id))
		return set_error(ENOENT, "no GPU with gpu_id 0x%x", gpu_id);
	if ((mask & KFDSIG_SMI_MASK(KFDSIG_SMI_ALL_PROCESS)) &&
	    !(ops->privileged && ops->privileged(ops->ctx)))
		return set_error(EPERM, "SMI events of all processes need CAP_SYS_ADMIN "
					"(run as root, or drop all_process)");
	args.gpuid = gpu_id;
	r = kfd_ioctl_retry(ops, kfd->fd, AMDKFD_IOC_SMI_EVENTS, &args);
	if (r < 0)
		return set_error(-r, "SMI_EVENTS on gpu 0x%x failed: %s", gpu_id, strerror(-r));
	smi = calloc(1, sizeof(*smi));
	if (!smi) {
		ops->close(ops->ctx, (int)args.anon_fd);
		return set_error(ENOMEM, "out of memory");
	}
	smi->ops_buf = *ops;
	smi->ops = &smi->ops_buf;
	smi->fd = (int)args.anon_fd;
	r = kfdsig_smi_set_mask(smi, mask);
	if (r < 0) {
		kfdsig_smi_close(smi);
		return r;
	}
	*out = smi;
	return 0;
}

int kfdsig_smi_set_mask(struct kfdsig_smi *smi, uint64_t mask)
{
	ssize_t w;

	if (!smi)
		return set_error(EINVAL, "NULL smi handle");
	w = smi->ops->write(smi->ops->ctx, smi->fd, &mask, sizeof(mask));
	if (w < 0)
		return set_error((int)-w, "writing the SMI mask failed: %s", strerror((int)-w));
	if (w != sizeof(mask))
		return set_error(EIO, "short write of the SMI mask");
	return 0;
}

int kfdsig_smi_fd(const struct kfdsig_smi *smi)
{
	return smi ? smi->fd : -EINVAL;
}

void kfdsig_smi_close(struct kfdsig_smi *smi)
{
	if (!smi)
		return;
	smi->ops->close(smi->ops->ctx, smi->fd);
	free(smi);
}

/* sscanf with a trailing %n that must reach the end of the body. */
#define MATCH(body, fmt, ...)                                      \
	({                                                         \
		int _n = -1;                                       \
		int _c = sscanf(body, fmt "%n", __VA_ARGS__, &_n); \
		_c >= 0 && _n >= 0 && (size_t)_n == strlen(body);  \
	})

/* Parse a line of @len bytes (no newline). The kernel may embed a NUL:
 * QUEUE_RESTORE prints its "rescheduled" flag with %c and passes 0 when
 * the restore was not rescheduled. */
static int parse_bytes(const char *bytes, size_t len, struct kfdsig_smi_event *ev)
{
	char line[128], *body, *end;
	unsigned long type;
	long long ns;
	unsigned long long a, b;
	unsigned int u1, u2, u3, u4;
	int i1, i2;
	char c;

	memset(ev, 0, sizeof(*ev));
	if (len >= sizeof(line))
		len = sizeof(line) - 1;
	memcpy(line, bytes, len);
	line[len] = '\0';
	/* A NUL flag at the very end (QUEUE_RESTORE) reads as "no flag". */
	if (strlen(line) != len && strlen(line) + 1 == len && len >= 2 && line[len - 2] == ' ')
		line[len - 2] = '\0';
	snprintf(ev->line, sizeof(ev->line), "%s", line);
	type = strtoul(line, &end, 16);
	if (end == line || *end != ' ' || !type || type > 64)
		return set_error(EBADMSG, "SMI line without an event type: '%.64s'", line);
	ev->type = (uint32_t)type;
	body = end + 1;

	switch (type) {
	case KFDSIG_SMI_VMFAULT:
	case KFDSIG_SMI_PROCESS_START:
	case KFDSIG_SMI_PROCESS_END: {
		/* "%x:%s" (vmfault) / "%x %s" (process): pid then task name */
		char sep = type == KFDSIG_SMI_VMFAULT ? ':' : ' ';
		unsigned long pid = strtoul(body, &end, 16);
		if (end == body || *end != sep)
			break;
		ev->pid = (int32_t)pid;
		snprintf(ev->task_name, sizeof(ev->task_name), "%s", end + 1);
		return 0;
	}
	case KFDSIG_SMI_THERMAL_THROTTLE:
		if (MATCH(body, "%llx:%llx", &a, &b)) {
			ev->throttle_bitmask = a;
			ev->throttle_counter = b;
			return 0;
		}
		break;
	case KFDSIG_SMI_GPU_PRE_RESET:
	case KFDSIG_SMI_GPU_POST_RESET: {
		/* "%x %s" (seq, cause); older kernels print only "%x". */
		unsigned long seq = strtoul(body, &end, 16);
		if (end == body || (*end && *end != ' '))
			break;
		ev->reset_seq = (uint32_t)seq;
		if (*end)
			snprintf(ev->reset_cause, sizeof(ev->reset_cause), "%s", end + 1);
		return 0;
	}
	case KFDSIG_SMI_PAGE_FAULT_START:
	case KFDSIG_SMI_PAGE_FAULT_END:
		if (MATCH(body, "%lld -%d @%llx(%x) %c", &ns, &i1, &a, &u1, &c)) {
			ev->ns = (uint64_t)ns;
			ev->pid = i1;
			ev->addr = a;
			ev->node = u1;
			ev->flag = c;
			return 0;
		}
		break;
	case KFDSIG_SMI_MIGRATE_START:
		if (MATCH(body, "%lld -%d @%llx(%llx) %x->%x %x:%x %d", &ns, &i1, &a, &b, &u1, &u2,
			  &u3, &u4, &i2)) {
			ev->ns = (uint64_t)ns;
			ev->pid = i1;
			ev->addr = a;
			ev->size = b;
			ev->from = u1;
			ev->to = u2;
			ev->prefetch_loc = u3;
			ev->preferred_loc = u4;
			ev->trigger = i2;
			return 0;
		}
		break;
	case KFDSIG_SMI_MIGRATE_END: {
		int i3;
		if (MATCH(body, "%lld -%d @%llx(%llx) %x->%x %d %d", &ns, &i1, &a, &b, &u1, &u2,
			  &i2, &i3)) {
			ev->ns = (uint64_t)ns;
			ev->pid = i1;
			ev->addr = a;
			ev->size = b;
			ev->from = u1;
			ev->to = u2;
			ev->trigger = i2;
			ev->error_code = i3;
			return 0;
		}
		break;
	}
	case KFDSIG_SMI_QUEUE_EVICTION:
		if (MATCH(body, "%lld -%d %x %d", &ns, &i1, &u1, &i2)) {
			ev->ns = (uint64_t)ns;
			ev->pid = i1;
			ev->node = u1;
			ev->trigger = i2;
			return 0;
		}
		break;
	case KFDSIG_SMI_QUEUE_RESTORE:
		if (MATCH(body, "%lld -%d %x %c", &ns, &i1, &u1, &c)) {
			ev->flag = c;
		} else if (MATCH(body, "%lld -%d %x", &ns, &i1, &u1)) {
			ev->flag = 0;
		} else {
			break;
		}
		ev->ns = (uint64_t)ns;
		ev->pid = i1;
		ev->node = u1;
		return 0;
	case KFDSIG_SMI_UNMAP_FROM_GPU:
		if (MATCH(body, "%lld -%d @%llx(%llx) %x %d", &ns, &i1, &a, &b, &u1, &i2)) {
			ev->ns = (uint64_t)ns;
			ev->pid = i1;
			ev->addr = a;
			ev->size = b;
			ev->node = u1;
			ev->trigger = i2;
			return 0;
		}
		break;
	default:
		/* A type kfdsig does not know: keep the raw line. */
		return 0;
	}
	return set_error(EBADMSG, "SMI %s line does not match its format: '%.64s'",
			 kfdsig_smi_event_name((uint32_t)type), line);
}

int kfdsig_smi_parse_line(const char *line, struct kfdsig_smi_event *ev)
{
	size_t len;

	if (!line || !ev)
		return set_error(EINVAL, "NULL argument");
	len = strcspn(line, "\n");
	return parse_bytes(line, len, ev);
}

/* Take one buffered line if there is a whole one. 1 taken, 0 none. */
static int take_line(struct kfdsig_smi *smi, struct kfdsig_smi_event *ev, int *perr)
{
	char *nl = memchr(smi->buf, '\n', smi->len);
	size_t n;

	if (!nl)
		return 0;
	n = (size_t)(nl - smi->buf);
	*perr = parse_bytes(smi->buf, n, ev);
	memmove(smi->buf, nl + 1, smi->len - n - 1);
	smi->len -= n + 1;
	return 1;
}

int kfdsig_smi_read(struct kfdsig_smi *smi, struct kfdsig_smi_event *ev, int timeout_ms)
{
	const struct kfdsig_kfd_ops *ops;
	int err = 0;

	if (!smi || !ev)
		return set_error(EINVAL, "NULL argument");
	ops = smi->ops;
	for (;;) {
		struct pollfd pfd = { .fd = smi->fd, .events = POLLIN };
		ssize_t got;
		int r;

		if (take_line(smi, ev, &err))
			return err < 0 ? err : 1;
		if (smi->len == KFDSIG_SMI_FIFO_SIZE) /* no newline in a full buffer */
			smi->len = 0;
		r = ops->poll(ops->ctx, &pfd, 1, timeout_ms);
		if (r == -EINTR)
			continue;
		if (r < 0)
			return set_error(-r, "poll on the SMI fd failed: %s", strerror(-r));
		if (r == 0)
			return 0;
		got = ops->read(ops->ctx, smi->fd, smi->buf + smi->len,
				KFDSIG_SMI_FIFO_SIZE - smi->len);
		if (got == -EAGAIN || got == -EINTR)
			continue;
		if (got < 0)
			return set_error((int)-got, "reading SMI events failed: %s",
					 strerror((int)-got));
		if (got == 0)
			return set_error(EPIPE, "SMI fd closed");
		smi->len += (size_t)got;
	}
}
