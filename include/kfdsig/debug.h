/* SPDX-License-Identifier: MIT */
/*
 * kfdsig debugger and runtime-enable interface: AMDKFD_IOC_RUNTIME_ENABLE
 * and AMDKFD_IOC_DBG_TRAP (KFD ioctl 1.13, "Add debugger API" in
 * kfd_ioctl.h's version history) as typed calls, the queue / device /
 * process exception codes with their names, and the helper that points a
 * queue's context-save-area header at a payload word and an event, so a
 * runtime learns of its queues' exceptions through WAIT_EVENTS
 * (kfd_process.c kfd_send_exception_to_runtime()).
 *
 * Every call goes through the seam of kfdsig/kfd.h, so it runs on the
 * hardware and on the emulated KFD alike. The calls need KFD 1.13 or later
 * (-ENOTSUP before) and a GPU whose topology "capability" has the debug
 * bits the operation needs (kfd_topology.c kfd_topology_set_capabilities();
 * -ENOTSUP without). Otherwise the kernel's answer comes back as a negative
 * errno (kfd_chardev.c kfd_ioctl_runtime_enable() and
 * kfd_ioctl_set_debug_trap()):
 *   -ESRCH   no such process, or it has no KFD process
 *   -EPERM   the caller does not ptrace the target (and is not the
 *            target), or a hardware operation (wave launch override /
 *            mode, suspend / resume, address watch, flags) before the
 *            target's runtime enabled itself
 *   -EINVAL  any operation but ENABLE before ENABLE; bad arguments
 *   -EBADF   ENABLE with a dbg_fd that is not an open file
 *   -EALREADY ENABLE on a process already being debugged
 *   -EBUSY   RUNTIME_ENABLE while enabled (or its enable is pending)
 *   -EEXIST  RUNTIME_ENABLE with queues already created
 *   -ENODEV  an address watch on a GPU the target does not use; ENABLE
 *            on a process with a pre-SOC15 (gfx8) GPU
 *   -EAGAIN  QUERY_DEBUG_EVENT with nothing pending
 *   -EFAULT  a pointer the kernel cannot read or write
 *
 * Errors follow kfdsig/common.h: negative errno, kfdsig_last_error() says
 * why. Nothing here prints or aborts.
 */
#ifndef KFDSIG_DEBUG_H
#define KFDSIG_DEBUG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <kfdsig/common.h>
#include <kfdsig/kfd.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------- */
/* Exception codes (kfd_ioctl.h enum kfd_dbg_trap_exception_code)         */
/* ---------------------------------------------------------------------- */

enum kfdsig_exc {
	KFDSIG_EC_NONE = 0,
	/* queue exceptions */
	KFDSIG_EC_QUEUE_WAVE_ABORT = 1,
	KFDSIG_EC_QUEUE_WAVE_TRAP = 2,
	KFDSIG_EC_QUEUE_WAVE_MATH_ERROR = 3,
	KFDSIG_EC_QUEUE_WAVE_ILLEGAL_INSTRUCTION = 4,
	KFDSIG_EC_QUEUE_WAVE_MEMORY_VIOLATION = 5,
	KFDSIG_EC_QUEUE_WAVE_APERTURE_VIOLATION = 6,
	KFDSIG_EC_QUEUE_PACKET_DISPATCH_DIM_INVALID = 16,
	KFDSIG_EC_QUEUE_PACKET_DISPATCH_GROUP_SEGMENT_SIZE_INVALID = 17,
	KFDSIG_EC_QUEUE_PACKET_DISPATCH_CODE_INVALID = 18,
	KFDSIG_EC_QUEUE_PACKET_RESERVED = 19,
	KFDSIG_EC_QUEUE_PACKET_UNSUPPORTED = 20,
	KFDSIG_EC_QUEUE_PACKET_DISPATCH_WORK_GROUP_SIZE_INVALID = 21,
	KFDSIG_EC_QUEUE_PACKET_DISPATCH_REGISTER_INVALID = 22,
	KFDSIG_EC_QUEUE_PACKET_VENDOR_UNSUPPORTED = 23,
	KFDSIG_EC_QUEUE_PREEMPTION_ERROR = 30,
	KFDSIG_EC_QUEUE_NEW = 31,
	/* device exceptions */
	KFDSIG_EC_DEVICE_QUEUE_DELETE = 32,
	KFDSIG_EC_DEVICE_MEMORY_VIOLATION = 33,
	KFDSIG_EC_DEVICE_RAS_ERROR = 34,
	KFDSIG_EC_DEVICE_FATAL_HALT = 35,
	KFDSIG_EC_DEVICE_NEW = 36,
	/* process exceptions */
	KFDSIG_EC_PROCESS_RUNTIME = 48,
	KFDSIG_EC_PROCESS_DEVICE_REMOVE = 49,
	KFDSIG_EC_MAX
};

