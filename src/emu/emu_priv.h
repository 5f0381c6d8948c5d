/* SPDX-License-Identifier: MIT */
/*
 * Internal state of the emulated KFD (src/emu). Modelled on amdkfd's
 * objects: a kfd_process per open of /dev/kfd, or per client process in
 * the KFDSIG_EMU_PROCESS_PER_PID model (kfd_process_device per GPU, an
 * event IDR, the signal page), buffer objects, SMI clients per node.
 *
 * Files and fds: an emu_file is the kernel's struct file. Each holds an
 * internal eventfd (efd, never handed out: SMI readiness is written there);
 * every fd a client holds on it is a dup of efd registered in emu->fds
 * (the fd table), so dup'd fds reach the same file and the file lives
 * until its last fd is closed.
 *
 * Locking: emu->lock guards the file and process lists; proc->lock is the
 * kernel's p->event_mutex plus the per-event spinlocks (one lock is enough
 * at this scale) and guards memory too; smi->lock guards one SMI FIFO.
 * Order: emu->lock, then proc->lock, then gpu->smi_lock, then smi->lock.
 */
#ifndef KFDSIG_EMU_PRIV_H
#define KFDSIG_EMU_PRIV_H

#include <pthread.h>
#include <sys/types.h>

#include <kfdsig/emu.h>

#include "core/internal.h"
#include "abi/kfd_ioctl.h"
#include "emu/emu_gen.h"
#include "emu/emu_xcc.h"

#define EMU_MAX_GPUS 16
/* Queues of one process (kfd_priv.h KFD_MAX_NUM_OF_QUEUES_PER_PROCESS,
 * the size of kfd_process_queue_manager.c's queue_slot_bitmap). */
#define EMU_MAX_QUEUES 1024
/* SDMA engines of one GPU, plain and XGMI (gfx942: 2 + 14). */
#define EMU_MAX_SDMA_ENGINES 32
/* Interrupts held while one ring packet runs on a node's XCCs (16 XCCs,
 * a few per packet); a packet that raises more hands the oldest over
 * early (emu_engine.c emu_engine_irq()). */
#define EMU_XCC_IRQ_QUEUE 64
/* The KFD versions the emulator can be (kfd_ioctl.h version history: 1.1
 * the first, 1.22 the newest merged; a 1.23 profiler ioctl was posted to
 * amd-gfx in 2026 but is in no drm pull the emulator follows). */
#define EMU_KFD_MINOR_MIN 1u
#define EMU_KFD_MINOR_MAX 22u
#define EMU_KFD_MINOR_DEFAULT 18u

struct emu_smi;
struct emu_dbg;

/* A cache the topology lists (kfd_crat.c struct kfd_gpu_cache_info). */
struct emu_cache_desc {
	uint8_t level;
	uint8_t inst;	    /* instruction cache (else data) */
	uint16_t line;	    /* cacheline bytes */
	uint32_t size_kb;   /* KiB */
	uint16_t cu_shared; /* CUs sharing one instance */
};

/* The product an emulated GPU stands for (emu_sysfs.c emu_products[]);
 * for targets without one, a generic identity with name NULL. */
struct emu_product {
	uint32_t gfx_target_version;
	const char *name; /* libdrm amdgpu.ids's name of (device_id, revision) */
	uint16_t device_id;
	uint8_t revision;
	uint8_t simd_per_cu, waves_per_simd, wave_size;
	uint8_t num_se, sh_per_se, cu_per_sh; /* cu_per_sh: CUs per SA, not fused */
	uint16_t cu_count;		      /* active CUs of one KFD node */
	uint16_t lds_kb;
	uint32_t sclk_mhz, mclk_mhz, vram_width;
	uint64_t vram;
	uint32_t ras_features; /* AMDGPU_RAS_BLOCK__* bits the product enables */
	/* amdgpu's device attributes (rocm_smi_lib reads them): the VBIOS
	 * part number, the lowest sclk/mclk DPM levels, the power cap (W). */
	const char *vbios;
	uint32_t sclk_min_mhz, mclk_min_mhz, power_cap_w;
	uint8_t ncaches;
	struct emu_cache_desc caches[8];
};

struct emu_gpu {
	/* Topology only (name, gfx_target_version, product): every decision
	 * of the emulated KFD and engines reads gen (emu_gen.c). */
	const struct kfdsig_target *t;
	struct emu_gen gen;
	uint32_t index;		/* 0-based GPU index; topology node index + 1 */
	uint32_t device;	/* the config's device it is a node (partition) of */
	uint64_t clock_base_ns; /* CLOCK_MONOTONIC_RAW when the GPU was made */
	uint32_t gpu_id;
	uint32_t render_minor;
	uint32_t mec_fw, sdma_fw;
	uint32_t num_sdma, num_sdma_xgmi, simd_count, num_xcc, device_id;
	/* amdgpu module parameters (spec user_queue=, lockup_timeout=):
	 * user_queue -1 .. 2 (emu_userq_ip_mask()), the lockup timeout in ms
	 * (< 0: none) that user queues' hang detection waits */
	int32_t user_queue;
	int32_t lockup_ms;
	/* The node's share of a multi-XCC device (emu_xcc.c): its XCCs,
	 * VMIDs and interrupt bitmap; ring_xcc XCCs run each PM4 ring (the
	 * node's XCCs on the v9_4_3 class, else 1); vmid the VMID the
	 * emulated processes run in on it. */
	struct emu_xcc_node xn;
	uint32_t ring_xcc;
	uint16_t vmid;
	uint64_t local_mem_size;
	struct emu_product prod;
	char marketing_name[128];
	uint32_t reset_seq;
	int mmio_memfd; /* the MMIO remap page, -1: not mapped yet */
	pthread_mutex_t smi_lock;
	struct emu_smi *smi_clients;
	/* SDMA queues live on each engine, all processes (the DQM's
	 * sdma_bitmap / xgmi_sdma_bitmap); atomic. */
	uint32_t sdma_queues[EMU_MAX_SDMA_ENGINES];
	/* User queues of all processes on it (the DQM's total_queue_count,
	 * kfd_device_queue_manager.c create_queue_cpsch()); atomic. */
	uint32_t user_queues;
};

