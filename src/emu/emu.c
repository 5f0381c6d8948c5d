/* SPDX-License-Identifier: MIT */
/*
 * The emulated KFD: the emulator object, its fake sysfs topology, its
 * files (every emulated fd is a real eventfd, so numbers are unique and
 * poll() works on SMI fds) and the seam implementation.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/opts.h"
#include "emu/emu_host.h"
#include "emu/emu_priv.h"

/* ---- processes and files ---------------------------------------------- */

bool emu_version_at_least(const struct kfdsig_emu *emu, uint32_t minor)
{
	return emu->major > 1 || (emu->major == 1 && emu->minor >= minor);
}

struct emu_gpu *emu_gpu_by_id(struct kfdsig_emu *emu, uint32_t gpu_id)
{
	for (uint32_t i = 0; i < emu->ngpus; i++)
		if (emu->gpus[i].gpu_id == gpu_id)
			return &emu->gpus[i];
	return NULL;
}

struct emu_file *emu_file_get(struct kfdsig_emu *emu, int fd)
{
	for (struct emu_fdent *e = emu->fds; e; e = e->next)
		if (e->fd == fd)
			return e->f;
	return NULL;
}

int emu_file_fd(struct kfdsig_emu *emu, const struct emu_file *f)
{
	int fd = -EBADF;

	/* the oldest entry: the fd the open returned, unless closed */
	for (struct emu_fdent *e = emu->fds; e; e = e->next)
		if (e->f == f)
			fd = e->fd;
	return fd;
}

int emu_fd_add(struct kfdsig_emu *emu, struct emu_file *f, int fd)
{
	struct emu_fdent *e;

	if (emu_file_get(emu, fd))
		return -EBUSY;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->fd = fd;
	e->f = f;
	e->next = emu->fds;
	emu->fds = e;
	f->nfds++;
	if (emu->fd_hook)
		emu->fd_hook(emu->fd_hook_ctx, fd, true);
	return 0;
}

int emu_file_new(struct kfdsig_emu *emu, enum emu_file_kind kind, struct emu_file **out)
{
	struct emu_file *f = calloc(1, sizeof(*f));
	int fd, r;

	if (!f)
		return -ENOMEM;
	f->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	fd = f->efd < 0 ? -1 : fcntl(f->efd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0) {
		r = -errno;
		if (f->efd >= 0)
			close(f->efd);
		free(f);
		return r;
	}
	f->kind = kind;
	r = emu_fd_add(emu, f, fd);
	if (r) {
		close(fd);
		close(f->efd);
		free(f);
		return r;
	}
	f->next = emu->files;
	emu->files = f;
	*out = f;
	return 0;
}

/* The last fd of @f is gone (emu->lock held): unlink it. The caller
 * finishes with file_release() once the lock is dropped. */
