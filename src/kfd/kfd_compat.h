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
#ifndef KFDSIG_KFD_COMPAT_H
#define KFDSIG_KFD_COMPAT_H

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
#if KFD_IOCTL_MINOR_VERSION >= 17
typedef struct kfd_ioctl_create_queue_args abi_create_queue_args;
#else
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
	__u32 sdma_engine_id; /* 1.17+ */
	__u32 pad;
} abi_create_queue_args;
#endif
#define KFDSIG_AMDKFD_IOC_CREATE_QUEUE_1_17 AMDKFD_IOWR(0x02, abi_create_queue_args)

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

#endif /* KFDSIG_KFD_COMPAT_H */
