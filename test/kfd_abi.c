/* SPDX-License-Identifier: MIT */
/*
 * The KFD ABI kfdsig speaks (system <linux/kfd_ioctl.h> +
 * src/abi/kfd_ioctl.h), checked against offsets and ioctl numbers written by hand
 * from the uapi header's struct layouts (kfd_priv.h KFD_MMAP_TYPE_*, kfd_chardev.c kfd_mmap(); kfd_events.c set_event() event_age; kfd_ioctl.h; kfd_chardev.c kfd_ioctl_create_queue(), kfd_queue.c).
 */
#include <stddef.h>

#include "helpers.h"
#include "abi/kfd_ioctl.h"

int main(void)
{
	/* CREATE_EVENT: u64 + 6 x u32 */
	CHECK_EQ(sizeof(struct kfd_ioctl_create_event_args), 32, "create_event size");
	CHECK_EQ(offsetof(struct kfd_ioctl_create_event_args, event_type), 12, "event_type");
	CHECK_EQ(offsetof(struct kfd_ioctl_create_event_args, event_id), 24, "event_id");
	CHECK_EQ(offsetof(struct kfd_ioctl_create_event_args, event_slot_index), 28, "slot");

	/* kfd_event_data (1.14): union of 32 bytes (memory exception data:
	 * 4 x u32 failure, u64 va, u32 gpu_id, u32 ErrorType), ext, id, pad. */
	CHECK_EQ(sizeof(abi_event_data), 48, "event_data size");
	CHECK_EQ(offsetof(abi_event_data, signal_event_data.last_event_age), 0, "age");
	CHECK_EQ(offsetof(abi_event_data, memory_exception_data.va), 16, "va");
	CHECK_EQ(offsetof(abi_event_data, memory_exception_data.gpu_id), 24, "gpu_id");
	CHECK_EQ(offsetof(abi_event_data, hw_exception_data.gpu_id), 12, "hw gpu_id");
	CHECK_EQ(offsetof(abi_event_data, kfd_event_data_ext), 32, "ext");
	CHECK_EQ(offsetof(abi_event_data, event_id), 40, "event_id");

	CHECK_EQ(sizeof(struct kfd_ioctl_wait_events_args), 24, "wait size");
	CHECK_EQ(offsetof(struct kfd_ioctl_wait_events_args, timeout), 16, "timeout");
	CHECK_EQ(offsetof(struct kfd_ioctl_wait_events_args, wait_result), 20, "wait_result");
	CHECK_EQ(sizeof(struct kfd_ioctl_alloc_memory_of_gpu_args), 40, "alloc size");
	CHECK_EQ(offsetof(struct kfd_ioctl_alloc_memory_of_gpu_args, flags), 36, "flags");
	CHECK_EQ(sizeof(struct kfd_ioctl_map_memory_to_gpu_args), 24, "map size");

	/* 1.17 create_queue: sdma_engine_id + pad appended */
	CHECK_EQ(sizeof(abi_create_queue_args), 96, "create_queue 1.17 size");
	CHECK_EQ(offsetof(abi_create_queue_args, ctx_save_restore_size), 80, "ctx");
	CHECK_EQ(offsetof(abi_create_queue_args, sdma_engine_id), 88, "sdma eng");
	CHECK_EQ(KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID, 4, "SDMA_BY_ENG_ID");

	/* _IOC(dir, 'K', nr, size) by hand: dir<<30 | size<<16 | 'K'<<8 | nr */
	CHECK_EQ(AMDKFD_IOC_GET_VERSION, 0x80084b01u, "GET_VERSION");
	CHECK_EQ(AMDKFD_IOC_CREATE_EVENT, 0xc0204b08u, "CREATE_EVENT");
	CHECK_EQ(AMDKFD_IOC_DESTROY_EVENT, 0x40084b09u, "DESTROY_EVENT");
	CHECK_EQ(AMDKFD_IOC_WAIT_EVENTS, 0xc0184b0cu, "WAIT_EVENTS");
	CHECK_EQ(AMDKFD_IOC_ACQUIRE_VM, 0x40084b15u, "ACQUIRE_VM");
	CHECK_EQ(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, 0xc0284b16u, "ALLOC");
	CHECK_EQ(AMDKFD_IOC_SMI_EVENTS, 0xc0084b1fu, "SMI_EVENTS");
	CHECK_EQ(KFDSIG_AMDKFD_IOC_CREATE_QUEUE_1_17, 0xc0604b02u, "CREATE_QUEUE 1.17");

	/* mmap offsets (kfd_priv.h) and memory handles */
	CHECK_EQ(KFDSIG_MMAP_TYPE_EVENTS, 0x8000000000000000ull, "events offset");
	CHECK_EQ(KFDSIG_MMAP_TYPE_DOORBELL, 0xc000000000000000ull, "doorbell offset");
	CHECK_EQ(KFDSIG_MMAP_GPU_ID(0x1234), 0x048d000000000000ull, "gpu id in offset");
	CHECK_EQ(KFDSIG_MAKE_HANDLE(0x1234, 5), 0x0000123400000005ull, "handle");
	CHECK_EQ(KFDSIG_HANDLE_GPU_ID(0x0000123400000005ull), 0x1234, "handle gpu");

	/* SMI */
	CHECK_EQ(KFDSIG_SMI_FIFO_SIZE, 8192, "fifo");
	CHECK_EQ(KFDSIG_SMI_MASK(KFDSIG_SMI_ALL_PROCESS), 0x8000000000000000ull, "all process");
	CHECK_EQ(KFDSIG_SMI_MASK(KFDSIG_SMI_VMFAULT), 1, "vmfault bit");
	CHECK_EQ(KFDSIG_KFD_MEM_GTT_UNCACHED, 0xd6000002u, "signal page flags");
	return t_result("kfd_abi");
}