/* kfd_queue.c kfd_queue_acquire_buffers(): a COMPUTE_AQL ring on
 * gfx_target_version 70000 up to (not including) 90000 "appear[s] twice
 * its actual size": its buffer is ring_size / 2, mapped twice by ROCr
 * (amd_aql_queue.cpp AllocRegisteredRingBuffer(), the queue-full
 * workaround of GFXIP 7 and 8), and the CP wraps its write pointer at the
 * doubled size (kfd_mqd_manager_vi.c load_mqd(): wptr_mask is
 * queue_size / 4 - 1 dwords). */
static inline bool emu_aql_doubled(const struct emu_gpu *g)
{
	return g->gen.gfxv >= 70000 && g->gen.gfxv < 90000;
}

enum emu_file_kind { EMU_FILE_KFD, EMU_FILE_RENDER, EMU_FILE_SMI, EMU_FILE_SYNC };

struct emu_proc;

struct emu_file {
	int efd;  /* internal eventfd; client fds are dups of it */
	int nfds; /* entries in emu->fds that name this file */
	enum emu_file_kind kind;
	struct emu_proc *proc; /* EMU_FILE_KFD; NULL: opened by another process */
	struct emu_gpu *gpu;   /* EMU_FILE_RENDER, EMU_FILE_SMI */
	struct emu_smi *smi;   /* EMU_FILE_SMI */
	struct emu_drmf *drm;  /* EMU_FILE_RENDER: GEM, user queues, syncobjs (emu_userq.c) */
	/* EMU_FILE_SYNC: an exported sync_file's fence (emu_userq.c) */
	struct emu_fence_drv *sync_drv;
	uint64_t sync_seq;
	struct emu_file *next;
};

/* One client fd of a file (the fd table). */
struct emu_fdent {
	int fd;
	struct emu_file *f;
	struct emu_fdent *next;
};

struct emu_bo {
	uint64_t handle;
	uint32_t gpu_index;
	uint64_t va, size;
	uint32_t flags;
	int memfd;  /* backing store */
	void *kptr; /* the "kernel" mapping */
	uint64_t mmap_offset;
	uint32_t mapped;  /* bit per GPU index: in that GPU's VM */
	uint64_t sys_mem; /* what it holds of emu->sys_mem_used */
	struct emu_bo *next;
};

/* kfd_process_device */
struct sqk_gws;

struct emu_pdd {
	bool vm;		   /* ACQUIRE_VM done */
	struct emu_file *drm_file; /* its render file, NULL once closed */
	uint32_t next_idr;
	int db_memfd; /* the process doorbell slice, -1: none yet */
	void *db_kptr;
	/* SET_TRAP_HANDLER (kfd_process_set_trap_handler(): qpd->tba_addr,
	 * tma_addr), p->lock; 0: none bound */
	uint64_t tba, tma;
	/* ALLOC_QUEUE_GWS: the queue id + 1 that holds the device's GWS
	 * (qpd.num_gws != 0), 0: none; p->lock */
	uint32_t gws_queue;
	struct sqk_gws *gws_state; /* its barriers and semaphores (emu/sq/sqk_gws.c) */
};

