/* SPDX-License-Identifier: MIT */
/*
 * Vector memory of the kernel interpreter: every access goes through the
 * emulated GPU VM (sqk_env.xlate, with a small per-dispatch TLB of 4 KiB
 * pages); an unmapped or write-protected address stops the dispatch with
 * -EFAULT and the faulting address. FLAT addresses in the shared aperture
 * go to LDS, in the private aperture to the wave's private memory (AMD
 * ISA manuals "Flat Memory Instructions": aperture check on address
 * [63:32]).
 *
 * Private memory is the scratch backing in the VM, interleaved per lane
 * (LLVM AMDGPUUsage "Private Segment": element size 4 bytes, index stride
 * the wave's lanes, 64 or 32, LLVM D63808 "fix scratch resource
 * descriptor"): byte o of lane l is at base + (o / 4) * 4 * lanes + l * 4
 * + o % 4. SCRATCH and private-aperture FLAT accesses take base =
 * FLAT_SCRATCH (sqk_flat_scratch()) and o = the offset (the aperture
 * address less the aperture's base); swizzled MUBUF (ADD_TID_ENABLE, the
 * private segment buffer) follows the ISA manuals' swizzled buffer
 * addressing ("Buffer Instructions", "Swizzled Buffer Addressing"):
 * index = the lane (+ vindex), base = V# base + soffset + (index /
 * index_stride) * stride * index_stride + (index % index_stride) *
 * element_size, with the V#'s ELEMENT_SIZE (gfx8/9; gfx10 on: 4 bytes)
 * and INDEX_STRIDE. An address no BO maps is a VM fault (a memory
 * violation), as on hardware.
 */
#include <math.h>
#include <pthread.h>

#include "emu/sq/sqk_exec.h"

/* ---- GPU VM ------------------------------------------------------------ */

static int vm_fault(struct sqk_wave *w, const struct sqk_insn *in, uint64_t va, bool write, bool ro)
{
	struct sqk_result *res = w->r->res;

	if (!res->err) {
		res->fault_va = va;
		res->fault_write = write;
		res->fault_ro = ro;
	}
	return sqk_fail(w, in, -EFAULT, ro ? "write to a read-only page" : "page fault");
}

static inline unsigned tlb_index(uint64_t page)
{
	return sqk_tlb_index(page);
}

/* A TLB miss looks in a cache of 2 MiB and 64 KiB blocks, each entered
 * when one mapping holds all of it: a wave streaming through a buffer
 * takes one host translation per 512 pages (the host's translation walks
 * the process's buffers under its lock, which the dispatch's threads
 * share), and pages that evict each other in the TLB (a copy's source and
 * destination) none. A block no one mapping holds is entered as such (no
 * host address: its pages go on to the smaller block, then alone, without
 * another walk for it); a block a write finds write-protected is not
 * entered. An entry's key: the block's number, times 2, plus 1 for a
 * 2 MiB block, plus 1. */
#define XL_BIG (2ull << 20)
#define XL_BLOCK 65536ull

/* The page of @va through the cached block of @size holding it, else
 * through a new translation of that block; NULL with *none when no one
 * mapping holds the block, NULL alone when a write finds it
 * write-protected. The cache has two ways per set, the last one used
 * first: the blocks of a copy's source and destination whose keys fall
 * in one set do not evict each other on every page. */
static uint8_t *xl_block(struct sqk_run *r, uint64_t va, uint64_t size, bool write, bool *none)
{
	uint64_t block = va / size, key = block * 2 + (size == XL_BIG) + 1;
	unsigned b = sqk_tlb_hash(key) % (SQK_BTLB / 2) * 2;
	bool ro = false;
	uint8_t *p;

	*none = false;
	for (unsigned j = 0; j < 2; j++) {
		if (r->btlb[b + j].block != key ||
		    (write && !r->btlb[b + j].w && r->btlb[b + j].host))
			continue;
		if (j) { /* the set's last used first */
			__typeof__(r->btlb[0]) t = r->btlb[b + 1];

			r->btlb[b + 1] = r->btlb[b];
			r->btlb[b] = t;
		}
		if (!r->btlb[b].host) {
			*none = true;
			return NULL;
		}
		return r->btlb[b].host + (va % size & ~4095ull);
	}
	p = r->env->xlate(r->env->ctx, block * size, (uint32_t)size, write, &ro);
	if (!p && ro)
		return NULL;
	r->btlb[b + 1] = r->btlb[b];
	r->btlb[b].block = key;
	r->btlb[b].host = p;
	r->btlb[b].w = write;
	if (!p) {
		*none = true;
		return NULL;
	}
	return p + (va % size & ~4095ull);
}

/* A page not in the first entry of its TLB set: the second, else a new
 * translation in the first, the first moved to the second. A page that
 * every wave reads (kernel arguments) and a stream of buffer pages falling
 * in its set keep both. */
