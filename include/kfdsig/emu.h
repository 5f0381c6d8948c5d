/* SPDX-License-Identifier: MIT */
/*
 * The emulated KFD: an implementation of the kfdsig_kfd_ops seam that
 * behaves like amdkfd (events, signal page, WAIT_EVENTS, memory, SMI),
 * built from the kernel facts rather than from what the kfdsig backend
 * expects. Several emulated GPUs of any target in the generation table, a
 * configurable reported KFD version and a kernel-behaviour profile.
 *
 * By default every open of the emulated /dev/kfd is its own KFD process:
 * two opens never see each other's events or memory, so one test can play
 * several processes. kfdsig_emu_set_process_model() switches to the
 * kernel's model (one KFD process per client process, what the LD_PRELOAD
 * interposer of `kfdsig exec` uses).
 *
 * The "hardware side" entry points below (interrupts, faults, resets, SMI
 * producers) are what emulated engines call; tests call them directly.
 */
#ifndef KFDSIG_EMU_H
#define KFDSIG_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <kfdsig/common.h>
#include <kfdsig/kfd.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Which kernel's behaviour to reproduce where kernels differ. */
enum kfdsig_emu_kernel_profile {
	/* Mainline up to v6.13 and from v6.19 (and the DKMS driver): an
	 * interrupt whose id finds nothing falls back to the slot scan. */
	KFDSIG_EMU_KERNEL_DEFAULT = 0,
	/* v6.14 - v6.18: an interrupt with a full id (>= 12 valid bits) that
	 * names an unsignalled slot below 4096 is dropped, no scan
	 * (commit de844846f72b, reverted by 88ef4de35f46; kfd_events.c kfd_signal_event_interrupt() / lookup_signaled_event_by_partial_id()). */
	KFDSIG_EMU_KERNEL_V6_14_DROP,
	/* Linux 7.1: "drm/amdkfd: Don't expect signal mailbox update"
	 * (commit e04030139313, merged for 7.1 with "drm/amdgpu: update cp
	 * packets for gfx v12_1", 90ddf2794258): on the v12_1 class (GC 12.1)
	 * a CP end-of-pipe interrupt signals the event its full id names
	 * without reading the slot (kfd_signal_event_interrupt(...,
	 * signal_mailbox_updated = false)); every other source and class
	 * still checks it. Spec: profile=v7.1 (or mailbox-free). */
	KFDSIG_EMU_KERNEL_V7_1,
	/* Linux 7.3 (drm-next-7.3): everything of v7.1, and no
	 * kernel-allocated signal page. "drm/amdkfd: remove obsolete events
	 * page mmap support" (4d7c624a0af1): kfd_chardev.c kfd_mmap() answers
	 * KFD_MMAP_TYPE_EVENTS with -EINVAL; "drm/amdkfd: remove dead
	 * kernel-allocated signal page code" (b4f5837f746a): kfd_events.c
	 * allocate_event_notification_slot() fails a signal event with -ENOMEM
	 * while no user buffer was passed in event_page_offset. Spec:
	 * profile=v7.3. */
	KFDSIG_EMU_KERNEL_V7_3,
};
/* The older name of KFDSIG_EMU_KERNEL_V7_1. */
#define KFDSIG_EMU_KERNEL_MAILBOX_FREE KFDSIG_EMU_KERNEL_V7_1

/*
 * Compute partition mode of a multi-XCC device (GC 9.4.3 / 9.4.4 / 9.5.0 / 12.1;
 * amdgpu aqua_vanjaram.c): the device's XCCs split into KFD nodes of
 * num_xcc / 1, 2, 3, 4 or num_xcc XCCs (docs/multi-xcc.md).
 */
enum kfdsig_emu_partition {
	KFDSIG_EMU_PARTITION_DEFAULT = 0, /* SPX, the kernel's default */
	KFDSIG_EMU_PARTITION_SPX,	  /* one node of every XCC */
	KFDSIG_EMU_PARTITION_DPX,	  /* two nodes (num_xcc % 4 == 0) */
	KFDSIG_EMU_PARTITION_TPX,	  /* three nodes (num_xcc % 3 == 0) */
	KFDSIG_EMU_PARTITION_QPX,	  /* four nodes (num_xcc >= 8) */
	KFDSIG_EMU_PARTITION_CPX,	  /* one node per XCC */
};

