/* SPDX-License-Identifier: MIT */
/*
 * The debugger and runtime-enable interface (kfdsig/debug.h): typed calls
 * over AMDKFD_IOC_RUNTIME_ENABLE and AMDKFD_IOC_DBG_TRAP (KFD 1.13, "Add
 * debugger API" in kfd_ioctl.h's version history), the exception names,
 * and the context-save-area header helper.
 *
 * Gating: the version (kfdsig_kfd_has(KFDSIG_KFD_FEAT_DEBUGGER)) and the
 * topology's capability bits (kfd_topology.c
 * kfd_topology_set_capabilities() sets HSA_CAP_TRAP_DEBUG_SUPPORT,
 * _WAVE_LAUNCH_TRAP_OVERRIDE_SUPPORTED and _WAVE_LAUNCH_MODE_SUPPORTED on
 * every GPU it debugs; PRECISE_MEMORY_OPERATIONS on some). Both answer
 * -ENOTSUP, as the other version-gated calls of src/kfd do. Everything
 * else is the kernel's to check: its errno comes back unchanged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <kfdsig/debug.h>

#include "kfd/kfd_priv.h"

_Static_assert(sizeof(struct kfdsig_dbg_queue_entry) == sizeof(abi_queue_snapshot_entry),
	       "queue snapshot entry is the kernel's layout");
_Static_assert(sizeof(struct kfdsig_dbg_device_entry) == sizeof(abi_dbg_device_info_entry),
	       "device snapshot entry is the kernel's layout");
_Static_assert(sizeof(struct kfdsig_dbg_runtime_info) == sizeof(abi_runtime_info),
	       "runtime info is the kernel's layout");

/* ---- exception names (kfd_ioctl.h enum kfd_dbg_trap_exception_code) ---- */

static const char *const exc_names[KFDSIG_EC_MAX] = {
	[KFDSIG_EC_QUEUE_WAVE_ABORT] = "queue-wave-abort",
	[KFDSIG_EC_QUEUE_WAVE_TRAP] = "queue-wave-trap",
	[KFDSIG_EC_QUEUE_WAVE_MATH_ERROR] = "queue-wave-math-error",
	[KFDSIG_EC_QUEUE_WAVE_ILLEGAL_INSTRUCTION] = "queue-wave-illegal-instruction",
	[KFDSIG_EC_QUEUE_WAVE_MEMORY_VIOLATION] = "queue-wave-memory-violation",
	[KFDSIG_EC_QUEUE_WAVE_APERTURE_VIOLATION] = "queue-wave-aperture-violation",
	[KFDSIG_EC_QUEUE_PACKET_DISPATCH_DIM_INVALID] = "queue-packet-dispatch-dim-invalid",
	[KFDSIG_EC_QUEUE_PACKET_DISPATCH_GROUP_SEGMENT_SIZE_INVALID] =
		"queue-packet-dispatch-group-segment-size-invalid",
	[KFDSIG_EC_QUEUE_PACKET_DISPATCH_CODE_INVALID] = "queue-packet-dispatch-code-invalid",
	[KFDSIG_EC_QUEUE_PACKET_RESERVED] = "queue-packet-reserved",
	[KFDSIG_EC_QUEUE_PACKET_UNSUPPORTED] = "queue-packet-unsupported",
	[KFDSIG_EC_QUEUE_PACKET_DISPATCH_WORK_GROUP_SIZE_INVALID] =
		"queue-packet-dispatch-work-group-size-invalid",
	[KFDSIG_EC_QUEUE_PACKET_DISPATCH_REGISTER_INVALID] =
		"queue-packet-dispatch-register-invalid",
	[KFDSIG_EC_QUEUE_PACKET_VENDOR_UNSUPPORTED] = "queue-packet-vendor-unsupported",
	[KFDSIG_EC_QUEUE_PREEMPTION_ERROR] = "queue-preemption-error",
	[KFDSIG_EC_QUEUE_NEW] = "queue-new",
	[KFDSIG_EC_DEVICE_QUEUE_DELETE] = "device-queue-delete",
	[KFDSIG_EC_DEVICE_MEMORY_VIOLATION] = "device-memory-violation",
	[KFDSIG_EC_DEVICE_RAS_ERROR] = "device-ras-error",
	[KFDSIG_EC_DEVICE_FATAL_HALT] = "device-fatal-halt",
	[KFDSIG_EC_DEVICE_NEW] = "device-new",
	[KFDSIG_EC_PROCESS_RUNTIME] = "process-runtime",
	[KFDSIG_EC_PROCESS_DEVICE_REMOVE] = "process-device-remove",
};

