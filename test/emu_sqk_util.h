/* SPDX-License-Identifier: MIT */
/*
 * Compiled kernels on the emulated KFD, for the shader unit's tests and
 * bench: test/kernels/sqk_kernels.ll compiled with LLVM 22 (opt, llc,
 * ld.lld) for a target at -O0 or -O3, the code object loaded into a GPU
 * buffer (its PT_LOAD segments at their virtual addresses; kernel
 * descriptors found by their "<name>.kd" symbols), and AQL dispatches of
 * its kernels through a real AQL queue of the emulated KFD, each waited for
 * on its completion signal (an amd_signal_t written by hand: kind at 0,
 * value at 8; ROCr amd_hsa_signal.h) or on the queue stopping, whichever
 * comes first (or, after krig_pm4(), through a PM4 compute queue with
 * kfdsig_pm4_emit_kernel()'s packets, waited for until the queue is idle);
 * and one wave run by sqk_run() alone with a trap handler
 * run as code (struct trig).
 */
#ifndef KFDSIG_TEST_EMU_SQK_UTIL_H
#define KFDSIG_TEST_EMU_SQK_UTIL_H

#include <elf.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kfdsig/aql.h>
#include <kfdsig/pm4.h>

#include "emu/sq/sqk.h"
#include "kfd_util.h"

#ifndef KFDSIG_LLVM22_BIN
#define KFDSIG_LLVM22_BIN "/usr/lib/llvm-22/bin"
#endif

struct kco {
	uint8_t *img;
	size_t size;
	unsigned nkd;
	struct {
		char name[48];
		uint64_t off;
	} kd[32];
};

/* True (having printed the SKIP line) when llvm-mc 22 or llvm-objcopy 22,
 * which kco_asm_text() needs, is missing. */
static inline bool kco_asm_missing(void)
{
	if (access(KFDSIG_LLVM22_BIN "/llvm-mc", X_OK) == 0 &&
	    access(KFDSIG_LLVM22_BIN "/llvm-objcopy", X_OK) == 0)
		return false;
	printf("SKIP: no LLVM 22 in %s\n", KFDSIG_LLVM22_BIN);
	return true;
}

/* Assemble @src with llvm-mc 22 for @mcpu (@opts: more options, may be
 * "") and copy its .text into @code (@cap bytes, zeroed first). Return the
 * bytes copied, 0 when LLVM fails. */