/* A user queue and the engine thread that runs it. */
struct emu_queue {
	struct emu_proc *p;
	struct emu_gpu *g;
	uint32_t id, type;
	/* SET_CU_MASK's mask and its bits, 0: none (every CU) */
	uint32_t cu_mask[32], cu_mask_bits;
	bool sdma;
	bool aql;	       /* COMPUTE_AQL: emu_aql.c runs it; consumed counts packets */
	int sdma_engine;       /* the SDMA engine it holds a queue of, -1: none */
	uint32_t ring_size;    /* 0: created with ring size 0, inactive */
	uint64_t ring_bo_size; /* the ring's buffer (a size-0 queue's later size) */
	uint64_t ring_va, rptr_va, wptr_va, eop_va, cwsr_va;
	uint32_t *ring;		 /* the engine's view of the ring */
	void *rptr;		 /* read pointer memory the engine updates */
	uint32_t rptr_room;	 /* bytes from rptr to the end of its buffer */
	volatile void *doorbell; /* in the process doorbell slice */
	uint64_t consumed;	 /* engine position, monotonic units */
	/* Past the packet the engine runs now (same units): the CP's fetch
	 * position, published as the read pointer before the packet's
	 * interrupt (emu_engine_publish_fetched()). */
	uint64_t fetched;
	uint64_t idle_wakeups; /* sleeps on the doorbell that ended (tests) */
	/* dispatches held back by the runtime's pending scratch request
	 * (emu_kernel.c aql_scratch(); tests) */
	uint64_t scratch_waits;
	pthread_t thread;
	int stop;
	bool halted;
	bool running;	    /* the engine is taking packets (emu_doorbell.c run()): atomic */
	uint32_t exception; /* why the queue stopped (EMU_QUEUE_EXC_*) */
	/* Debugger interface (emu_debug.c), p->lock: KFD exception status
	 * bits (q->properties.exception_status), suspended by DBG_TRAP. */
	uint64_t exception_status;
	bool suspended;		 /* the engine fetches nothing (emu_queue_may_fetch) */
	bool inactive;		 /* !QUEUE_IS_ACTIVE after UPDATE_QUEUE: fetches nothing */
	bool parked;		 /* the engine saw suspended at a packet boundary */
	bool preempted;		 /* a poll gave up for a suspend: run it again */
	uint32_t cwsr_size;	 /* ctx_save_restore_size as created */
	uint32_t sh[0x300];	 /* SH registers from SET_SH_REG (offsets from 0x2c00) */
	uint32_t xcc;		 /* logical XCC (in the node) whose CP runs the packet now */
	uint32_t pm4_target_xcc; /* CREATE/UPDATE_QUEUE queue_percentage bits 15:8 */
	/* The multi-XCC window in progress (emu_doorbell.c run_xcc()): the
	 * XCCs run [consumed, win_end) packet by packet in lockstep; the
	 * packet at win_pos has run on XCCs 0 .. win_x - 1. */
	bool win;
	uint32_t win_x;
	uint64_t win_pos, win_end;
	/* Interrupts the XCCs raised in the packet at win_pos, handled once
	 * it has run on all of them (emu_engine_irq_flush()). */
	uint32_t nirq;
	struct {
		uint32_t src, ctx, xcc;
	} irq[EMU_XCC_IRQ_QUEUE];
	/* A render-node user queue (emu_userq.c): its fence driver and
	 * doorbell index (the EOP interrupt's key); NULL for a KFD queue. */
	struct emu_fence_drv *fdrv;
	uint32_t userq_doorbell;
	bool userq_gfx;		      /* a GFX user queue: the CP's graphics pipe (emu_cp.c) */
	struct emu_queue *userq_next; /* on p->userqs */
	struct emu_queue *next;
};

/* An AQL queue's 64-byte slots: half the kernel's ring size on gfx7/8
 * (emu_aql_doubled()). */
static inline uint32_t emu_aql_slots(const struct emu_queue *q)
{
	return (emu_aql_doubled(q->g) ? q->ring_size / 2 : q->ring_size) / 64;
}

#define EMU_QUEUE_EXC_BAD_OPCODE KFDSIG_EMU_QUEUE_BAD_OPCODE
#define EMU_QUEUE_EXC_VM_FAULT KFDSIG_EMU_QUEUE_VM_FAULT
#define EMU_QUEUE_EXC_WAVE KFDSIG_EMU_QUEUE_WAVE_EXCEPTION

struct emu_waiter;

struct emu_event {
	uint32_t id, type;
	bool auto_reset, signaled;
	uint64_t age;
	struct emu_waiter *waiters; /* ev->wq */
	int refs;		    /* the IDR's plus each waiter's */
	bool destroyed;
	struct kfd_hsa_memory_exception_data mem;
	struct kfd_hsa_hw_exception_data hw;
};

/* One sleeping WAIT_EVENTS call: the futex word its thread sleeps on.
 * A waker bumps it and FUTEX_WAKEs it, so a signal wakes only the threads
 * waiting on that event (kfd_events.c: a wait queue per event, each
 * waiter queued on every event it waits for). */
struct emu_sleeper {
	uint32_t seq; /* the futex word: bumped by each wake */
	/* Wait for all: entries not activated yet. Its thread is woken when
	 * the last one is (or an event is destroyed), not at every signal:
	 * the condition it would test is false until then. */
	uint32_t pending;
	bool all;
	/* The call's entries and when it times out by itself (CLOCK_MONOTONIC
	 * ns, 0: never), for the host's stall report (emu_host_quiet()). */
	struct emu_waiter *w;
	uint32_t n;
	uint64_t deadline_ns;
	struct emu_sleeper *next; /* p->sleepers */
};

/* kfd_event_waiter: one entry of a WAIT_EVENTS call, queued on ev->wq. */
struct emu_waiter {
	struct emu_event *ev; /* NULL: destroyed while waiting */
	struct emu_event *held;
	struct emu_sleeper *sleeper;
	bool activated, age_enabled, queued;
	struct emu_waiter *prev, *next;
};