/* One emulated GPU. Zero fields take the target's defaults. An element of
 * an array, so it grows into its reserved words (which must be 0) rather
 * than by size. A partitioned device (partition other than SPX) becomes
 * several KFD nodes, each its own GPU of the emulator. */
struct kfdsig_emu_gpu_desc {
	const char *target; /* generation table name, "gfx90a" (required) */
	const char *marketing_name;
	uint64_t local_mem_size;
	uint32_t gpu_id; /* KFD gpu_id; 0 derives one */
	uint32_t mec_fw_version;
	uint32_t sdma_fw_version;
	uint32_t num_sdma_engines;
	uint32_t num_sdma_xgmi_engines;
	uint32_t simd_count;
	/* XCCs of the device: on GC 9.4.3 / 9.4.4 / 9.5.0 / 12.1 all of its
	 * partitions together (0: 8), each node's share is its topology
	 * num_xcc; elsewhere the topology num_xcc (0: 1). */
	uint32_t num_xcc;
	uint32_t device_id;   /* PCI device id */
	uint32_t partition;   /* enum kfdsig_emu_partition (was reserved[0]) */
	uint32_t reserved[7]; /* must be 0 */
};

/* Declare with KFDSIG_OPTS(kfdsig_emu_config, name, ...) (common.h). */
struct kfdsig_emu_config {
	size_t sz; /* sizeof(struct kfdsig_emu_config) */
	const struct kfdsig_emu_gpu_desc *gpus;
	size_t ngpus; /* 1 .. 16 */
	/* Reported AMDKFD_IOC_GET_VERSION, 1.1 to 1.22 (another version is
	 * EINVAL); 0/0 means 1.18, or with a profile the version its
	 * release reports (v6.14: 1.17; v7.1, v7.3: 1.22). With a profile a
	 * version its kernels cannot report is EINVAL (v6.14: 1.17 or 1.18;
	 * v7.1, v7.3: 1.22). Features above the version (event age
	 * below 1.14, SMI below 1.3, CREATE_PROCESS below 1.19, ...) are
	 * absent, as on such a kernel. */
	uint32_t kfd_major, kfd_minor;
	enum kfdsig_emu_kernel_profile profile;
	/* The opener has CAP_SYS_ADMIN (SMI events of all processes). */
	bool privileged;
	uint8_t pad_0[3]; /* must be 0 */
	/* Task name reported in SMI lines; NULL: the calling thread's. */
	const char *task_name;
};

struct kfdsig_emu;

/**
 * kfdsig_emu_create() - build an emulated KFD with a fake sysfs topology
 * (written to a private temporary directory, removed on destroy).
 * Return: the emulator, or NULL with errno (EINVAL bad config, cfg->sz 0
 * or set bytes beyond the struct this library knows, a non-zero reserved
 * word; ENOENT unknown target) and kfdsig_last_error() set.
 */
KFDSIG_API struct kfdsig_emu *kfdsig_emu_create(const struct kfdsig_emu_config *cfg);

/**
 * kfdsig_emu_create_from_spec() - build one from a text spec:
 * "TARGET[,partition=spx|dpx|tpx|qpx|cpx][,xcc=N][,TARGET...][,kfd=MAJOR.MINOR]
 * [,profile=v6.14|v7.1|v7.3][,privileged][,smi=EVENT[+EVENT...]][,lose-userq-irq][,mec=N][,sdma=N]
 * [,user_queue=-1|0|1|2][,lockup_timeout=MS]", e.g.
 * "gfx90a,gfx1100,kfd=1.13" or "gfx942,partition=cpx". partition= and xcc=
 * apply to the target before them (a GC 9.4.3 / 9.4.4 / 9.5.0 / 12.1 one). smi=
 * names SMI events (kfdsig_smi_event_by_name()) that an emulated GPU raises
 * for an SMI client the first time its mask enables them, once per client,
 * so a consumer of SMI events can be tested without a real fault, throttle
 * or reset (an injection, not a kernel behaviour). lose-userq-irq: the user
 * queues' end-of-pipe interrupts never reach the userq fence handler, so
 * their fences are signalled only when a wait tests their slots (an
 * injection for a lost-fence detector, not a kernel behaviour; amdkfd
 * still takes the entry). This is the syntax of
 * KFDSIG_EMULATE and of the CLI's --emulate.
 * Return: the emulator, or NULL with errno EINVAL/ENOENT.
 */
KFDSIG_API struct kfdsig_emu *kfdsig_emu_create_from_spec(const char *spec);

