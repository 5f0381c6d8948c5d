/* SPDX-License-Identifier: MIT */
/*
 * The emulated KFD: the emulator object, its creation from a config or a
 * spec string and its destruction (its sysfs: emu_sysfs.c; its files:
 * emu_file.c; the seam it answers: emu_seam.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "core/opts.h"
#include "emu/emu_host.h"
#include "emu/emu_priv.h"

/* Remove @name in @dir and, a directory, everything in it: system calls
 * only, no allocation, a small stack (it runs in _exit, which a signal
 * handler may call, maybe on a small alternate stack). */
static void rm_at(int dir, const char *name, int depth)
{
	struct ent { /* the kernel's struct linux_dirent64 */
		uint64_t ino;
		int64_t off;
		unsigned short reclen;
		unsigned char type;
		char name[];
	};
	char buf[512] __attribute__((aligned(8)));
	long n;
	int fd;

	if (!unlinkat(dir, name, 0) || errno != EISDIR || depth > 16)
		return;
	fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long at = 0; at < n;) {
			struct ent *e = (struct ent *)(buf + at);

			at += e->reclen;
			if (strcmp(e->name, ".") && strcmp(e->name, ".."))
				rm_at(fd, e->name, depth + 1);
		}
	}
	close(fd);
	unlinkat(dir, name, AT_REMOVEDIR);
}

static void rm_tree(const char *path)
{
	rm_at(AT_FDCWD, path, 0);
}

/* A tree in use has a file .alive with a shared flock(2) held as long as
 * a process holds the emulator's descriptor (close-on-exec; a forked child
 * shares it): a tree whose .alive no process locks is dead, left by a
 * process killed, crashed or exec'd. The file gets its name once locked. */
static int alive_lock(const char *tree)
{
	char tmp[300], name[300];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s/.alive-new", tree);
	snprintf(name, sizeof(name), "%s/.alive", tree);
	fd = open(tmp, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0400);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_SH | LOCK_NB) || rename(tmp, name)) {
		close(fd);
		unlink(tmp);
		return -1;
	}
	return fd;
}

/* Remove the dead trees next to @tree, once per process (a process making
 * many emulators looks once). */
static void reap_dead_trees(const char *tree)
{
	static pid_t reaped;
	char dir[256], path[300];
	const char *slash = strrchr(tree, '/');
	struct dirent *de;
	DIR *d;

	if (__atomic_exchange_n(&reaped, getpid(), __ATOMIC_RELAXED) == getpid() || !slash ||
	    (size_t)(slash - tree) >= sizeof(dir))
		return;
	memcpy(dir, tree, (size_t)(slash - tree));
	dir[slash - tree] = '\0';
	d = opendir(dir[0] ? dir : "/");
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;
		int fd;

		if (strncmp(de->d_name, "kfdsig-emu-", 11) || !strcmp(de->d_name, slash + 1) ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s/.alive", dir, de->d_name) >=
			    sizeof(path))
			continue;
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && st.st_uid == getuid() && !flock(fd, LOCK_EX | LOCK_NB)) {
			path[strlen(path) - strlen("/.alive")] = '\0';
			rm_tree(path);
		}
		close(fd);
	}
	closedir(d);
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