struct emu_proc {
	struct kfdsig_emu *emu;
	int pasid;
	pid_t pid;
	char task_name[32];
	int refs;
	bool closed;
	/* Made by CREATE_PROCESS on an fd (kfd_process.c create_process(..,
	 * primary = false)): what find_process_by_mm never returns. */
	bool secondary;
	/* The PASID on each device (pdd->pasid, commit 8544374c0f82 "drm/amdkfd:
	 * Have kfd driver use same PASID values from graphic driver"): one per
	 * process-device from KFD 1.18, before it the process's one on all;
	 * pasid is the first device's. */
	int dev_pasid[EMU_MAX_GPUS];
	/* A secondary's context id (kfd_process.c kfd_process_alloc_id():
	 * the lowest free of its primary's, from 0) and its sysfs entry. */
	uint16_t context_id;
	bool has_sysfs;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct emu_pdd pdd[EMU_MAX_GPUS];
	struct emu_bo *bos;

	/* events (kfd_events.c) */
	struct emu_event *slots_ev[KFD_SIGNAL_EVENT_LIMIT]; /* signal/debug IDR part */
	struct emu_event **others;			    /* ids >= 0x40000000 */
	size_t nothers, cap_others;
	uint32_t signal_event_count; /* includes the reserved id 0 */
	uint64_t *signal_page;	     /* kernel view; NULL: none yet */
	size_t signal_mapped_size;
	uint32_t signal_slots; /* slots the page's buffer holds (<= 4096) */
	int kpage_memfd;       /* kernel-allocated page, -1 otherwise */
	uint64_t signal_handle;
	struct emu_queue *queues;
	/* render-node user queues in its VM (emu_userq.c), p->lock */
	struct emu_queue *userqs;
	uint64_t queue_ids[EMU_MAX_QUEUES / 64]; /* used queue ids */
	bool xnack_enabled;			 /* SET_XNACK_MODE */
	/* Interrupts seen (for tests and tools). */
	uint64_t irq_count, irq_dropped;
	/* WAIT_EVENTS sleeps that ended (woken or not): a signal must wake
	 * only its own waiters (tests). */
	uint64_t wait_wakeups;
	struct emu_sleeper *sleepers; /* the WAIT_EVENTS calls in progress */
	struct emu_dbg *dbg;	      /* debugger / runtime-enable state (emu_debug.c) */

	struct emu_proc *next;
};

/* The interrupt trace (emu_trace.c): a ring of the last records. */
struct emu_trace {
	struct kfdsig_emu_irq_record ring[KFDSIG_EMU_IRQ_TRACE_LEN];
	uint64_t seq; /* records taken so far */
};

struct kfdsig_emu {
	struct kfdsig_kfd_ops ops;
	pthread_mutex_t lock;
	struct emu_gpu gpus[EMU_MAX_GPUS];
	uint32_t ngpus;
	uint32_t major, minor;
	enum kfdsig_emu_kernel_profile profile;
	bool privileged;
	uint64_t smi_inject; /* spec smi=: SMI events raised on enable (emu_smi.c) */
	/* spec lose-userq-irq: user queues' end-of-pipe interrupts never
	 * reach the userq fence handler (emu_engine.c), an injection */
	bool lose_userq_irq;
	char task_name[32];
	char sysfs[256];
	int alive_fd; /* shared flock on sysfs/.alive while the tree is in use */
	struct emu_file *files;
	struct emu_fdent *fds;
	struct emu_proc *procs;
	enum kfdsig_emu_process_model pmodel;
	/* Told about every client fd added to / removed from the fd table,
	 * with emu->lock held, before a removed fd is closed (emu_host.h). */
	void (*fd_hook)(void *ctx, int fd, bool added);
	void *fd_hook_ctx;
	/* Told why the shader unit stopped a wave (emu_host.h), or NULL. */
	void (*diag)(void *ctx, const char *line);
	void *diag_ctx;
	/* Up-calls of the bottom layer, set at creation (emu.c): free a
	 * process whose last reference went (emu_proc_put: emu_proc_free),
	 * release what a file holds when its last fd went (emu_fd_remove:
	 * emu_file_release). */
	void (*proc_release)(struct emu_proc *p);
	void (*file_release)(struct kfdsig_emu *emu, struct emu_file *f);
	struct kfdsig_emu *fork_next; /* the per-pid emulators (emu_process.c) */
	int next_pasid;
	uint64_t next_mmap_offset;
	/* amdgpu_amdkfd_gpuvm.c kfd_mem_limit: max_system_mem_limit (RAM
	 * less its 16th, emu.c) and what GTT and USERPTR buffers hold of it
	 * (atomic) */
	uint64_t sys_mem_limit, sys_mem_used;
	/* The amdgpu module parameter max_num_of_queues_per_device
	 * (amdgpu_drv.c; default KFD_MAX_NUM_OF_QUEUES_PER_DEVICE_DEFAULT,
	 * 4096, kgd_kfd_interface.h): user queues of all processes on one
	 * GPU. */
	uint32_t max_queues_per_device;
	struct emu_trace trace;
	/* ioctls entered and returned (atomic): the host's stall report */
	uint64_t ioctl_calls;
};