/**
 * kfdsig_emu_destroy() - free the emulator. Every handle opened on it must
 * be closed first.
 */
KFDSIG_API void kfdsig_emu_destroy(struct kfdsig_emu *emu);

/** kfdsig_emu_ops() - the seam implementation; valid until destroy. */
KFDSIG_API const struct kfdsig_kfd_ops *kfdsig_emu_ops(struct kfdsig_emu *emu);

/* Which opens of /dev/kfd share a KFD process. */
enum kfdsig_emu_process_model {
	/* Each open is its own process, torn down (queues stopped, events
	 * and memory freed) when that fd is closed. The default. */
	KFDSIG_EMU_PROCESS_PER_OPEN = 0,
	/* The kernel's: one process per client process (amdkfd keys
	 * kfd_process by the mm), created at its first open of /dev/kfd,
	 * shared by every fd of that process and surviving close and reopen
	 * (kfd_release only drops a reference; the process goes with the mm).
	 * An ioctl from another process gets -EBADF ("Using KFD FD in wrong
	 * process", kfd_chardev.c kfd_ioctl); mmap of /dev/kfd acts on the
	 * caller's process (kfd_mmap). After fork() the child has no KFD
	 * process until it opens /dev/kfd itself: the emulator registers
	 * pthread_atfork handlers and the child forgets the parent's
	 * processes without touching its engine threads. */
	KFDSIG_EMU_PROCESS_PER_PID,
};

/**
 * kfdsig_emu_set_process_model() - choose the process model; only before
 * the first open of /dev/kfd on @emu.
 * Return: 0, -EINVAL (unknown model or NULL), -EBUSY (files are open).
 */
KFDSIG_API int kfdsig_emu_set_process_model(struct kfdsig_emu *emu,
					    enum kfdsig_emu_process_model model);

/**
 * kfdsig_emu_pasid() - the PASID of the KFD process behind an emulated
 * /dev/kfd fd (kfdsig_kfd_fd()) on its first device. From KFD 1.18 a
 * process has one PASID per device (the GPU VM's, kfd_process_device,
 * commit 8544374c0f82) and an interrupt or fault of another device needs
 * that device's: kfdsig_emu_pasid_on(). Before 1.18 one PASID serves all.
 * Return: pasid > 0, or -EBADF.
 */
KFDSIG_API int kfdsig_emu_pasid(struct kfdsig_emu *emu, int kfd_fd);

/**
 * kfdsig_emu_pasid_on() - the PASID of that process on the device
 * @gpu_id: what the device's interrupts carry. kfdsig_emu_interrupt(),
 * kfdsig_emu_vm_fault() and kfdsig_emu_gpu_ptr() route a PASID to the
 * (process, device) pair it names: another device's PASID finds no process.
 * Return: pasid > 0, -EBADF, or -ENOENT for an unknown gpu_id.
 */
KFDSIG_API int kfdsig_emu_pasid_on(struct kfdsig_emu *emu, int kfd_fd, uint32_t gpu_id);

/**
 * kfdsig_emu_set_proc_pid() - give the emulated KFD process @pasid the pid
 * of another (real) process, a stand-in: AMDKFD_IOC_DBG_TRAP then finds
 * it by that pid and checks the ptrace relation against that process
 * (/proc/PID/status TracerPid), as the kernel does with the real target.
 * The emulator lives in one process, so a debugger test makes the
 * target's KFD process itself and lends it a forked child's identity.
 * Return: 0, -EINVAL, -ESRCH (no such PASID).
 */
KFDSIG_API int kfdsig_emu_set_proc_pid(struct kfdsig_emu *emu, int pasid, pid_t pid);

/**
 * kfdsig_emu_gpu_ptr() - what a GPU sees at a virtual address: the host
 * pointer behind @va..@va+@len in @pasid's VM of @gpu_id, if a buffer
 * mapped to that GPU backs the whole range. Engines write through it.
 * Return: the pointer, or NULL (errno EFAULT: not mapped on that GPU).
 */
KFDSIG_API void *kfdsig_emu_gpu_ptr(struct kfdsig_emu *emu, int pasid, uint32_t gpu_id, uint64_t va,
				    uint64_t len);