/* The bit of code @ec in a 64-bit exception mask (KFD_EC_MASK: bit ec-1). */
#define KFDSIG_EC_MASK(ec) (1ull << ((ec)-1))
#define KFDSIG_EC_MASK_QUEUE                                                                      \
	(KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_WAVE_ABORT) | KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_WAVE_TRAP) | \
	 KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_WAVE_MATH_ERROR) |                                        \
	 KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_WAVE_ILLEGAL_INSTRUCTION) |                               \
	 KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_WAVE_MEMORY_VIOLATION) |                                  \
	 KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_WAVE_APERTURE_VIOLATION) |                                \
	 KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_PACKET_DISPATCH_DIM_INVALID) |                            \
	 KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_PACKET_DISPATCH_GROUP_SEGMENT_SIZE_INVALID) |             \
	 KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_PACKET_DISPATCH_CODE_INVALID) |                           \
	 KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_PACKET_RESERVED) |                                        \
	 KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_PACKET_UNSUPPORTED) |                                     \
	 KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_PACKET_DISPATCH_WORK_GROUP_SIZE_INVALID) |                \
	 KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_PACKET_DISPATCH_REGISTER_INVALID) |                       \
	 KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_PACKET_VENDOR_UNSUPPORTED) |                              \
	 KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_PREEMPTION_ERROR) | KFDSIG_EC_MASK(KFDSIG_EC_QUEUE_NEW))
#define KFDSIG_EC_MASK_DEVICE                            \
	(KFDSIG_EC_MASK(KFDSIG_EC_DEVICE_QUEUE_DELETE) | \
	 KFDSIG_EC_MASK(KFDSIG_EC_DEVICE_RAS_ERROR) |    \
	 KFDSIG_EC_MASK(KFDSIG_EC_DEVICE_FATAL_HALT) |   \
	 KFDSIG_EC_MASK(KFDSIG_EC_DEVICE_MEMORY_VIOLATION) | KFDSIG_EC_MASK(KFDSIG_EC_DEVICE_NEW))
#define KFDSIG_EC_MASK_PROCESS                       \
	(KFDSIG_EC_MASK(KFDSIG_EC_PROCESS_RUNTIME) | \
	 KFDSIG_EC_MASK(KFDSIG_EC_PROCESS_DEVICE_REMOVE))

/**
 * kfdsig_exc_name() - the name of exception code @ec: "queue-wave-trap",
 * "device-memory-violation", ... (the kernel's EC_ name, lower case, '_'
 * as '-', without "EC_").
 * Return: the name, or NULL (errno EINVAL) for a code KFD does not define.
 */
KFDSIG_API const char *kfdsig_exc_name(uint32_t ec);

/**
 * kfdsig_exc_by_name() - the code of an exception name, as
 * kfdsig_exc_name() gives it; case-insensitive, '_' taken as '-', an
 * "ec-" / "EC_" prefix and the number itself ("2") accepted.
 * Return: the code (1..KFDSIG_EC_MAX-1), or -EINVAL.
 */
KFDSIG_API int kfdsig_exc_by_name(const char *name);