const char *kfdsig_exc_name(uint32_t ec)
{
	if (ec >= KFDSIG_EC_MAX || !exc_names[ec]) {
		set_error(EINVAL, "no KFD exception code %u", ec);
		errno = EINVAL;
		return NULL;
	}
	return exc_names[ec];
}

/* Compare a word of @n bytes with a name: case-insensitive, '_' == '-'. */
static bool word_is(const char *w, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n && name[i]; i++) {
		char a = w[i] == '_' ? '-' : w[i], b = name[i];

		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (a != b)
			return false;
	}
	return i == n && !name[i];
}

static int exc_by_word(const char *w, size_t n)
{
	char *end;
	unsigned long v;
	char num[24];

	if (n > 3 && (word_is(w, 3, "ec-")))
		w += 3, n -= 3;
	if (n && n < sizeof(num) && w[0] >= '0' && w[0] <= '9') {
		memcpy(num, w, n);
		num[n] = 0;
		errno = 0;
		v = strtoul(num, &end, 10);
		if (!errno && !*end && v < KFDSIG_EC_MAX && exc_names[v])
			return (int)v;
		return -EINVAL;
	}
	for (uint32_t ec = 1; ec < KFDSIG_EC_MAX; ec++)
		if (exc_names[ec] && word_is(w, n, exc_names[ec]))
			return (int)ec;
	return -EINVAL;
}

int kfdsig_exc_by_name(const char *name)
{
	int ec;

	if (!name)
		return set_error(EINVAL, "NULL exception name");
	ec = exc_by_word(name, strlen(name));
	if (ec < 0)
		return set_error(EINVAL, "unknown exception \"%s\"", name);
	return ec;
}

int kfdsig_exc_mask_format(uint64_t mask, char *buf, size_t len)
{
	size_t used = 0;

	if (!buf && len)
		return set_error(EINVAL, "NULL buffer");
	if (len)
		buf[0] = 0;
	if (!mask)
		return snprintf(buf, len, "none");
	for (uint32_t bit = 0; bit < 64; bit++) {
		char tmp[24];
		const char *n;
		int k;

		if (!(mask & (1ull << bit)))
			continue;
		n = bit + 1 < KFDSIG_EC_MAX ? exc_names[bit + 1] : NULL;
		if (!n) {
			snprintf(tmp, sizeof(tmp), "bit-%u", bit);
			n = tmp;
		}
		k = snprintf(used < len ? buf + used : NULL, used < len ? len - used : 0, "%s%s",
			     used ? "|" : "", n);
		used += (size_t)k;
	}
	return (int)used;
}

int kfdsig_exc_mask_parse(const char *s, uint64_t *mask)
{
	uint64_t m = 0;

	if (!s || !mask)
		return set_error(EINVAL, "NULL argument");
	while (*s) {
		size_t n = strcspn(s, "|,");
		int ec;

		while (n && (*s == ' ' || *s == '\t'))
			s++, n--;
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
			char num[24], *end;

			if (n >= sizeof(num))
				return set_error(EINVAL, "bad exception mask \"%.*s\"", (int)n, s);
			memcpy(num, s, n);
			num[n] = 0;
			errno = 0;
			m |= strtoull(num, &end, 16);
			if (errno || *end)
				return set_error(EINVAL, "bad exception mask \"%s\"", num);
		} else if (word_is(s, n, "none")) {
		} else if (word_is(s, n, "all")) {
			m |= KFDSIG_EC_MASK_QUEUE | KFDSIG_EC_MASK_DEVICE | KFDSIG_EC_MASK_PROCESS;
		} else if (word_is(s, n, "queue")) {
			m |= KFDSIG_EC_MASK_QUEUE;
		} else if (word_is(s, n, "device")) {
			m |= KFDSIG_EC_MASK_DEVICE;
		} else if (word_is(s, n, "process")) {
			m |= KFDSIG_EC_MASK_PROCESS;
		} else if ((ec = exc_by_word(s, n)) > 0) {
			m |= KFDSIG_EC_MASK(ec);
		} else {
			return set_error(EINVAL, "unknown exception \"%.*s\"", (int)n, s);
		}
		s += strcspn(s, "|,");
		if (*s)
			s++;
	}
	*mask = m;
	return 0;
}