static inline size_t kco_asm_text(const char *src, const char *mcpu, const char *opts,
				  uint8_t *code, size_t cap)
{
	char dir[] = "/tmp/kfdsig-sqk-asm-XXXXXX", cmd[1024];
	FILE *f;
	size_t n = 0;

	if (!mkdtemp(dir))
		return 0;
	snprintf(cmd, sizeof(cmd), "%s/k.s", dir);
	f = fopen(cmd, "w");
	if (f) {
		fputs(src, f);
		fclose(f);
		snprintf(cmd, sizeof(cmd),
			 "%s/llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=%s %s -filetype=obj %s/k.s "
			 "-o %s/k.o && %s/llvm-objcopy -O binary --only-section=.text %s/k.o "
			 "%s/k.bin",
			 KFDSIG_LLVM22_BIN, mcpu, opts, dir, dir, KFDSIG_LLVM22_BIN, dir, dir);
		if (system(cmd) == 0) {
			snprintf(cmd, sizeof(cmd), "%s/k.bin", dir);
			f = fopen(cmd, "rb");
			if (f) {
				memset(code, 0, cap);
				n = fread(code, 1, cap, f);
				fclose(f);
			}
		}
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 0;
	return n;
}

static inline bool kco_llvm(void)
{
	return access(KFDSIG_LLVM22_BIN "/llc", X_OK) == 0 &&
	       access(KFDSIG_LLVM22_BIN "/opt", X_OK) == 0 &&
	       access(KFDSIG_LLVM22_BIN "/ld.lld", X_OK) == 0;
}

/* Compile @ll for @mcpu (@attrs: extra llc -mattr, may be "") at -O@opt. */
static inline int kco_build(const char *ll, const char *mcpu, const char *attrs, int opt,
			    struct kco *co)
{
	char dir[] = "/tmp/kfdsig-sqk-XXXXXX", cmd[2048], path[512];
	FILE *f;
	long n;
	Elf64_Ehdr *eh;
	int rc = -1;

	memset(co, 0, sizeof(*co));
	if (!mkdtemp(dir))
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "%s/opt -O%d -mtriple=amdgcn-amd-amdhsa -mcpu=%s %s%s '%s' -o %s/k.bc && "
		 "%s/llc -O%d -mtriple=amdgcn-amd-amdhsa -mcpu=%s %s%s -filetype=obj %s/k.bc "
		 "-o %s/k.o && %s/ld.lld -shared %s/k.o -o %s/k.hsaco",
		 KFDSIG_LLVM22_BIN, opt ? 3 : 0, mcpu, *attrs ? "-mattr=" : "", attrs, ll, dir,
		 KFDSIG_LLVM22_BIN, opt, mcpu, *attrs ? "-mattr=" : "", attrs, dir, dir,
		 KFDSIG_LLVM22_BIN, dir, dir);
	if (system(cmd) != 0)
		goto out;
	snprintf(path, sizeof(path), "%s/k.hsaco", dir);
	f = fopen(path, "rb");
	if (!f)
		goto out;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	{
		uint8_t *file = malloc((size_t)n);
		Elf64_Phdr *ph;
		Elf64_Shdr *sh;

		if (!file || fread(file, 1, (size_t)n, f) != (size_t)n) {
			free(file);
			fclose(f);
			goto out;
		}
		fclose(f);
		eh = (Elf64_Ehdr *)file;
		ph = (Elf64_Phdr *)(file + eh->e_phoff);
		for (unsigned i = 0; i < eh->e_phnum; i++)
			if (ph[i].p_type == PT_LOAD && ph[i].p_vaddr + ph[i].p_memsz > co->size)
				co->size = ph[i].p_vaddr + ph[i].p_memsz;
		co->img = calloc(1, co->size);
		for (unsigned i = 0; i < eh->e_phnum; i++)
			if (ph[i].p_type == PT_LOAD)
				memcpy(co->img + ph[i].p_vaddr, file + ph[i].p_offset,
				       ph[i].p_filesz);
		sh = (Elf64_Shdr *)(file + eh->e_shoff);
		for (unsigned i = 0; i < eh->e_shnum; i++) {
			Elf64_Sym *sym;
			const char *str;

			if (sh[i].sh_type != SHT_SYMTAB)
				continue;
			sym = (Elf64_Sym *)(file + sh[i].sh_offset);
			str = (const char *)file + sh[sh[i].sh_link].sh_offset;
			for (size_t k = 0; k < sh[i].sh_size / sizeof(*sym) && co->nkd < 32; k++) {
				const char *nm = str + sym[k].st_name;
				size_t len = strlen(nm);

				if (len > 3 && len < 48 && strcmp(nm + len - 3, ".kd") == 0) {
					memcpy(co->kd[co->nkd].name, nm, len - 3);
					co->kd[co->nkd].name[len - 3] = 0;
					co->kd[co->nkd++].off = sym[k].st_value;
				}
			}
		}
		free(file);
		rc = co->img && co->nkd ? 0 : -1;
	}
out:
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		rc = -1;
	return rc;
}

static inline void kco_free(struct kco *co)
{
	free(co->img);
	co->img = NULL;
}

/* The emulated GPU, an AQL queue, one buffer for code, arguments, data. */
struct krig {
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
	uint32_t gpu;
	const struct kfdsig_kfd_bo *mem;
	uint8_t *cpu;
	uint64_t va, used, size, code_va;
	struct kfdsig_kfd_queue *q;
	const struct kco *co;
	int pasid;
	const struct kfdsig_kfd_bo *scratch;
	/* krig_pm4(): dispatches through this PM4 compute queue instead */
	struct kfdsig_kfd_queue *pm4;
	const struct kfdsig_target *t;
	uint64_t pm4_scratch_va, pm4_scratch_size;
	unsigned refused; /* dispatches kfdsig_pm4_emit_kernel() refused (-ENOTSUP) */
	char refused_why[160];
	/* when set, krig_run3() dispatches through it (a test's own queue and
	 * packets); -ECANCELED from it: not run, after an earlier failure */
	int (*run3)(struct krig *r, const char *name, const uint32_t grid[3], const uint32_t wg[3],
		    const void *args, size_t nargs, unsigned ms);
};

