/* SPDX-License-Identifier: MIT */
/*
 * The KFD ABI beyond the system <linux/kfd_ioctl.h> (Debian's is 1.11).
 *
 * Everything newer than the system header is defined here, from the kernel's
 * include/uapi/linux/kfd_ioctl.h (and its version history), kfd_events.h
 * and kfd_priv.h, and guarded so that a newer system header wins.
 * The kernel-private mmap offset encoding (kfd_priv.h, not uapi) is here
 * too. This is ABI data, not behaviour: the backend and the emulator both
 * speak it, as both sides of a real ioctl do. test/kfd_abi.c checks every
 * layout against hand-written offsets.
 */
#ifndef KFDSIG_ABI_KFD_IOCTL_H
#define KFDSIG_ABI_KFD_IOCTL_H

#include <stdint.h>
#include <linux/kfd_ioctl.h>

#include <kfdsig/fence.h>

/* 1.14 "Update kfd_event_data": the signal-event union member carrying
 * last_event_age (amdgpu-dkms 6.8.5 kfd_ioctl.h, kfd_events.c set_event() event_age). Same size as the 1.11
 * struct: the union is sized by memory_exception_data (24 bytes). */
#if KFD_IOCTL_MINOR_VERSION >= 14
typedef struct kfd_event_data abi_event_data;
#else
struct abi_signal_event_data {
	__u64 last_event_age; /* to and from KFD */
};

typedef struct {
	union {
		struct kfd_hsa_memory_exception_data memory_exception_data;
		struct kfd_hsa_hw_exception_data hw_exception_data;
		struct abi_signal_event_data signal_event_data;
	};
	__u64 kfd_event_data_ext;
	__u32 event_id;
	__u32 pad;
} abi_event_data;
#endif

_Static_assert(sizeof(abi_event_data) == sizeof(struct kfd_event_data),
	       "kfd_event_data size changed with event age");

/* 1.17 "Add SDMA queue creation with target SDMA engine ID" (ROCR-Runtime
 * libhsakmt kfd_ioctl.h; kfd_chardev.c kfd_ioctl_create_queue(), kfd_queue.c): sdma_engine_id + pad appended to
 * create_queue args; queue type 4. */
#ifndef KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID
#define KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID 0x4
#endif
/* 1.22 "Add queue creation with metadata ring base address" (kfd_ioctl.h
 * version history; kfd_queue.c kfd_queue_acquire_buffers() expects a ring
 * buffer of ring_size + metadata_ring_size, except on GFX7/8): pad becomes
 * metadata_ring_size. Always this layout, whatever the system header's. */
typedef struct {
	__u64 ring_base_address;
	__u64 write_pointer_address;
	__u64 read_pointer_address;
	__u64 doorbell_offset;
	__u32 ring_size;
	__u32 gpu_id;
	__u32 queue_type;
	__u32 queue_percentage;
	__u32 queue_priority;
	__u32 queue_id;
	__u64 eop_buffer_address;
	__u64 eop_buffer_size;
	__u64 ctx_save_restore_address;
	__u32 ctx_save_restore_size;
	__u32 ctl_stack_size;
	__u32 sdma_engine_id;	  /* 1.17+ */
	__u32 metadata_ring_size; /* 1.22+; pad before */
} abi_create_queue_args;
#define KFDSIG_AMDKFD_IOC_CREATE_QUEUE_1_17 AMDKFD_IOWR(0x02, abi_create_queue_args)

/* 1.19 "Add a new ioctl to craete secondary kfd processes" (commit
 * cc6b66d661fd "amdkfd: introduce new ioctl AMDKFD_IOC_CREATE_PROCESS",
 * kfd_chardev.c kfd_ioctl_create_process()): no argument. */
#define KFDSIG_AMDKFD_IOC_CREATE_PROCESS AMDKFD_IO(0x27)