static void file_unlink(struct kfdsig_emu *emu, struct emu_file *f)
{
	struct emu_file **pp;

	for (pp = &emu->files; *pp && *pp != f; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = f->next;
	/* A render fd stays referenced by the VM it was handed to; the
	 * kernel keeps the file alive through that reference. Forget it
	 * here; processes compare by pointer only while it is open. */
	for (struct emu_proc *p = emu->procs; p; p = p->next)
		for (int i = 0; i < EMU_MAX_GPUS; i++)
			if (p->pdd[i].drm_file == f)
				p->pdd[i].drm_file = NULL;
	/* Per open: the process dies with its file. Per pid: kfd_release
	 * only drops a reference; the process lives until its mm goes. */
	if (f->kind == EMU_FILE_KFD && f->proc && emu->pmodel == KFDSIG_EMU_PROCESS_PER_OPEN)
		f->proc->closed = true;
}

static void file_release(struct kfdsig_emu *emu, struct emu_file *f)
{
	if (f->kind == EMU_FILE_KFD && f->proc) {
		if (emu->pmodel == KFDSIG_EMU_PROCESS_PER_OPEN)
			emu_queues_fini(f->proc);
		emu_proc_put(f->proc);
	}
	if (f->kind == EMU_FILE_SMI && f->smi)
		emu_smi_release(f->smi);
	close(f->efd);
	free(f);
}

int emu_fd_remove(struct kfdsig_emu *emu, int fd, bool do_close)
{
	struct emu_fdent **pp, *e;
	struct emu_file *f;
	bool last;

	pthread_mutex_lock(&emu->lock);
	for (pp = &emu->fds; *pp && (*pp)->fd != fd; pp = &(*pp)->next)
		;
	e = *pp;
	if (!e) {
		pthread_mutex_unlock(&emu->lock);
		return -EBADF;
	}
	*pp = e->next;
	f = e->f;
	free(e);
	/* The hook hears of it before the number can be reused. */
	if (emu->fd_hook)
		emu->fd_hook(emu->fd_hook_ctx, fd, false);
	if (do_close)
		close(fd);
	last = --f->nfds == 0;
	if (last)
		file_unlink(emu, f);
	pthread_mutex_unlock(&emu->lock);
	if (last)
		file_release(emu, f);
	return 0;
}

struct emu_proc *emu_proc_get(struct kfdsig_emu *emu, int pasid)
{
	struct emu_proc *p;

	pthread_mutex_lock(&emu->lock);
	for (p = emu->procs; p; p = p->next)
		if (p->pasid == pasid && !p->closed) {
			p->refs++;
			break;
		}
	pthread_mutex_unlock(&emu->lock);
	return p;
}

static void proc_free(struct emu_proc *p)
{
	emu_events_fini(p);
	emu_proc_free_memory(p);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	free(p);
}

void emu_proc_put(struct emu_proc *p)
{
	struct kfdsig_emu *emu = p->emu;
	bool last;

	pthread_mutex_lock(&emu->lock);
	last = --p->refs == 0;
	if (last) {
		struct emu_proc **pp;
		for (pp = &emu->procs; *pp && *pp != p; pp = &(*pp)->next)
			;
		if (*pp)
			*pp = p->next;
	}
	pthread_mutex_unlock(&emu->lock);
	if (last)
		proc_free(p);
}

static int proc_new(struct kfdsig_emu *emu, struct emu_proc **out)
{
	struct emu_proc *p = calloc(1, sizeof(*p));
	pthread_condattr_t ca;

	if (!p)
		return -ENOMEM;
	p->emu = emu;
	p->pasid = emu->next_pasid++;
	p->pid = getpid();
	p->refs = 1;
	if (emu->task_name[0])
		snprintf(p->task_name, sizeof(p->task_name), "%s", emu->task_name);
	else if (prctl(PR_GET_NAME, p->task_name) != 0)
		snprintf(p->task_name, sizeof(p->task_name), "kfdsig");
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->cond, &ca);
	pthread_condattr_destroy(&ca);
	emu_events_init(p);
	p->next = emu->procs;
	emu->procs = p;
	*out = p;
	return 0;
}

struct emu_proc *emu_proc_of_caller(struct kfdsig_emu *emu)
{
	pid_t pid = getpid();

	for (struct emu_proc *p = emu->procs; p; p = p->next)
		if (p->pid == pid && !p->closed) {
			p->refs++;
			return p;
		}
	return NULL;
}

/* ---- the seam --------------------------------------------------------- */

/* "/dev/dri/renderD<minor>": digits only, within 32 bits (sscanf's %u
 * wrapped 4294967424 to 128, another GPU's node). */
