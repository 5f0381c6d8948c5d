/* SPDX-License-Identifier: MIT */
/*
 * The protocol between the in-process recorder of libkfdsig-preload.so
 * (src/preload/trace.c, trace_detect.c) and `kfdsig trace` (tools/cmd_trace.c,
 * which formats and sums up the records with src/preload/trace_report.c):
 * both sides include this header and nothing of each other.
 *
 * `kfdsig trace` starts the program with KFDSIG_TRACE_FD naming the write
 * end of a pipe. Every process of the program that loads the interposer
 * (children by fork and exec too) writes fixed-size binary records to it,
 * one write(2) each: a record is smaller than PIPE_BUF, so records of
 * concurrent processes and threads never interleave. The reader gets EOF
 * when the last of them has exited.
 *
 * Times are CLOCK_MONOTONIC nanoseconds, the same clock in every process.
 */
#ifndef KFDSIG_PROTO_TRACE_H
#define KFDSIG_PROTO_TRACE_H

#include <stdint.h>

#define KFDSIG_TRACE_FD_ENV "KFDSIG_TRACE_FD"
/* The lost-wait detector's bound in milliseconds (default 1000): a lost
 * wait is reported within it. */
#define KFDSIG_TRACE_BOUND_ENV "KFDSIG_TRACE_BOUND_MS"
/* Test hook: the path of the interposer copy that traces over the real
 * backend (kfdsig_kfd_linux_ops()) while a later copy in LD_PRELOAD
 * emulates the KFD below it; every other copy in the process only
 * emulates. */
#define KFDSIG_TRACE_STACK_ENV "KFDSIG_TRACE_STACK"

#define KFDSIG_TRACE_MAGIC 0x4b545231u /* "KTR1" */
/* Event ids and ages carried per WAIT_EVENTS record; n_events says how
 * many the call had. */
#define KFDSIG_TRACE_WAIT_IDS 8

enum kfdsig_trace_kind {
	KFDSIG_TR_START = 1,  /* a process loaded the recorder */
	KFDSIG_TR_IOCTL,      /* a KFD ioctl other than WAIT_EVENTS */
	KFDSIG_TR_WAIT,	      /* WAIT_EVENTS */
	KFDSIG_TR_MAP,	      /* an mmap of a KFD or render fd */
	KFDSIG_TR_IRQ,	      /* an interrupt the emulated KFD took */
	KFDSIG_TR_FINDING,    /* a detector fired */
	KFDSIG_TR_EXIT,	      /* a process that used the KFD exits */
	KFDSIG_TR_WAIT_BEGIN, /* a WAIT_EVENTS that may block begins (u.wait: ids, ages in) */
	KFDSIG_TR_INFLIGHT,   /* what is known of a WAIT_EVENTS still in flight */
	KFDSIG_TR_DRM,	      /* a render-node ioctl of user queues or syncobjs (u.drm) */
};

enum kfdsig_trace_detector {
	KFDSIG_DET_STORM = 1,	  /* instant-return storm on a stale age */
	KFDSIG_DET_SLEPT_THROUGH, /* timed out with the slot signalled */
	KFDSIG_DET_NO_WAITER,	  /* auto-reset event signalled, nobody waited */
	KFDSIG_DET_NEVER_RESET,	  /* manual-reset event left signalled */
	KFDSIG_DET_QUEUE_ERROR,	  /* a queue's exception event fired */
	KFDSIG_DET_LOST_WAIT,	  /* in flight on a slot written that no interrupt set */
	KFDSIG_DET_DEAD_WAIT,	  /* in flight on an event nobody can signal any more */
	KFDSIG_DET_LOST_FENCE,	  /* a syncobj wait in flight on fences their slots passed */
	KFDSIG_DET_COUNT = KFDSIG_DET_LOST_FENCE,
};

/* How a finding is classified (the reader prints it; the recorder sets
 * it where the detector knows more than its kind). */