/**
 * kfdsig_exc_mask_format() - a mask as names joined by '|'
 * ("queue-wave-trap|queue-new"); bits of no code as "bit-N"; "none" for 0.
 * Return: the length of the whole string (as snprintf), -EINVAL for a
 * NULL @buf with a non-zero @len.
 */
KFDSIG_API int kfdsig_exc_mask_format(uint64_t mask, char *buf, size_t len);

/**
 * kfdsig_exc_mask_parse() - the reverse: names or numbers separated by
 * '|' or ',', "queue", "device", "process" and "all" for the classes, a
 * 0x... hex mask, "none".
 * Return: 0 and *mask set, or -EINVAL naming the word it does not know.
 */
KFDSIG_API int kfdsig_exc_mask_parse(const char *s, uint64_t *mask);

/* ---------------------------------------------------------------------- */
/* Runtime enable (the runtime's side)                                    */
/* ---------------------------------------------------------------------- */

/* kfd_ioctl.h enum kfd_dbg_runtime_state */
enum kfdsig_runtime_state {
	KFDSIG_RUNTIME_DISABLED = 0,
	KFDSIG_RUNTIME_ENABLED = 1,
	KFDSIG_RUNTIME_ENABLED_BUSY = 2,
	KFDSIG_RUNTIME_ENABLED_ERROR = 3,
};

/* Flags of kfdsig_kfd_runtime_enable(). */
#define KFDSIG_RUNTIME_TTMP_SAVE 0x1u /* KFD_RUNTIME_ENABLE_MODE_TTMP_SAVE_MASK */

/**
 * kfdsig_kfd_runtime_enable() - AMDKFD_IOC_RUNTIME_ENABLE, enable: this
 * process is a runtime that takes its queues' exceptions (and that a
 * debugger may drive). Call it before creating any queue. @r_debug is the
 * address of the runtime's struct r_debug (given to the debugger in its
 * runtime info); @flags KFDSIG_RUNTIME_TTMP_SAVE asks the trap handler to
 * save the dispatch info in TTMP registers. When a debugger has enabled
 * the trap interface on this process the call blocks until the debugger
 * answers with EC_PROCESS_RUNTIME (kfdsig_dbg_send_runtime_event()).
 * @caps: NULL, or receives the ioctl's capabilities_mask.
 * Return: 0, -ENOTSUP (KFD < 1.13), -EBUSY (already enabled), -EEXIST
 * (queues exist), -EINVAL for unknown @flags, or the kernel's -errno.
 */
KFDSIG_API int kfdsig_kfd_runtime_enable(struct kfdsig_kfd *kfd, uint64_t r_debug, uint32_t flags,
					 uint32_t *caps);

/**
 * kfdsig_kfd_runtime_disable() - AMDKFD_IOC_RUNTIME_ENABLE, disable. With
 * a debugger attached it blocks until the debugger answers, as enable.
 * Return: 0, -ENOTSUP, or the kernel's -errno.
 */
KFDSIG_API int kfdsig_kfd_runtime_disable(struct kfdsig_kfd *kfd);

/**
 * kfdsig_kfd_queue_set_exception_event() - write the queue's context save
 * area header (struct kfd_context_save_area_header): err_payload_addr =
 * @payload_va (the address of a 64-bit word of this process, 8-byte
 * aligned, into which KFD ORs the exception mask) and err_event_id =
 * @event_id (a signal event of this process, set on each exception:
 * kfd_set_event() sets nothing else). KFD delivers a
 * queue exception to the runtime this way when the runtime is enabled and
 * no debugger takes it (kfd_debug.c kfd_set_dbg_ev_from_interrupt()).
 * @payload_va 0 and @event_id 0 turn it off.
 * Return: 0, -EINVAL (NULL, unaligned payload), -ENODEV (the queue has no
 * context save area: SDMA queues).
 */
KFDSIG_API int kfdsig_kfd_queue_set_exception_event(struct kfdsig_kfd_queue *q, uint64_t payload_va,
						    uint32_t event_id);

/* ---------------------------------------------------------------------- */
/* The debugger's side: DBG_TRAP operations on process @pid               */
/* ---------------------------------------------------------------------- */