/* The AQL queue's scratch: 16 waves of 4 KiB per work-item. */
#define KRIG_SCRATCH_LANE 4096u
#define KRIG_SCRATCH_BYTES (16u * 64u * KRIG_SCRATCH_LANE)

/* krig_open() with a scratch of @scratch bytes for each XCC of the node
 * (as ROCr sizes it: each XCC's CP takes its own share), @lane per
 * work-item (the buffer behind it 1 MiB longer: a wave beyond it does not
 * fault). */
static inline void krig_open_scratch(struct krig *r, const char *spec, uint64_t size,
				     uint64_t scratch, uint32_t lane);

static inline void krig_open(struct krig *r, const char *spec, uint64_t size)
{
	krig_open_scratch(r, spec, size, KRIG_SCRATCH_BYTES, KRIG_SCRATCH_LANE);
}

static inline void krig_open_scratch(struct krig *r, const char *spec, uint64_t size,
				     uint64_t scratch, uint32_t lane)
{
	memset(r, 0, sizeof(*r));
	r->emu = t_emu(spec);
	r->kfd = t_open(r->emu);
	r->gpu = t_gpu(r->kfd, 0);
	r->size = size;
	T_REQUIRE(!kfdsig_kfd_alloc(r->kfd, r->gpu, size, KFDSIG_KFD_MEM_GTT_UNCACHED, &r->mem) &&
			  !kfdsig_kfd_map(r->kfd, r->mem, NULL, 0),
		  "memory");
	r->cpu = r->mem->cpu;
	r->va = r->mem->va;
	memset(r->cpu, 0, size);
	if (kfdsig_kfd_device(r->kfd, 0)->num_xcc > 1)
		scratch *= kfdsig_kfd_device(r->kfd, 0)->num_xcc;
	T_REQUIRE(!kfdsig_kfd_alloc(r->kfd, r->gpu, scratch + (1u << 20),
				    KFDSIG_KFD_MEM_GTT_UNCACHED, &r->scratch) &&
			  !kfdsig_kfd_map(r->kfd, r->scratch, NULL, 0),
		  "scratch");
	{
		KFDSIG_OPTS(kfdsig_queue_opts, qo, .scratch_va = r->scratch->va,
			    .scratch_size = scratch, .scratch_lane_bytes = lane);

		T_REQUIRE(!kfdsig_kfd_queue_create(r->kfd, r->gpu, KFDSIG_QUEUE_AQL, &qo, &r->q),
			  "AQL queue");
	}
	r->pasid = t_pasid(r->emu, r->kfd);
}

/* True when the emulated queue behind @q stopped (a VM fault, a wave
 * exception, a bad packet): no dispatch on it completes any more. Its
 * exception (KFDSIG_EMU_QUEUE_*) in *exc. */
static inline bool krig_halted(const struct krig *r, const struct kfdsig_kfd_queue *q,
			       uint32_t *exc)
{
	struct kfdsig_emu_queue_info qi = { 0 };

	if (kfdsig_emu_queue_info(r->emu, r->pasid, (uint32_t)kfdsig_kfd_queue_id(q), &qi) != 0)
		return false;
	*exc = qi.exception;
	return qi.halted;
}

/* Wait up to @ms for the engine of @q to consume all that was submitted,
 * in slices, giving up at once when the queue stopped. Return 0, -EIO
 * (stopped; its exception in *exc), -ETIMEDOUT. */
static inline int krig_wait_idle(const struct krig *r, struct kfdsig_kfd_queue *q, unsigned ms,
				 uint32_t *exc)
{
	uint64_t t0 = t_now_ms();

	*exc = 0;
	for (;;) {
		if (kfdsig_kfd_queue_wait_idle(q, 20) == 0)
			return 0;
		if (krig_halted(r, q, exc))
			return -EIO;
		if (t_now_ms() - t0 > ms)
			return -ETIMEDOUT;
	}
}

