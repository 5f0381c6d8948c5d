/* SPDX-License-Identifier: MIT */
/*
 * kfdsig KFD backend: talk to amdkfd (/dev/kfd and the DRM render nodes)
 * to discover GPUs, allocate the signal page, create events and wait on
 * them, and read SMI events.
 *
 * Everything this layer does with the kernel goes through one ops table,
 * struct kfdsig_kfd_ops: the default ops are libc on the real paths, and
 * the emulated KFD (kfdsig/emu.h) provides another implementation. Code
 * above the seam never knows which one runs.
 *
 * Errors follow kfdsig/common.h: negative errno, kfdsig_last_error() says
 * why. Nothing here prints or aborts.
 */
#ifndef KFDSIG_KFD_H
#define KFDSIG_KFD_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <kfdsig/common.h>
#include <kfdsig/target.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------- */
/* The seam                                                               */
/* ---------------------------------------------------------------------- */

/* Details of a GPU that only the DRM driver knows (libdrm_amdgpu on real
 * hardware, the device description under the emulator). */
struct kfdsig_drm_info {
	char marketing_name[128];
	uint32_t family_id; /* AMDGPU_FAMILY_* */
	uint32_t chip_rev, chip_external_rev;
	uint32_t device_id; /* PCI device id */
	/* GC (compute) and SDMA IP versions as AMDGPU_INFO_HW_IP_INFO gives
	 * them: the driver's IP block version (gfx_v9_0: 9.0 on every gfx9
	 * chip), revision 0; the emulator gives the table's full version. */
	uint32_t gc_ip[3];
	uint32_t sdma_ip[3];
	uint32_t num_sdma_rings;  /* SDMA rings the kernel driver exposes */
	uint32_t mec_fw_version;  /* AMDGPU_INFO_FW_GFX_MEC */
	uint32_t sdma_fw_version; /* AMDGPU_INFO_FW_SDMA, instance 0 */
	uint32_t me_fw_version, pfp_fw_version, rlc_fw_version;
};

/*
 * struct kfdsig_kfd_ops - how kfdsig reaches the kernel.
 *
 * Each function takes @ctx first and follows the kernel's conventions, but
 * returns a negative errno instead of setting errno: open() returns a file
 * descriptor or -errno, ioctl() 0 (or a positive value) or -errno, read()
 * and write() a byte count or -errno, poll() the number of ready fds or
 * -errno, mmap() stores the mapping in *out and returns 0 or -errno.
 * mmap() with fd -1 is an anonymous mapping (used to reserve address
 * space). drm_info() fills @out for an open render node. privileged()
 * says whether the caller may ask SMI for events of all processes.
 * sysfs_root is the directory that holds class/kfd/kfd/topology ("/sys").
 */
struct kfdsig_kfd_ops {
	size_t sz; /* sizeof(struct kfdsig_kfd_ops) (KFDSIG_OPTS, common.h) */
	void *ctx;
	const char *name; /* "linux", "emulated" */
	const char *sysfs_root;
	int (*open)(void *ctx, const char *path, int flags);
	int (*close)(void *ctx, int fd);
	int (*ioctl)(void *ctx, int fd, unsigned long request, void *arg);
	int (*mmap)(void *ctx, void **out, void *addr, size_t len, int prot, int flags, int fd,
		    uint64_t offset);
	int (*munmap)(void *ctx, void *addr, size_t len);
	ssize_t (*read)(void *ctx, int fd, void *buf, size_t len);
	ssize_t (*write)(void *ctx, int fd, const void *buf, size_t len);
	int (*poll)(void *ctx, struct pollfd *fds, nfds_t nfds, int timeout_ms);
	int (*drm_info)(void *ctx, int render_fd, struct kfdsig_drm_info *out);
	bool (*privileged)(void *ctx);
	/* The kernel release these ops reach, "7.3.0"; NULL: uname(2)'s. */
	const char *kernel_release;
};

/**
 * kfdsig_kfd_linux_ops() - the default ops: libc calls on /dev/kfd,
 * /dev/dri/renderD* and /sys, libdrm_amdgpu for drm_info().
 *
 * Return: a static table, never NULL.
 */
KFDSIG_API const struct kfdsig_kfd_ops *kfdsig_kfd_linux_ops(void);

/* ---------------------------------------------------------------------- */
/* Opening KFD, devices, version                                          */
/* ---------------------------------------------------------------------- */

struct kfdsig_kfd; /* one open of /dev/kfd: one KFD process */