/* 1.13 "Add debugger API" (kfd_ioctl.h version history; the kernel patch
 * "drm/amdkfd: add debug and runtime enable interface"): RUNTIME_ENABLE
 * (0x25) and DBG_TRAP (0x26), layouts from today's kfd_ioctl.h. Debian
 * 12's header is 1.11 and has none of it. */
#if KFD_IOCTL_MINOR_VERSION >= 13
typedef struct kfd_ioctl_runtime_enable_args abi_runtime_enable_args;
typedef struct kfd_ioctl_dbg_trap_args abi_dbg_trap_args;
typedef struct kfd_runtime_info abi_runtime_info;
typedef struct kfd_queue_snapshot_entry abi_queue_snapshot_entry;
typedef struct kfd_dbg_device_info_entry abi_dbg_device_info_entry;
typedef struct kfd_context_save_area_header abi_cwsr_header;
#else
typedef struct {
	__u64 r_debug;
	__u32 mode_mask;
	__u32 capabilities_mask;
} abi_runtime_enable_args;
typedef struct {
	__u64 r_debug;
	__u32 runtime_state;
	__u32 ttmp_setup;
} abi_runtime_info;
typedef struct {
	__u64 exception_status;
	__u64 ring_base_address;
	__u64 write_pointer_address;
	__u64 read_pointer_address;
	__u64 ctx_save_restore_address;
	__u32 queue_id;
	__u32 gpu_id;
	__u32 ring_size;
	__u32 queue_type;
	__u32 ctx_save_restore_area_size;
	__u32 reserved;
} abi_queue_snapshot_entry;
typedef struct {
	__u64 exception_status;
	__u64 lds_base;
	__u64 lds_limit;
	__u64 scratch_base;
	__u64 scratch_limit;
	__u64 gpuvm_base;
	__u64 gpuvm_limit;
	__u32 gpu_id;
	__u32 location_id;
	__u32 vendor_id;
	__u32 device_id;
	__u32 revision_id;
	__u32 subsystem_vendor_id;
	__u32 subsystem_device_id;
	__u32 fw_version;
	__u32 gfx_target_version;
	__u32 simd_count;
	__u32 max_waves_per_simd;
	__u32 array_count;
	__u32 simd_arrays_per_engine;
	__u32 num_xcc;
	__u32 capability;
	__u32 debug_prop;
} abi_dbg_device_info_entry;
typedef struct {
	struct {
		__u32 control_stack_offset;
		__u32 control_stack_size;
		__u32 wave_state_offset;
		__u32 wave_state_size;
	} wave_state;
	__u32 debug_offset;
	__u32 debug_size;
	__u64 err_payload_addr;
	__u32 err_event_id;
	__u32 reserved1;
} abi_cwsr_header;
typedef struct {
	__u32 pid;
	__u32 op;
	union {
		struct {
			__u64 exception_mask;
			__u64 rinfo_ptr;
			__u32 rinfo_size;
			__u32 dbg_fd;
		} enable;
		struct {
			__u64 exception_mask;
			__u32 gpu_id;
			__u32 queue_id;
		} send_runtime_event;
		struct {
			__u64 exception_mask;
		} set_exceptions_enabled;
		struct {
			__u32 override_mode;
			__u32 enable_mask;
			__u32 support_request_mask;
			__u32 pad;
		} launch_override;
		struct {
			__u32 launch_mode;
			__u32 pad;
		} launch_mode;
		struct {
			__u64 exception_mask;
			__u64 queue_array_ptr;
			__u32 num_queues;
			__u32 grace_period;
		} suspend_queues;
		struct {
			__u64 queue_array_ptr;
			__u32 num_queues;
			__u32 pad;
		} resume_queues;
		struct {
			__u64 address;
			__u32 mode;
			__u32 mask;
			__u32 gpu_id;
			__u32 id;
		} set_node_address_watch;
		struct {
			__u32 gpu_id;
			__u32 id;
		} clear_node_address_watch;
		struct {
			__u32 flags;
			__u32 pad;
		} set_flags;
		struct {
			__u64 exception_mask;
			__u32 gpu_id;
			__u32 queue_id;
		} query_debug_event;
		struct {
			__u64 info_ptr;
			__u32 info_size;
			__u32 source_id;
			__u32 exception_code;
			__u32 clear_exception;
		} query_exception_info;
		struct {
			__u64 exception_mask;
			__u64 snapshot_buf_ptr;
			__u32 num_queues;
			__u32 entry_size;
		} queue_snapshot;
		struct {
			__u64 exception_mask;
			__u64 snapshot_buf_ptr;
			__u32 num_devices;
			__u32 entry_size;
		} device_snapshot;
	};
} abi_dbg_trap_args;
#endif
/* AMDKFD_IOC_EXPORT_DMABUF (kfd_ioctl.h 1.12 "Add DMA buf export ioctl"),
 * newer than some installed headers */