static uint8_t *xl_miss(struct sqk_wave *w, const struct sqk_insn *in, uint64_t va, bool write)
{
	struct sqk_run *r = w->r;
	uint64_t page = va >> 12;
	unsigned i = tlb_index(page);
	bool ro = false, none;
	uint8_t *p;

	if (r->tlb[i + 1].page == page + 1 && (!write || r->tlb[i + 1].w))
		return r->tlb[i + 1].host + (va & 4095);
	if (!(p = xl_block(r, va, XL_BIG, write, &none)) && none)
		p = xl_block(r, va, XL_BLOCK, write, &none);
	if (!p) {
		p = r->env->xlate(r->env->ctx, va & ~4095ull, 4096, write, &ro);
		if (!p) {
			vm_fault(w, in, va, write, ro);
			return NULL;
		}
	}
	r->tlb[i + 1] = r->tlb[i];
	r->tlb[i].page = page + 1;
	r->tlb[i].host = p;
	r->tlb[i].w = write;
	return p + (va & 4095);
}

static inline __attribute__((always_inline)) uint8_t *
xl(struct sqk_wave *w, const struct sqk_insn *in, uint64_t va, bool write)
{
	struct sqk_run *r = w->r;
	uint64_t page = va >> 12;
	unsigned i = tlb_index(page);

	if (r->tlb[i].page == page + 1 && (!write || r->tlb[i].w))
		return r->tlb[i].host + (va & 4095);
	return xl_miss(w, in, va, write);
}

const uint8_t *sqk_vm_page(struct sqk_wave *w, const struct sqk_insn *in, uint64_t va)
{
	return xl(w, in, va, false);
}

int sqk_vm_read(struct sqk_wave *w, const struct sqk_insn *in, uint64_t va, void *dst, uint32_t len)
{
	uint8_t *d = dst;

	while (len) {
		uint32_t n = 4096 - (uint32_t)(va & 4095);
		uint8_t *p;

		if (n > len)
			n = len;
		p = xl(w, in, va, false);
		if (!p)
			return -EFAULT;
		memcpy(d, p, n);
		d += n, va += n, len -= n;
	}
	return 0;
}

int sqk_vm_write(struct sqk_wave *w, const struct sqk_insn *in, uint64_t va, const void *src,
		 uint32_t len)
{
	const uint8_t *s = src;

	while (len) {
		uint32_t n = 4096 - (uint32_t)(va & 4095);
		uint8_t *p;

		if (n > len)
			n = len;
		p = xl(w, in, va, true);
		if (!p)
			return -EFAULT;
		memcpy(p, s, n);
		s += n, va += n, len -= n;
	}
	return 0;
}

void *sqk_vm_ptr(struct sqk_wave *w, const struct sqk_insn *in, uint64_t va, uint32_t len,
		 bool write)
{
	if ((va & 4095) + len > 4096 || (va & (len - 1))) {
		sqk_fail(w, in, -EPROTO, "misaligned atomic");
		return NULL;
	}
	return xl(w, in, va, write);
}

/* ---- operation table (by mnemonic) --------------------------------------- */

struct minfo {
	uint8_t kind; /* 0 none, 1 load, 2 store, 3 atomic, 4 cache op */
	uint8_t bytes;
	bool sx;
	uint8_t akind;
	uint8_t d16; /* 16-bit half of the register: 0 none, 1 low, 2 high */
};

static struct minfo mi[K_COUNT];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static const struct {
	const char *s;
	uint8_t akind;
} anames[] = {
	{ "swap", SQK_A_SWAP },	   { "cmpswap", SQK_A_CMPSWAP }, { "add_f32", SQK_A_FADD },
	{ "add_f64", SQK_A_FADD }, { "add", SQK_A_ADD },	 { "sub", SQK_A_SUB },
	{ "smin", SQK_A_SMIN },	   { "umin", SQK_A_UMIN },	 { "smax", SQK_A_SMAX },
	{ "umax", SQK_A_UMAX },	   { "and", SQK_A_AND },	 { "or", SQK_A_OR },
	{ "xor", SQK_A_XOR },	   { "inc", SQK_A_INC },	 { "dec", SQK_A_DEC },
	{ "fmin", SQK_A_FMIN },	   { "fmax", SQK_A_FMAX },	 { "min_f64", SQK_A_FMIN },
	{ "max_f64", SQK_A_FMAX },
};