/* Debug capabilities of a GPU: topology "capability" bits (kfd_sysfs.h
 * HSA_CAP_TRAP_DEBUG_*, set by kfd_topology.c
 * kfd_topology_set_capabilities()). */
#define KFDSIG_CAP_TRAP_DEBUG_SUPPORT 0x00008000u
#define KFDSIG_CAP_TRAP_DEBUG_WAVE_LAUNCH_TRAP_OVERRIDE 0x00010000u
#define KFDSIG_CAP_TRAP_DEBUG_WAVE_LAUNCH_MODE 0x00020000u
#define KFDSIG_CAP_TRAP_DEBUG_PRECISE_MEMORY_OPS 0x00040000u
#define KFDSIG_CAP_TRAP_DEBUG_FIRMWARE_SUPPORTED 0x20000000u

/**
 * kfdsig_dbg_supported() - may the debugger interface be used on this
 * KFD (version >= 1.13, every GPU node advertising
 * KFDSIG_CAP_TRAP_DEBUG_SUPPORT)? @gpu_id 0 asks for every GPU, else for
 * that one.
 * Return: 0 (yes), -ENOTSUP with the reason, -ENOENT unknown gpu_id.
 */
KFDSIG_API int kfdsig_dbg_supported(const struct kfdsig_kfd *kfd, uint32_t gpu_id);

/* kfd_ioctl.h struct kfd_runtime_info: the target's runtime as ENABLE
 * reports it. */
struct kfdsig_dbg_runtime_info {
	uint64_t r_debug;
	uint32_t runtime_state; /* enum kfdsig_runtime_state */
	uint32_t ttmp_setup;
};

/**
 * kfdsig_dbg_enable() - DBG_TRAP ENABLE on @pid: this process debugs it.
 * The caller must ptrace @pid (or be @pid). @exception_mask: the
 * exceptions reported to the debugger (the rest still go to the runtime);
 * @dbg_fd: a file KFD writes one byte to for each reported exception (a
 * pipe's write end, as ROCdbgapi uses; an eventfd refuses 1-byte writes);
 * @rinfo: NULL, or receives the target's
 * runtime info.
 * Return: 0, -ENOTSUP, or the kernel's -errno (see the top of this file).
 */
KFDSIG_API int kfdsig_dbg_enable(struct kfdsig_kfd *kfd, pid_t pid, uint64_t exception_mask,
				 int dbg_fd, struct kfdsig_dbg_runtime_info *rinfo);

/** kfdsig_dbg_disable() - DBG_TRAP DISABLE: detach (resumes suspended
 * queues, clears the debug state). Return: 0 or -errno. */
KFDSIG_API int kfdsig_dbg_disable(struct kfdsig_kfd *kfd, pid_t pid);

/**
 * kfdsig_dbg_send_runtime_event() - DBG_TRAP SEND_RUNTIME_EVENT: forward
 * exceptions of queue @queue_id on @gpu_id to the target's runtime (payload
 * OR and event, kfd_debug.c kfd_dbg_send_exception_to_runtime()).
 * KFDSIG_EC_MASK(KFDSIG_EC_PROCESS_RUNTIME) in @mask answers a pending
 * runtime enable / disable and unblocks it.
 * Return: 0 or -errno.
 */
KFDSIG_API int kfdsig_dbg_send_runtime_event(struct kfdsig_kfd *kfd, pid_t pid, uint64_t mask,
					     uint32_t gpu_id, uint32_t queue_id);

/** kfdsig_dbg_set_exceptions_enabled() - DBG_TRAP SET_EXCEPTIONS_ENABLED:
 * the exceptions reported to the debugger from now on. Return: 0 or -errno. */
KFDSIG_API int kfdsig_dbg_set_exceptions_enabled(struct kfdsig_kfd *kfd, pid_t pid, uint64_t mask);

/* kfd_ioctl.h enum kfd_dbg_trap_override_mode / wave_launch_mode /
 * address_watch_mode / flags / mask */