typedef struct {
	__u64 handle;	 /* to KFD */
	__u32 flags;	 /* to KFD */
	__u32 dmabuf_fd; /* from KFD */
} abi_export_dmabuf_args;
#define KFDSIG_AMDKFD_IOC_EXPORT_DMABUF AMDKFD_IOWR(0x24, abi_export_dmabuf_args)
#define KFDSIG_AMDKFD_IOC_RUNTIME_ENABLE AMDKFD_IOWR(0x25, abi_runtime_enable_args)
#define KFDSIG_AMDKFD_IOC_DBG_TRAP AMDKFD_IOWR(0x26, abi_dbg_trap_args)
/* kfd_ioctl.h: mode_mask bits, enum kfd_dbg_trap_operations */
#define KFDSIG_RUNTIME_ENABLE_MODE_ENABLE 1u
#define KFDSIG_RUNTIME_ENABLE_MODE_TTMP_SAVE 2u
enum {
	KFDSIG_DBG_OP_ENABLE = 0,
	KFDSIG_DBG_OP_DISABLE = 1,
	KFDSIG_DBG_OP_SEND_RUNTIME_EVENT = 2,
	KFDSIG_DBG_OP_SET_EXCEPTIONS_ENABLED = 3,
	KFDSIG_DBG_OP_SET_WAVE_LAUNCH_OVERRIDE = 4,
	KFDSIG_DBG_OP_SET_WAVE_LAUNCH_MODE = 5,
	KFDSIG_DBG_OP_SUSPEND_QUEUES = 6,
	KFDSIG_DBG_OP_RESUME_QUEUES = 7,
	KFDSIG_DBG_OP_SET_NODE_ADDRESS_WATCH = 8,
	KFDSIG_DBG_OP_CLEAR_NODE_ADDRESS_WATCH = 9,
	KFDSIG_DBG_OP_SET_FLAGS = 10,
	KFDSIG_DBG_OP_QUERY_DEBUG_EVENT = 11,
	KFDSIG_DBG_OP_QUERY_EXCEPTION_INFO = 12,
	KFDSIG_DBG_OP_GET_QUEUE_SNAPSHOT = 13,
	KFDSIG_DBG_OP_GET_DEVICE_SNAPSHOT = 14,
};
_Static_assert(sizeof(abi_dbg_trap_args) == 32, "kfd_ioctl_dbg_trap_args is 32 bytes");
_Static_assert(sizeof(abi_runtime_enable_args) == 16, "kfd_ioctl_runtime_enable_args");
_Static_assert(sizeof(abi_queue_snapshot_entry) == 64, "kfd_queue_snapshot_entry");
_Static_assert(sizeof(abi_dbg_device_info_entry) == 120, "kfd_dbg_device_info_entry");
_Static_assert(sizeof(abi_cwsr_header) == 40, "kfd_context_save_area_header");