static void init_info(void)
{
	static const struct {
		const char *s;
		uint8_t bytes;
		bool sx;
	} sz[] = { { "ubyte", 1, false },   { "sbyte", 1, true },     { "ushort", 2, false },
		   { "sshort", 2, true },   { "byte", 1, false },     { "short", 2, false },
		   { "dwordx2", 8, false }, { "dwordx3", 12, false }, { "dwordx4", 16, false },
		   { "dword", 4, false } };

	for (unsigned i = 1; i < K_COUNT; i++) {
		const char *n = sqk_op_name(i), *p = strchr(n, '_');

		if (!p || !(strncmp(n, "flat_", 5) == 0 || strncmp(n, "global_", 7) == 0 ||
			    strncmp(n, "scratch_", 8) == 0 || strncmp(n, "buffer_", 7) == 0))
			continue;
		p++;
		if (strncmp(p, "load_", 5) == 0 || strncmp(p, "store_", 6) == 0) {
			const char *t = strchr(p, '_') + 1, *h = strstr(t, "_d16");
			size_t tl = h ? (size_t)(h - t) : strlen(t);

			mi[i].kind = p[0] == 'l' ? 1 : 2;
			if (h)
				mi[i].d16 = strcmp(h, "_d16_hi") == 0 ? 2 : 1;
			for (size_t k = 0; k < sizeof(sz) / sizeof(sz[0]); k++)
				if (strlen(sz[k].s) == tl && strncmp(t, sz[k].s, tl) == 0) {
					mi[i].bytes = sz[k].bytes;
					mi[i].sx = sz[k].sx;
					break;
				}
		} else if (strncmp(p, "atomic_", 7) == 0) {
			const char *t = p + 7;
			size_t tl = strlen(t);
			bool x2 = tl > 3 && strcmp(t + tl - 3, "_x2") == 0;

			mi[i].kind = 3;
			mi[i].bytes = (x2 || strstr(t, "f64")) ? 8 : 4;
			for (size_t k = 0; k < sizeof(anames) / sizeof(anames[0]); k++) {
				size_t al = strlen(anames[k].s);

				if (strncmp(t, anames[k].s, al) == 0 &&
				    (t[al] == 0 || t[al] == '_') &&
				    !(t[al] == '_' && strcmp(t + al, "_x2") != 0)) {
					mi[i].akind = anames[k].akind;
					break;
				}
			}
		} else {
			mi[i].kind = 4; /* cache write-back / invalidate */
		}
	}
}

/* ---- per-lane segments ---------------------------------------------------- */

enum seg { SEG_GLOBAL, SEG_LDS, SEG_PRIV };

/* Lane memory access: global through the VM, LDS, private. @p for
 * atomics. Return 0 or -EFAULT (sqk_fail called). */
static int lane_rw(struct sqk_wave *w, const struct sqk_insn *in, enum seg sg, unsigned l,
		   uint64_t a, void *buf, unsigned len, bool write)
{
	struct sqk_run *r = w->r;

	if (sg == SEG_LDS) {
		if (write)
			sqk_lds_write(r, (uint32_t)a, buf, len);
		else
			sqk_lds_read(r, (uint32_t)a, buf, len);
		return 0;
	}
	if (sg == SEG_PRIV) {
		uint8_t *b = buf;

		/* element by element: an access crossing an element's end
		 * continues in the next element (index_stride elements on) */
		while (len) {
			unsigned o = (unsigned)(a % w->pes),
				 k = w->pes - o < len ? w->pes - o : len;
			uint64_t va = w->pbase + a / w->pes * w->pes * w->pstride + o;
			int rr = write ? sqk_vm_write(w, in, va, b, k)
				       : sqk_vm_read(w, in, va, b, k);

			if (rr < 0)
				return rr;
			a += k, b += k, len -= k;
		}
		return 0;
	}
	(void)l;
	return write ? sqk_vm_write(w, in, a, buf, len) : sqk_vm_read(w, in, a, buf, len);
}

static void *lane_ptr(struct sqk_wave *w, const struct sqk_insn *in, enum seg sg, unsigned l,
		      uint64_t a, unsigned len)
{
	struct sqk_run *r = w->r;
	static __thread uint64_t dummy[2];

	if (sg == SEG_LDS) {
		if (a + len > r->lds_size || (a & (len - 1)))
			return memset(dummy, 0, sizeof(dummy));
		return r->lds + a;
	}
	if (sg == SEG_PRIV) {
		/* an atomic within one element; one across two (a 64-bit
		 * atomic on 4-byte elements) is not one location: refused */
		if (a % w->pes + len > w->pes) {
			sqk_fail(w, in, -ENOTSUP, "atomic across private memory elements");
			return NULL;
		}
		return sqk_vm_ptr(w, in, w->pbase + a / w->pes * w->pes * w->pstride + a % w->pes,
				  len, true);
	}
	(void)l;
	return sqk_vm_ptr(w, in, a, len, true);
}

static uint32_t *vreg(struct sqk_wave *w, unsigned r, bool acc)
{
	return w->v + (size_t)((r & 0xff) + (acc ? 256 : 0)) * 64;
}