static inline void krig_close(struct krig *r)
{
	if (r->pm4)
		kfdsig_kfd_queue_destroy(r->pm4);
	if (r->q)
		kfdsig_kfd_queue_destroy(r->q);
	kfdsig_kfd_close(r->kfd);
	kfdsig_emu_destroy(r->emu);
}

/* Bump allocation in the buffer (256-byte aligned): host pointer, *va. */
static inline void *krig_alloc(struct krig *r, uint64_t n, uint64_t *va)
{
	uint64_t off = (r->used + 255) & ~255ull;

	T_REQUIRE(off + n <= r->size, "buffer space");
	r->used = off + n;
	*va = r->va + off;
	return r->cpu + off;
}

static inline void krig_load(struct krig *r, const struct kco *co)
{
	uint64_t va;
	void *p = krig_alloc(r, co->size + 4096, &va);

	va = (va + 4095) & ~4095ull;
	p = r->cpu + (va - r->va);
	memcpy(p, co->img, co->size);
	r->code_va = va;
	r->co = co;
}

static inline uint64_t krig_kd(const struct krig *r, const char *name)
{
	for (unsigned i = 0; i < r->co->nkd; i++)
		if (strcmp(r->co->kd[i].name, name) == 0)
			return r->code_va + r->co->kd[i].off;
	T_REQUIRE(0, "kernel %s", name);
	return 0;
}

/* Later dispatches of krig_run3() go through a PM4 compute queue of the
 * emulated KFD, their packets written by kfdsig_pm4_emit_kernel() for the
 * target @spec names: the dispatch packet's image at the dispatch pointer
 * (the kernels read their workgroup size there), a scratch of @scratch
 * bytes (COMPUTE_TMPRING_SIZE) in the buffer. */
static inline void krig_pm4(struct krig *r, const char *spec, uint64_t scratch)
{
	uint8_t *s;

	r->t = kfdsig_target_by_name(spec);
	T_REQUIRE(r->t, "target %s", spec);
	T_REQUIRE(!kfdsig_kfd_queue_create(r->kfd, r->gpu, KFDSIG_QUEUE_PM4, NULL, &r->pm4),
		  "PM4 queue");
	s = krig_alloc(r, scratch, &r->pm4_scratch_va);
	memset(s, 0, scratch);
	r->pm4_scratch_size = scratch;
}

/* The dispatch of the kernel whose descriptor is at @kd_va over @grid
 * work-items in workgroups of @wg, kernel arguments at @karg_va, segment
 * sizes from the descriptor, completion signal @sig_va (0: none), as
 * kfdsig_aql_emit_dispatch() takes it. */
static inline struct kfdsig_aql_dispatch krig_aql_dispatch(const struct krig *r, uint64_t kd_va,
							   const uint32_t grid[3],
							   const uint32_t wg[3], uint64_t karg_va,
							   uint64_t sig_va)
{
	const uint8_t *kd = r->cpu + (kd_va - r->va);
	uint32_t lds, priv;

	memcpy(&lds, kd, 4);
	memcpy(&priv, kd + 4, 4);
	return (struct kfdsig_aql_dispatch)KFDSIG_OPTS_INIT(
		kfdsig_aql_dispatch,
		.dims = grid[2] > 1   ? 3
			: grid[1] > 1 ? 2
				      : 1,
		.workgroup = { (uint16_t)wg[0], (uint16_t)wg[1], (uint16_t)wg[2] },
		.grid = { grid[0], grid[1], grid[2] }, .private_segment_size = priv,
		.group_segment_size = lds, .kernel_object = kd_va, .kernarg_address = karg_va,
		.completion_signal = sig_va);
}

/* The XCCs of the rig's KFD node (kfdsig_pm4_kernel.num_xcc). */
static inline uint32_t krig_num_xcc(const struct krig *r)
{
	return kfdsig_kfd_device_by_gpu_id(r->kfd, r->gpu)->num_xcc;
}

/* The shader engines of the rig's KFD node (kfdsig_pm4_kernel.num_se):
 * its topology array_count / simd_arrays_per_engine, as libhsakmt
 * topology.c computes NumShaderBanks. */
static inline uint16_t krig_num_se(const struct krig *r)
{
	const struct kfdsig_kfd_device *d = kfdsig_kfd_device_by_gpu_id(r->kfd, r->gpu);

	return d->simd_arrays_per_engine ? (uint16_t)(d->array_count / d->simd_arrays_per_engine)
					 : 0;
}