static bool render_minor_of(const char *path, uint32_t *minor)
{
	static const char prefix[] = "/dev/dri/renderD";
	uint64_t v = 0;
	const char *p = path + sizeof(prefix) - 1;

	if (strncmp(path, prefix, sizeof(prefix) - 1) || *p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((v = v * 10 + (uint64_t)(*p - '0')) > UINT32_MAX)
			return false;
	*minor = (uint32_t)v;
	return !*p;
}

static int e_open(void *ctx, const char *path, int flags)
{
	struct kfdsig_emu *emu = ctx;
	struct emu_file *f = NULL;
	uint32_t minor;
	int r;

	(void)flags; /* always close-on-exec, as the linux ops open */
	pthread_mutex_lock(&emu->lock);
	if (!strcmp(path, "/dev/kfd")) {
		struct emu_proc *p = NULL;

		/* kfd_create_process: the caller's process if it has one */
		r = 0;
		if (emu->pmodel == KFDSIG_EMU_PROCESS_PER_PID)
			p = emu_proc_of_caller(emu);
		if (!p && !(r = proc_new(emu, &p)) && emu->pmodel == KFDSIG_EMU_PROCESS_PER_PID)
			p->refs++; /* one for the mm, one for the file */
		if (!p) {
			/* proc_new failed: r says why */
		} else if (!(r = emu_file_new(emu, EMU_FILE_KFD, &f))) {
			f->proc = p;
		} else if (--p->refs == 0) {
			/* a new per-open process: nothing else knows it */
			emu->procs = p->next;
			proc_free(p);
		}
	} else if (render_minor_of(path, &minor)) {
		struct emu_gpu *g = NULL;
		for (uint32_t i = 0; i < emu->ngpus; i++)
			if (emu->gpus[i].render_minor == minor)
				g = &emu->gpus[i];
		r = g ? emu_file_new(emu, EMU_FILE_RENDER, &f) : -ENOENT;
		if (!r)
			f->gpu = g;
	} else {
		r = -ENOENT;
	}
	if (!r)
		r = emu_file_fd(emu, f);
	pthread_mutex_unlock(&emu->lock);
	return r;
}

static int e_close(void *ctx, int fd)
{
	return emu_fd_remove(ctx, fd, true);
}

static int e_ioctl(void *ctx, int fd, unsigned long req, void *arg)
{
	return emu_ioctl(ctx, fd, req, arg);
}

static int e_mmap(void *ctx, void **out, void *addr, size_t len, int prot, int flags, int fd,
		  uint64_t off)
{
	struct kfdsig_emu *emu = ctx;
	struct emu_file *f;
	struct emu_proc *p = NULL;
	int r;

	if (fd < 0) {
		void *m = mmap(addr, len, prot, flags, -1, (off_t)off);
		if (m == MAP_FAILED)
			return -errno;
		*out = m;
		return 0;
	}
	if (!len || (off & 4095))
		return -EINVAL;
	pthread_mutex_lock(&emu->lock);
	f = emu_file_get(emu, fd);
	if (!f) {
		pthread_mutex_unlock(&emu->lock);
		return -EBADF;
	}
	if (f->kind == EMU_FILE_RENDER) {
		r = emu_render_mmap(emu, f, out, addr, len, prot, flags, off);
		pthread_mutex_unlock(&emu->lock);
		return r;
	}
	if (f->kind != EMU_FILE_KFD) {
		pthread_mutex_unlock(&emu->lock);
		return -ENODEV;
	}
	/* kfd_mmap acts on the caller's process (kfd_get_process(current)),
	 * -EINVAL when it has none. */
	if (emu->pmodel == KFDSIG_EMU_PROCESS_PER_PID) {
		p = emu_proc_of_caller(emu);
	} else {
		p = f->proc;
		p->refs++;
	}
	pthread_mutex_unlock(&emu->lock);
	if (!p)
		return -EINVAL;

	/* kfd_mmap dispatches on the offset type (kfd_priv.h KFD_MMAP_TYPE_*, kfd_chardev.c kfd_mmap()). */
	switch (off & KFDSIG_MMAP_TYPE_MASK) {
	case KFDSIG_MMAP_TYPE_EVENTS:
		pthread_mutex_lock(&p->lock);
		r = emu_event_mmap(p, out, addr, len, prot, flags);
		pthread_mutex_unlock(&p->lock);
		break;
	case KFDSIG_MMAP_TYPE_DOORBELL:
		r = emu_doorbell_mmap(emu, p, out, addr, len, prot, flags, off);
		break;
	default:
		/* MMIO remap and reserved memory are not emulated. */
		r = -EINVAL;
		break;
	}
	/* kfd_event_mmap and kfd_doorbell_mmap set VM_DONTCOPY: a forked
	 * child does not inherit these mappings. */
	if (!r)
		madvise(*out, len, MADV_DONTFORK);
	emu_proc_put(p);
	return r;
}

static int e_munmap(void *ctx, void *addr, size_t len)
{
	(void)ctx;
	return munmap(addr, len) ? -errno : 0;
}

/* The SMI stream behind @fd: read() and write() work on SMI fds only. */
static int smi_of_fd(struct kfdsig_emu *emu, int fd, struct emu_smi **out)
{
	struct emu_file *f;

	*out = NULL;
	pthread_mutex_lock(&emu->lock);
	f = emu_file_get(emu, fd);
	if (f && f->kind == EMU_FILE_SMI)
		*out = f->smi;
	pthread_mutex_unlock(&emu->lock);
	if (!f)
		return -EBADF;
	if (f->kind == EMU_FILE_SMI && !*out)
		return -EBADF; /* the stream of the parent, after fork */
	return *out ? 0 : -EINVAL;
}

static ssize_t e_read(void *ctx, int fd, void *buf, size_t len)
{
	struct emu_smi *s;
	int r = smi_of_fd(ctx, fd, &s);

	return r ? r : emu_smi_read(s, buf, len);
}

static ssize_t e_write(void *ctx, int fd, const void *buf, size_t len)
{
	struct emu_smi *s;
	int r = smi_of_fd(ctx, fd, &s);

	return r ? r : emu_smi_write(s, buf, len);
}

/* Readiness lives in the eventfd behind each SMI fd, so libc poll works. */
static int e_poll(void *ctx, struct pollfd *fds, nfds_t n, int timeout)
{
	(void)ctx;
	int r = poll(fds, n, timeout);
	return r < 0 ? -errno : r;
}

static int e_drm_info(void *ctx, int fd, struct kfdsig_drm_info *out)
{
	struct kfdsig_emu *emu = ctx;
	struct emu_file *f;
	struct emu_gpu *g;

	pthread_mutex_lock(&emu->lock);
	f = emu_file_get(emu, fd);
	g = f && f->kind == EMU_FILE_RENDER ? f->gpu : NULL;
	pthread_mutex_unlock(&emu->lock);
	if (!g)
		return -EBADF;
	memset(out, 0, sizeof(*out));
	snprintf(out->marketing_name, sizeof(out->marketing_name), "%s", g->marketing_name);
	out->device_id = g->device_id;
	for (int i = 0; i < 3; i++) {
		out->gc_ip[i] = g->t->gc_ip[i];
		out->sdma_ip[i] = g->t->sdma_ip[i];
	}
	out->num_sdma_rings = g->num_sdma;
	out->mec_fw_version = g->mec_fw;
	out->sdma_fw_version = g->sdma_fw;
	return 0;
}

static bool e_privileged(void *ctx)
{
	return ((struct kfdsig_emu *)ctx)->privileged;
}

/* ---- fake sysfs -------------------------------------------------------- */

static int write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "we");
	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -errno : 0;
}