/*
 * The d16 forms (ISA manuals, FLAT/GLOBAL/SCRATCH/MUBUF "LOAD_*_D16*",
 * "STORE_*_D16_HI"): a load of a byte (zero- or sign-extended to 16 bits)
 * or a short writes only the low (_d16) or high (_d16_hi) half of the
 * destination and keeps the other; a _d16_hi store writes the byte or short
 * from bits 31:16 of the data. LLVM (GCNSubtarget d16PreservesUnusedBits)
 * assumes the other half kept except with SRAMECC enabled, where the
 * hardware may zero it and LLVM then relies on neither: keeping it is right
 * for both, so every family keeps it.
 */
static inline uint32_t d16_merge(uint32_t old, uint32_t v, unsigned d16)
{
	return d16 == 2 ? (old & 0xffffu) | v << 16 : (old & 0xffff0000u) | (v & 0xffffu);
}

/* Load, store or atomic of one lane at (seg, a). */
static int lane_op(struct sqk_wave *w, const struct sqk_insn *in, const struct minfo *m,
		   enum seg sg, unsigned l, uint64_t a)
{
	uint32_t *dv = vreg(w, in->dst - 256, in->acc), *sv = vreg(w, in->vdata, in->acc);
	uint32_t buf[4] = { 0 };

	if (m->kind == 1) {
		if (lane_rw(w, in, sg, l, a, buf, m->bytes, false) < 0)
			return -EFAULT;
		if (m->bytes == 1)
			buf[0] = m->sx ? (uint32_t)(int32_t)(int8_t)buf[0] : (buf[0] & 0xff);
		else if (m->bytes == 2)
			buf[0] = m->sx ? (uint32_t)(int32_t)(int16_t)buf[0] : (buf[0] & 0xffff);
		if (m->d16) {
			dv[l] = d16_merge(dv[l], buf[0], m->d16);
			return 0;
		}
		for (unsigned i = 0; i < (m->bytes + 3u) / 4; i++)
			dv[i * 64 + l] = buf[i];
		return 0;
	}
	if (m->kind == 2) {
		for (unsigned i = 0; i < (m->bytes + 3u) / 4; i++)
			buf[i] = sv[i * 64 + l];
		if (m->d16 == 2)
			buf[0] >>= 16;
		return lane_rw(w, in, sg, l, a, buf, m->bytes, true);
	}
	{
		unsigned n = m->bytes / 4;
		uint64_t data = sv[l] | (n == 2 ? (uint64_t)sv[64 + l] << 32 : 0), cmp = 0, old;
		void *p;

		if (m->akind == SQK_A_CMPSWAP)
			cmp = sv[n * 64 + l] | (n == 2 ? (uint64_t)sv[(n + 1) * 64 + l] << 32 : 0);
		p = lane_ptr(w, in, sg, l, a, m->bytes);
		if (!p)
			return w->r->res->err ? w->r->res->err : -EFAULT;
		old = sqk_atomic(m->akind, p, m->bytes, data, cmp);
		if (in->glc) {
			dv[l] = (uint32_t)old;
			if (n == 2)
				dv[64 + l] = (uint32_t)(old >> 32);
		}
		return 0;
	}
}

/* The global address of lane @l's MUBUF access of @nb bytes: false when
 * it is none (swizzled private segment, or out of range). */
static bool mubuf_addr(struct sqk_wave *w, const struct sqk_insn *in, unsigned l, unsigned nb,
		       uint64_t *a)
{
	const uint32_t *rs = &w->s[in->srsrc & 0x7f];
	uint64_t base = rs[0] | (uint64_t)(rs[1] & 0xffff) << 32;
	uint32_t stride = rs[1] >> 16 & 0x3fff, num = rs[2];
	uint32_t soff = (uint32_t)sqk_sread(w, in, in->soffset, false, false);
	uint32_t idx = in->idxen ? w->v[(size_t)in->vaddr * 64 + l] : 0;
	uint32_t voff = in->offen ? w->v[(size_t)(in->vaddr + in->idxen) * 64 + l] : 0;
	uint64_t off = (uint64_t)voff + (uint32_t)in->offset;

	if (rs[3] >> 23 & 1)
		return false;
	if (stride && in->idxen ? idx >= num : off + nb > num)
		return false;
	*a = (base + soff + off + (uint64_t)idx * stride) & 0xffffffffffffull;
	return true;
}