enum kfdsig_trace_class {
	KFDSIG_CLASS_DEFAULT = 0,
	KFDSIG_CLASS_POLLED,	/* no-waiter: an interrupt set it, the runtime polled */
	KFDSIG_CLASS_CPU_SET,	/* no-waiter: SET_EVENT with nobody waiting */
	KFDSIG_CLASS_NO_IRQ,	/* lost wait: no interrupt named the event */
	KFDSIG_CLASS_OTHER_ID,	/* lost wait: the last interrupt named another id */
	KFDSIG_CLASS_DESTROYED, /* dead wait: the event was destroyed */
	KFDSIG_CLASS_NO_QUEUE,	/* dead wait: the process has no queue left */
	KFDSIG_CLASS_PROBED,	/* lost fence: the tracer's own look ended the wait */
};

/* The signal page as the records name it (KFDSIG_TR_IOCTL of CREATE_EVENT
 * and KFDSIG_TR_MAP). */
enum kfdsig_trace_page {
	KFDSIG_PAGE_NONE = 0,
	KFDSIG_PAGE_KERNEL, /* allocated by the KFD, mapped through /dev/kfd */
	KFDSIG_PAGE_USER,   /* the client's buffer, by its memory handle */
};

/* The argument could not be read (the KFD answers EFAULT): nothing of it
 * is decoded. */
#define KFDSIG_TRACE_IO_UNREAD 1u

struct kfdsig_trace_ioctl {
	/* event ioctls */
	uint32_t event_id, event_type, auto_reset, page; /* page: enum kfdsig_trace_page */
	uint64_t page_offset; /* CREATE_EVENT: the handle in or the mmap offset out */
	uint64_t page_addr;   /* CREATE_EVENT: where this process maps the page (0: not yet) */
	/* queue ioctls */
	uint32_t queue_id, gpu_id, queue_type, percentage, priority;
	uint32_t flags; /* KFDSIG_TRACE_IO_* */
	uint64_t ring_base, ring_size, doorbell_offset;
};

/* Syncobj handles and fence pairs one KFDSIG_TR_DRM record carries. */
#define KFDSIG_TRACE_DRM_HANDLES 8
#define KFDSIG_TRACE_DRM_FENCES 4

/* KFDSIG_TR_DRM: nr is the DRM ioctl's _IOC_NR (DRM_AMDGPU_USERQ,
 * USERQ_SIGNAL, USERQ_WAIT: DRM_COMMAND_BASE + 0x16..0x18; the core's
 * SYNCOBJ_CREATE, DESTROY, WAIT, TIMELINE_WAIT, QUERY). */
struct kfdsig_trace_drm {
	uint32_t queue_id;	  /* USERQ: out of create, in of free; SIGNAL, WAIT */
	uint32_t op;		  /* USERQ: 1 create, 2 free */
	uint32_t ip_type;	  /* USERQ create: AMDGPU_HW_IP_* */
	uint32_t doorbell_offset; /* USERQ create */
	uint32_t n_handles;	  /* the syncobjs the call names (handles[]: the first 8) */
	uint32_t flags;		  /* SYNCOBJ_CREATE / WAIT / TIMELINE_WAIT / QUERY flags */
	uint32_t first_signaled;  /* SYNCOBJ_WAIT, TIMELINE_WAIT: out */
	uint32_t n_fences;	  /* USERQ_WAIT: the pairs it returned (fence_*: the first 4) */
	uint32_t handles[KFDSIG_TRACE_DRM_HANDLES];
	uint32_t io_flags; /* KFDSIG_TRACE_IO_* */
	uint32_t pad;
	int64_t timeout_ns; /* SYNCOBJ waits: the absolute CLOCK_MONOTONIC timeout */
	/* TIMELINE_WAIT: the points waited for; QUERY: the points read */
	uint64_t points[KFDSIG_TRACE_DRM_HANDLES];
	uint64_t ring_va, ring_size, wptr_va; /* USERQ create */
	/* USERQ_SIGNAL: the fence's sequence number, the queue's write pointer
	 * as read when the call began (0: not readable) */
	uint64_t seq;
	uint64_t fence_va[KFDSIG_TRACE_DRM_FENCES], fence_value[KFDSIG_TRACE_DRM_FENCES];
};

