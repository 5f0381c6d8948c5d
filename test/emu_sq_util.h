/* SPDX-License-Identifier: MIT */
/*
 * Test utilities of the emulated shader unit tests: assemble with LLVM 22
 * (llvm-mc, llvm-objcopy, llvm-objdump), find the signal stub sources,
 * a small GPU memory, and one wave of a program run on it by the kernel
 * interpreter (sqk_run()) with its message, trap and release-check hooks.
 */
#ifndef KFDSIG_TEST_EMU_SQ_UTIL_H
#define KFDSIG_TEST_EMU_SQ_UTIL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kfdsig/target.h>

#include "emu/sq/sqk.h"
#include "shaders/stubs_gen.h"
#include "helpers.h"

/* From the CMake cache setting KFDSIG_LLVM22_BIN (test/CMakeLists.txt). */
#ifndef KFDSIG_LLVM22_BIN
#error "KFDSIG_LLVM22_BIN must come from the CMake cache setting"
#endif
#define SQT_LLVM KFDSIG_LLVM22_BIN

/*
 * Per generation family: the stub source (its name without ".s") and the
 * LLVM processor its code is checked with, the family's first target in
 * the library's stub table. That table is generated from
 * src/shaders/stubs.cmake, the one list of which source each target is
 * assembled from (with the processor: gfx940/941 are gfx942 for LLVM 22);
 * the family is the target table's.
 */
struct sqt_family {
	enum kfdsig_family family;
	const char *src;
	const char *mcpu;
};

static inline unsigned sqt_load_families(struct sqt_family *out)
{
	unsigned n = 0;

	for (unsigned i = 0; i < stub_ntargets; i++) {
		const struct stub_target *st = &stub_targets[i];
		const struct kfdsig_target *t = kfdsig_target_by_name(st->name);
		unsigned k = 0;

		if (!t)
			continue;
		while (k < n && out[k].family != t->family)
			k++;
		if (k < n || n == KFDSIG_FAMILY_COUNT)
			continue;
		out[n].family = t->family;
		out[n].src = stub_families[st->family].name;
		out[n].mcpu = st->processor;
		n++;
	}
	return n;
}

/* The table, filled on first use. */
static inline const struct sqt_family *sqt_family_table(unsigned *n)
{
	static struct sqt_family fam[KFDSIG_FAMILY_COUNT];
	static unsigned nfam;

	if (!nfam)
		nfam = sqt_load_families(fam);
	if (n)
		*n = nfam;
	return fam;
}

static inline unsigned sqt_nfamilies(void)
{
	unsigned n;

	sqt_family_table(&n);
	return n;
}
#define sqt_families (sqt_family_table(NULL))
#define SQT_NFAMILIES sqt_nfamilies()

static inline bool sqt_have_llvm(void)
{
	return access(SQT_LLVM "/llvm-mc", X_OK) == 0 &&
	       access(SQT_LLVM "/llvm-objdump", X_OK) == 0 &&
	       access(SQT_LLVM "/llvm-objcopy", X_OK) == 0;
}

static inline char *sqt_read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, len = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 8192);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		size_t r = fread(buf + len, 1, 4096, f);

		len += r;
		if (r < 4096)
			break;
	}
	fclose(f);
	buf[len] = 0;
	if (n)
		*n = len;
	return buf;
}

/* An assembled program: .text bytes (at VA 0 of the object), the
 * llvm-objdump listing and the labels it shows. */
struct sqt_obj {
	uint8_t *text;
	size_t size;
	char *dis;
	unsigned nsym;
	struct {
		char name[64];
		uint64_t addr;
	} sym[64];
};

static inline void sqt_obj_free(struct sqt_obj *o)
{
	free(o->text);
	free(o->dis);
	memset(o, 0, sizeof(*o));
}

static inline int sqt_run(const char *cmd)
{
	int r = system(cmd);

	if (r != 0)
		fprintf(stderr, "command failed (%d): %s\n", r, cmd);
	return r == 0 ? 0 : -1;
}