/*
 * The files of src/emu, bottom to top: a file calls only files on lines
 * above its own or before it on its line (scripts/check-cycles.py); the
 * bottom reaches up through emu->proc_release and emu->file_release.
 *   emu_core.c, emu_file.c, emu_uaccess.c, emu_trace.c, emu_gen.c, sq/
 *   emu_smi.c, emu_ioctl_proc.c, emu_sysfs.c, emu_drm.c
 *   emu_mem.c, emu_events.c, emu_debug.c, emu_userq_fence.c
 *   emu_engine.c, emu_wave.c, emu_kernel.c, emu_cp.c, emu_sdma.c, emu_aql.c,
 *   emu_doorbell.c (emu_engine.h)
 *   emu_queue.c, emu_userq.c, emu_ioctl.c, emu_process.c, emu_seam.c, emu.c
 */

/* emu_core.c: the shared lookups */
bool emu_version_at_least(const struct kfdsig_emu *emu, uint32_t minor);
/* emu_events.c: kfdsig_emu_interrupt() raised on the node's logical XCC
 * @xcc (its IH node id, emu_xcc.c); -EINVAL past the node's XCCs. */
int emu_interrupt_xcc(struct kfdsig_emu *emu, int pasid, uint32_t gpu_id,
		      enum kfdsig_emu_irq_source source, uint32_t ctx, uint32_t xcc);
/* queue_percentage bits that are the percentage (emu_core.c). */
uint32_t emu_queue_percentage_mask(const struct kfdsig_emu *emu);
struct emu_gpu *emu_gpu_by_id(struct kfdsig_emu *emu, uint32_t gpu_id);
int emu_gpu_index(struct kfdsig_emu *emu, uint32_t gpu_id); /* -1: none */
/* kfd_process_device_data_by_id + kfd_bind_process_to_device: the GPU
 * index, -EINVAL (no such GPU) or -ENODEV (no VM acquired); p->lock held. */
int emu_bind(struct kfdsig_emu *emu, struct emu_proc *p, uint32_t gpu_id);
struct emu_proc *emu_proc_get(struct kfdsig_emu *emu, int pasid); /* takes a reference */
/* The process whose PASID on device @g is @pasid (kfd_lookup_process_by_pasid(
 * pasid, &pdd)): the IH entry's PASID names a (process, device) pair. */
struct emu_proc *emu_proc_get_on(struct kfdsig_emu *emu, int pasid, const struct emu_gpu *g);
static inline int emu_proc_pasid(const struct emu_proc *p, const struct emu_gpu *g)
{
	return p->dev_pasid[g - p->emu->gpus];
}
void emu_proc_put(struct emu_proc *p);
/* The KFD process of the calling process (per-pid model), with a
 * reference, or NULL. emu->lock held. */
struct emu_proc *emu_proc_of_caller(struct kfdsig_emu *emu);
/* The live (not closed) process after @after in emu->procs (NULL: the
 * first), with a reference, or NULL; takes emu->lock. A walk that holds a
 * reference on the process in hand keeps it, and so its ->next, listed. */
struct emu_proc *emu_proc_next_live(struct kfdsig_emu *emu, struct emu_proc *after);
/* Host clock @id in ns. */
uint64_t emu_host_ns(clockid_t id);
/* The GPU clock counter (KFDSIG_EMU_GPU_CLOCK_HZ). */
uint64_t emu_raw_ns(void);
uint64_t emu_gpu_clock(const struct emu_gpu *g);

/* emu_file.c: files and the fd table */
struct emu_file *emu_file_get(struct kfdsig_emu *emu, int fd); /* emu->lock held */
/* A new file with one client fd (close-on-exec); emu->lock held. */
int emu_file_new(struct kfdsig_emu *emu, enum emu_file_kind kind, struct emu_file **out);
/* Its first client fd. */
int emu_file_fd(struct kfdsig_emu *emu, const struct emu_file *f); /* emu->lock held */
/* Add @fd (already a dup of one of the file's fds) to the table. */
int emu_fd_add(struct kfdsig_emu *emu, struct emu_file *f, int fd); /* emu->lock held */
/* Take @fd out of the table (closing it if @do_close); 0 or -EBADF.
 * Takes emu->lock; releases the file when that was its last fd. */
int emu_fd_remove(struct kfdsig_emu *emu, int fd, bool do_close);

/* emu_seam.c: the seam (emu->ops) and a file's release */
void emu_seam_install(struct kfdsig_emu *emu);
void emu_file_release(struct kfdsig_emu *emu, struct emu_file *f);

/* emu_process.c: a new KFD process (emu->lock held) and its release */
int emu_proc_new(struct kfdsig_emu *emu, struct emu_proc **out);
void emu_proc_free(struct emu_proc *p);

/* emu_sysfs.c */
int emu_sysfs_write(struct kfdsig_emu *emu);
int emu_sysfs_proc_add(struct kfdsig_emu *emu, struct emu_proc *p);
void emu_sysfs_proc_remove(struct emu_proc *p); /* into emu->sysfs */
uint32_t emu_default_device_id(uint32_t gfx_target_version);
/* The product a GPU of @gen stands for: its table entry, or the generic
 * identity (name NULL) the emulator gives GPUs without one. */
void emu_product_of(const struct emu_gen *gen, struct emu_product *out);
/* Node properties of @g as the topology prints them (the debugger's
 * device snapshot reads the same values). */