#define KFDSIG_DBG_OVERRIDE_OR 0u
#define KFDSIG_DBG_OVERRIDE_REPLACE 1u
#define KFDSIG_DBG_LAUNCH_NORMAL 0u
#define KFDSIG_DBG_LAUNCH_HALT 1u
#define KFDSIG_DBG_LAUNCH_DEBUG 3u
#define KFDSIG_DBG_WATCH_READ 0u
#define KFDSIG_DBG_WATCH_NONREAD 1u
#define KFDSIG_DBG_WATCH_ATOMIC 2u
#define KFDSIG_DBG_WATCH_ALL 3u
#define KFDSIG_DBG_FLAG_SINGLE_MEM_OP 1u
/* KFD 1.21, GC 12.1 and later (kfd_ioctl.h KFD_DBG_TRAP_FLAG_LDS_OUT_OF_ADDR_RANGE;
 * kfd_topology.c kfd_topology_set_capabilities():
 * HSA_CAP2_TRAP_DEBUG_LDS_OUT_OF_ADDR_RANGE_SUPPORTED from IP_VERSION(12, 1, 0)). */
#define KFDSIG_DBG_FLAG_LDS_OUT_OF_ADDR_RANGE 4u
#define KFDSIG_DBG_TRAP_MASK_FP_INVALID 0x1u
#define KFDSIG_DBG_TRAP_MASK_FP_INPUT_DENORMAL 0x2u
#define KFDSIG_DBG_TRAP_MASK_FP_DIVIDE_BY_ZERO 0x4u
#define KFDSIG_DBG_TRAP_MASK_FP_OVERFLOW 0x8u
#define KFDSIG_DBG_TRAP_MASK_FP_UNDERFLOW 0x10u
#define KFDSIG_DBG_TRAP_MASK_FP_INEXACT 0x20u
#define KFDSIG_DBG_TRAP_MASK_INT_DIVIDE_BY_ZERO 0x40u
#define KFDSIG_DBG_TRAP_MASK_DBG_ADDRESS_WATCH 0x80u
#define KFDSIG_DBG_TRAP_MASK_DBG_MEMORY_VIOLATION 0x100u
#define KFDSIG_DBG_TRAP_MASK_TRAP_ON_WAVE_START 0x40000000u
#define KFDSIG_DBG_TRAP_MASK_TRAP_ON_WAVE_END 0x80000000u

/**
 * kfdsig_dbg_set_wave_launch_override() - DBG_TRAP
 * SET_WAVE_LAUNCH_OVERRIDE: which wave traps (KFDSIG_DBG_TRAP_MASK_*)
 * are enabled: the traps in @support_mask take their bit of @enable_mask,
 * the others keep theirs; @mode (KFDSIG_DBG_OVERRIDE_*) is whether they
 * are OR'd with or replace the wave's own exception enables. @enable_mask:
 * in, the traps to enable; out, the previous mask (unchanged on an error).
 * @support_mask: in, the traps asked about (-EACCES if a GPU lacks one);
 * out, those every GPU supports, also when a GPU refused the mode (-EINVAL,
 * -EPERM) or the request (-EACCES): as the kernel's ioctl, which copies
 * its arguments back on failure (the GPUs asked before the one that refused
 * the mode have narrowed it; unchanged on an error before the GPUs are
 * asked). Needs KFDSIG_CAP_TRAP_DEBUG_WAVE_LAUNCH_TRAP_OVERRIDE.
 * Return: 0 or -errno (-EPERM before the runtime is enabled).
 */
KFDSIG_API int kfdsig_dbg_set_wave_launch_override(struct kfdsig_kfd *kfd, pid_t pid, uint32_t mode,
						   uint32_t *enable_mask, uint32_t *support_mask);

/** kfdsig_dbg_set_wave_launch_mode() - DBG_TRAP SET_WAVE_LAUNCH_MODE
 * (KFDSIG_DBG_LAUNCH_*; HALT: new waves do not start). Needs
 * KFDSIG_CAP_TRAP_DEBUG_WAVE_LAUNCH_MODE. Return: 0 or -errno. */