/* ---- gating ------------------------------------------------------------ */

static int need_version(const struct kfdsig_kfd *kfd)
{
	if (!kfd)
		return set_error(EINVAL, "NULL KFD handle");
	if (!kfdsig_kfd_has(kfd, KFDSIG_KFD_FEAT_DEBUGGER))
		return set_error(
			ENOTSUP,
			"the debugger interface needs KFD 1.13 (kfd_ioctl.h), this is %u.%u",
			kfd->major, kfd->minor);
	return 0;
}

/* Every GPU (gpu_id 0) or that one has every bit of @cap. */
static int need_caps(const struct kfdsig_kfd *kfd, uint32_t gpu_id, uint32_t cap, const char *what)
{
	int r = need_version(kfd);
	bool found = false;

	if (r < 0)
		return r;
	for (size_t i = 0; i < kfd->ngpus; i++) {
		const struct kfdsig_kfd_device *d = &kfd->gpus[i].dev;

		if (gpu_id && d->gpu_id != gpu_id)
			continue;
		found = true;
		if ((d->capability & cap) != cap)
			return set_error(ENOTSUP,
					 "gpu 0x%x: %s needs topology capability 0x%x, it has 0x%x",
					 d->gpu_id, what, cap, d->capability);
	}
	if (gpu_id && !found)
		return set_error(ENOENT, "no GPU with gpu_id 0x%x", gpu_id);
	if (!found)
		return set_error(ENOTSUP, "%s: no GPU", what);
	return 0;
}

int kfdsig_dbg_supported(const struct kfdsig_kfd *kfd, uint32_t gpu_id)
{
	return need_caps(kfd, gpu_id, KFDSIG_CAP_TRAP_DEBUG_SUPPORT, "debugging");
}

/* ---- RUNTIME_ENABLE ----------------------------------------------------- */

int kfdsig_kfd_runtime_enable(struct kfdsig_kfd *kfd, uint64_t r_debug, uint32_t flags,
			      uint32_t *caps)
{
	abi_runtime_enable_args a = { 0 };
	int r = need_version(kfd);

	if (r < 0)
		return r;
	if (flags & ~KFDSIG_RUNTIME_TTMP_SAVE)
		return set_error(EINVAL, "unknown runtime enable flags 0x%x", flags);
	a.r_debug = r_debug;
	a.mode_mask = KFDSIG_RUNTIME_ENABLE_MODE_ENABLE |
		      (flags & KFDSIG_RUNTIME_TTMP_SAVE ? KFDSIG_RUNTIME_ENABLE_MODE_TTMP_SAVE : 0);
	/* Not retried on EINTR: the kernel keeps the enable pending
	 * (is_runtime_retry) and the next call finishes it; retrying here
	 * does exactly that (kfd_chardev.c runtime_enable()). */
	r = kfd_ioctl_retry(kfd->ops, kfd->fd, KFDSIG_AMDKFD_IOC_RUNTIME_ENABLE, &a);
	if (r < 0)
		return set_error(-r, "RUNTIME_ENABLE failed: %s", strerror(-r));
	if (caps)
		*caps = a.capabilities_mask;
	return 0;
}