static int exec_mubuf(struct sqk_wave *w, const struct sqk_insn *in, const struct minfo *m)
{
	const uint32_t *rs = &w->s[in->srsrc & 0x7f];
	uint64_t base = rs[0] | (uint64_t)(rs[1] & 0xffff) << 32, ex = sqk_exec(w);
	uint32_t stride = rs[1] >> 16 & 0x3fff, num = rs[2];
	bool tid = rs[3] >> 23 & 1;
	uint32_t soff = (uint32_t)sqk_sread(w, in, in->soffset, false, false);
	/* swizzle: INDEX_STRIDE [22:21] 8 << n lanes; ELEMENT_SIZE [20:19]
	 * 2 << n bytes on gfx8/9, 4 bytes from gfx10 (no field) */
	uint32_t istride = 8u << (rs[3] >> 21 & 3),
		 es = w->r->f->gfx10 ? 4u : 2u << (rs[3] >> 19 & 3);

	for (uint64_t mk = ex; mk; mk &= mk - 1) {
		unsigned l = (unsigned)__builtin_ctzll(mk);
		uint32_t idx = in->idxen ? w->v[(size_t)in->vaddr * 64 + l] : 0;
		uint32_t voff = in->offen ? w->v[(size_t)(in->vaddr + in->idxen) * 64 + l] : 0;
		uint64_t off = (uint64_t)voff + (uint32_t)in->offset;
		int rr;

		if (tid) {
			/* swizzled: index = vindex + the lane */
			uint32_t ix = idx + l;

			w->pbase = (base + soff + (uint64_t)(ix / istride) * stride * istride +
				    (uint64_t)(ix % istride) * es) &
				   0xffffffffffffull;
			w->pes = es, w->pstride = istride;
			rr = lane_op(w, in, m, SEG_PRIV, l, off);
		} else {
			bool oob = stride && in->idxen ? idx >= num : off + m->bytes > num;

			if (oob) { /* out of range: loads give 0, stores are dropped */
				uint32_t *dv = vreg(w, in->dst - 256, in->acc);

				if (m->kind == 1 && m->d16)
					dv[l] = d16_merge(dv[l], 0, m->d16);
				else if (m->kind == 1)
					for (unsigned i = 0; i < (m->bytes + 3u) / 4; i++)
						dv[i * 64 + l] = 0;
				continue;
			}
			rr = lane_op(w, in, m, SEG_GLOBAL, l,
				     (base + soff + off + (uint64_t)idx * stride) &
					     0xffffffffffffull);
		}
		if (rr < 0)
			return rr;
	}
	return 0;
}

/* Four dwords per lane between memory @p (lane l's at p + 16 * l) and the
 * registers @reg (dword i of lane l at reg[i * 64 + l]), @n lanes: each
 * block of 4 lanes is a 4 x 4 transpose, its own inverse. */
typedef uint32_t v4u __attribute__((vector_size(16)));
typedef uint32_t v4ul __attribute__((vector_size(16), aligned(4), may_alias));
#ifdef __clang__
#define SHUF(a, b, i, j, k, l) __builtin_shufflevector(a, b, i, j, k, l)
#else
#define SHUF(a, b, i, j, k, l) __builtin_shuffle(a, b, (v4u){ i, j, k, l })
#endif

static inline void transpose4(v4u x[4])
{
	v4u t0 = SHUF(x[0], x[1], 0, 4, 1, 5), t1 = SHUF(x[0], x[1], 2, 6, 3, 7),
	    t2 = SHUF(x[2], x[3], 0, 4, 1, 5), t3 = SHUF(x[2], x[3], 2, 6, 3, 7);

	x[0] = SHUF(t0, t2, 0, 1, 4, 5);
	x[1] = SHUF(t0, t2, 2, 3, 6, 7);
	x[2] = SHUF(t1, t3, 0, 1, 4, 5);
	x[3] = SHUF(t1, t3, 2, 3, 6, 7);
}

static void copy_x4(uint8_t *p, uint32_t *reg, unsigned n, bool store)
{
	for (unsigned l = 0; l < n; l += 4) {
		v4u x[4];

		for (unsigned i = 0; i < 4; i++)
			memcpy(&x[i], store ? (const void *)&reg[i * 64 + l] : p + 16 * (l + i),
			       16);
		transpose4(x);
		for (unsigned i = 0; i < 4; i++)
			memcpy(store ? (void *)(p + 16 * (l + i)) : &reg[i * 64 + l], &x[i], 16);
	}
}

/* Do the @n lanes (32 or 64: a constant where inlined) of @lo count up by
 * @step from lo[0], and, with @hi, do their @hi all equal hi[0]? Four
 * lanes at a time, every lane looked at. */
static inline __attribute__((always_inline)) bool
lanes_count_up(const uint32_t *lo, const uint32_t *hi, unsigned n, uint32_t step)
{
	v4u e = { lo[0], lo[0] + step, lo[0] + 2 * step, lo[0] + 3 * step },
	    inc = { 4 * step, 4 * step, 4 * step, 4 * step }, d = { 0 }, h = { 0 };
	uint64_t t[2];

	if (hi)
		h = (v4u){ hi[0], hi[0], hi[0], hi[0] };
	for (unsigned l = 0; l < n; l += 4, e += inc) {
		d |= *(const v4ul *)(lo + l) ^ e;
		if (hi)
			d |= *(const v4ul *)(hi + l) ^ h;
	}
	memcpy(t, &d, sizeof(t));
	return !(t[0] | t[1]);
}