/* One GPU node of the KFD topology. */
struct kfdsig_kfd_device {
	uint32_t node_id; /* topology node index */
	uint32_t gpu_id;  /* KFD gpu_id (non-zero) */
	uint32_t gfx_target_version;
	const struct kfdsig_target *target; /* NULL: not in the generation table */
	char name[64];			    /* topology "name" file */
	uint32_t vendor_id, device_id, location_id, domain;
	uint32_t drm_render_minor;
	uint32_t simd_count, array_count, simd_arrays_per_engine, cu_per_simd_array;
	uint32_t simd_per_cu, max_waves_per_simd, lds_size_in_kb, wave_front_size;
	uint32_t num_sdma_engines, num_sdma_xgmi_engines, num_sdma_queues_per_engine;
	uint32_t num_cp_queues, num_xcc, max_engine_clk_fcompute;
	uint32_t fw_version;	  /* MEC firmware */
	uint32_t sdma_fw_version; /* SDMA firmware */
	uint32_t capability;
	uint64_t local_mem_size, hive_id, unique_id;
	bool have_drm_info;	    /* drm below is valid */
	struct kfdsig_drm_info drm; /* libdrm (or emulated) details */
	const char *note;	    /* why the device is unsupported, or NULL */
	/* Context save sizes; from the topology where the kernel exports
	 * them (late 2025), else computed as kfd_queue.c does (kfd_chardev.c kfd_ioctl_create_queue(), kfd_queue.c). */
	uint32_t ctl_stack_size, cwsr_size, debug_memory_size;
};

/**
 * kfdsig_kfd_open() - open KFD and read the topology and version.
 * @ops: the seam; NULL for kfdsig_kfd_linux_ops()
 * @out: receives the handle
 *
 * Opens /dev/kfd, lists the GPU nodes of the topology (CPU nodes are
 * skipped; a node whose gfx_target_version kfdsig does not know is listed
 * with a note), reads AMDKFD_IOC_GET_VERSION once and opens each GPU's
 * render node to read its DRM details. Render nodes that cannot be opened
 * leave have_drm_info false; they are not an error.
 *
 * Return: 0, or -ENOENT when there is no KFD (no /dev/kfd or no topology),
 * -EACCES/-EPERM when it cannot be opened, another -errno otherwise.
 */
KFDSIG_API int kfdsig_kfd_open(const struct kfdsig_kfd_ops *ops, struct kfdsig_kfd **out);

/**
 * kfdsig_kfd_close() - unmap and free everything, close every fd.
 * Events and memory of the process die with it, as with the kernel.
 */
KFDSIG_API void kfdsig_kfd_close(struct kfdsig_kfd *kfd);

/** kfdsig_kfd_fd() - the /dev/kfd file descriptor (for the emulator's
 * per-process entry points). Return: fd, or -EINVAL for NULL. */
KFDSIG_API int kfdsig_kfd_fd(const struct kfdsig_kfd *kfd);

/** kfdsig_kfd_ops_of() - the ops the handle runs on. Return: never NULL. */
KFDSIG_API const struct kfdsig_kfd_ops *kfdsig_kfd_ops_of(const struct kfdsig_kfd *kfd);

/** kfdsig_kfd_device_count() - number of GPU nodes. */
KFDSIG_API size_t kfdsig_kfd_device_count(const struct kfdsig_kfd *kfd);

/**
 * kfdsig_kfd_device() - the i-th GPU node, in node order.
 * Return: the record (valid until kfdsig_kfd_close()), or NULL with errno
 * ERANGE.
 */
KFDSIG_API const struct kfdsig_kfd_device *kfdsig_kfd_device(const struct kfdsig_kfd *kfd,
							     size_t i);

/**
 * kfdsig_kfd_device_by_gpu_id() - look a GPU up by KFD gpu_id.
 * Return: the record or NULL with errno ENOENT.
 */
KFDSIG_API const struct kfdsig_kfd_device *kfdsig_kfd_device_by_gpu_id(const struct kfdsig_kfd *kfd,
								       uint32_t gpu_id);

/**
 * kfdsig_kfd_version() - the KFD ioctl interface version (GET_VERSION,
 * read once at open).
 * Return: 0 and *major / *minor set, or -EINVAL for NULL arguments.
 */
KFDSIG_API int kfdsig_kfd_version(const struct kfdsig_kfd *kfd, uint32_t *major, uint32_t *minor);

/* Features gated on the KFD ioctl version (kfd_ioctl.h version history). */
enum kfdsig_kfd_feature {
	KFDSIG_KFD_FEAT_SMI_EVENTS = 0,	  /* 1.3 */
	KFDSIG_KFD_FEAT_SVM,		  /* 1.5 */
	KFDSIG_KFD_FEAT_CRIU,		  /* 1.7 */
	KFDSIG_KFD_FEAT_AVAILABLE_MEMORY, /* 1.9 */
	KFDSIG_KFD_FEAT_SMI_PROFILER,	  /* 1.10: SVM events in SMI */
	KFDSIG_KFD_FEAT_CWSR_SVM,	  /* 1.11 */
	KFDSIG_KFD_FEAT_DMABUF_EXPORT,	  /* 1.12 */
	KFDSIG_KFD_FEAT_DEBUGGER,	  /* 1.13: debugger / runtime enable */
	KFDSIG_KFD_FEAT_EVENT_AGE,	  /* 1.14: kfd_event_data.last_event_age */
	KFDSIG_KFD_FEAT_GEM_VA,		  /* 1.15 */
	KFDSIG_KFD_FEAT_CONTIGUOUS_VRAM,  /* 1.16 */
	KFDSIG_KFD_FEAT_SDMA_BY_ENG_ID,	  /* 1.17: SDMA queue by engine id */
	KFDSIG_KFD_FEAT_CREATE_PROCESS,	  /* 1.19: secondary processes per fd */
	KFDSIG_KFD_FEAT_METADATA_RING,	  /* 1.22: CREATE_QUEUE metadata_ring_size */
	KFDSIG_KFD_FEAT_COUNT
};