/* Assemble the file at src for mcpu; 0 or -1 (message printed). */
static inline int sqt_assemble_file(const char *src, const char *mcpu, struct sqt_obj *o)
{
	char dir[] = "/tmp/kfdsig-sq-XXXXXX", cmd[4096], path[256];
	int r = -1;

	memset(o, 0, sizeof(*o));
	if (!mkdtemp(dir))
		return -1;
	if (strlen(src) > 1024) {
		fprintf(stderr, "source path too long: %s\n", src);
		rmdir(dir);
		return -1;
	}
	snprintf(cmd, sizeof(cmd),
		 SQT_LLVM "/llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=%s -filetype=obj '%s' -o %s/a.o"
			  " && " SQT_LLVM
			  "/llvm-objcopy -O binary --only-section=.text %s/a.o %s/a.bin"
			  " && " SQT_LLVM "/llvm-objdump -d --mcpu=%s %s/a.o > %s/a.dis",
		 mcpu, src, dir, dir, dir, mcpu, dir, dir);
	if (sqt_run(cmd))
		goto out;
	snprintf(path, sizeof(path), "%s/a.bin", dir);
	o->text = (uint8_t *)sqt_read_file(path, &o->size);
	snprintf(path, sizeof(path), "%s/a.dis", dir);
	o->dis = sqt_read_file(path, NULL);
	if (!o->text || !o->dis)
		goto out;
	/* Labels: "0000000000000100 <kfdsig_signal_raw>:" */
	for (char *l = o->dis; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		unsigned long long a;
		char name[64];

		if (o->nsym < 64 && sscanf(l, "%llx <%63[^>]>:", &a, name) == 2) {
			snprintf(o->sym[o->nsym].name, sizeof(o->sym[0].name), "%s", name);
			o->sym[o->nsym++].addr = a;
		}
	}
	r = 0;
out:
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	if (r)
		sqt_obj_free(o);
	return r;
}