struct kfdsig_trace_wait {
	uint32_t n_events, wait_all, timeout_ms, wait_result;
	/* Bit i: event i's slot in the signal page read signalled after a
	 * call that timed out (slot_known: it could be read). */
	uint32_t slot_set, slot_known;
	uint32_t ids[KFDSIG_TRACE_WAIT_IDS];
	uint64_t age_in[KFDSIG_TRACE_WAIT_IDS], age_out[KFDSIG_TRACE_WAIT_IDS];
};

struct kfdsig_trace_map {
	uint64_t offset, addr, len;
	uint32_t page; /* enum kfdsig_trace_page: this mapping is the signal page */
	uint32_t pad;
};

struct kfdsig_trace_irq {
	uint64_t seq;
	uint32_t gpu_id, source, client_id, source_id, ring_id, node_id, vmid;
	uint32_t context_id0, context_id1, id, valid_bits;
	uint32_t path, drop, nsignaled; /* enum kfdsig_emu_irq_path, _drop */
	uint32_t events[4];
};

struct kfdsig_trace_finding {
	uint32_t detector; /* enum kfdsig_trace_detector */
	uint32_t event_id, queue_id, gpu_id;
	uint64_t stale_age, real_age, count, slot, va;
	uint32_t cls;	    /* enum kfdsig_trace_class */
	int32_t waiter_tid; /* lost/dead wait: the thread that waits */
	uint64_t wait_ns;   /* lost/dead wait: how long it has waited */
	uint32_t irq_id;    /* OTHER_ID: the id the last interrupt named */
	uint32_t irq_path;  /* its path (enum kfdsig_emu_irq_path) */
};

/* A WAIT_EVENTS in flight (KFDSIG_TR_INFLIGHT, written by the watchdog
 * thread when what is known of it changes): the waiter is the record's
 * tid, the call began at begin_ns. Per event i (of the first
 * KFDSIG_TRACE_WAIT_IDS): bit i of slot_known / slot_set, the slot's
 * value, bit i of irq_named (an interrupt set the event since the call
 * began) and of dead (the event was destroyed). */
struct kfdsig_trace_inflight {
	uint64_t begin_ns;
	uint32_t n_events, wait_all, timeout_ms, emulated;
	uint32_t slot_known, slot_set, irq_named, dead;
	uint32_t ids[KFDSIG_TRACE_WAIT_IDS];
	uint64_t slot_val[KFDSIG_TRACE_WAIT_IDS];
	uint64_t irq_seq; /* the last interrupt taken (0: none), its id, path, drop */
	uint32_t irq_id, irq_path, irq_drop, live_queues;
};

struct kfdsig_trace_start {
	char comm[64]; /* argv[0], cut */
	int32_t ppid;
	uint32_t emulated; /* 1: the emulated KFD, 0: the real one */
};

struct kfdsig_trace_rec {
	uint32_t magic, kind; /* KFDSIG_TRACE_MAGIC, enum kfdsig_trace_kind */
	int32_t pid, tid;
	uint64_t t_ns;	 /* when the call began */
	uint64_t dur_ns; /* how long it took (WAIT_EVENTS: the time slept) */
	uint32_t nr;	 /* the ioctl's number (_IOC_NR) */
	int32_t ret;	 /* 0 or -errno */
	union {
		struct kfdsig_trace_ioctl io;
		struct kfdsig_trace_wait wait;
		struct kfdsig_trace_map map;
		struct kfdsig_trace_irq irq;
		struct kfdsig_trace_finding find;
		struct kfdsig_trace_start start;
		struct kfdsig_trace_inflight inflight;
		struct kfdsig_trace_drm drm;
	} u;
};

_Static_assert(sizeof(struct kfdsig_trace_rec) <= 512, "a record fits one atomic pipe write");

#endif