/** kfdsig_kfd_has() - does the open KFD have @feature? (from the cached
 * version; false for an out-of-range feature). */
KFDSIG_API bool kfdsig_kfd_has(const struct kfdsig_kfd *kfd, enum kfdsig_kfd_feature feature);

/**
 * kfdsig_kfd_feature_info() - name and minimum version of a feature.
 * Return: the name ("event-age"), *minor set to the minimum 1.x minor, or
 * NULL (errno ERANGE) out of range.
 */
KFDSIG_API const char *kfdsig_kfd_feature_info(enum kfdsig_kfd_feature feature, uint32_t *minor);

/**
 * kfdsig_kfd_ioctl() - one raw ioctl on /dev/kfd through the seam.
 * Retries EINTR/EAGAIN; the kernel copies _IOC_OUT arguments back even on
 * failure, so @arg is meaningful after an error too.
 * Return: the ioctl's non-negative result, or -errno.
 */
KFDSIG_API int kfdsig_kfd_ioctl(struct kfdsig_kfd *kfd, unsigned long request, void *arg);

/* ---------------------------------------------------------------------- */
/* GPU VM and memory                                                      */
/* ---------------------------------------------------------------------- */

/**
 * kfdsig_kfd_acquire_vm() - open the GPU's render node (once) and hand its
 * VM to KFD with AMDKFD_IOC_ACQUIRE_VM. Calling it again is a no-op.
 * Return: 0 or -errno (-ENOENT unknown gpu_id; the ioctl's error).
 */
KFDSIG_API int kfdsig_kfd_acquire_vm(struct kfdsig_kfd *kfd, uint32_t gpu_id);

/**
 * kfdsig_kfd_render_fd() - the render node fd whose VM
 * kfdsig_kfd_acquire_vm() handed to KFD on @gpu_id: every buffer of
 * kfdsig_kfd_alloc() is mapped in that VM, so user queues created on this
 * fd (kfdsig_userq_create()) can use them. The handle keeps the fd.
 * Return: the fd, -EINVAL, -ENOENT (unknown gpu_id), -ENODEV (no VM
 * acquired yet).
 */
KFDSIG_API int kfdsig_kfd_render_fd(struct kfdsig_kfd *kfd, uint32_t gpu_id);

/* A buffer from ALLOC_MEMORY_OF_GPU, CPU-mapped at its GPU VA. The library
 * owns it (read-only for the caller) until kfdsig_kfd_free(). */
struct kfdsig_kfd_bo {
	uint64_t handle;      /* KFD handle: gpu_id << 32 | idr handle */
	uint64_t va;	      /* GPU virtual address == CPU address */
	uint64_t size;	      /* bytes (page multiple) */
	uint64_t mmap_offset; /* render-node mmap offset */
	uint32_t gpu_id;
	uint32_t flags; /* KFD_IOC_ALLOC_MEM_FLAGS_* */
	void *cpu;	/* CPU mapping (== (void *)va) or NULL if not mapped */
};

/* GTT | WRITABLE | EXECUTABLE | NO_SUBSTITUTE | COHERENT | UNCACHED: what
 * libhsakmt and tinygrad use for the signal page (kfd_chardev.c kfd_ioctl_alloc_memory_of_gpu()). */
#define KFDSIG_KFD_MEM_GTT_UNCACHED \
	((1u << 1) | (1u << 31) | (1u << 30) | (1u << 28) | (1u << 26) | (1u << 25))

/**
 * kfdsig_kfd_alloc() - allocate memory of a GPU and map it for the CPU.
 * @gpu_id: the owning GPU (its VM is acquired first if needed)
 * @size:   bytes, rounded up to the page size
 * @flags:  KFD_IOC_ALLOC_MEM_FLAGS_* (e.g. KFDSIG_KFD_MEM_GTT_UNCACHED);
 *          GTT or VRAM: userptr, doorbell and MMIO-remap allocations need
 *          arguments this helper does not take (use kfdsig_kfd_ioctl())
 *          (with KFD_IOC_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM the memory is half of
 *          @size, which the GPU sees twice: the CPU maps the first half)
 * @out:    receives the buffer
 *
 * Reserves an address range, allocates at that GPU VA, and for GTT/VRAM
 * memory mmaps the render node at the returned offset over the range so
 * the CPU address equals the GPU address. Not yet mapped to any GPU: see
 * kfdsig_kfd_map().
 * Return: 0 or -errno.
 */
KFDSIG_API int kfdsig_kfd_alloc(struct kfdsig_kfd *kfd, uint32_t gpu_id, uint64_t size,
				uint32_t flags, const struct kfdsig_kfd_bo **out);

/**
 * kfdsig_kfd_map() - MAP_MEMORY_TO_GPU to @n GPUs (NULL/0: every GPU whose
 * VM is acquired). Retries from n_success after a partial failure.
 * Return: 0 or -errno.
 */