/**
 * kfdsig_emu_signal_event_interrupt() - the kernel's
 * kfd_signal_event_interrupt(pasid, partial_id, valid_id_bits): find the
 * event by the fast path (>= 12 valid bits), the partial-id walk (< 12) or
 * the exhaustive slot scan, acknowledge its slot (back to all-ones) and
 * set it. The v6.14 profile drops an interrupt whose full id names an
 * unsignalled slot.
 * Return: number of events set (0: nothing found or dropped), -ESRCH for
 * an unknown pasid.
 */
KFDSIG_API int kfdsig_emu_signal_event_interrupt(struct kfdsig_emu *emu, int pasid,
						 uint32_t partial_id, uint32_t valid_id_bits);

/**
 * kfdsig_emu_event_age_set() - put an event's age where no test could
 * otherwise reach it (2^64 signals), to exercise the wrap to 2.
 * Return: 0, -ESRCH (pasid), -EINVAL (unknown event or age 0).
 */
KFDSIG_API int kfdsig_emu_event_age_set(struct kfdsig_emu *emu, int pasid, uint32_t event_id,
					uint64_t age);

/* Interrupt sources an emulated engine raises (what decides the id bits). */
enum kfdsig_emu_irq_source {
	KFDSIG_EMU_IRQ_CP_EOP = 0, /* RELEASE_MEM / EOP with INT_SEL */
	KFDSIG_EMU_IRQ_SDMA_TRAP,  /* SDMA TRAP */
	KFDSIG_EMU_IRQ_SQ_MSG,	   /* s_sendmsg(MSG_INTERRUPT), m0 as data */
	KFDSIG_EMU_IRQ_CP_BAD_OPCODE,
};

/**
 * kfdsig_emu_interrupt() - an interrupt as the GPU raises it, run through
 * the GPU's amdkfd ISR class (cik_event_interrupt.c, kfd_int_process_v9.c,
 * kfd_int_process_v10.c, kfd_int_process_v11.c, kfd_int_process_v12_1.c):
 * the class's drop filters (the node filter on v12_1, context id 0 from CP
 * on gfx9 with new firmware / GC >= 9.4.1, bit 24 on the v11 and v12_1
 * classes), the valid id bits of @source, then the event entry
 * point. CP_BAD_OPCODE sets HW_EXCEPTION events on the CIK class and is
 * otherwise only recorded (debugger path).
 * @context_id: IV context id 0 (CP: INT_CTXID or on gfx8 the IV data; SDMA:
 *              the trap context; SQ: the m0 user data as the wave sent it)
 * Every call is recorded (kfdsig_emu_irq_trace()).
 * Return: number of events set, 0 when filtered, or -errno (-ENOENT
 * unknown gpu_id, -ESRCH unknown pasid, -EINVAL bad source).
 */
KFDSIG_API int kfdsig_emu_interrupt(struct kfdsig_emu *emu, int pasid, uint32_t gpu_id,
				    enum kfdsig_emu_irq_source source, uint32_t context_id);

/* How the emulated ISR and kfd_signal_event_interrupt() handled one
 * interrupt (kfdsig_emu_irq_trace()). */
enum kfdsig_emu_irq_path {
	/* Full id (>= 12 valid bits): the slot it names was signalled and
	 * has an event (lookup_signaled_event_by_partial_id's fast path). */
	KFDSIG_EMU_PATH_FAST = 0,
	/* Fewer bits: the walk id, id + 2^bits, ... found a signalled slot. */
	KFDSIG_EMU_PATH_PARTIAL,
	/* Nothing found by id: the exhaustive slot scan ran (and set
	 * nsignaled events, possibly none). */
	KFDSIG_EMU_PATH_SCAN,
	KFDSIG_EMU_PATH_DROPPED, /* see drop */
	/* CP bad opcode: HW_EXCEPTION events (CIK class) or the debugger /
	 * runtime exception path (SOC15 classes). */
	KFDSIG_EMU_PATH_EXCEPTION,
	/* Mailbox-free profile, v12_1 CP end-of-pipe: the event the full id
	 * names was signalled without its slot being read. */
	KFDSIG_EMU_PATH_TRUSTED,
};