/* The PM4 dispatch of the kernel whose descriptor is at @kd_va, as
 * kfdsig_pm4_emit_kernel() takes it: over @grid work-items in workgroups
 * of @wg, kernel arguments at @karg_va, the dispatch packet's image in a
 * new buffer at the dispatch pointer (the kernels read their workgroup
 * size there), dispatch id 7, a scratch of @scratch_size bytes at
 * @scratch_va, the node's XCCs and shader engines. */
static inline struct kfdsig_pm4_kernel krig_pm4_kernel(struct krig *r, uint64_t kd_va,
						       const uint32_t grid[3], const uint32_t wg[3],
						       uint64_t karg_va, uint64_t scratch_va,
						       uint64_t scratch_size)
{
	uint64_t dp_va;
	uint32_t *dp = krig_alloc(r, 64, &dp_va);
	struct kfdsig_aql_dispatch a = krig_aql_dispatch(r, kd_va, grid, wg, karg_va, 0);

	T_REQUIRE(kfdsig_aql_emit_dispatch(dp, &a, 0) == 64, "dispatch packet image");
	return (struct kfdsig_pm4_kernel)KFDSIG_OPTS_INIT(
		kfdsig_pm4_kernel, .kd = r->cpu + (kd_va - r->va), .kd_va = kd_va,
		.grid = { grid[0], grid[1], grid[2] },
		.workgroup = { (uint16_t)wg[0], (uint16_t)wg[1], (uint16_t)wg[2] },
		.kernarg_va = karg_va, .dispatch_va = dp_va, .dispatch_id = 7,
		.scratch_va = scratch_va, .scratch_size = scratch_size, .num_xcc = krig_num_xcc(r),
		.num_se = krig_num_se(r));
}

/* krig_run3() on the PM4 queue: the engine idle is the dispatch done.
 * -ENOTSUP when the emitter refuses the dispatch on the target (counted
 * in r->refused, its reason in r->refused_why). */
static inline int krig_run3_pm4(struct krig *r, uint64_t kd_va, const uint32_t grid[3],
				const uint32_t wg[3], uint64_t karg_va, unsigned ms)
{
	uint32_t buf[KFDSIG_PM4_KERNEL_MAX_DW], exc;
	int n;

	{
		struct kfdsig_pm4_kernel k = krig_pm4_kernel(
			r, kd_va, grid, wg, karg_va, r->pm4_scratch_va, r->pm4_scratch_size);

		n = kfdsig_pm4_emit_kernel(r->t, &k, buf, KFDSIG_PM4_KERNEL_MAX_DW);
	}
	if (n == -ENOTSUP) {
		r->refused++;
		snprintf(r->refused_why, sizeof(r->refused_why), "%s", kfdsig_last_error());
		return n;
	}
	if (n <= 0) {
		fprintf(stderr, "kfdsig_pm4_emit_kernel: %d (%s)\n", n, kfdsig_last_error());
		return n < 0 ? n : -EINVAL;
	}
	T_REQUIRE(kfdsig_kfd_queue_submit(r->pm4, buf, (uint32_t)n, ms) == 0, "submit");
	n = krig_wait_idle(r, r->pm4, ms, &exc);
	if (n == -EIO)
		fprintf(stderr, "the PM4 queue stopped (exception %u)\n", exc);
	return n;
}

/* Dispatch @name over @grid work-items in workgroups of @wg (3D) with the
 * kernel arguments @args (@nargs bytes); wait up to @ms for completion.
 * Return 0 when it completed, -EIO as soon as the queue stopped (a fault:
 * the dispatch never completes; said on stderr), -ETIMEDOUT otherwise;
 * on a PM4 queue (krig_pm4()) -ENOTSUP too. */