KFDSIG_API int kfdsig_kfd_map(struct kfdsig_kfd *kfd, const struct kfdsig_kfd_bo *bo,
			      const uint32_t *gpu_ids, uint32_t n);

/**
 * kfdsig_kfd_free() - unmap from every GPU, unmap the CPU view and free.
 * Return: 0 or -errno (e.g. -EPERM for the signal page, which lives as long
 * as the process).
 */
KFDSIG_API int kfdsig_kfd_free(struct kfdsig_kfd *kfd, const struct kfdsig_kfd_bo *bo);

/**
 * kfdsig_kfd_create_process() - AMDKFD_IOC_CREATE_PROCESS (KFD 1.19,
 * kfd_chardev.c kfd_ioctl_create_process()): replace the handle's KFD
 * process by a new secondary one with its own PASID, events, memory and
 * queues; the handle then acts on it until kfdsig_kfd_close(), which ends
 * it. The debug trap, SVM and USERPTR ioctls act on the primary only
 * (commits e3491fa3f3c9, 26fc46d7942d, 1707d5760c71). Call it on a fresh
 * handle: before any VM, buffer, event or queue.
 * Return: 0, -ENOTSUP before KFD 1.19, -EBUSY if the handle already holds
 * something, or the kernel's -errno (-EINVAL: already a secondary).
 */
KFDSIG_API int kfdsig_kfd_create_process(struct kfdsig_kfd *kfd);

/* ---------------------------------------------------------------------- */
/* Events                                                                 */
/* ---------------------------------------------------------------------- */

/* Event types (KFD_IOC_EVENT_*) */
#define KFDSIG_EVENT_SIGNAL 0
#define KFDSIG_EVENT_HW_EXCEPTION 3
#define KFDSIG_EVENT_DEBUG 5
#define KFDSIG_EVENT_MEMORY 8

/* How the signal page is provided (kfd_events.c kfd_event_page_set() / kfd_event_create()). */
enum kfdsig_signal_page_mode {
	/* Default: a 32 KiB GTT uncached buffer of the first GPU, mapped to
	 * every acquired GPU, passed in the first CREATE_EVENT (dGPU path). */
	KFDSIG_SIGNAL_PAGE_USER = 0,
	/* The kernel allocates the page; kfdsig mmaps 32 KiB of /dev/kfd at
	 * the events offset after the first signal event (APU path). */
	KFDSIG_SIGNAL_PAGE_KERNEL,
};

/**
 * kfdsig_kfd_set_signal_page_mode() - choose before the first event.
 * Return: 0, -EBUSY if the page already exists, -EINVAL for a bad mode,
 * -ENOTSUP for KFDSIG_SIGNAL_PAGE_KERNEL on Linux 7.3 or later, whose
 * kernel allocates no signal page (kfd_events.c
 * allocate_event_notification_slot(), commit b4f5837f746a) and refuses the
 * events mmap (kfd_chardev.c kfd_mmap(), commit 4d7c624a0af1).
 */
KFDSIG_API int kfdsig_kfd_set_signal_page_mode(struct kfdsig_kfd *kfd,
					       enum kfdsig_signal_page_mode mode);

struct kfdsig_event {
	uint32_t id;	     /* event_id */
	uint32_t type;	     /* KFDSIG_EVENT_* */
	uint32_t slot_index; /* == id for SIGNAL/DEBUG, 0 otherwise */
	bool auto_reset;
	uint64_t *slot;	  /* CPU address of the slot, NULL without one */
	uint64_t slot_va; /* GPU address of the slot, 0 without one */
};

/**
 * kfdsig_kfd_event_create() - create an event.
 * @type:       KFDSIG_EVENT_SIGNAL, _MEMORY, _HW_EXCEPTION (others pass
 *              through to the kernel)
 * @auto_reset: signal consumed by the waiter it wakes
 * @ev:         receives the event
 *
 * The first SIGNAL event also installs the signal page (see
 * kfdsig_kfd_set_signal_page_mode()); the slot of a signal event is
 * page + 8 * id, shared by every GPU of the process.
 * Return: 0 or -errno (-ENOSPC when the 4095 signal slots are used).
 */
KFDSIG_API int kfdsig_kfd_event_create(struct kfdsig_kfd *kfd, uint32_t type, bool auto_reset,
				       struct kfdsig_event *ev);

/** kfdsig_kfd_event_destroy() - Return: 0 or -errno (-EINVAL unknown id). */
KFDSIG_API int kfdsig_kfd_event_destroy(struct kfdsig_kfd *kfd, uint32_t event_id);

/** kfdsig_kfd_event_set() - CPU-signal a SIGNAL event.
 * Return: 0 or -errno (-EINVAL unknown id or not a SIGNAL event). */
KFDSIG_API int kfdsig_kfd_event_set(struct kfdsig_kfd *kfd, uint32_t event_id);

/** kfdsig_kfd_event_reset() - clear a SIGNAL event's signalled state.
 * Return: 0 or -errno. */
KFDSIG_API int kfdsig_kfd_event_reset(struct kfdsig_kfd *kfd, uint32_t event_id);