/* Why an interrupt was dropped (KFDSIG_EMU_PATH_DROPPED). */
enum kfdsig_emu_irq_drop {
	KFDSIG_EMU_DROP_NONE = 0,
	/* v9 ISR: CP end-of-pipe with context id 0 while
	 * context_id_expected() (GC version and MEC firmware). */
	KFDSIG_EMU_DROP_CTX0,
	/* v11 ISR: CP end-of-pipe context id with bit 24
	 * (AMDGPU_FENCE_MES_QUEUE_FLAG). */
	KFDSIG_EMU_DROP_BIT24,
	/* v6.14 - v6.18 profile: a full id naming an unsignalled slot. */
	KFDSIG_EMU_DROP_V6_14,
	KFDSIG_EMU_DROP_NO_PROCESS,	/* no process has the PASID */
	KFDSIG_EMU_DROP_NO_SIGNAL_PAGE, /* the process has no signal page */
	/* v9_4_3 / v12_1 ISR: kfd_irq_is_from_node() is false (the IH
	 * entry's node id is not in the node's interrupt bitmap, or its VMID
	 * not a KFD VMID of the node). Only the v12_1 class is filtered. */
	KFDSIG_EMU_DROP_NODE,
};

#define KFDSIG_EMU_IRQ_TRACE_EVENTS 4

/* One interrupt as the emulated interrupt handler saw and handled it. */
struct kfdsig_emu_irq_record {
	uint64_t seq; /* 1, 2, ... in the order the emulator took them */
	uint32_t gpu_id;
	int32_t pasid;
	enum kfdsig_emu_irq_source source;
	/* The IH ring entry: client id (SOC15/SOC21 only; 0 on CIK), source
	 * id (CIK_INTSRC_*, SOC15_INTSRC_*, SOC21_INTSRC_*), ring id and
	 * node id (0: the emulator has one ME/pipe and node per GPU; 2 on the
	 * v12_1 class, its XCC 0, src/emu/emu_gc12_1.c; on the v9_4_3 class
	 * the raising XCC's, src/emu/emu_xcc.c), VMID (the emulator puts
	 * every process in VMID 8, or a CPX node's own first VMID) and the
	 * context id dwords. */
	uint16_t client_id, source_id;
	uint16_t ring_id, node_id, vmid;
	uint32_t context_id0, context_id1;
	/* What the handler class derived: the (partial) event id and how
	 * many of its bits are valid, 0 when the source carries none. */
	uint32_t id, valid_bits;
	enum kfdsig_emu_irq_path path;
	enum kfdsig_emu_irq_drop drop;
	/* Events set, and the first KFDSIG_EMU_IRQ_TRACE_EVENTS of their ids. */
	uint32_t nsignaled;
	uint32_t events[KFDSIG_EMU_IRQ_TRACE_EVENTS];
};

/* Records the emulator keeps (the most recent ones, all processes). */
#define KFDSIG_EMU_IRQ_TRACE_LEN 256

/**
 * kfdsig_emu_irq_trace() - the last interrupts the emulated interrupt
 * handler took, oldest first: of the process @pasid, or of every process
 * (and of unknown PASIDs) when @pasid is 0.
 * @out: room for @n records (may be NULL when @n is 0)
 * Return: the number of records copied (at most @n and the
 * KFDSIG_EMU_IRQ_TRACE_LEN the emulator keeps), or -EINVAL.
 */
KFDSIG_API int kfdsig_emu_irq_trace(struct kfdsig_emu *emu, int pasid,
				    struct kfdsig_emu_irq_record *out, size_t n);

/** kfdsig_emu_irq_path_name() - "fast", "partial", "scan", "dropped", "exception", "trusted". */
KFDSIG_API const char *kfdsig_emu_irq_path_name(enum kfdsig_emu_irq_path path);

/** kfdsig_emu_irq_drop_name() - "none", "ctx0", "bit24", "v6.14", "no-process", "no-signal-page", "node". */
KFDSIG_API const char *kfdsig_emu_irq_drop_name(enum kfdsig_emu_irq_drop drop);

/* VM fault flags */
/*
 * The emulated GPU clock: the counter a RELEASE_MEM with DATA_SEL 3 stores
 * and GET_CLOCK_COUNTERS's gpu_clock_counter report, KFDSIG_EMU_GPU_CLOCK_HZ
 * ticks per second (CLOCK_MONOTONIC_RAW / 10), offset by
 * KFDSIG_EMU_GPU_CLOCK_EPOCH * (GPU index + 1) ticks so that ticks are never
 * nanoseconds of any host clock and two GPUs never agree.
 */
#define KFDSIG_EMU_GPU_CLOCK_HZ 100000000ull
#define KFDSIG_EMU_GPU_CLOCK_EPOCH (1ull << 40)