static inline __attribute__((always_inline)) bool
wave_counts_up(const uint32_t *lo, const uint32_t *hi, unsigned n, uint32_t step)
{
	return n == 64 ? lanes_count_up(lo, hi, 64, step) : lanes_count_up(lo, hi, 32, step);
}

/* A load or store of @nb bytes (whole dwords) per lane of a whole wave
 * (EXEC full, FLAT or GLOBAL) whose lanes address consecutive elements of
 * one page, lane 0 first: one translation, then straight between the page
 * and the registers. 0: done; 1: not such an access (the lanes go one by
 * one); -EFAULT. A fault is the one lane 0 would take first lane by lane:
 * the same page. With scale_offset (gfx1250, GLOBAL with SADDR) the
 * lanes' 32-bit offsets are element indices: consecutive when they count
 * up by one. */
static inline __attribute__((always_inline)) int whole_wave(struct sqk_wave *w,
							    const struct sqk_insn *in, bool store,
							    unsigned nb, uint32_t *reg, unsigned n)
{
	const struct sqk_run *r = w->r;
	const uint32_t *lo = w->v + (size_t)in->vaddr * 64, *hi = lo + 64;
	unsigned step = in->scale ? 1 : nb;
	uint64_t a0, off = (uint64_t)(int64_t)in->offset;
	unsigned k = nb / 4;
	uint8_t *p;

	/* consecutive low halves that do not wrap (a wave whose addresses
	 * carry into the high half crosses a page: lane by lane anyway) */
	if (lo[0] > UINT32_MAX - step * (n - 1))
		return 1;
	if (in->saddr != 0xffff) {
		/* saddr + the lane's 32-bit offset (times the element's
		 * size with scale_offset) */
		if (!wave_counts_up(lo, NULL, n, step))
			return 1;
		a0 = sqk_sread(w, in, in->saddr, true, false) +
		     (uint64_t)lo[0] * (in->scale ? nb : 1) + off;
	} else {
		/* 64-bit addresses: one high half for the wave */
		if (in->scale || !wave_counts_up(lo, hi, n, nb))
			return 1;
		a0 = (lo[0] | (uint64_t)hi[0] << 32) + off;
	}
	if (in->enc == SQK_FLAT && ((uint32_t)(a0 >> 32) == (uint32_t)(r->d->shared_base >> 32) ||
				    (uint32_t)(a0 >> 32) == (uint32_t)(r->d->private_base >> 32)))
		return 1;
	if ((a0 & 4095) + (uint64_t)nb * n > 4096)
		return 1; /* crosses a page */
	p = xl(w, in, a0, store);
	if (!p)
		return -EFAULT;
	if (k == 1) { /* constant sizes: inline copies, 32 bytes at a time */
		for (unsigned i = 0; i < n * 4; i += 32)
			if (store)
				memcpy(p + i, (uint8_t *)reg + i, 32);
			else
				memcpy((uint8_t *)reg + i, p + i, 32);
		return 0;
	}
	if (k == 4) { /* a 4 x 4 transpose per 4 lanes */
		copy_x4(p, reg, n, store);
		return 0;
	}
	/* lane l's k dwords are consecutive in memory, dword i of them in
	 * register i's column */
	if (store)
		for (unsigned l = 0; l < n; l++)
			for (unsigned i = 0; i < k; i++)
				memcpy(p + 4 * (l * k + i), &reg[i * 64 + l], 4);
	else
		for (unsigned l = 0; l < n; l++)
			for (unsigned i = 0; i < k; i++)
				memcpy(&reg[i * 64 + l], p + 4 * (l * k + i), 4);
	return 0;
}

/* Does the access at @a (kind 1 load, 2 store, 3 atomic) hit watch @wp?
 * The TCP compares address bits [47:30] always, [29:6] where the mask
 * (TCP_WATCH_CNTL.MASK = mask >> 6, 24 bits: amdgpu_amdkfd_gfx_v8.h
 * TCP_WATCH_CNTL_BITS, ADDRESS_WATCH_REG_ADDLOW_SHIFT 6) has a 1 and
 * never [5:0]: a watch covers its 64-byte line. GC 10
 * (kgd_gfx_v10_set_address_watch(): MASK = mask >> 7): [30:7] under the
 * mask, [6:0] never (UNVERIFIED beyond that shift). Modes (kfd_ioctl.h
 * kfd_dbg_trap_address_watch_mode): read hits loads, nonread stores and
 * atomics, atomic atomics, all everything. UNVERIFIED: whether bits
 * [31:30] are compared (here: always, as the GC 8 code's 26-bit mask
 * extension ADDRESS_WATCH_REG_ADDLOW_MASK_EXTENSION suggests) and whether
 * a returning atomic also hits a read watch (here: no). */