/**
 * kfdsig_kfd_signal_page() - the CPU and GPU address of the signal page.
 * Return: 0, or -ENOENT before the first signal event.
 */
KFDSIG_API int kfdsig_kfd_signal_page(struct kfdsig_kfd *kfd, uint64_t **cpu, uint64_t *va);

/* Decoded kfd_hsa_memory_exception_data. */
struct kfdsig_memory_exception {
	bool not_present, read_only, no_execute, imprecise;
	uint64_t va;
	uint32_t gpu_id;
	uint32_t error_type; /* KFD_MEM_ERR_*: 0 none, 1 SRAM ECC, 2 poison, 3 hang */
};

/* Decoded kfd_hsa_hw_exception_data. */
struct kfdsig_hw_exception {
	uint32_t reset_type;  /* 0 whole GPU, 1 per engine */
	uint32_t reset_cause; /* 0 GPU hang, 1 ECC */
	bool memory_lost;
	uint32_t gpu_id;
};

/* One entry of a wait. */
struct kfdsig_wait_entry {
	uint32_t event_id; /* in */
	/*
	 * in/out: the event age last seen (start with 1, feed back what is
	 * returned). 0 = legacy wait without age. Ignored (and returned 0)
	 * when the KFD predates 1.14 or the event is not a SIGNAL event.
	 */
	uint64_t age;
	/*
	 * out: the event fired: its age changed, exception data arrived, or
	 * (a SIGNAL event waited on without an age) the wait completed for
	 * all events or for this one alone. A wait for any of several
	 * SIGNAL events without ages does not tell which fired (the kernel
	 * copies nothing back for them): each is then reported fired with
	 * @fired_unsure set, so that no wake-up is missed; pass ages
	 * (KFD 1.14+) to know.
	 */
	bool fired;
	bool fired_unsure;		       /* out (0.20): @fired may be a false alarm */
	struct kfdsig_memory_exception memory; /* out, MEMORY events */
	struct kfdsig_hw_exception hw;	       /* out, HW_EXCEPTION events */
};

enum kfdsig_wait_result {
	KFDSIG_WAIT_COMPLETE = 0,
	KFDSIG_WAIT_TIMEOUT = 1,
	KFDSIG_WAIT_FAIL = 2,
};

#define KFDSIG_WAIT_INFINITE 0xffffffffu

/**
 * kfdsig_kfd_wait() - AMDKFD_IOC_WAIT_EVENTS.
 * @e, @n:     the events
 * @all:       wait for all of them (else any)
 * @timeout_ms: 0 checks once, KFDSIG_WAIT_INFINITE never times out
 * @result:    receives COMPLETE, TIMEOUT or FAIL
 *
 * Return: 0 with *result COMPLETE or TIMEOUT; -EIO with FAIL when an event
 * waited on was destroyed; -EINVAL with FAIL for an unknown id; other
 * -errno with FAIL.
 */
KFDSIG_API int kfdsig_kfd_wait(struct kfdsig_kfd *kfd, struct kfdsig_wait_entry *e, uint32_t n,
			       bool all, uint32_t timeout_ms, enum kfdsig_wait_result *result);

/*
 * A GPU's apertures in this process (AMDKFD_IOC_GET_PROCESS_APERTURES_NEW):
 * flat-address ranges [base, limit]. A kernel's hidden_private_base and
 * hidden_shared_base implicit arguments are the high 32 bits of
 * @scratch_base and @lds_base (kfdsig_pm4_implicit_args()).
 */
struct kfdsig_apertures {
	uint64_t lds_base, lds_limit;	      /* shared (LDS) aperture */
	uint64_t scratch_base, scratch_limit; /* private (scratch) aperture */
	uint64_t gpuvm_base, gpuvm_limit;     /* the GPU VM range */
};

/**
 * kfdsig_kfd_apertures() - the apertures of @gpu_id in this process.
 * @out: receives them
 *
 * Return: 0, -EINVAL (NULL argument), -ENOENT (a gpu_id this handle does
 * not know, or one the kernel lists no apertures for), -ENOMEM, or the
 * ioctl's -errno.
 */
KFDSIG_API int kfdsig_kfd_apertures(struct kfdsig_kfd *kfd, uint32_t gpu_id,
				    struct kfdsig_apertures *out);

/* ---------------------------------------------------------------------- */
/* User queues                                                            */
/* ---------------------------------------------------------------------- */

enum kfdsig_queue_type {
	KFDSIG_QUEUE_PM4 = 0,		 /* KFD_IOC_QUEUE_TYPE_COMPUTE (PM4) */
	KFDSIG_QUEUE_SDMA = 1,		 /* KFD_IOC_QUEUE_TYPE_SDMA */
	KFDSIG_QUEUE_AQL = 2,		 /* KFD_IOC_QUEUE_TYPE_COMPUTE_AQL */
	KFDSIG_QUEUE_SDMA_BY_ENG_ID = 4, /* KFD 1.17+: a chosen SDMA engine */
};