KFDSIG_API int kfdsig_dbg_set_wave_launch_mode(struct kfdsig_kfd *kfd, pid_t pid, uint32_t mode);

/* Status bits OR'd into a queue id of suspend / resume (kfd_ioctl.h
 * KFD_DBG_QUEUE_ERROR_MASK / KFD_DBG_QUEUE_INVALID_MASK). */
#define KFDSIG_DBG_QUEUE_ERROR 0x40000000u
#define KFDSIG_DBG_QUEUE_INVALID 0x80000000u
#define KFDSIG_DBG_QUEUE_ID(x) ((x)&0x3fffffffu)

/**
 * kfdsig_dbg_suspend_queues() - DBG_TRAP SUSPEND_QUEUES: stop the queues
 * @ids[0..n) of the target. @clear_mask: exception bits cleared from each
 * suspended queue; @grace_period: the CP's grace period (0: default).
 * Each id that could not be suspended gets KFDSIG_DBG_QUEUE_INVALID (no
 * such queue, or new) or KFDSIG_DBG_QUEUE_ERROR (already suspended, or a
 * hardware failure) OR'd in, in place.
 * Return: the number of queues suspended, or -errno.
 */
KFDSIG_API int kfdsig_dbg_suspend_queues(struct kfdsig_kfd *kfd, pid_t pid, uint64_t clear_mask,
					 uint32_t grace_period, uint32_t *ids, uint32_t n);

/** kfdsig_dbg_resume_queues() - DBG_TRAP RESUME_QUEUES, the reverse
 * (KFDSIG_DBG_QUEUE_INVALID / _ERROR for a queue not suspended).
 * Return: the number of queues resumed, or -errno. */
KFDSIG_API int kfdsig_dbg_resume_queues(struct kfdsig_kfd *kfd, pid_t pid, uint32_t *ids,
					uint32_t n);

/**
 * kfdsig_dbg_set_address_watch() - DBG_TRAP SET_NODE_ADDRESS_WATCH on GPU
 * @gpu_id: watch @addr under @mask with @mode (KFDSIG_DBG_WATCH_*).
 * Return: 0 and *id set to the watch id, or -errno (-ENODEV: not a GPU
 * of the target; -ENOMEM: no free watch point).
 */
KFDSIG_API int kfdsig_dbg_set_address_watch(struct kfdsig_kfd *kfd, pid_t pid, uint32_t gpu_id,
					    uint64_t addr, uint32_t mask, uint32_t mode,
					    uint32_t *id);

/** kfdsig_dbg_clear_address_watch() - DBG_TRAP CLEAR_NODE_ADDRESS_WATCH.
 * Return: 0 or -errno (-EINVAL: @id not set by this debugger). */
KFDSIG_API int kfdsig_dbg_clear_address_watch(struct kfdsig_kfd *kfd, pid_t pid, uint32_t gpu_id,
					      uint32_t id);

/** kfdsig_dbg_set_flags() - DBG_TRAP SET_FLAGS (KFDSIG_DBG_FLAG_*).
 * @flags: in, the new flags; out, the previous ones.
 * Return: 0 or -errno (-EACCES: a flag a GPU does not support). */
KFDSIG_API int kfdsig_dbg_set_flags(struct kfdsig_kfd *kfd, pid_t pid, uint32_t *flags);

/* What QUERY_DEBUG_EVENT reports: the first queue, else device, else
 * process with a pending enabled exception (kfd_debug.c
 * kfd_dbg_ev_query_debug_event()). */
struct kfdsig_dbg_event {
	uint64_t exceptions; /* the source's whole status before clearing */
	uint32_t gpu_id;     /* 0 for a process event */
	uint32_t queue_id;   /* 0 unless a queue event */
	uint32_t source;     /* KFDSIG_DBG_SOURCE_* */
	uint32_t pad_0;
};
#define KFDSIG_DBG_SOURCE_QUEUE 0u
#define KFDSIG_DBG_SOURCE_DEVICE 1u
#define KFDSIG_DBG_SOURCE_PROCESS 2u