/* GPU @i of the emulator: KFD node @xn (of @nnodes) of the device @d. */
static int setup_gpu(struct kfdsig_emu *emu, uint32_t i, const struct kfdsig_emu_gpu_desc *d,
		     const struct kfdsig_target *t, const struct emu_xcc_node *xn, uint32_t nnodes)
{
	struct emu_gpu *g = &emu->gpus[i];

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
	/* Emulator default: the driver loaded with amdgpu.user_queue=1
	 * (the kernel's own default, -1, leaves user queues off on GC 11/12
	 * and SDMA 6/7: gfx_v11_0.c gfx_v11_0_early_init()); the lockup
	 * timeout of amdgpu_device.c amdgpu_device_get_job_timeout_settings(),
	 * 2 s for every queue in mainline (10 s gfx/SDMA, 60 s compute
	 * before: UNVERIFIED which release changed it). */
	g->user_queue = 1;
	g->lockup_ms = 2000;
	g->num_sdma = d->num_sdma_engines ? d->num_sdma_engines : 2;
	g->num_sdma_xgmi = d->num_sdma_xgmi_engines;
	if (!d->num_sdma_xgmi_engines && g->gen.family == KFDSIG_FAMILY_GFX90A)
		g->num_sdma_xgmi = 3;
	if (!d->num_sdma_xgmi_engines && g->gen.family == KFDSIG_FAMILY_GFX94X)
		g->num_sdma_xgmi = 14;
	/* A node has its share of the device's CUs (kfd_topology.c: the
	 * node's active CUs); every XCC of a v9_4_3-class node runs a PM4
	 * ring (kfd_mqd_manager_v9.c init_mqd_v9_4_3(), emu_xcc.c). */
	emu_product_of(&g->gen, &g->prod);
	if (d->simd_count)
		g->simd_count = d->simd_count / nnodes;
	else if (g->prod.cu_count)
		g->simd_count = (uint32_t)g->prod.cu_count * g->prod.simd_per_cu;
	else
		g->simd_count = 240 / nnodes;
	g->xn = *xn;
	g->num_xcc = xn->num_xcc;
	g->ring_xcc = emu_xcc_partitioned(&g->gen) ? xn->num_xcc : 1;
	g->vmid = emu_xcc_vmid(xn->compute_vmid_bitmap);
	g->local_mem_size = d->local_mem_size ? d->local_mem_size : g->prod.vram;
	g->device_id = d->device_id ? d->device_id : g->prod.device_id;
	if (d->marketing_name)
		snprintf(g->marketing_name, sizeof(g->marketing_name), "%s", d->marketing_name);
	else
		snprintf(g->marketing_name, sizeof(g->marketing_name), "Emulated AMD %s (%s)",
			 t->name, t->product);
	g->mmio_memfd = -1;
	pthread_mutex_init(&g->smi_lock, NULL);
	return 0;
}

/* Device @i of the config: one GPU of the emulator per KFD node its
 * partition mode makes (emu_xcc.c). */
static int setup_device(struct kfdsig_emu *emu, uint32_t i, const struct kfdsig_emu_gpu_desc *d)
{
	struct emu_xcc_node nodes[EMU_MAX_GPUS];
	const struct kfdsig_target *t;
	struct emu_gen gen;
	int n, r;

	if (!d->target)
		return set_error(EINVAL, "emulated GPU %u has no target", i);
	for (size_t k = 0; k < KFDSIG_ARRAY_SIZE(d->reserved); k++)
		if (d->reserved[k])
			return set_error(EINVAL, "emulated GPU %u: reserved[%zu] must be 0", i, k);
	if (d->partition > KFDSIG_EMU_PARTITION_CPX)
		return set_error(EINVAL, "emulated GPU %u: unknown partition mode %u", i,
				 d->partition);
	t = kfdsig_target_by_name(d->target);
	if (!t)
		return -ENOENT;
	if (emu_gen_derive(&gen, t->gc_ip, t->sdma_ip, t->gfx_target_version, 0, 0))
		return -ENOENT;
	n = emu_xcc_nodes(&gen, d->num_xcc ? d->num_xcc : emu_xcc_default(&gen),
			  (enum kfdsig_emu_partition)d->partition, nodes,
			  EMU_MAX_GPUS - emu->ngpus);
	if (n < 0)
		return n;
	for (int k = 0; k < n; k++) {
		r = setup_gpu(emu, emu->ngpus, d, t, &nodes[k], (uint32_t)n);
		if (r < 0)
			return r;
		emu->gpus[emu->ngpus].device = i;
		emu->ngpus++;
	}
	return 0;
}

/* The KFD version each profile's kernels report (include/uapi/linux/
 * kfd_ioctl.h KFD_IOCTL_MINOR_VERSION): v6.14 ships 1.17, 1.18 ("Rename pad
 * in set_memory_policy_args to misc_process_flag") arrives within the
 * v6.14-v6.18 span the profile covers; 1.19-1.22 (CREATE_PROCESS,
 * cc6b66d661fd, to the metadata ring, "drm/amdkfd: Add metadata ring
 * buffer for compute") were merged for 7.0, so 7.1 and 7.3 report 1.22.
 * Without a profile any version the emulator knows is accepted. */