/* Declare with KFDSIG_OPTS(kfdsig_queue_opts, name, ...) (common.h). */
struct kfdsig_queue_opts {
	size_t sz;		 /* sizeof(struct kfdsig_queue_opts) */
	uint32_t ring_size;	 /* bytes, power of two >= the page size; 0: 64 KiB */
	uint32_t percentage;	 /* 0: 100 */
	uint32_t priority;	 /* 0..15; 0: 7 */
	uint32_t sdma_engine_id; /* KFDSIG_QUEUE_SDMA_BY_ENG_ID only */
	/* PM4 queues of a multi-XCC node: the XCC the kernel writes into
	 * every MQD slice's pm4_target_xcc_in_xcp (CREATE_QUEUE
	 * queue_percentage bits 15:8; KFD 1.14+, below the node's num_xcc).
	 * 0: XCC 0, the one kfdsig's multi-XCC fence predicates to; another
	 * XCC needs kfdsig_pm4_emit_fence_xcc() with its bit
	 * (docs/multi-xcc.md: what the firmware does with it is UNVERIFIED). */
	uint32_t pm4_target_xcc;
	uint32_t pad_0; /* must be 0 */
	/* Bytes of metadata ring after the ring in the same buffer (KFD
	 * 1.22, CREATE_QUEUE metadata_ring_size; kfd_queue.c
	 * kfd_queue_acquire_buffers() wants ring_size + metadata_ring_size).
	 * A multiple of the page size; 0: none. */
	uint32_t metadata_ring_size;
	uint32_t pad_1; /* must be 0 */
	/* AQL: scratch backing for the private memory of the queue's
	 * kernels, offered as ROCr offers it (the read pointer inside an
	 * amd_queue_t, hsa/amd_hsa_queue.h, whose scratch fields hold it:
	 * ROCr amd_aql_queue.cpp InitScratchSRD()): @scratch_size bytes
	 * mapped at @scratch_va (256-byte aligned), @scratch_lane_bytes of
	 * private memory per work-item of a 64-lane wave (a 32-lane wave's
	 * work-items get twice that); from gfx11 on the amd_queue_t's
	 * WAVES is per shader engine (the node's, by its topology), before
	 * it is the waves of one XCC's share of the scratch (size / num_xcc:
	 * each XCC's CP takes WAVES slots of its own), and the byte size it
	 * reports is one XCC's share, as ROCr writes them. 0: none; a
	 * kernel's private memory then
	 * has no backing and its accesses fault. gfx8: the address as
	 * kfdsig's emulated KFD takes it (ROCr gives gfx8 an offset from the
	 * process's scratch backing, SET_SCRATCH_BACKING_VA; not verified). */
	uint64_t scratch_va, scratch_size;
	uint32_t scratch_lane_bytes;
	uint32_t pad_2; /* must be 0 */
};

struct kfdsig_kfd_queue;

/**
 * kfdsig_kfd_queue_create() - AMDKFD_IOC_CREATE_QUEUE with every buffer
 * the kernel wants (kfd_chardev.c kfd_ioctl_create_queue(), kfd_queue.c): the ring (its own mapping of exactly the
 * ring size), the read and write pointers each in a page-sized buffer, and
 * for PM4 and AQL queues the EOP buffer and the context save area sized
 * from the topology; then maps the process doorbell slice of the GPU (once).
 * An AQL queue's slots all start INVALID.
 * @opts: NULL for the defaults
 * Return: 0, -EINVAL (also for opts->sz 0, or set bytes beyond the struct
 * this library knows; pm4_target_xcc on a non-PM4 queue or at or above the
 * node's num_xcc; scratch on a queue other than AQL, not 256-byte aligned,
 * or smaller than one wave's share, or than one wave per shader engine
 * of the node, before gfx11 of one XCC's share), -ENOTSUP (SDMA by engine id before KFD 1.17;
 * AQL before gfx9; pm4_target_xcc before KFD 1.14; metadata_ring_size
 * before KFD 1.22), -ENOENT
 * (unknown gpu_id) or the kernel's -errno.
 */
KFDSIG_API int kfdsig_kfd_queue_create(struct kfdsig_kfd *kfd, uint32_t gpu_id,
				       enum kfdsig_queue_type type,
				       const struct kfdsig_queue_opts *opts,
				       struct kfdsig_kfd_queue **out);

/** kfdsig_kfd_queue_destroy() - DESTROY_QUEUE and free its buffers.
 * Queues still alive at kfdsig_kfd_close() die with the process.
 * Return: 0 or -errno. */
KFDSIG_API int kfdsig_kfd_queue_destroy(struct kfdsig_kfd_queue *q);

/** kfdsig_kfd_queue_id() - the KFD queue id, or -EINVAL for NULL. */
KFDSIG_API int kfdsig_kfd_queue_id(const struct kfdsig_kfd_queue *q);