int kfdsig_kfd_runtime_disable(struct kfdsig_kfd *kfd)
{
	abi_runtime_enable_args a = { 0 };
	int r = need_version(kfd);

	if (r < 0)
		return r;
	r = kfd_ioctl_retry(kfd->ops, kfd->fd, KFDSIG_AMDKFD_IOC_RUNTIME_ENABLE, &a);
	if (r < 0)
		return set_error(-r, "RUNTIME_ENABLE (disable) failed: %s", strerror(-r));
	return 0;
}

/* ---- the CWSR header (kfd_ioctl.h struct kfd_context_save_area_header) -- */

int kfdsig_kfd_queue_set_exception_event(struct kfdsig_kfd_queue *q, uint64_t payload_va,
					 uint32_t event_id)
{
	abi_cwsr_header *h;
	uint64_t size = 0;

	if (!q)
		return set_error(EINVAL, "NULL queue");
	if (payload_va & 7)
		return set_error(EINVAL, "payload address 0x%llx is not 8-byte aligned",
				 (unsigned long long)payload_va);
	h = kfd_queue_cwsr(q, &size);
	if (!h || size < sizeof(*h))
		return set_error(ENODEV, "queue %d has no context save area",
				 kfdsig_kfd_queue_id(q));
	/* kfd_process.c send_exception_work_handler() reads both with
	 * get_user() when an exception arrives; the payload word is read,
	 * OR'd and written back with get_user/put_user. */
	__atomic_store_n(&h->err_payload_addr, payload_va, __ATOMIC_RELAXED);
	__atomic_store_n(&h->err_event_id, event_id, __ATOMIC_RELEASE);
	return 0;
}

/* ---- DBG_TRAP ----------------------------------------------------------- */

static const char *const op_names[] = {
	"ENABLE",
	"DISABLE",
	"SEND_RUNTIME_EVENT",
	"SET_EXCEPTIONS_ENABLED",
	"SET_WAVE_LAUNCH_OVERRIDE",
	"SET_WAVE_LAUNCH_MODE",
	"SUSPEND_QUEUES",
	"RESUME_QUEUES",
	"SET_NODE_ADDRESS_WATCH",
	"CLEAR_NODE_ADDRESS_WATCH",
	"SET_FLAGS",
	"QUERY_DEBUG_EVENT",
	"QUERY_EXCEPTION_INFO",
	"GET_QUEUE_SNAPSHOT",
	"GET_DEVICE_SNAPSHOT",
};

/* One DBG_TRAP; the kernel copies the arguments back even on failure. */
static int dbg_trap(struct kfdsig_kfd *kfd, pid_t pid, abi_dbg_trap_args *a)
{
	int r;

	if (pid <= 0)
		return set_error(EINVAL, "DBG_TRAP %s: bad pid %d", op_names[a->op], (int)pid);
	a->pid = (uint32_t)pid;
	/* EINTR only: -EAGAIN is QUERY_DEBUG_EVENT's "nothing pending"
	 * (kfd_dbg_ev_query_debug_event()), not a busy kernel */
	do
		r = kfd->ops->ioctl(kfd->ops->ctx, kfd->fd, KFDSIG_AMDKFD_IOC_DBG_TRAP, a);
	while (r == -EINTR);
	if (r < 0)
		return set_error(-r, "DBG_TRAP %s on pid %d failed: %s", op_names[a->op], (int)pid,
				 strerror(-r));
	return r;
}

int kfdsig_dbg_enable(struct kfdsig_kfd *kfd, pid_t pid, uint64_t exception_mask, int dbg_fd,
		      struct kfdsig_dbg_runtime_info *rinfo)
{
	abi_dbg_trap_args a = { .op = KFDSIG_DBG_OP_ENABLE };
	abi_runtime_info ri = { 0 };
	int r = kfdsig_dbg_supported(kfd, 0);