#define KFDSIG_EMU_FAULT_NOT_PRESENT (1u << 0)
#define KFDSIG_EMU_FAULT_READ_ONLY (1u << 1)
#define KFDSIG_EMU_FAULT_NO_EXECUTE (1u << 2)

/**
 * kfdsig_emu_vm_fault() - kfd_signal_vm_fault_event(): every MEMORY event
 * of the process gets the fault data (va, gpu_id, flags) and is set; SMI
 * clients asking for VMFAULT get a line.
 * Return: number of events set, or -errno.
 */
KFDSIG_API int kfdsig_emu_vm_fault(struct kfdsig_emu *emu, int pasid, uint32_t gpu_id, uint64_t va,
				   uint32_t flags);

/**
 * kfdsig_emu_hw_exception() - kfd_signal_hw_exception_event(): set every
 * HW_EXCEPTION event of the process (no data).
 * Return: number of events set, or -ESRCH.
 */
KFDSIG_API int kfdsig_emu_hw_exception(struct kfdsig_emu *emu, int pasid);

/**
 * kfdsig_emu_gpu_reset() - a GPU reset: SMI GPU_PRE_RESET / POST_RESET
 * lines and kfd_signal_reset_event() for every process (HW_EXCEPTION
 * events get memory_lost and the cause; with @ecc MEMORY events get an
 * SRAM ECC error).
 * Return: number of events set, or -ENOENT for an unknown gpu_id.
 */
KFDSIG_API int kfdsig_emu_gpu_reset(struct kfdsig_emu *emu, uint32_t gpu_id, bool ecc);

/* Arguments of an SMI line the emulator formats with the kernel's format
 * for @type (KFD_EVENT_FMT_*). Unused fields are ignored. For the GPU
 * reset events @trigger is the sequence number and @task_name the cause;
 * the node of page-fault, queue and unmap lines is the GPU's id. */
struct kfdsig_emu_smi_args {
	size_t sz; /* sizeof(struct kfdsig_emu_smi_args): KFDSIG_OPTS (common.h) */
	uint64_t ns;
	uint64_t addr, size;
	uint64_t throttle_bitmask, throttle_counter;
	const char *task_name;
	int32_t pid; /* 0: not tied to a process (sent to every client) */
	uint32_t from, to, prefetch_loc, preferred_loc;
	int32_t trigger, error_code;
	char flag;
	uint8_t pad_0[3]; /* must be 0 */
};

/**
 * kfdsig_emu_smi_emit() - produce an SMI event on a GPU: every client whose
 * mask has @type (and, for an event of another process, the privileged
 * ALL_PROCESS clients) gets the line in its 8 KiB FIFO, or loses it when
 * the FIFO is full.
 * @args: NULL for all zero
 * Return: number of clients that got it, or -errno (-EINVAL also for
 * args->sz 0 or set bytes beyond the struct this library knows).
 */
KFDSIG_API int kfdsig_emu_smi_emit(struct kfdsig_emu *emu, uint32_t gpu_id, uint32_t type,
				   const struct kfdsig_emu_smi_args *args);

/* What an emulated queue's engine has done. */
struct kfdsig_emu_queue_info {
	bool halted;	    /* stopped by a fault or a bad packet */
	uint32_t exception; /* KFDSIG_EMU_QUEUE_* why it stopped, 0 if running */
	uint64_t consumed;  /* dwords executed since creation (AQL: packets) */
	uint32_t type;	    /* KFD_IOC_QUEUE_TYPE_* */
};

#define KFDSIG_EMU_QUEUE_BAD_OPCODE 1 /* a packet the engine does not accept */
#define KFDSIG_EMU_QUEUE_VM_FAULT 2   /* an access no buffer backs */
/* A wave stopped with an exception (s_trap, an illegal instruction): the
 * dispatch never ends, the queue goes no further. */
#define KFDSIG_EMU_QUEUE_WAVE_EXCEPTION 3

/**
 * kfdsig_emu_queue_info() - the state of an emulated queue: the exception
 * a SOC15 GPU records when a bad packet stops the queue, and progress.
 * Return: 0, -ESRCH (pasid), -EINVAL (unknown queue id or NULL).
 */
KFDSIG_API int kfdsig_emu_queue_info(struct kfdsig_emu *emu, int pasid, uint32_t queue_id,
				     struct kfdsig_emu_queue_info *info);

#ifdef __cplusplus
}
#endif

#endif /* KFDSIG_EMU_H */