/**
 * kfdsig_kfd_queue_submit() - place @ndw dwords in the ring and ring the
 * doorbell. On a KFDSIG_QUEUE_AQL queue @dw holds whole 64-bit AQL packets
 * (@ndw a multiple of 16, see <kfdsig/aql.h>): each is published with
 * kfdsig_aql_ring_write() (header last, release order), the write pointer
 * memory takes the 64-bit write index (packets), and the 64-bit doorbell the
 * index of the last packet written (ROCr AqlQueue: the doorbell signal is
 * stored with the packet's write index). On a PM4 queue of a multi-XCC
 * target (t->max_xcc > 1) each PRED_EXEC and the dwords it predicates go
 * into the ring behind an INDIRECT_BUFFER that runs them and a NOP that
 * steps over them (5 dwords more; tinygrad ops_amd.py _submit()), so the
 * predicate holds: every XCC runs the ring, and PRED_EXEC works in an IB
 * only (docs/multi-xcc.md). A packet never straddles the ring end: the tail is filled with
 * NOPs first. When the ring is full it waits up to @timeout_ms (-1:
 * forever) for the engine to consume, never overwriting unconsumed
 * dwords. The write pointer memory is written before the doorbell; units
 * are dwords (PM4) or bytes (SDMA), 64-bit monotonic from gfx9 and 32-bit
 * wrapped on gfx8 (kfdtest BaseQueue::PlacePacket, kfd_mqd_manager_vi.c / _v9.c; *_sdma_pkt_open.h NOP / POLL_REGMEM, ROCr amd_blit_sdma.cpp; kfd_doorbell.c, kfd_chardev.c kfd_ioctl_create_queue()).
 * Return: 0, -E2BIG (larger than the ring allows), -ETIMEDOUT, -EINVAL.
 */
KFDSIG_API int kfdsig_kfd_queue_submit(struct kfdsig_kfd_queue *q, const uint32_t *dw, uint32_t ndw,
				       int timeout_ms);

/**
 * kfdsig_kfd_queue_wait_idle() - wait until the engine's read pointer
 * reaches the write pointer.
 * Return: 0, -ETIMEDOUT.
 */
KFDSIG_API int kfdsig_kfd_queue_wait_idle(struct kfdsig_kfd_queue *q, int timeout_ms);

/* ---------------------------------------------------------------------- */
/* GPU clock                                                              */
/* ---------------------------------------------------------------------- */

/* One AMDKFD_IOC_GET_CLOCK_COUNTERS reading (kfd_chardev.c
 * kfd_ioctl_get_clock_counters), plus the CLOCK_MONOTONIC offset. */
struct kfdsig_clock_sample {
	uint64_t gpu_ticks;   /* gpu_clock_counter: the GPU's clock counter,
			       * the one a RELEASE_MEM with DATA_SEL 3 writes */
	uint64_t raw_ns;      /* cpu_clock_counter: CLOCK_MONOTONIC_RAW, ns,
			       * read by the kernel right after the GPU counter */
	uint64_t boottime_ns; /* system_clock_counter: CLOCK_BOOTTIME, ns */
	uint64_t system_freq; /* system_clock_freq: 1000000000 (the two above
			       * count ns); there is no GPU frequency field */
	/* CLOCK_MONOTONIC - CLOCK_MONOTONIC_RAW, read by the library right
	 * after the ioctl: adding it to raw_ns gives CLOCK_MONOTONIC. */
	int64_t mono_minus_raw_ns;
};

/**
 * kfdsig_kfd_clock_counters() - AMDKFD_IOC_GET_CLOCK_COUNTERS for @gpu_id.
 * @out: receives the sample
 *
 * Return: 0, -ENOENT for a gpu_id this handle does not know (the kernel
 * itself answers 0 ticks for it), -ENODEV when the kernel reports a GPU
 * counter of 0 (no GPU behind the node), another -errno from the ioctl.
 */
KFDSIG_API int kfdsig_kfd_clock_counters(struct kfdsig_kfd *kfd, uint32_t gpu_id,
					 struct kfdsig_clock_sample *out);

/*
 * GPU ticks -> CLOCK_MONOTONIC ns. The ioctl gives no GPU clock rate, so
 * two samples fix a line: ticks map to CLOCK_MONOTONIC_RAW by linear
 * interpolation between (a.gpu_ticks, a.raw_ns) and (b.gpu_ticks,
 * b.raw_ns), extrapolated outside them, and CLOCK_MONOTONIC is RAW plus
 * the offset of the later sample. The error is the ioctl's own read gap
 * (the kernel reads the GPU counter, then the CPU clock) divided by the
 * span between the samples, plus the NTP slew of CLOCK_MONOTONIC against
 * RAW over the span: take the samples far apart (before and after a run).
 */
struct kfdsig_gpu_clock {
	uint64_t gpu0, raw0;	     /* the first sample */
	uint64_t gpu_span, raw_span; /* ticks and ns from the first to the second */
	int64_t mono_minus_raw_ns;   /* from the second sample */
	double hz;		     /* the derived GPU clock rate */
};

/**
 * kfdsig_gpu_clock_calibrate() - the conversion from two samples.
 * @a, @b: samples of the same GPU, @b taken after @a
 *
 * Return: 0 with @out filled, -EINVAL for NULL arguments or when @b is not
 * later than @a in both clocks (same sample twice, samples swapped, a GPU
 * counter that went backwards or was reset).
 */
KFDSIG_API int kfdsig_gpu_clock_calibrate(const struct kfdsig_clock_sample *a,
					  const struct kfdsig_clock_sample *b,
					  struct kfdsig_gpu_clock *out);