static bool watch_hit(const struct sqk_watch *wp, uint64_t a, unsigned kind, unsigned sh)
{
	uint64_t field = 0xffffffull << sh;
	uint64_t cmp = (0xffffffffffffull & ~field & ~((1ull << sh) - 1)) | (wp->mask & field);

	switch (wp->mode) {
	case 0:
		if (kind != 1)
			return false;
		break;
	case 1:
		if (kind == 1)
			return false;
		break;
	case 2:
		if (kind != 3)
			return false;
		break;
	default:
		break;
	}
	return ((a ^ wp->addr) & cmp) == 0;
}

/* TRAPSTS ADDR_WATCHn bits of the watch points the wave's FLAT, GLOBAL
 * or MUBUF access hits in any active lane (global segment only). */
static uint32_t watch_sts(struct sqk_wave *w, const struct sqk_insn *in, unsigned kind)
{
	struct sqk_run *r = w->r;
	uint32_t sts = 0;

	if (in->enc == SQK_SCRATCH || kind < 1 || kind > 3)
		return 0;
	for (uint64_t mk = sqk_exec(w); mk; mk &= mk - 1) {
		unsigned l = (unsigned)__builtin_ctzll(mk);
		uint64_t a;

		if (in->enc == SQK_MUBUF) {
			if (!mubuf_addr(w, in, l, mi[in->op].bytes, &a))
				continue; /* private or out of range: no access */
		} else {
			uint32_t hi;

			a = sqk_flat_addr(w, in, l, mi[in->op].bytes);
			hi = (uint32_t)(a >> 32);
			if (in->enc == SQK_FLAT && (hi == (uint32_t)(r->d->shared_base >> 32) ||
						    hi == (uint32_t)(r->d->private_base >> 32)))
				continue;
		}
		for (unsigned i = 0; i < r->nwatch; i++)
			if (watch_hit(&r->watch[i], a, kind, r->f->gen >= SQK_GEN_GFX10 ? 7 : 6))
				sts |= r->watch[i].id ? SQK_TRAPSTS_WATCH1 << (r->watch[i].id - 1)
						      : SQK_TRAPSTS_WATCH0;
	}
	return sts;
}

static int exec_mem(struct sqk_wave *w, const struct sqk_insn *in);

int sqk_exec_mem(struct sqk_wave *w, const struct sqk_insn *in)
{
	uint32_t sts;
	int rc;

	if (__builtin_expect(!w->r->nwatch, 1) || w->in_trap)
		return exec_mem(w, in);
	/* address watch: the addresses before the access (a load may
	 * overwrite its address registers), the exception after it: the
	 * wave enters the trap handler with ttmp0/1 at the next instruction
	 * and TRAPSTS.EXCP ADDR_WATCHn (cwsr_trap_handler_gfx9.asm) */
	pthread_once(&once, init_info);
	sts = watch_sts(w, in, mi[in->op].kind);
	rc = exec_mem(w, in);
	if (rc != 0 || !sts)
		return rc;
	/* without precise memory operations the hardware reports the hit
	 * when the access returns, some instructions later: here after the
	 * next one (sqk_wave.c run_wave(); at the latest at s_endpgm) */
	if (w->r->watch[0].late) {
		w->watch_late |= sts;
		w->watch_skip = 1;
		return 0;
	}
	sqk_trap_enter(w, in->pc + in->size, 0, sts);
	return 2;
}