static const struct profile_kfd {
	const char *name;
	uint32_t min, max, deflt;
} profile_kfd[] = {
	[KFDSIG_EMU_KERNEL_DEFAULT] = { "default", EMU_KFD_MINOR_MIN, EMU_KFD_MINOR_MAX,
					EMU_KFD_MINOR_DEFAULT },
	[KFDSIG_EMU_KERNEL_V6_14_DROP] = { "v6.14", 17, 18, 17 },
	[KFDSIG_EMU_KERNEL_V7_1] = { "v7.1", 22, 22, 22 },
	[KFDSIG_EMU_KERNEL_V7_3] = { "v7.3", 22, 22, 22 },
};

struct kfdsig_emu *kfdsig_emu_create(const struct kfdsig_emu_config *user_cfg)
{
	struct kfdsig_emu_config c, *cfg = &c;
	struct kfdsig_emu *emu;
	const char *tmp;
	int r;

	r = user_cfg ? opts_copy(&c, sizeof(c), user_cfg, "kfdsig_emu_config")
		     : set_error(EINVAL, "no emulator configuration");
	if (!r && (c.pad_0[0] | c.pad_0[1] | c.pad_0[2]))
		r = set_error(EINVAL, "kfdsig_emu_config.pad_0 must be 0");
	if (r) {
		errno = EINVAL;
		return NULL;
	}
	if (!cfg->gpus || !cfg->ngpus || cfg->ngpus > EMU_MAX_GPUS) {
		set_error(EINVAL, "emulator needs 1 to %d GPUs", EMU_MAX_GPUS);
		errno = EINVAL;
		return NULL;
	}
	if ((cfg->kfd_major || cfg->kfd_minor) &&
	    (cfg->kfd_major != 1 || cfg->kfd_minor < EMU_KFD_MINOR_MIN ||
	     cfg->kfd_minor > EMU_KFD_MINOR_MAX)) {
		set_error(EINVAL,
			  "KFD version %u.%u is outside what the emulator knows (1.%u to 1.%u)",
			  cfg->kfd_major, cfg->kfd_minor, EMU_KFD_MINOR_MIN, EMU_KFD_MINOR_MAX);
		errno = EINVAL;
		return NULL;
	}
	if ((unsigned)cfg->profile > KFDSIG_EMU_KERNEL_V7_3) {
		set_error(EINVAL, "unknown kernel profile %d", (int)cfg->profile);
		errno = EINVAL;
		return NULL;
	}
	if ((cfg->kfd_major || cfg->kfd_minor) &&
	    (cfg->kfd_minor < profile_kfd[cfg->profile].min ||
	     cfg->kfd_minor > profile_kfd[cfg->profile].max)) {
		const struct profile_kfd *pk = &profile_kfd[cfg->profile];
		char range[32];

		if (pk->max > pk->min)
			snprintf(range, sizeof(range), "1.%u to 1.%u", pk->min, pk->max);
		else
			snprintf(range, sizeof(range), "1.%u", pk->min);
		set_error(EINVAL,
			  "KFD version %u.%u cannot come from the kernel of profile=%s "
			  "(its KFD reports %s)",
			  cfg->kfd_major, cfg->kfd_minor, pk->name, range);
		errno = EINVAL;
		return NULL;
	}
	emu = calloc(1, sizeof(*emu));
	if (!emu) {
		set_error(ENOMEM, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&emu->lock, NULL);
	emu->alive_fd = -1;
	emu->proc_release = emu_proc_free;    /* emu_process.c */
	emu->file_release = emu_file_release; /* emu_seam.c */
	emu->major = cfg->kfd_major || cfg->kfd_minor ? cfg->kfd_major : 1;
	emu->minor =
		cfg->kfd_major || cfg->kfd_minor ? cfg->kfd_minor : profile_kfd[cfg->profile].deflt;
	emu->profile = cfg->profile;
	emu->privileged = cfg->privileged;
	emu->next_pasid = 0x8001;
	emu->next_mmap_offset = 1ull << 32;
	{
		struct sysinfo si;
		/* amdgpu_amdkfd_gpuvm_init_mem_limits(): the free low memory
		 * when amdgpu loads, less its 16th. Emulator choice: the
		 * total RAM (what is free at boot comes close; the free RAM
		 * of a busy host now would refuse what the kernel allows). */
		uint64_t mem =
			sysinfo(&si) ? 0 : (uint64_t)(si.totalram - si.totalhigh) * si.mem_unit;

		emu->sys_mem_limit = mem - (mem >> 4);
	}
	emu->max_queues_per_device = 4096;
	if (cfg->task_name)
		snprintf(emu->task_name, sizeof(emu->task_name), "%s", cfg->task_name);
	for (uint32_t i = 0; i < cfg->ngpus; i++) {
		r = setup_device(emu, i, &cfg->gpus[i]);
		if (r < 0) {
			for (uint32_t j = 0; j < emu->ngpus; j++)
				pthread_mutex_destroy(&emu->gpus[j].smi_lock);
			free(emu);
			errno = -r;
			return NULL;
		}
	}
	tmp = getenv("TMPDIR");
	snprintf(emu->sysfs, sizeof(emu->sysfs), "%s/kfdsig-emu-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	r = mkdtemp(emu->sysfs) ? emu_sysfs_write(emu) : -errno;
	if (r < 0) {
		set_error(-r, "cannot write the emulated sysfs in %s: %s", emu->sysfs,
			  strerror(-r));
		if (r != -ENOENT || emu->sysfs[strlen(emu->sysfs) - 1] != 'X')
			rm_tree(emu->sysfs);
		emu->sysfs[0] = '\0';
		kfdsig_emu_destroy(emu);
		errno = -r;
		return NULL;
	}
	emu->alive_fd = alive_lock(emu->sysfs);
	reap_dead_trees(emu->sysfs);
	emu_seam_install(emu);
	return emu;
}

void kfdsig_emu_destroy(struct kfdsig_emu *emu)
{
	if (!emu)
		return;
	emu_fork_unregister(emu);
	while (emu->fds)
		emu_fd_remove(emu, emu->fds->fd, true);
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
	if (emu->alive_fd >= 0)
		close(emu->alive_fd);
	for (uint32_t i = 0; i < emu->ngpus; i++) {
		if (emu->gpus[i].mmio_memfd >= 0)
			close(emu->gpus[i].mmio_memfd);
		pthread_mutex_destroy(&emu->gpus[i].smi_lock);
	}
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

int kfdsig_emu_pasid_on(struct kfdsig_emu *emu, int fd, uint32_t gpu_id)
{
	struct emu_gpu *g;
	struct emu_file *f;
	int r;

	if (!emu)
		return -EINVAL;
	g = emu_gpu_by_id(emu, gpu_id);
	if (!g)
		return -ENOENT;
	pthread_mutex_lock(&emu->lock);
	f = emu_file_get(emu, fd);
	r = f && f->kind == EMU_FILE_KFD && f->proc ? emu_proc_pasid(f->proc, g) : -EBADF;
	pthread_mutex_unlock(&emu->lock);
	return r;
}

/* Kernel profiles by the release they reproduce; "6.14" and
 * "mailbox-free" are older spellings of v6.14 and v7.1. */
static const struct {
	const char *name;
	enum kfdsig_emu_kernel_profile profile;
} profile_names[] = {
	{ "default", KFDSIG_EMU_KERNEL_DEFAULT },   { "v6.14", KFDSIG_EMU_KERNEL_V6_14_DROP },
	{ "6.14", KFDSIG_EMU_KERNEL_V6_14_DROP },   { "v7.1", KFDSIG_EMU_KERNEL_V7_1 },
	{ "mailbox-free", KFDSIG_EMU_KERNEL_V7_1 }, { "v7.3", KFDSIG_EMU_KERNEL_V7_3 },
};

static int emu_profile_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(profile_names) / sizeof(profile_names[0]); i++)
		if (!strcmp(name, profile_names[i].name))
			return (int)profile_names[i].profile;
	return -1;
}

/* "gfx90a,gfx1100,kfd=1.13,profile=v6.14,privileged,smi=vmfault+gpu_pre_reset" */
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

/* An optional '-' and a decimal that fits an int32_t, nothing after. */
static bool parse_i32(const char *s, int32_t *out)
{
	bool neg = *s == '-';
	uint32_t x;

	if (neg)
		s++;
	if (!parse_u32(&s, &x) || *s || x > (neg ? 1u + INT32_MAX : (uint32_t)INT32_MAX))
		return false;
	*out = neg ? (int32_t)(0 - (int64_t)x) : (int32_t)x;
	return true;
}

/* "MAJOR.MINOR", each a 32-bit decimal, nothing after. */
static bool parse_version(const char *s, uint32_t *maj, uint32_t *min)
{
	return parse_u32(&s, maj) && *s++ == '.' && parse_u32(&s, min) && !*s;
}

/* "NAME[+NAME...]": SMI events the emulated GPUs raise for a client when
 * it first enables them (emu_smi.c); only events with a line format. */
static bool parse_smi_inject(char *list, uint64_t *mask)
{
	KFDSIG_OPTS(kfdsig_emu_smi_args, a);
	char body[KFDSIG_SMI_MSG_SIZE], *save = NULL;

	*mask = 0;
	for (char *t = strtok_r(list, "+", &save); t; t = strtok_r(NULL, "+", &save)) {
		int ev = kfdsig_smi_event_by_name(t);

		if (ev < 0)
			return false;
		if (emu_smi_format((uint32_t)ev, 0, &a, body, sizeof(body), NULL) < 0) {
			set_error(EINVAL, "smi=: event '%.32s' has no line to raise", t);
			return false;
		}
		*mask |= 1ull << (ev - 1);
	}
	if (!*mask)
		set_error(EINVAL, "smi= names no SMI event (smi=NAME[+NAME...])");
	return *mask != 0;
}

struct kfdsig_emu *kfdsig_emu_create_from_spec(const char *spec)
{
	struct kfdsig_emu_gpu_desc gpus[EMU_MAX_GPUS];
	KFDSIG_OPTS(kfdsig_emu_config, cfg, .gpus = gpus);
	char buf[512], names[EMU_MAX_GPUS][32];
	char *save = NULL;
	uint64_t smi_inject = 0;
	bool lose_userq_irq = false;
	int32_t user_queue = 1, lockup_ms = 2000;
	struct kfdsig_emu *emu;
	static const char *const once[] = { "kfd=", "profile=", "smi=", "user_queue=",
					    "lockup_timeout=" };
	unsigned seen = 0;