/**
 * kfdsig_gpu_clock_to_ns() - CLOCK_MONOTONIC time of GPU counter @ticks.
 * @mono_ns: receives the time in ns (comparable with clock_gettime)
 *
 * Return: 0, -EINVAL for NULL arguments or an uncalibrated @c, -ERANGE
 * when the time falls outside 0..2^63 ns (ticks of another GPU or garbage).
 */
KFDSIG_API int kfdsig_gpu_clock_to_ns(const struct kfdsig_gpu_clock *c, uint64_t ticks,
				      uint64_t *mono_ns);

/* ---------------------------------------------------------------------- */
/* SMI events                                                             */
/* ---------------------------------------------------------------------- */

/* SMI event types (enum kfd_smi_event). */
#define KFDSIG_SMI_VMFAULT 1
#define KFDSIG_SMI_THERMAL_THROTTLE 2
#define KFDSIG_SMI_GPU_PRE_RESET 3
#define KFDSIG_SMI_GPU_POST_RESET 4
#define KFDSIG_SMI_MIGRATE_START 5
#define KFDSIG_SMI_MIGRATE_END 6
#define KFDSIG_SMI_PAGE_FAULT_START 7
#define KFDSIG_SMI_PAGE_FAULT_END 8
#define KFDSIG_SMI_QUEUE_EVICTION 9
#define KFDSIG_SMI_QUEUE_RESTORE 10
#define KFDSIG_SMI_UNMAP_FROM_GPU 11
#define KFDSIG_SMI_PROCESS_START 12
#define KFDSIG_SMI_PROCESS_END 13
#define KFDSIG_SMI_ALL_PROCESS 64
#define KFDSIG_SMI_MASK(ev) (1ull << ((ev)-1))

/* One SMI line, parsed. Fields a type does not carry are 0. */
struct kfdsig_smi_event {
	uint32_t type;
	uint64_t ns;	     /* timestamp (SVM/queue events) */
	int32_t pid;	     /* process (VMFAULT, SVM, queue, process events) */
	uint64_t addr, size; /* pages */
	uint32_t node;	     /* gpu id (page fault, eviction, restore, unmap) */
	uint32_t from, to;   /* migrate: gpu id or 0 for system memory */
	uint32_t prefetch_loc, preferred_loc;
	int32_t trigger;    /* migrate / eviction / unmap trigger */
	int32_t error_code; /* migrate end */
	char flag;	    /* 'R'/'W' fault, 'M'/'U' fault end, 'R' rescheduled */
	uint64_t throttle_bitmask, throttle_counter;
	uint32_t reset_seq;
	char reset_cause[64];
	char task_name[64];
	char line[128]; /* the raw line without its newline */
};

struct kfdsig_smi; /* an SMI event fd */

/**
 * kfdsig_smi_open() - AMDKFD_IOC_SMI_EVENTS on a GPU, then write @mask.
 * @mask: KFDSIG_SMI_MASK() bits; KFDSIG_SMI_MASK(KFDSIG_SMI_ALL_PROCESS)
 *        asks for every process's events, which needs CAP_SYS_ADMIN.
 * Return: 0, -EPERM (all processes without the privilege), -ENOTSUP (KFD
 * older than 1.3), -ENOENT (unknown gpu_id) or another -errno.
 */
KFDSIG_API int kfdsig_smi_open(struct kfdsig_kfd *kfd, uint32_t gpu_id, uint64_t mask,
			       struct kfdsig_smi **out);

/** kfdsig_smi_set_mask() - write a new 64-bit event mask. Return: 0/-errno. */
KFDSIG_API int kfdsig_smi_set_mask(struct kfdsig_smi *smi, uint64_t mask);

/**
 * kfdsig_smi_read() - the next event, waiting up to @timeout_ms (-1:
 * forever). Lines are buffered: one read may return several.
 * Return: 1 with *ev filled, 0 on timeout, -EBADMSG for a line that does
 * not parse (ev->line holds it), another -errno.
 */
KFDSIG_API int kfdsig_smi_read(struct kfdsig_smi *smi, struct kfdsig_smi_event *ev, int timeout_ms);

/** kfdsig_smi_fd() - the event fd (for the caller's own poll loop). */
KFDSIG_API int kfdsig_smi_fd(const struct kfdsig_smi *smi);

/** kfdsig_smi_close() - close the fd and free. */
KFDSIG_API void kfdsig_smi_close(struct kfdsig_smi *smi);

/**
 * kfdsig_smi_parse_line() - parse one SMI line ("<type hex> <body>").
 * Return: 0, or -EBADMSG when it does not match its type's format.
 */
KFDSIG_API int kfdsig_smi_parse_line(const char *line, struct kfdsig_smi_event *ev);

/** kfdsig_smi_event_name() - "vmfault", "migrate_start", ...; "?" unknown. */
KFDSIG_API const char *kfdsig_smi_event_name(uint32_t type);

/** kfdsig_smi_event_by_name() - Return: the type, or -ENOENT. Accepts
 * names, "all_process" and decimal numbers. */
KFDSIG_API int kfdsig_smi_event_by_name(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* KFDSIG_KFD_H */