static int mkdirs(const char *path)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *s = buf + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(buf, 0700) && errno != EEXIST)
				return -errno;
			*s = '/';
		}
	if (mkdir(buf, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

/* Properties in the order kfd_topology.c node_show() prints them. Values not in the description are plausible defaults. */
static void gpu_properties(const struct emu_gpu *g, char *buf, size_t n)
{
	const struct kfdsig_target *t = g->t; /* gfx_target_version only */
	bool navi = g->gen.level >= KFDSIG_GFX10;
	uint32_t simd_per_cu = navi ? 2 : 4;
	uint32_t arrays = 4, per_engine = navi ? 2 : 1;
	uint32_t cu_per_array = g->simd_count / simd_per_cu / (arrays * per_engine);

	snprintf(buf, n,
		 "cpu_cores_count 0\nsimd_count %u\nmem_banks_count 1\ncaches_count 0\n"
		 "io_links_count 1\np2p_links_count 0\ncpu_core_id_base 0\n"
		 "simd_id_base %u\nmax_waves_per_simd %u\nlds_size_in_kb 64\n"
		 "gds_size_in_kb 0\nnum_gws 64\nwave_front_size %u\narray_count %u\n"
		 "simd_arrays_per_engine %u\ncu_per_simd_array %u\nsimd_per_cu %u\n"
		 "max_slots_scratch_cu 32\ngfx_target_version %u\nvendor_id 4098\n"
		 "device_id %u\nlocation_id %u\ndomain 0\ndrm_render_minor %u\nhive_id 0\n"
		 "num_sdma_engines %u\nnum_sdma_xgmi_engines %u\n"
		 "num_sdma_queues_per_engine %u\nnum_cp_queues 24\n"
		 "max_engine_clk_fcompute 2100\nlocal_mem_size %llu\nfw_version %u\n"
		 "capability 0\ndebug_prop 0\nsdma_fw_version %u\nunique_id %llu\n"
		 "num_xcc %u\nmax_engine_clk_ccompute 3000\n",
		 g->simd_count, 0x80000000u + g->index * 0x1000, navi ? 16 : 10, navi ? 32 : 64,
		 arrays * per_engine, per_engine, cu_per_array, simd_per_cu, t->gfx_target_version,
		 g->device_id, (g->index + 1) << 8, g->render_minor, g->num_sdma, g->num_sdma_xgmi,
		 g->gen.level == KFDSIG_GFX8 ? 2 : 8, (unsigned long long)g->local_mem_size,
		 g->mec_fw, g->sdma_fw, 0x1000000000ull + g->index, g->num_xcc);
}

static int write_sysfs(struct kfdsig_emu *emu)
{
	char dir[400], buf[4096];
	int r;

	snprintf(dir, sizeof(dir), "%s/class/kfd/kfd/topology/nodes/0", emu->sysfs);
	if ((r = mkdirs(dir)))
		return r;
	/* Node 0: the CPU (gpu_id 0, skipped by discovery). */
	if ((r = write_file(dir, "gpu_id", "0\n")) || (r = write_file(dir, "name", "\n")) ||
	    (r = write_file(dir, "properties",
			    "cpu_cores_count 8\nsimd_count 0\nmem_banks_count 1\n"
			    "gfx_target_version 0\nvendor_id 0\ndevice_id 0\n")))
		return r;
	for (uint32_t i = 0; i < emu->ngpus; i++) {
		struct emu_gpu *g = &emu->gpus[i];
		char num[32];

		snprintf(dir, sizeof(dir), "%s/class/kfd/kfd/topology/nodes/%u", emu->sysfs, i + 1);
		if ((r = mkdirs(dir)))
			return r;
		snprintf(num, sizeof(num), "%u\n", g->gpu_id);
		if ((r = write_file(dir, "gpu_id", num)))
			return r;
		snprintf(num, sizeof(num), "%s\n", g->t->name);
		if ((r = write_file(dir, "name", num)))
			return r;
		gpu_properties(g, buf, sizeof(buf));
		if ((r = write_file(dir, "properties", buf)))
			return r;
	}
	return 0;
}

static void rm_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;

	if (d) {
		while ((de = readdir(d))) {
			char sub[512];
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
			if (de->d_type == DT_DIR)
				rm_tree(sub);
			else
				unlink(sub);
		}
		closedir(d);
	}
	rmdir(path);
}

/* ---- create / destroy -------------------------------------------------- */

/* A stable 16-bit id per (target, index), never 0 and unique in the emu;
 * the kernel hashes node properties into KFD_GPU_ID_HASH_WIDTH bits. */
static uint32_t derive_gpu_id(const struct kfdsig_target *t, uint32_t index)
{
	uint32_t h = t->gfx_target_version * 2654435761u ^ (index + 1) * 40503u;
	h = (h ^ (h >> 16)) & 0xffff;
	return h ? h : 0x1234;
}

static int setup_gpu(struct kfdsig_emu *emu, uint32_t i, const struct kfdsig_emu_gpu_desc *d)
{
	struct emu_gpu *g = &emu->gpus[i];
	const struct kfdsig_target *t;

	if (!d->target)
		return kfdsig_set_error(EINVAL, "emulated GPU %u has no target", i);
	for (size_t k = 0; k < KFDSIG_ARRAY_SIZE(d->reserved); k++)
		if (d->reserved[k])
			return kfdsig_set_error(EINVAL, "emulated GPU %u: reserved[%zu] must be 0",
						i, k);
	t = kfdsig_target_by_name(d->target);
	if (!t)
		return -ENOENT;
	g->t = t;
	g->index = i;
	g->clock_base_ns = emu_raw_ns();
	g->gpu_id = d->gpu_id ? d->gpu_id : derive_gpu_id(t, i);
	for (uint32_t j = 0; j < i; j++)
		if (emu->gpus[j].gpu_id == g->gpu_id)
			g->gpu_id = (g->gpu_id + 0x101) & 0xffff;
	g->render_minor = 128 + i;
	/* The emulator's own facts from the IP versions (emu_gen.c). Default
	 * MEC firmware: new enough that the ctx-0 filter is on where the GC
	 * version has one (current firmware on every such chip). */
	if (emu_gen_derive(&g->gen, t->gc_ip, t->sdma_ip, t->gfx_target_version, 0, 0))
		return -ENOENT;
	if (d->mec_fw_version)
		g->mec_fw = d->mec_fw_version;
	else if (g->gen.ctx0_drop_mec_fw != KFDSIG_CTX0_NEVER_DROPPED && g->gen.ctx0_drop_mec_fw)
		g->mec_fw = g->gen.ctx0_drop_mec_fw + 0x10;
	else
		g->mec_fw = 0x200;
	g->sdma_fw = d->sdma_fw_version ? d->sdma_fw_version : 0x100;
	g->gen.mec_fw = g->mec_fw;
	g->gen.sdma_fw = g->sdma_fw;
	g->num_sdma = d->num_sdma_engines ? d->num_sdma_engines : 2;
	g->num_sdma_xgmi = d->num_sdma_xgmi_engines;
	if (!d->num_sdma_xgmi_engines && g->gen.family == KFDSIG_FAMILY_GFX90A)
		g->num_sdma_xgmi = 3;
	if (!d->num_sdma_xgmi_engines && g->gen.family == KFDSIG_FAMILY_GFX94X)
		g->num_sdma_xgmi = 14;
	g->simd_count = d->simd_count ? d->simd_count : 240;
	g->num_xcc = d->num_xcc ? d->num_xcc : (g->gen.family == KFDSIG_FAMILY_GFX94X ? 8 : 1);
	g->local_mem_size = d->local_mem_size ? d->local_mem_size : (t->apu ? 0 : 16ull << 30);
	g->device_id = d->device_id ? d->device_id : 0x7400 + i;
	if (d->marketing_name)
		snprintf(g->marketing_name, sizeof(g->marketing_name), "%s", d->marketing_name);
	else
		snprintf(g->marketing_name, sizeof(g->marketing_name), "Emulated AMD %s (%s)",
			 t->name, t->product);
	pthread_mutex_init(&g->smi_lock, NULL);
	return 0;
}

struct kfdsig_emu *kfdsig_emu_create(const struct kfdsig_emu_config *user_cfg)
{
	struct kfdsig_emu_config c, *cfg = &c;
	struct kfdsig_emu *emu;
	const char *tmp;
	int r;

	r = user_cfg ? kfdsig_opts_copy(&c, sizeof(c), user_cfg, "kfdsig_emu_config")
		     : kfdsig_set_error(EINVAL, "no emulator configuration");
	if (!r && (c.pad_0[0] | c.pad_0[1] | c.pad_0[2]))
		r = kfdsig_set_error(EINVAL, "kfdsig_emu_config.pad_0 must be 0");
	if (r) {
		errno = EINVAL;
		return NULL;
	}
	if (!cfg->gpus || !cfg->ngpus || cfg->ngpus > EMU_MAX_GPUS) {
		kfdsig_set_error(EINVAL, "emulator needs 1 to %d GPUs", EMU_MAX_GPUS);
		errno = EINVAL;
		return NULL;
	}
	if (cfg->profile != KFDSIG_EMU_KERNEL_DEFAULT &&
	    cfg->profile != KFDSIG_EMU_KERNEL_V6_14_DROP) {
		kfdsig_set_error(EINVAL, "unknown kernel profile %d", (int)cfg->profile);
		errno = EINVAL;
		return NULL;
	}
	emu = calloc(1, sizeof(*emu));
	if (!emu) {
		kfdsig_set_error(ENOMEM, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&emu->lock, NULL);
	emu->major = cfg->kfd_major || cfg->kfd_minor ? cfg->kfd_major : 1;
	emu->minor = cfg->kfd_major || cfg->kfd_minor ? cfg->kfd_minor : 18;
	emu->profile = cfg->profile;
	emu->privileged = cfg->privileged;
	emu->next_pasid = 0x8001;
	emu->next_mmap_offset = 1ull << 32;
	if (cfg->task_name)
		snprintf(emu->task_name, sizeof(emu->task_name), "%s", cfg->task_name);
	for (uint32_t i = 0; i < cfg->ngpus; i++) {
		r = setup_gpu(emu, i, &cfg->gpus[i]);
		if (r < 0) {
			for (uint32_t j = 0; j < i; j++)
				pthread_mutex_destroy(&emu->gpus[j].smi_lock);
			free(emu);
			errno = -r;
			return NULL;
		}
		emu->ngpus++;
	}
	tmp = getenv("TMPDIR");
	snprintf(emu->sysfs, sizeof(emu->sysfs), "%s/kfdsig-emu-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	r = mkdtemp(emu->sysfs) ? write_sysfs(emu) : -errno;
	if (r < 0) {
		kfdsig_set_error(-r, "cannot write the emulated sysfs in %s: %s", emu->sysfs,
				 strerror(-r));
		if (r != -ENOENT || emu->sysfs[strlen(emu->sysfs) - 1] != 'X')
			rm_tree(emu->sysfs);
		emu->sysfs[0] = '\0';
		kfdsig_emu_destroy(emu);
		errno = -r;
		return NULL;
	}
	emu->ops = (struct kfdsig_kfd_ops){
		.sz = sizeof(struct kfdsig_kfd_ops),
		.ctx = emu,
		.name = "emulated",
		.sysfs_root = emu->sysfs,
		.open = e_open,
		.close = e_close,
		.ioctl = e_ioctl,
		.mmap = e_mmap,
		.munmap = e_munmap,
		.read = e_read,
		.write = e_write,
		.poll = e_poll,
		.drm_info = e_drm_info,
		.privileged = e_privileged,
	};
	return emu;
}

void kfdsig_emu_destroy(struct kfdsig_emu *emu)
{
	if (!emu)
		return;
	emu_fork_unregister(emu);
	while (emu->fds)
		e_close(emu, emu->fds->fd);
	/* Per pid: the processes outlive their files until the mm goes. */
	if (emu->pmodel == KFDSIG_EMU_PROCESS_PER_PID) {
		struct emu_proc *p, *next;

		pthread_mutex_lock(&emu->lock);
		p = emu->procs;
		emu->procs = NULL;
		pthread_mutex_unlock(&emu->lock);
		for (; p; p = next) {
			next = p->next;
			p->closed = true;
			emu_queues_fini(p);
			emu_proc_put(p);
		}
	}
	if (emu->sysfs[0])
		rm_tree(emu->sysfs);
	for (uint32_t i = 0; i < emu->ngpus; i++)
		pthread_mutex_destroy(&emu->gpus[i].smi_lock);
	pthread_mutex_destroy(&emu->lock);
	free(emu);
}

void emu_host_remove_sysfs(struct kfdsig_emu *emu)
{
	if (emu->sysfs[0])
		rm_tree(emu->sysfs);
	emu->sysfs[0] = '\0';
}

const struct kfdsig_kfd_ops *kfdsig_emu_ops(struct kfdsig_emu *emu)
{
	return emu ? &emu->ops : NULL;
}

int kfdsig_emu_pasid(struct kfdsig_emu *emu, int fd)
{
	struct emu_file *f;
	int r;

	if (!emu)
		return -EINVAL;
	pthread_mutex_lock(&emu->lock);
	f = emu_file_get(emu, fd);
	r = f && f->kind == EMU_FILE_KFD && f->proc ? f->proc->pasid : -EBADF;
	pthread_mutex_unlock(&emu->lock);
	return r;
}

/* "gfx90a,gfx1100,kfd=1.13,profile=v6.14,privileged" */
/* One decimal number of at most 32 bits at *s, moved past; digits only
 * (no sign, space or base prefix that strtoul would accept). */
static bool parse_u32(const char **s, uint32_t *out)
{
	uint64_t v = 0;
	const char *p = *s;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > UINT32_MAX)
			return false; /* no silent wrap: 4294967297 is not 1 */
	}
	*out = (uint32_t)v;
	*s = p;
	return true;
}

/* "MAJOR.MINOR", each a 32-bit decimal, nothing after. */
static bool parse_version(const char *s, uint32_t *maj, uint32_t *min)
{
	return parse_u32(&s, maj) && *s++ == '.' && parse_u32(&s, min) && !*s;
}

struct kfdsig_emu *kfdsig_emu_create_from_spec(const char *spec)
{
	struct kfdsig_emu_gpu_desc gpus[EMU_MAX_GPUS];
	KFDSIG_OPTS(kfdsig_emu_config, cfg, .gpus = gpus);
	char buf[512], names[EMU_MAX_GPUS][32];
	char *save = NULL;

	memset(gpus, 0, sizeof(gpus));
	if (!spec || !*spec || strlen(spec) >= sizeof(buf)) {
		kfdsig_set_error(EINVAL, "empty or too long emulation spec");
		errno = EINVAL;
		return NULL;
	}
	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint32_t maj, min;

		if (!strncmp(tok, "kfd=", 4)) {
			if (!parse_version(tok + 4, &maj, &min) || !maj) {
				kfdsig_set_error(EINVAL, "bad KFD version '%s' (want kfd=1.14)",
						 tok + 4);
				errno = EINVAL;
				return NULL;
			}
			cfg.kfd_major = maj;
			cfg.kfd_minor = min;
		} else if (!strncmp(tok, "profile=", 8)) {
			if (!strcmp(tok + 8, "v6.14") || !strcmp(tok + 8, "6.14"))
				cfg.profile = KFDSIG_EMU_KERNEL_V6_14_DROP;
			else if (!strcmp(tok + 8, "default"))
				cfg.profile = KFDSIG_EMU_KERNEL_DEFAULT;
			else {
				kfdsig_set_error(EINVAL, "unknown profile '%s' (default, v6.14)",
						 tok + 8);
				errno = EINVAL;
				return NULL;
			}
		} else if (!strcmp(tok, "privileged")) {
			cfg.privileged = true;
		} else {
			if (cfg.ngpus == EMU_MAX_GPUS) {
				kfdsig_set_error(EINVAL, "at most %d emulated GPUs", EMU_MAX_GPUS);
				errno = EINVAL;
				return NULL;
			}
			if (!kfdsig_target_by_name(tok)) {
				errno = ENOENT;
				return NULL;
			}
			snprintf(names[cfg.ngpus], sizeof(names[0]), "%s", tok);
			gpus[cfg.ngpus].target = names[cfg.ngpus];
			cfg.ngpus++;
		}
	}
	if (!cfg.ngpus) {
		kfdsig_set_error(EINVAL, "emulation spec '%s' names no target", spec);
		errno = EINVAL;
		return NULL;
	}
	return kfdsig_emu_create(&cfg);
}