/**
 * kfdsig_dbg_query_event() - DBG_TRAP QUERY_DEBUG_EVENT: the next source
 * with a pending exception; the bits of @clear_mask are cleared from it.
 * Return: 0 and *out filled, -EAGAIN when nothing is pending, or -errno.
 */
KFDSIG_API int kfdsig_dbg_query_event(struct kfdsig_kfd *kfd, pid_t pid, uint64_t clear_mask,
				      struct kfdsig_dbg_event *out);

/**
 * kfdsig_dbg_query_exception_info() - DBG_TRAP QUERY_EXCEPTION_INFO: the
 * data of exception @ec at @source_id (a queue id for queue exceptions, a
 * gpu_id for device ones, ignored for process ones): for
 * KFDSIG_EC_DEVICE_MEMORY_VIOLATION the struct kfd_hsa_memory_exception_data,
 * for KFDSIG_EC_PROCESS_RUNTIME the struct kfdsig_dbg_runtime_info.
 * @clear: clear the exception afterwards. *@size: in, the room at @info;
 * out, the size of the whole data.
 * Return: 0 or -errno (-ENODATA: the exception is not pending).
 */
KFDSIG_API int kfdsig_dbg_query_exception_info(struct kfdsig_kfd *kfd, pid_t pid,
					       uint32_t source_id, uint32_t ec, bool clear,
					       void *info, uint32_t *size);

/* kfd_ioctl.h struct kfd_queue_snapshot_entry */
struct kfdsig_dbg_queue_entry {
	uint64_t exception_status;
	uint64_t ring_base_address;
	uint64_t write_pointer_address;
	uint64_t read_pointer_address;
	uint64_t ctx_save_restore_address;
	uint32_t queue_id;
	uint32_t gpu_id;
	uint32_t ring_size;
	uint32_t queue_type; /* KFD_IOC_QUEUE_TYPE_* */
	uint32_t ctx_save_restore_area_size;
	uint32_t reserved;
};

/* kfd_ioctl.h struct kfd_dbg_device_info_entry */
struct kfdsig_dbg_device_entry {
	uint64_t exception_status;
	uint64_t lds_base, lds_limit;
	uint64_t scratch_base, scratch_limit;
	uint64_t gpuvm_base, gpuvm_limit;
	uint32_t gpu_id;
	uint32_t location_id;
	uint32_t vendor_id;
	uint32_t device_id;
	uint32_t revision_id;
	uint32_t subsystem_vendor_id;
	uint32_t subsystem_device_id;
	uint32_t fw_version;
	uint32_t gfx_target_version;
	uint32_t simd_count;
	uint32_t max_waves_per_simd;
	uint32_t array_count;
	uint32_t simd_arrays_per_engine;
	uint32_t num_xcc;
	uint32_t capability;
	uint32_t debug_prop;
};

/**
 * kfdsig_dbg_queue_snapshot() - DBG_TRAP GET_QUEUE_SNAPSHOT: up to *@n
 * entries into @buf (NULL with *@n 0 asks for the count); the bits of
 * @clear_mask are cleared from each queue reported.
 * Return: 0 and *@n set to the number of queues of the target (which may
 * be more than were written), or -errno.
 */
KFDSIG_API int kfdsig_dbg_queue_snapshot(struct kfdsig_kfd *kfd, pid_t pid, uint64_t clear_mask,
					 struct kfdsig_dbg_queue_entry *buf, uint32_t *n);

/** kfdsig_dbg_device_snapshot() - DBG_TRAP GET_DEVICE_SNAPSHOT, the same
 * for the target's GPUs. Return: 0 and *@n the number of GPUs, or -errno. */
KFDSIG_API int kfdsig_dbg_device_snapshot(struct kfdsig_kfd *kfd, pid_t pid, uint64_t clear_mask,
					  struct kfdsig_dbg_device_entry *buf, uint32_t *n);

#ifdef __cplusplus
}
#endif

#endif /* KFDSIG_DEBUG_H */