void emu_sysfs_node_info(const struct kfdsig_emu *emu, const struct emu_gpu *g,
			 uint32_t *location_id, uint32_t *vendor_id, uint32_t *device_id,
			 uint32_t *simd_count, uint32_t *max_waves_per_simd, uint32_t *array_count,
			 uint32_t *simd_arrays_per_engine, uint32_t *capability,
			 uint32_t *debug_prop);
/* The XGMI link from GPU @a to GPU @b (emu_sysfs.c): false when there is
 * none; else its weight and bandwidths (MB/s) as the topology reports. */
struct emu_xgmi_link {
	uint32_t weight, min_mbs, max_mbs;
};
bool emu_xgmi_link(const struct kfdsig_emu *emu, const struct emu_gpu *a, const struct emu_gpu *b,
		   struct emu_xgmi_link *out);
/* The capability word of @g's node (kfd_topology_add_device()). */
uint32_t emu_sysfs_node_caps(const struct kfdsig_emu *emu, const struct emu_gpu *g);

/* emu_drm.c: a render node's DRM ioctls */
int emu_drm_ioctl(struct kfdsig_emu *emu, struct emu_gpu *g, unsigned long cmd, void *arg);

/* emu_ioctl_proc.c: process-setup ioctls, doorbell/MMIO buffers */
typedef int (*emu_ioctl_fn)(struct kfdsig_emu *emu, struct emu_proc *p, void *data);
struct emu_ioctl_ext {
	unsigned long cmd;
	emu_ioctl_fn fn;    /* NULL: known to the ABI, not emulated yet */
	uint32_t min_minor; /* first KFD 1.x minor that has it */
};
const struct emu_ioctl_ext *emu_ioctl_ext_find(unsigned nr);
/* kfd_flat_memory.c: the apertures of a process device on @g. */
void emu_gpu_apertures(const struct emu_gpu *g, struct kfd_process_device_apertures *a);
int emu_alloc_special(struct kfdsig_emu *emu, struct emu_proc *p, uint32_t gi,
		      struct kfd_ioctl_alloc_memory_of_gpu_args *a, struct emu_bo *bo);
int emu_mmio_mmap(struct kfdsig_emu *emu, void **out, void *addr, size_t len, int prot, int flags,
		  uint64_t off);

/* emu_ioctl.c: the /dev/kfd ioctl dispatch */
int emu_ioctl(struct kfdsig_emu *emu, int fd, unsigned long req, void *arg);

/* emu_mem.c: buffer memory (the memory ioctls' handlers, p->lock not held) */
struct emu_bo *emu_bo_by_handle(struct emu_proc *p, uint64_t handle);
void emu_proc_free_memory(struct emu_proc *p);
/* Does a queue of @p use @bo (ring, pointers, EOP, context save)? */
bool emu_bo_in_queue_use(struct emu_proc *p, const struct emu_bo *bo);
int emu_render_mmap(struct kfdsig_emu *emu, struct emu_file *f, void **out, void *addr, size_t len,
		    int prot, int flags, uint64_t off);
int emu_acquire_vm(struct kfdsig_emu *emu, struct emu_proc *p, void *data);
int emu_alloc_memory(struct kfdsig_emu *emu, struct emu_proc *p, void *data);
/* dma-buf export and import of VRAM / GTT buffers (emu_mem.c) */
int emu_export_dmabuf(struct kfdsig_emu *emu, struct emu_proc *p, void *data);
int emu_get_dmabuf_info(struct kfdsig_emu *emu, struct emu_proc *p, void *data);
int emu_import_dmabuf(struct kfdsig_emu *emu, struct emu_proc *p, void *data);
int emu_free_memory(struct kfdsig_emu *emu, struct emu_proc *p, void *data);
int emu_map_memory(struct kfdsig_emu *emu, struct emu_proc *p, void *data);
int emu_unmap_memory(struct kfdsig_emu *emu, struct emu_proc *p, void *data);

/* emu_events.c (called with p->lock held unless noted) */
void emu_events_init(struct emu_proc *p);
void emu_events_fini(struct emu_proc *p);
int emu_create_event(struct emu_proc *p, struct kfd_ioctl_create_event_args *a);
int emu_destroy_event(struct emu_proc *p, uint32_t id);
int emu_set_event_ioctl(struct emu_proc *p, uint32_t id);
int emu_reset_event_ioctl(struct emu_proc *p, uint32_t id);
/* Bracket a p->lock section that may signal events: wakes collected
 * inside are delivered at the outermost emu_wake_end(), after the unlock
 * (no locks needed; per thread). */
void emu_wake_begin(void);
void emu_wake_end(void);
/* Takes and drops p->lock itself (it sleeps). */
int emu_wait_events(struct emu_proc *p, struct kfd_ioctl_wait_events_args *a);
uint32_t emu_events_stalled(struct emu_proc *p, uint64_t now_ns, uint64_t horizon_ns, uint32_t *ids,
			    uint32_t max, uint32_t *nids);
int emu_event_mmap(struct emu_proc *p, void **out, void *addr, size_t len, int prot, int flags);