	memset(gpus, 0, sizeof(gpus));
	if (!spec || !*spec || strlen(spec) >= sizeof(buf)) {
		set_error(EINVAL, "empty or too long emulation spec");
		errno = EINVAL;
		return NULL;
	}
	/* strtok_r() would skip an empty item ("gfx90a,"): a typo, refused */
	if (spec[0] == ',' || spec[strlen(spec) - 1] == ',' || strstr(spec, ",,")) {
		set_error(EINVAL, "an empty item (a stray ',')");
		errno = EINVAL;
		return NULL;
	}
	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint32_t maj, min;

		/* kfd=, profile= and smi= set one value each: a second is refused
		 * rather than silently winning */
		for (size_t k = 0; k < sizeof(once) / sizeof(once[0]); k++) {
			if (strncmp(tok, once[k], strlen(once[k])))
				continue;
			if (seen & (1u << k)) {
				set_error(EINVAL, "%s given twice", once[k]);
				errno = EINVAL;
				return NULL;
			}
			seen |= 1u << k;
		}

		if (!strncmp(tok, "kfd=", 4)) {
			if (!parse_version(tok + 4, &maj, &min) || !maj) {
				set_error(EINVAL, "bad KFD version '%s' (want kfd=1.14)", tok + 4);
				errno = EINVAL;
				return NULL;
			}
			if (maj != 1 || min < EMU_KFD_MINOR_MIN || min > EMU_KFD_MINOR_MAX) {
				set_error(EINVAL,
					  "KFD version '%s' is outside what the emulator "
					  "knows (kfd=1.%u to kfd=1.%u)",
					  tok + 4, EMU_KFD_MINOR_MIN, EMU_KFD_MINOR_MAX);
				errno = EINVAL;
				return NULL;
			}
			cfg.kfd_major = maj;
			cfg.kfd_minor = min;
		} else if (!strncmp(tok, "profile=", 8)) {
			int prof = emu_profile_by_name(tok + 8);

			if (prof < 0) {
				set_error(EINVAL,
					  "unknown profile '%s' (default, v6.14, v7.1, v7.3; "
					  "mailbox-free is v7.1)",
					  tok + 8);
				errno = EINVAL;
				return NULL;
			}
			cfg.profile = (enum kfdsig_emu_kernel_profile)prof;
		} else if (!strcmp(tok, "privileged")) {
			cfg.privileged = true;
		} else if (!strcmp(tok, "lose-userq-irq")) {
			lose_userq_irq = true;
		} else if (!strncmp(tok, "smi=", 4)) {
			if (!parse_smi_inject(tok + 4, &smi_inject)) {
				errno = EINVAL;
				return NULL;
			}
		} else if (!strncmp(tok, "partition=", 10)) {
			int m = emu_xcc_partition_by_name(tok + 10);

			if (!cfg.ngpus || m < 0) {
				set_error(EINVAL,
					  !cfg.ngpus ? "partition= must follow a target"
						     : "unknown partition '%s' (spx, dpx, tpx, "
						       "qpx, cpx)",
					  tok + 10);
				errno = EINVAL;
				return NULL;
			}
			gpus[cfg.ngpus - 1].partition = (uint32_t)m;
		} else if (!strncmp(tok, "mec=", 4) || !strncmp(tok, "sdma=", 5)) {
			bool mec = tok[0] == 'm';
			const char *v = tok + (mec ? 4 : 5);
			uint32_t x;

			if (!cfg.ngpus || !parse_u32(&v, &x) || *v || !x) {
				set_error(
					EINVAL,
					"bad '%s' (%s=N, after a target: its %s firmware version)",
					tok, mec ? "mec" : "sdma", mec ? "MEC" : "SDMA");
				errno = EINVAL;
				return NULL;
			}
			if (mec)
				gpus[cfg.ngpus - 1].mec_fw_version = x;
			else
				gpus[cfg.ngpus - 1].sdma_fw_version = x;
		} else if (!strncmp(tok, "user_queue=", 11)) {
			/* amdgpu_drv.c user_queue: -1 auto, 0 kernel queues
			 * only, 1 both, 2 user queues only */
			if (!parse_i32(tok + 11, &user_queue) || user_queue < -1 ||
			    user_queue > 2) {
				set_error(EINVAL, "bad '%s' (user_queue=-1, 0, 1 or 2)", tok);
				errno = EINVAL;
				return NULL;
			}
		} else if (!strncmp(tok, "lockup_timeout=", 15)) {
			/* amdgpu_drv.c lockup_timeout, one value for every
			 * queue: ms; 0 the default; negative: no timeout */
			if (!parse_i32(tok + 15, &lockup_ms)) {
				set_error(EINVAL,
					  "bad '%s' (lockup_timeout=MS, 0 the default, -1 none)",
					  tok);
				errno = EINVAL;
				return NULL;
			}
			lockup_ms = lockup_ms < 0 ? -1 : lockup_ms ? lockup_ms : 2000;
		} else if (!strncmp(tok, "xcc=", 4)) {
			const char *v = tok + 4;
			uint32_t x;

			if (!cfg.ngpus || !parse_u32(&v, &x) || *v || !x || x > 16) {
				set_error(EINVAL,
					  "bad '%s' (xcc=1..16, after a target: the device's XCCs)",
					  tok);
				errno = EINVAL;
				return NULL;
			}
			gpus[cfg.ngpus - 1].num_xcc = x;
		} else {
			if (cfg.ngpus == EMU_MAX_GPUS) {
				set_error(EINVAL, "at most %d emulated GPUs", EMU_MAX_GPUS);
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
		set_error(EINVAL, "emulation spec '%s' names no target", spec);
		errno = EINVAL;
		return NULL;
	}
	emu = kfdsig_emu_create(&cfg);
	if (emu) {
		emu->smi_inject = smi_inject;
		emu->lose_userq_irq = lose_userq_irq;
		for (uint32_t i = 0; i < emu->ngpus; i++) {
			emu->gpus[i].user_queue = user_queue;
			emu->gpus[i].lockup_ms = lockup_ms;
		}
	}
	return emu;
}