/* Allocation flags added after 1.11 (kfd_chardev.c kfd_ioctl_alloc_memory_of_gpu()). */
#ifndef KFD_IOC_ALLOC_MEM_FLAGS_EXT_COHERENT
#define KFD_IOC_ALLOC_MEM_FLAGS_EXT_COHERENT (1 << 24)
#endif
#ifndef KFD_IOC_ALLOC_MEM_FLAGS_CONTIGUOUS
#define KFD_IOC_ALLOC_MEM_FLAGS_CONTIGUOUS (1 << 23)
#endif

/* SMI: process start/end events (mainline, after 1.18) and the line
 * formats (KFD_EVENT_FMT_*, uapi from 1.12-era kernels). Each line is
 * "%x " (the event type) followed by the type's format. */
#ifndef KFD_SMI_EVENT_PROCESS_START
#define KFDSIG_SMI_EVENT_PROCESS_START 12
#define KFDSIG_SMI_EVENT_PROCESS_END 13
#else
#define KFDSIG_SMI_EVENT_PROCESS_START KFD_SMI_EVENT_PROCESS_START
#define KFDSIG_SMI_EVENT_PROCESS_END KFD_SMI_EVENT_PROCESS_END
#endif
/* kfd_smi_events.c: per-client FIFO (KFD_MAX_KFIFO_SIZE, was 1024 before
 * the SVM profiler events) and the per-line buffer. */
#define KFDSIG_SMI_FIFO_SIZE 8192
#define KFDSIG_SMI_MSG_SIZE KFD_SMI_EVENT_MSG_SIZE

/* Kernel-private mmap offset encoding of /dev/kfd (amdgpu-dkms 6.8.5 kfd_priv.h:62-85,
 * kfd_priv.h KFD_MMAP_TYPE_*, kfd_chardev.c kfd_mmap()). Byte offsets. */
#define KFDSIG_MMAP_TYPE_SHIFT 62
#define KFDSIG_MMAP_TYPE_MASK (0x3ULL << KFDSIG_MMAP_TYPE_SHIFT)
#define KFDSIG_MMAP_TYPE_DOORBELL (0x3ULL << KFDSIG_MMAP_TYPE_SHIFT)
#define KFDSIG_MMAP_TYPE_EVENTS (0x2ULL << KFDSIG_MMAP_TYPE_SHIFT)
#define KFDSIG_MMAP_TYPE_RESERVED_MEM (0x1ULL << KFDSIG_MMAP_TYPE_SHIFT)
#define KFDSIG_MMAP_TYPE_MMIO (0x0ULL << KFDSIG_MMAP_TYPE_SHIFT)
#define KFDSIG_MMAP_GPU_ID_SHIFT 46
#define KFDSIG_MMAP_GPU_ID_MASK (0xffffULL << KFDSIG_MMAP_GPU_ID_SHIFT)
#define KFDSIG_MMAP_GPU_ID(id) \
	(((uint64_t)(id) << KFDSIG_MMAP_GPU_ID_SHIFT) & KFDSIG_MMAP_GPU_ID_MASK)

/* Memory handles: gpu_id << 32 | idr handle (amdgpu-dkms 6.8.5 kfd_priv.h:792-795). */
#define KFDSIG_HANDLE_GPU_ID(h) ((uint32_t)((h) >> 32))
#define KFDSIG_HANDLE_IDR(h) ((uint32_t)((h)&0xffffffffu))
#define KFDSIG_MAKE_HANDLE(gpu_id, idr) (((uint64_t)(gpu_id) << 32) | (uint32_t)(idr))

/* kfd_events.h. */
#define KFDSIG_UNSIGNALED_SLOT UINT64_MAX
#define KFDSIG_FIRST_NONSIGNAL_EVENT_ID 0x40000000u
#define KFDSIG_LAST_NONSIGNAL_EVENT_ID 0x7fffffffu
/* KFDSIG_SIGNAL_PAGE_SIZE (32 KiB) comes from kfdsig/fence.h. */

#endif /* KFDSIG_ABI_KFD_IOCTL_H */