	if (r < 0)
		return r;
	if (dbg_fd < 0)
		return set_error(EBADF, "DBG_TRAP ENABLE: bad dbg_fd %d", dbg_fd);
	a.enable.exception_mask = exception_mask;
	a.enable.rinfo_ptr = (uint64_t)(uintptr_t)&ri;
	a.enable.rinfo_size = sizeof(ri);
	a.enable.dbg_fd = (uint32_t)dbg_fd;
	r = dbg_trap(kfd, pid, &a);
	if (r < 0)
		return r;
	if (rinfo) {
		rinfo->r_debug = ri.r_debug;
		rinfo->runtime_state = ri.runtime_state;
		rinfo->ttmp_setup = ri.ttmp_setup;
	}
	return 0;
}

int kfdsig_dbg_disable(struct kfdsig_kfd *kfd, pid_t pid)
{
	abi_dbg_trap_args a = { .op = KFDSIG_DBG_OP_DISABLE };
	int r = need_version(kfd);

	return r < 0 ? r : dbg_trap(kfd, pid, &a);
}

int kfdsig_dbg_send_runtime_event(struct kfdsig_kfd *kfd, pid_t pid, uint64_t mask, uint32_t gpu_id,
				  uint32_t queue_id)
{
	abi_dbg_trap_args a = { .op = KFDSIG_DBG_OP_SEND_RUNTIME_EVENT };
	int r = need_version(kfd);

	if (r < 0)
		return r;
	a.send_runtime_event.exception_mask = mask;
	a.send_runtime_event.gpu_id = gpu_id;
	a.send_runtime_event.queue_id = queue_id;
	return dbg_trap(kfd, pid, &a);
}

int kfdsig_dbg_set_exceptions_enabled(struct kfdsig_kfd *kfd, pid_t pid, uint64_t mask)
{
	abi_dbg_trap_args a = { .op = KFDSIG_DBG_OP_SET_EXCEPTIONS_ENABLED };
	int r = need_version(kfd);

	if (r < 0)
		return r;
	a.set_exceptions_enabled.exception_mask = mask;
	return dbg_trap(kfd, pid, &a);
}

int kfdsig_dbg_set_wave_launch_override(struct kfdsig_kfd *kfd, pid_t pid, uint32_t mode,
					uint32_t *enable_mask, uint32_t *support_mask)
{
	abi_dbg_trap_args a = { .op = KFDSIG_DBG_OP_SET_WAVE_LAUNCH_OVERRIDE };
	int r = need_caps(kfd, 0, KFDSIG_CAP_TRAP_DEBUG_WAVE_LAUNCH_TRAP_OVERRIDE,
			  "wave launch trap override");

	if (r < 0)
		return r;
	if (!enable_mask || !support_mask)
		return set_error(EINVAL, "NULL mask");
	a.launch_override.override_mode = mode;
	a.launch_override.enable_mask = *enable_mask;
	a.launch_override.support_request_mask = *support_mask;
	r = dbg_trap(kfd, pid, &a);
	/* kfd_ioctl() (kfd_chardev.c) copies the arguments back when the
	 * operation fails too, and kfd_dbg_validate_trap_override_request()
	 * (kfd_debug.c) has written the supported traps before it returns a
	 * GPU's -EINVAL/-EPERM or -EACCES; the previous mask is written on
	 * success only. Both go back as the kernel left them: on an error
	 * before the operation they are the caller's own values. */
	*enable_mask = a.launch_override.enable_mask;
	*support_mask = a.launch_override.support_request_mask;
	return r < 0 ? r : 0;
}

int kfdsig_dbg_set_wave_launch_mode(struct kfdsig_kfd *kfd, pid_t pid, uint32_t mode)
{
	abi_dbg_trap_args a = { .op = KFDSIG_DBG_OP_SET_WAVE_LAUNCH_MODE };
	int r = need_caps(kfd, 0, KFDSIG_CAP_TRAP_DEBUG_WAVE_LAUNCH_MODE, "wave launch mode");

	if (r < 0)
		return r;
	a.launch_mode.launch_mode = mode;
	return dbg_trap(kfd, pid, &a);
}