static inline int krig_run3(struct krig *r, const char *name, const uint32_t grid[3],
			    const uint32_t wg[3], const void *args, size_t nargs, unsigned ms)
{
	uint64_t kd_va, karg_va, sig_va;
	uint8_t *karg;
	int64_t *sig;
	uint32_t d[16] = { 0 };
	uint64_t t0 = t_now_ms();

	if (r->run3)
		return r->run3(r, name, grid, wg, args, nargs, ms);
	kd_va = krig_kd(r, name);
	karg = krig_alloc(r, 512, &karg_va);
	sig = krig_alloc(r, 64, &sig_va);
	memset(karg, 0, 512);
	memcpy(karg, args, nargs);
	if (r->pm4)
		return krig_run3_pm4(r, kd_va, grid, wg, karg_va, ms);
	memset(sig, 0, 64);
	sig[0] = 1; /* AMD_SIGNAL_KIND_USER */
	sig[1] = 1;
	{
		struct kfdsig_aql_dispatch a =
			krig_aql_dispatch(r, kd_va, grid, wg, karg_va, sig_va);

		T_REQUIRE(kfdsig_aql_emit_dispatch(
				  d, &a,
				  KFDSIG_AQL_ACQUIRE(KFDSIG_AQL_SCOPE_SYSTEM) |
					  KFDSIG_AQL_RELEASE(KFDSIG_AQL_SCOPE_SYSTEM)) == 64,
			  "dispatch packet");
	}
	T_REQUIRE(kfdsig_kfd_queue_submit(r->q, d, 16, ms) == 0, "submit");
	for (unsigned n = 0; __atomic_load_n(&sig[1], __ATOMIC_ACQUIRE) != 0; n++) {
		uint32_t exc;

		/* the queue's state every few milliseconds (it takes the
		 * process lock the engine takes too) */
		if (n % 32 == 31 && krig_halted(r, r->q, &exc)) {
			fprintf(stderr, "%s: the queue stopped (exception %u)\n", name, exc);
			return -EIO;
		}
		if (t_now_ms() - t0 > ms)
			return -ETIMEDOUT;
		usleep(100);
	}
	return 0;
}

static inline int krig_run(struct krig *r, const char *name, uint32_t grid, uint32_t wg,
			   const void *args, size_t nargs, unsigned ms)
{
	const uint32_t g[3] = { grid, 1, 1 }, w[3] = { wg, 1, 1 };

	return krig_run3(r, name, g, w, args, nargs, ms);
}

/* ---- sqk_run() alone: a GPU VM of host ranges, a 1D dispatch ----------- */

struct tvm_range {
	uint64_t va;
	void *host;
	size_t len;
	bool ro; /* a write fails with *ro set */
};

struct tvm {
	const struct tvm_range *r;
	size_t n;
};

/* sqk_env.xlate over the struct tvm in @ctx: [va, va + len) within one
 * range. */
static inline void *tvm_xlate(void *ctx, uint64_t va, uint32_t len, bool write, bool *ro)
{
	const struct tvm *vm = ctx;

	*ro = false;
	for (size_t i = 0; i < vm->n; i++) {
		const struct tvm_range *m = &vm->r[i];

		if (va < m->va || len > m->len || va - m->va > m->len - len)
			continue;
		if (write && m->ro) {
			*ro = true;
			return NULL;
		}
		return (uint8_t *)m->host + (va - m->va);
	}
	return NULL;
}

/* @d: a dispatch of the code at @entry for the family of @gfxv, @wg
 * work-items per workgroup and @grid in all along X, 16 VGPRs, the 16
 * user SGPRs of a PM4 dispatch (rsrc2 0; the caller sets user_data).
 * Return: false when the interpreter does not run the family. */
static inline bool tvm_dispatch(struct sqk_dispatch *d, uint32_t gfxv, uint64_t entry, uint32_t wg,
				uint32_t grid)
{
	memset(d, 0, sizeof(*d));
	d->fam = sqk_family_of(gfxv);
	d->entry = entry;
	d->rsrc1 = 1; /* 16 VGPRs */
	d->wg[0] = wg, d->grid[0] = grid;
	d->wg[1] = d->wg[2] = d->grid[1] = d->grid[2] = 1;
	return d->fam != NULL;
}

/* ---- one wave under sqk_run() with a trap handler run as code ---------- */

/* The code (TRIG_CODE_VA: the kernel at 0, the handler at
 * TRIG_HANDLER_OFF) and the data (TRIG_DATA_VA) of one wave, the
 * s_sendmsg messages it sent, and what the env hooks answer. */