/* The engines that take render-node user queues, 1 << AMDGPU_HW_IP_* (the
 * device info's userq_ip_mask, amdgpu_userq_get_supported_ip_mask(): the
 * engines with userq_funcs). The user_queue parameter first: -1 and 0
 * leave them off (gfx_v11_0.c / gfx_v12_0.c *_early_init() set
 * gfx.disable_uq, sdma_v6_0.c / sdma_v7_0.c sdma.disable_uq), 1 and 2 on.
 * GFX and compute together: gfx_v11_0.c gfx_v11_0_sw_init() for GC
 * 11.0.0, 11.0.2, 11.0.3 from MEC firmware 2600 (with ME 2390, PFP 2530,
 * MES 120); gfx_v12_0.c gfx_v12_0_sw_init() for GC 12.0.x from MEC 3050
 * (ME 2780, PFP 2840, MES 123). The emulator knows the MEC version only
 * and takes the others as of the same release. SDMA: sdma_v6_0.c
 * sdma_v6_0_sw_init() SDMA 6.0.0 and 6.0.3 from firmware 27, 6.0.2 from
 * 23 (commit 2d41a4bfee6e; a later proposal raises 6.0.3 to 29:
 * UNVERIFIED); sdma_v7_0.c sdma_v7_0_sw_init() 7.0.0 and 7.0.1 from
 * 7966358. */
#define EMU_HW_IP_GFX 0
#define EMU_HW_IP_COMPUTE 1
#define EMU_HW_IP_DMA 2
static inline uint32_t emu_userq_ip_mask(const struct emu_gpu *g)
{
	const uint8_t *gc = g->gen.gc, *sd = g->gen.sdma;
	uint32_t m = 0;

	if (g->user_queue != 1 && g->user_queue != 2)
		return 0;
	if ((gc[0] == 11 && gc[1] == 0 && (gc[2] == 0 || gc[2] == 2 || gc[2] == 3) &&
	     g->mec_fw >= 2600) ||
	    (gc[0] == 12 && gc[1] == 0 && g->mec_fw >= 3050))
		m |= 1u << EMU_HW_IP_GFX | 1u << EMU_HW_IP_COMPUTE;
	if ((sd[0] == 6 && sd[1] == 0 && (sd[2] == 0 || sd[2] == 3) && g->sdma_fw >= 27) ||
	    (sd[0] == 6 && sd[1] == 0 && sd[2] == 2 && g->sdma_fw >= 23) ||
	    (sd[0] == 7 && sd[1] == 0 && sd[2] <= 1 && g->sdma_fw >= 7966358))
		m |= 1u << EMU_HW_IP_DMA;
	return m;
}

/* emu_userq_fence.c: user-queue fence drivers and the seq64 slots */
struct emu_fence_drv;
/* @timeout_ms: the queue's hang-detection timeout (< 0: none) */
int emu_fence_drv_new(const struct emu_gpu *g, uint32_t doorbell, int64_t timeout_ms,
		      struct emu_fence_drv **out);
void emu_fence_drv_get(struct emu_fence_drv *d);
void emu_fence_drv_put(struct emu_fence_drv *d);
void emu_fence_drv_detach(struct emu_fence_drv *d);
void emu_fence_drv_signal(struct emu_fence_drv *d, uint64_t seq);
bool emu_fence_drv_hung(const struct emu_fence_drv *d);
int emu_fence_error(const struct emu_fence_drv *d, uint64_t seq);
void emu_fence_replace(bool *has, struct emu_fence_drv **drv, uint64_t *seq,
		       struct emu_fence_drv *nd, uint64_t nseq);
uint64_t emu_fence_drv_va(const struct emu_fence_drv *d);
void emu_fence_drv_write(struct emu_fence_drv *d, uint64_t v);
uint64_t emu_fence_drv_read(const struct emu_fence_drv *d);
const uint64_t *emu_seq64_ptr(const struct emu_gpu *g, uint64_t va);
bool emu_seq64_contains(uint64_t va);
void emu_userq_fence_irq(const struct emu_gpu *g, uint32_t doorbell);
bool emu_fence_signaled(const struct emu_fence_drv *d, uint64_t seq);
bool emu_fence_signaled_locked(const struct emu_fence_drv *d, uint64_t seq);
int emu_fence_wait(int (*check)(void *ctx), void *ctx, int64_t abs_ns);

/* emu_userq.c: the render node's GEM doorbells, user queues, syncobjs.
 * emu_userq_ioctl: -ENOIOCTLCMD for an ioctl it does not handle. */
#define EMU_ENOIOCTLCMD 515
int emu_userq_ioctl(struct kfdsig_emu *emu, struct emu_file *f, unsigned long cmd, void *arg);
int emu_userq_mmap(struct emu_file *f, void **out, void *addr, size_t len, int prot, int flags,
		   uint64_t off);
void emu_userq_file_release(struct kfdsig_emu *emu, struct emu_file *f);
/* An exported sync_file (EMU_FILE_SYNC): SYNC_IOC_FILE_INFO; release. */
int emu_sync_file_ioctl(struct emu_file *f, unsigned long cmd, void *arg);
void emu_sync_file_release(struct emu_file *f);