int kfdsig_dbg_suspend_queues(struct kfdsig_kfd *kfd, pid_t pid, uint64_t clear_mask,
			      uint32_t grace_period, uint32_t *ids, uint32_t n)
{
	abi_dbg_trap_args a = { .op = KFDSIG_DBG_OP_SUSPEND_QUEUES };
	int r = need_version(kfd);

	if (r < 0)
		return r;
	if (!ids && n)
		return set_error(EINVAL, "NULL queue id array");
	a.suspend_queues.exception_mask = clear_mask;
	a.suspend_queues.queue_array_ptr = (uint64_t)(uintptr_t)ids;
	a.suspend_queues.num_queues = n;
	a.suspend_queues.grace_period = grace_period;
	return dbg_trap(kfd, pid, &a);
}

int kfdsig_dbg_resume_queues(struct kfdsig_kfd *kfd, pid_t pid, uint32_t *ids, uint32_t n)
{
	abi_dbg_trap_args a = { .op = KFDSIG_DBG_OP_RESUME_QUEUES };
	int r = need_version(kfd);

	if (r < 0)
		return r;
	if (!ids && n)
		return set_error(EINVAL, "NULL queue id array");
	a.resume_queues.queue_array_ptr = (uint64_t)(uintptr_t)ids;
	a.resume_queues.num_queues = n;
	return dbg_trap(kfd, pid, &a);
}

int kfdsig_dbg_set_address_watch(struct kfdsig_kfd *kfd, pid_t pid, uint32_t gpu_id, uint64_t addr,
				 uint32_t mask, uint32_t mode, uint32_t *id)
{
	abi_dbg_trap_args a = { .op = KFDSIG_DBG_OP_SET_NODE_ADDRESS_WATCH };
	int r = need_caps(kfd, gpu_id, KFDSIG_CAP_TRAP_DEBUG_SUPPORT, "address watch");

	if (r < 0)
		return r;
	if (!id)
		return set_error(EINVAL, "NULL watch id");
	a.set_node_address_watch.address = addr;
	a.set_node_address_watch.mode = mode;
	a.set_node_address_watch.mask = mask;
	a.set_node_address_watch.gpu_id = gpu_id;
	r = dbg_trap(kfd, pid, &a);
	if (r < 0)
		return r;
	*id = a.set_node_address_watch.id;
	return 0;
}

int kfdsig_dbg_clear_address_watch(struct kfdsig_kfd *kfd, pid_t pid, uint32_t gpu_id, uint32_t id)
{
	abi_dbg_trap_args a = { .op = KFDSIG_DBG_OP_CLEAR_NODE_ADDRESS_WATCH };
	int r = need_caps(kfd, gpu_id, KFDSIG_CAP_TRAP_DEBUG_SUPPORT, "address watch");

	if (r < 0)
		return r;
	a.clear_node_address_watch.gpu_id = gpu_id;
	a.clear_node_address_watch.id = id;
	return dbg_trap(kfd, pid, &a);
}

int kfdsig_dbg_set_flags(struct kfdsig_kfd *kfd, pid_t pid, uint32_t *flags)
{
	abi_dbg_trap_args a = { .op = KFDSIG_DBG_OP_SET_FLAGS };
	int r = need_version(kfd);

	if (r < 0)
		return r;
	if (!flags)
		return set_error(EINVAL, "NULL flags");
	a.set_flags.flags = *flags;
	r = dbg_trap(kfd, pid, &a);
	if (r < 0)
		return r;
	*flags = a.set_flags.flags;
	return 0;
}

int kfdsig_dbg_query_event(struct kfdsig_kfd *kfd, pid_t pid, uint64_t clear_mask,
			   struct kfdsig_dbg_event *out)
{
	abi_dbg_trap_args a = { .op = KFDSIG_DBG_OP_QUERY_DEBUG_EVENT };
	uint64_t st;
	int r = need_version(kfd);