/* Assemble source text. */
static inline int sqt_assemble(const char *text, const char *mcpu, struct sqt_obj *o)
{
	char path[] = "/tmp/kfdsig-sq-src-XXXXXX";
	int fd = mkstemp(path), r;
	size_t n = strlen(text);

	if (fd < 0)
		return -1;
	if (write(fd, text, n) != (ssize_t)n) {
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	r = sqt_assemble_file(path, mcpu, o);
	unlink(path);
	return r;
}

static inline int64_t sqt_sym(const struct sqt_obj *o, const char *name)
{
	for (unsigned i = 0; i < o->nsym; i++)
		if (!strcmp(o->sym[i].name, name))
			return (int64_t)o->sym[i].addr;
	return -1;
}

/* Directory of the real stub sources: $KFDSIG_STUB_DIR, else src/shaders
 * of the source tree the build names (KFDSIG_SOURCE_DIR: __FILE__ can be
 * a relative path, as under Debian's -ffile-prefix-map), else next to
 * this test's source. */
static inline const char *sqt_stub_dir(void)
{
	static char dir[1024];
	const char *env = getenv("KFDSIG_STUB_DIR");
	const char *slash;

	if (env && *env)
		return env;
#ifdef KFDSIG_SOURCE_DIR
	return KFDSIG_SOURCE_DIR "/src/shaders";
#endif
	slash = strrchr(__FILE__, '/');
	if (!slash)
		return "../src/shaders";
	snprintf(dir, sizeof(dir), "%.*s/../src/shaders", (int)(slash - __FILE__), __FILE__);
	return dir;
}

/* Path of a family's stub source, or NULL when it is not there. */
static inline const char *sqt_stub_path(const char *src, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s.s", sqt_stub_dir(), src);
	return access(buf, R_OK) == 0 ? buf : NULL;
}

/* ------------------------------------------------------------------ */
/* GPU memory: a few mapped regions; anything else faults.             */

struct sqt_region {
	uint64_t va;
	uint32_t size;
	uint8_t *p;
};

struct sqt_mem {
	struct sqt_region r[4];
	unsigned n;
	unsigned reads, writes;
};

static inline uint8_t *sqt_map(struct sqt_mem *m, uint64_t va, uint32_t size, int fill)
{
	struct sqt_region *r = &m->r[m->n++];

	r->va = va;
	r->size = size;
	r->p = malloc(size);
	memset(r->p, fill, size);
	return r->p;
}

static inline void sqt_mem_free(struct sqt_mem *m)
{
	for (unsigned i = 0; i < m->n; i++)
		free(m->r[i].p);
	memset(m, 0, sizeof(*m));
}

static inline uint8_t *sqt_find(struct sqt_mem *m, uint64_t va, uint32_t len)
{
	for (unsigned i = 0; i < m->n; i++)
		if (va >= m->r[i].va && va - m->r[i].va + len <= m->r[i].size)
			return m->r[i].p + (va - m->r[i].va);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* One wave on that memory                                             */

struct sqt_wave {
	struct sqt_mem mem; /* the program and its data, mapped by the caller */
	int trap_ret;	    /* what the trap hook answers (with trap_hook) */
	/* what the hooks saw */
	unsigned nmsg, ntrap, nchk;
	uint32_t msg_m0;
	uint8_t trap_id;
	unsigned kind[4];
	uint64_t pc[4], store_pc[4];
	struct sqk_result res;
	int rc;
	uint64_t *page; /* the signal page, where the caller maps one */
	unsigned page_slots;
	unsigned stored_at_msg; /* the page's slots written when the last interrupt went */
};

static inline void *sqt_xlate(void *ctx, uint64_t va, uint32_t len, bool write, bool *ro)
{
	(void)write;
	*ro = false;
	return sqt_find(&((struct sqt_wave *)ctx)->mem, va, len);
}

static inline int sqt_on_msg(void *ctx, uint32_t msg, uint32_t m0)
{
	struct sqt_wave *r = ctx;

	if (msg == 1) {
		r->nmsg++, r->msg_m0 = m0;
		r->stored_at_msg = 0;
		for (unsigned i = 0; r->page && i < r->page_slots; i++)
			r->stored_at_msg += r->page[i] != ~0ull;
	}
	return 0;
}

static inline int sqt_on_trap(void *ctx, uint8_t id)
{
	struct sqt_wave *r = ctx;

	r->ntrap++;
	r->trap_id = id;
	return r->trap_ret;
}

static inline void sqt_on_check(void *ctx, unsigned kind, uint64_t pc, uint64_t store_pc)
{
	struct sqt_wave *r = ctx;

	if (r->nchk < 4)
		r->kind[r->nchk] = kind, r->pc[r->nchk] = pc, r->store_pc[r->nchk] = store_pc;
	r->nchk++;
}

/* Run one wave of @lanes work-items (0: the target's full wave, 32 from
 * gfx10 on, else 64) from @entry on target @t with @nuser user SGPRs
 * (PM4's COMPUTE_USER_DATA) and the hooks above (the trap hook with
 * @trap_hook); r->rc and r->res say how it ended. */
/* The hooks above as the kernel interpreter's environment. */
static inline struct sqk_env sqt_env(struct sqt_wave *r, bool trap_hook)
{
	struct sqk_env env = { .ctx = r,
			       .xlate = sqt_xlate,
			       .message = sqt_on_msg,
			       .trap = trap_hook ? sqt_on_trap : NULL,
			       .check = sqt_on_check };

	r->nmsg = r->ntrap = r->nchk = 0;
	return env;
}

static inline int sqt_run_wave(struct sqt_wave *r, const struct kfdsig_target *t, uint64_t entry,
			       const uint32_t *user, unsigned nuser, unsigned lanes, bool trap_hook)
{
	struct sqk_env env = sqt_env(r, trap_hook);
	uint32_t ud[16] = { 0 };
	struct sqk_dispatch d = { 0 };
	bool w32 = t->level >= KFDSIG_GFX10;

	for (unsigned i = 0; i < nuser && i < 16; i++)
		ud[i] = user[i];
	d.fam = sqk_family_of(t->gfx_target_version);
	d.entry = entry;
	d.rsrc1 = 1;		      /* 8 VGPRs */
	d.rsrc2 = (nuser & 31u) << 1; /* USER_SGPR_COUNT */
	d.user_data = ud;
	d.wave32 = w32;
	d.wg[0] = d.grid[0] = lanes ? lanes : w32 ? 32 : 64;
	d.wg[1] = d.wg[2] = d.grid[1] = d.grid[2] = 1;
	r->rc = sqk_run(&d, &env, &r->res);
	return r->rc;
}

/* One wave of @lanes (32 or 64) work-items of @t, no user SGPRs: what
 * sqk_run() answers to that wave size on any family. */
static inline int sqt_run_lanes(struct sqt_wave *r, const struct kfdsig_target *t, uint64_t entry,
				unsigned lanes)
{
	struct sqk_env env = sqt_env(r, false);
	struct sqk_dispatch d = { 0 };
	uint32_t ud[16] = { 0 };

	d.fam = sqk_family_of(t->gfx_target_version);
	d.entry = entry;
	d.user_data = ud;
	d.wave32 = lanes == 32;
	d.wg[0] = d.grid[0] = lanes;
	d.wg[1] = d.wg[2] = d.grid[1] = d.grid[2] = 1;
	r->rc = sqk_run(&d, &env, &r->res);
	return r->rc;
}

#endif