/* emu_queue.c */
int emu_create_queue(struct kfdsig_emu *emu, struct emu_proc *p, void *data);
/* kfd_device.c: the device's cwsr_enabled, supports_cwsr from
 * gfx_target_version 8.0.1 (Carrizo) on; emu_queue.c sizes the context
 * save area only then. */
static inline bool emu_queue_cwsr_enabled(const struct emu_gpu *g)
{
	return g->gen.gfxv >= 80001;
}
int emu_destroy_queue(struct kfdsig_emu *emu, struct emu_proc *p, void *data);
int emu_doorbell_mmap(struct kfdsig_emu *emu, struct emu_proc *p, void **out, void *addr,
		      size_t len, int prot, int flags, uint64_t off);
void emu_queues_fini(struct emu_proc *p); /* stop every engine; no locks held */

/* emu_doorbell.c: a queue's engine thread */
/* emu_engine.c: store @pos (the queue's units) as the read pointer the
 * client reads (emu_doorbell.c's format notes); publish the read pointer
 * as past the packet the engine runs (q->fetched), as the CP's fetch has
 * passed it, before the packet's end-of-pipe interrupt. */
void emu_engine_publish_rptr(struct emu_queue *q, uint64_t pos);
void emu_engine_publish_fetched(struct emu_queue *q);
void emu_engine_irq_flush(struct emu_queue *q);
int emu_engine_start(struct emu_queue *q);
void emu_engine_stop(struct emu_queue *q);
/* Could the queue's engine still do something the program did not ask
 * for since (a packet it takes or may fetch, a debugger's suspend)? */
bool emu_engine_busy(struct emu_queue *q);
/* Tests: the engines' fallback doorbell poll periods in ns (<= 0: default). */
void emu_engine_set_fallback(long fast_ns, long slow_ns);

/* emu_trace.c: record one interrupt (assigns r->seq); no lock held. */
void emu_trace_add(struct kfdsig_emu *emu, struct kfdsig_emu_irq_record *r);
/* emu_process.c: the emulator's fork handling (per-pid model) */
void emu_fork_register(struct kfdsig_emu *emu);
void emu_fork_unregister(struct kfdsig_emu *emu);
/* emu_uaccess.c: the emulated kernel's user-memory access. Every pointer a
 * caller hands the emulated KFD (ioctl argument, arrays behind it) is read
 * and written through these, never dereferenced: a bad pointer gives
 * -EFAULT as in the kernel instead of a crash.
 *   emu_access_ok: the kernel's access_ok(addr, len): the range lies below
 *     the user/kernel split (no access is made);
 *   emu_copy_from_user / emu_copy_to_user: 0, or -EFAULT when any byte is
 *     out of the user half, unmapped, or (to_user) not writable; a 0-byte
 *     copy always succeeds (NULL included), as in the kernel.
 *   emu_uaccess_force_pipe: tests only, use the fallback path;
 *   emu_uaccess_syscopies: tests only, the copies the calling thread made
 *     with a system call (every copy not from or to its live stack). */
/* KMALLOC_MAX_SIZE with 4 KiB pages and MAX_PAGE_ORDER 10
 * (include/linux/slab.h): the largest kcalloc/kmalloc_array the kernel's
 * ioctls can make; a bigger user count fails with -ENOMEM before reading. */
#define EMU_KMALLOC_MAX (4ull << 20)
bool emu_access_ok(uint64_t addr, uint64_t len);
int emu_copy_from_user(void *dst, const void *usrc, size_t len);
int emu_copy_to_user(void *udst, const void *src, size_t len);
int emu_uaccess_force_pipe(bool on);
unsigned long emu_uaccess_syscopies(void);
/* Bracket an ioctl: @frame is the entry's __builtin_frame_address(0); the
 * stack below it is the emulator's own (no user access reaches it). */
void emu_uaccess_enter(uintptr_t frame);
void emu_uaccess_leave(void);
/* [addr, addr+len) mapped readable and writable now (userptr buffers). */
bool emu_user_range_rw(uint64_t addr, uint64_t len);

/* emu_smi.c */
int emu_smi_open(struct kfdsig_emu *emu, struct emu_gpu *g, struct emu_proc *p, int *fd);
void emu_smi_release(struct emu_smi *s);
/* fork: lock / unlock every client of @g (after g->smi_lock), and in the
 * child forget them (they belong to the parent's files). */
void emu_smi_fork_lock(struct emu_gpu *g, bool lock);
void emu_smi_fork_child(struct emu_gpu *g);
ssize_t emu_smi_read(struct emu_smi *s, void *buf, size_t len);
ssize_t emu_smi_write(struct emu_smi *s, const void *buf, size_t len);
/* The cause text of the emulator's GPU resets in their SMI lines. */
#define EMU_RESET_CAUSE_HANG "HANG"
#define EMU_RESET_CAUSE_RAS "RAS"
/* The body of an SMI event line per KFD_EVENT_FMT_*; length or -EINVAL. */
int emu_smi_format(uint32_t type, uint32_t gpu_id, const struct kfdsig_emu_smi_args *a, char *body,
		   size_t size, pid_t *filter);
/* Add a formatted line; filter_pid 0 goes to every enabled client. */
int emu_smi_add(struct emu_gpu *g, pid_t filter_pid, uint32_t type, const char *body,
		size_t body_len);

#endif