	if (r < 0)
		return r;
	if (!out)
		return set_error(EINVAL, "NULL event");
	a.query_debug_event.exception_mask = clear_mask;
	r = dbg_trap(kfd, pid, &a);
	if (r < 0)
		return r;
	/* kfd_debug.c kfd_dbg_ev_query_debug_event(): queues first (queue_id
	 * and gpu_id set), then devices (gpu_id), then the process. */
	st = a.query_debug_event.exception_mask;
	memset(out, 0, sizeof(*out));
	out->exceptions = st;
	out->gpu_id = a.query_debug_event.gpu_id;
	out->queue_id = a.query_debug_event.queue_id;
	out->source = (st & KFDSIG_EC_MASK_QUEUE)    ? KFDSIG_DBG_SOURCE_QUEUE
		      : (st & KFDSIG_EC_MASK_DEVICE) ? KFDSIG_DBG_SOURCE_DEVICE
		      : out->gpu_id		     ? KFDSIG_DBG_SOURCE_DEVICE
						     : KFDSIG_DBG_SOURCE_PROCESS;
	return 0;
}

int kfdsig_dbg_query_exception_info(struct kfdsig_kfd *kfd, pid_t pid, uint32_t source_id,
				    uint32_t ec, bool clear, void *info, uint32_t *size)
{
	abi_dbg_trap_args a = { .op = KFDSIG_DBG_OP_QUERY_EXCEPTION_INFO };
	int r = need_version(kfd);

	if (r < 0)
		return r;
	if (!size || (!info && *size))
		return set_error(EINVAL, "NULL info buffer");
	a.query_exception_info.info_ptr = (uint64_t)(uintptr_t)info;
	a.query_exception_info.info_size = *size;
	a.query_exception_info.source_id = source_id;
	a.query_exception_info.exception_code = ec;
	a.query_exception_info.clear_exception = clear;
	r = dbg_trap(kfd, pid, &a);
	if (r < 0)
		return r;
	*size = a.query_exception_info.info_size;
	return 0;
}

/* GET_QUEUE_SNAPSHOT and GET_DEVICE_SNAPSHOT share one argument layout
 * (exception_mask, snapshot_buf_ptr, count, entry_size). The device
 * snapshot refuses a NULL buffer (-EINVAL, kfd_debug.c
 * kfd_dbg_trap_device_snapshot()) even to count: a count asks with room
 * for none in a one-entry scratch buffer. */
static int snapshot(struct kfdsig_kfd *kfd, pid_t pid, uint32_t op, uint64_t clear_mask, void *buf,
		    uint32_t esz, uint32_t *n)
{
	abi_dbg_trap_args a = { .op = op };
	struct kfdsig_dbg_device_entry scratch;
	int r = need_version(kfd);

	if (r < 0)
		return r;
	if (!n || (!buf && *n))
		return set_error(EINVAL, "NULL snapshot buffer");
	_Static_assert(offsetof(abi_dbg_trap_args, queue_snapshot.entry_size) ==
			       offsetof(abi_dbg_trap_args, device_snapshot.entry_size),
		       "one layout");
	a.queue_snapshot.exception_mask = clear_mask;
	a.queue_snapshot.snapshot_buf_ptr = (uint64_t)(uintptr_t)(buf ? buf : &scratch);
	a.queue_snapshot.num_queues = buf ? *n : 0;
	a.queue_snapshot.entry_size = esz;
	r = dbg_trap(kfd, pid, &a);
	if (r < 0)
		return r;
	*n = a.queue_snapshot.num_queues;
	return 0;
}

int kfdsig_dbg_queue_snapshot(struct kfdsig_kfd *kfd, pid_t pid, uint64_t clear_mask,
			      struct kfdsig_dbg_queue_entry *buf, uint32_t *n)
{
	return snapshot(kfd, pid, KFDSIG_DBG_OP_GET_QUEUE_SNAPSHOT, clear_mask, buf, sizeof(*buf),
			n);
}

int kfdsig_dbg_device_snapshot(struct kfdsig_kfd *kfd, pid_t pid, uint64_t clear_mask,
			       struct kfdsig_dbg_device_entry *buf, uint32_t *n)
{
	return snapshot(kfd, pid, KFDSIG_DBG_OP_GET_DEVICE_SNAPSHOT, clear_mask, buf, sizeof(*buf),
			n);
}