static int exec_mem(struct sqk_wave *w, const struct sqk_insn *in)
{
	const struct minfo *m;
	struct sqk_run *r = w->r;
	uint64_t ex = sqk_exec(w), last_page = ~0ull, fs = 0;
	uint8_t *last_host = NULL;
	unsigned kind, nb;
	uint32_t *reg;

	pthread_once(&once, init_info);
	m = &mi[in->op];
	kind = m->kind, nb = m->bytes; /* locals: the lanes' stores cannot alias them */
	reg = vreg(w, kind == 1 ? in->dst - 256 : in->vdata, in->acc);
	if (m->kind == 4)
		return 0; /* caches: memory is coherent here */
	if (!m->kind || !m->bytes || (m->kind == 3 && !m->akind))
		return sqk_fail(w, in, -ENOTSUP, "unimplemented instruction");
	if (in->enc == SQK_MUBUF) {
		/* MUBUF results land in vdata (loads, returning atomics) */
		struct sqk_insn t = *in;

		t.dst = 256 + in->vdata;
		return exec_mubuf(w, &t, m);
	}
	/* scale_offset (gfx1250): the element is the memory operand's size
	 * (an atomic's: 4 or 8 bytes, cmpswap's compare value aside) */
	if (kind <= 2 && nb >= 4 && ex == sqk_mask(w) && in->enc != SQK_SCRATCH) {
		int rr = whole_wave(w, in, kind == 2, nb, reg, w->lanes);

		if (rr <= 0)
			return rr;
	}
	/* private memory of SCRATCH and FLAT: FLAT_SCRATCH, 4-byte elements,
	 * the wave's lanes as index stride; lane l's base set below */
	if (in->enc != SQK_GLOBAL)
		w->pes = 4, w->pstride = w->lanes, fs = sqk_flat_scratch(w);
	for (uint64_t mk = ex; mk; mk &= mk - 1) {
		unsigned l = (unsigned)__builtin_ctzll(mk);
		const uint32_t *va = w->v + (size_t)in->vaddr * 64;
		uint64_t a;
		enum seg sg = SEG_GLOBAL;
		int rr;

		if (in->enc == SQK_SCRATCH) {
			uint64_t o = 0;

			if (in->saddr != 0xffff)
				o += (uint32_t)sqk_sread(w, in, in->saddr, false, false);
			if (!in->vaddr_off)
				o += (uint64_t)va[l] * (in->scale ? nb : 1);
			a = (uint32_t)(o + (uint64_t)(int64_t)in->offset);
			sg = SEG_PRIV, w->pbase = fs + 4ull * l;
		} else {
			a = sqk_flat_addr(w, in, l, nb);
			if (in->enc == SQK_FLAT) {
				uint32_t hi = (uint32_t)(a >> 32);

				if (hi == (uint32_t)(r->d->shared_base >> 32))
					sg = SEG_LDS, a &= 0xffffffffu;
				else if (hi == (uint32_t)(r->d->private_base >> 32))
					sg = SEG_PRIV, a &= 0xffffffffu, w->pbase = fs + 4ull * l;
			}
		}
		if (sg == SEG_GLOBAL && kind <= 2 && nb >= 4 && (a & 4095) + nb <= 4096) {
			/* whole dwords within a page: straight between the
			 * page and the registers; the previous lane's page (a
			 * wave's lanes mostly share one) before the TLB */
			uint8_t *p;

			if (a >> 12 == last_page)
				p = last_host + (a & 4095);
			else if (!(p = xl(w, in, a, kind == 2)))
				return -EFAULT;
			last_page = a >> 12, last_host = p - (a & 4095);
			for (unsigned i = 0; i < nb / 4u; i++)
				if (kind == 1)
					memcpy(&reg[i * 64 + l], p + 4 * i, 4);
				else
					memcpy(p + 4 * i, &reg[i * 64 + l], 4);
			continue;
		}
		rr = lane_op(w, in, m, sg, l, a);
		if (rr < 0)
			return rr;
	}
	return 0;
}

unsigned sqk_mem_kind(unsigned op)
{
	pthread_once(&once, init_info);
	return op < K_COUNT ? mi[op].kind : 0;
}

/*
 * Hot executors (bound once per decoded instruction, sqk_wave.c bind()):
 * a GLOBAL or FLAT load or store of whole dwords. A wave with EXEC full and
 * no address watch tries the whole-wave access, its lane count and element
 * size constants; anything else (a partial EXEC, a watch, lanes that are
 * not consecutive in one page) goes to sqk_exec_mem() as before.
 */
static inline __attribute__((always_inline)) int
hot_whole(struct sqk_wave *w, const struct sqk_insn *in, bool store, unsigned nb, unsigned lanes)
{
	int rr;

	if (__builtin_expect(w->r->nwatch != 0, 0) ||
	    sqk_exec(w) != (lanes == 64 ? ~0ull : 0xffffffffull))
		return sqk_exec_mem(w, in);
	rr = whole_wave(w, in, store, nb, vreg(w, store ? in->vdata : in->dst - 256, in->acc),
			lanes);
	return rr <= 0 ? rr : sqk_exec_mem(w, in);
}

#define HOT_MEM(name, store, nb)                                         \
	static int name(struct sqk_wave *w, const struct sqk_insn *in)   \
	{                                                                \
		return w->lanes == 64 ? hot_whole(w, in, store, nb, 64)  \
				      : hot_whole(w, in, store, nb, 32); \
	}
HOT_MEM(hot_load4, false, 4)
HOT_MEM(hot_load8, false, 8)
HOT_MEM(hot_load12, false, 12)
HOT_MEM(hot_load16, false, 16)
HOT_MEM(hot_store4, true, 4)
HOT_MEM(hot_store8, true, 8)
HOT_MEM(hot_store12, true, 12)
HOT_MEM(hot_store16, true, 16)

sqk_exec_fn sqk_mem_hot(const struct sqk_insn *in)
{
	static const sqk_exec_fn ld[4] = { hot_load4, hot_load8, hot_load12, hot_load16 },
				 st[4] = { hot_store4, hot_store8, hot_store12, hot_store16 };
	const struct minfo *m;

	pthread_once(&once, init_info);
	if (in->op >= K_COUNT || (in->enc != SQK_GLOBAL && in->enc != SQK_FLAT))
		return NULL;
	m = &mi[in->op];
	if ((m->kind != 1 && m->kind != 2) || m->bytes < 4 || m->bytes % 4 || m->d16)
		return NULL;
	return m->kind == 1 ? ld[m->bytes / 4 - 1] : st[m->bytes / 4 - 1];
}