#define TRIG_CODE_VA 0x7f1200000000ull
#define TRIG_DATA_VA 0x7f1300000000ull
#define TRIG_HANDLER_OFF 0x200
/* More messages than any case sends: the wave runs in a loop (a trap
 * that repeats): the message hook stops the dispatch. */
#define TRIG_MAX_MSG 64
/* Polls of sqk_env.stop (one per 4096 instructions, sqk_wave.c) before
 * the wave counts as looping: millions of instructions, where a case
 * runs a few dozen. */
#define TRIG_MAX_POLLS 1000

struct trig {
	uint8_t code[4096];
	uint32_t data[1024];
	unsigned n; /* messages sent (the first 16 kept) */
	uint32_t msg[16], m0[16];
	unsigned polls;
	uint64_t tba; /* the handler's address, 0: none */
	uint32_t traps, doorbell;
	unsigned nwatch;
	struct sqk_watch wp[SQK_WATCHES];
};

static inline void *trig_xlate(void *ctx, uint64_t va, uint32_t len, bool write, bool *ro)
{
	struct trig *t = ctx;
	bool in_code = va >= TRIG_CODE_VA && va - TRIG_CODE_VA + len <= sizeof(t->code);

	*ro = false;
	if (!write && in_code)
		return t->code + (va - TRIG_CODE_VA);
	if (va >= TRIG_DATA_VA && va - TRIG_DATA_VA + len <= sizeof(t->data))
		return (uint8_t *)t->data + (va - TRIG_DATA_VA);
	*ro = write && in_code;
	return NULL;
}

static inline int trig_message(void *ctx, uint32_t msg, uint32_t m0)
{
	struct trig *t = ctx;

	if (t->n < 16) {
		t->msg[t->n] = msg;
		t->m0[t->n] = m0;
	}
	return ++t->n > TRIG_MAX_MSG ? -1 : 0;
}

static inline bool trig_stop(void *ctx)
{
	return ++((struct trig *)ctx)->polls > TRIG_MAX_POLLS;
}

static inline uint64_t trig_trap_base(void *ctx)
{
	return ((struct trig *)ctx)->tba;
}

static inline uint32_t trig_wave_traps(void *ctx)
{
	return ((struct trig *)ctx)->traps;
}

static inline uint32_t trig_doorbell(void *ctx)
{
	return ((struct trig *)ctx)->doorbell;
}

static inline unsigned trig_watches(void *ctx, struct sqk_watch wp[SQK_WATCHES])
{
	struct trig *t = ctx;

	memcpy(wp, t->wp, sizeof(t->wp));
	return t->nwatch;
}

/* Assemble @src for @mcpu into t->code; it must reach the handler. */
static inline void trig_asm(struct trig *t, const char *src, const char *mcpu)
{
	T_REQUIRE(kco_asm_text(src, mcpu, "", t->code, sizeof(t->code)) > TRIG_HANDLER_OFF,
		  "%s: assemble", mcpu);
}

/* One wave of one work-item (16 VGPRs, AQL user SGPRs) of the family of
 * @gfxv from TRIG_CODE_VA; the messages from 0. A wave that loops stops
 * with an error (TRIG_MAX_MSG, TRIG_MAX_POLLS), never hangs the test.
 * Return: sqk_run()'s. */
static inline int trig_run(struct trig *t, uint32_t gfxv, struct sqk_result *res)
{
	struct sqk_env env = { .ctx = t,
			       .xlate = trig_xlate,
			       .message = trig_message,
			       .stop = trig_stop,
			       .trap_base = trig_trap_base,
			       .wave_traps = trig_wave_traps,
			       .watches = trig_watches,
			       .doorbell = trig_doorbell };
	struct sqk_dispatch d = { 0 };

	t->n = 0;
	t->polls = 0;
	d.fam = sqk_family_of(gfxv);
	T_REQUIRE(d.fam, "family of gfx version %u", gfxv);
	d.entry = TRIG_CODE_VA;
	d.rsrc1 = 1; /* 16 VGPRs */
	d.aql = true;
	d.wg[0] = d.grid[0] = 1;
	d.wg[1] = d.wg[2] = d.grid[1] = d.grid[2] = 1;
	return sqk_run(&d, &env, res);
}

#endif
