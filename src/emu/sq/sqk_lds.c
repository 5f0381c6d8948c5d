/* SPDX-License-Identifier: MIT */
/*
 * LDS (DS instructions) of the kernel interpreter: the workgroup's group
 * segment. Addresses are v[addr] + offset (single-address forms: 16-bit
 * offset; the 2-address forms: offset0/offset1 in elements, times 64 for
 * st64). Out-of-range reads return 0 and writes are dropped (the LDS size
 * check of the ISA manuals' "Data Share Operations"). ds_cmpst: data0 is
 * the compare value, data1 the new one; gfx11's ds_cmpstore the other way
 * round (RDNA3 ISA manual, DS_CMPSTORE_B32: src = DATA, cmp = DATA2).
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>

#include "emu/sq/sqk_exec.h"

void sqk_lds_read(struct sqk_run *r, uint32_t addr, void *dst, uint32_t len)
{
	if ((uint64_t)addr + len > r->lds_size)
		memset(dst, 0, len);
	else
		memcpy(dst, r->lds + addr, len);
}

void sqk_lds_write(struct sqk_run *r, uint32_t addr, const void *src, uint32_t len)
{
	if ((uint64_t)addr + len <= r->lds_size)
		memcpy(r->lds + addr, src, len);
}

struct dinfo {
	uint8_t kind; /* 1 read, 2 write, 3 atomic, 4 read2, 5 write2, 6 swizzle, 7 permute,
		       * 8 bpermute, 9 nop */
	uint8_t bytes;
	bool sx, rtn, st64;
	uint8_t akind;
	uint8_t d16; /* 16-bit half of the register: 0 none, 1 low, 2 high */
	bool new0;   /* compare-and-store: data0 the new value (ds_cmpstore) */
};

static struct dinfo di[K_COUNT];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static const struct {
	const char *s;
	uint8_t a;
} an[] = {
	{ "add_f32", SQK_A_FADD }, { "add_f64", SQK_A_FADD },  { "min_f32", SQK_A_FMIN },
	{ "max_f32", SQK_A_FMAX }, { "min_f64", SQK_A_FMIN },  { "max_f64", SQK_A_FMAX },
	{ "add", SQK_A_ADD },	   { "sub", SQK_A_SUB },       { "rsub", SQK_A_RSUB },
	{ "inc", SQK_A_INC },	   { "dec", SQK_A_DEC },       { "min_i", SQK_A_SMIN },
	{ "max_i", SQK_A_SMAX },   { "min_u", SQK_A_UMIN },    { "max_u", SQK_A_UMAX },
	{ "and", SQK_A_AND },	   { "or", SQK_A_OR },	       { "xor", SQK_A_XOR },
	{ "wrxchg", SQK_A_SWAP },  { "cmpst", SQK_A_CMPSWAP },
};

static void init_info(void)
{
	for (unsigned i = 1; i < K_COUNT; i++) {
		const char *n = sqk_op_name(i);
		struct dinfo *d = &di[i];

		if (strncmp(n, "ds_", 3) != 0)
			continue;
		n += 3;
		d->bytes = strcmp(n + strlen(n) - 2, "64") == 0 ? 8 : 4;
		if (strcmp(n, "nop") == 0) {
			d->kind = 9;
		} else if (strcmp(n, "swizzle_b32") == 0) {
			d->kind = 6;
		} else if (strcmp(n, "permute_b32") == 0) {
			d->kind = 7;
		} else if (strcmp(n, "bpermute_b32") == 0) {
			d->kind = 8;
		} else if (strncmp(n, "read2", 5) == 0 || strncmp(n, "write2", 6) == 0) {
			d->kind = n[0] == 'r' ? 4 : 5;
			d->st64 = strstr(n, "st64") != NULL;
		} else if (strncmp(n, "read_", 5) == 0 || strncmp(n, "write_", 6) == 0) {
			char t[16];
			char *h;

			snprintf(t, sizeof(t), "%s", strchr(n, '_') + 1);
			h = strstr(t, "_d16");
			if (h) { /* u8_d16_hi: u8, the high half */
				d->d16 = strcmp(h, "_d16_hi") == 0 ? 2 : 1;
				*h = 0;
			}
			d->kind = n[0] == 'r' ? 1 : 2;
			if (strcmp(t, "i8") == 0 || strcmp(t, "u8") == 0 || strcmp(t, "b8") == 0)
				d->bytes = 1, d->sx = t[0] == 'i';
			else if (strcmp(t, "i16") == 0 || strcmp(t, "u16") == 0 ||
				 strcmp(t, "b16") == 0)
				d->bytes = 2, d->sx = t[0] == 'i';
			else if (strcmp(t, "b96") == 0)
				d->bytes = 12;
			else if (strcmp(t, "b128") == 0)
				d->bytes = 16;
		} else {
			d->kind = 3;
			char b[32];
			const char *rt = strstr(n, "_rtn_");

			d->rtn = rt != NULL;
			snprintf(b, sizeof(b), "%s", n);
			if (rt) /* min_rtn_i32 -> min_i32 */
				memmove(b + (rt - n), b + (rt - n) + 4,
					strlen(b + (rt - n) + 4) + 1);
			for (size_t k = 0; k < sizeof(an) / sizeof(an[0]); k++)
				if (strncmp(b, an[k].s, strlen(an[k].s)) == 0) {
					d->akind = an[k].a;
					break;
				}
			if (!d->akind)
				d->kind = 0;
			d->new0 = strncmp(b, "cmpstore_", 9) == 0;
		}
	}
}

/* ds_swizzle_b32 offset (ISA manuals, DS_SWIZZLE_B32; LLVM SIDefines.h
 * Swizzle): bit 15 set: QDMode (quad permute of 4 x 2-bit selects);
 * clear: BitMode (and_mask [4:0], or_mask [9:5], xor_mask [14:10] within
 * groups of 32 lanes). Offsets from 0xc000 up are the rotate (0xc000) and
 * FFT (0xe000) modes LLVM assembles for gfx9 and gfx10 (swizzle(ROTATE),
 * swizzle(FFT)); their lane functions are not verified here, so
 * sqk_exec_ds() refuses them as an illegal instruction. */
static unsigned swz_lane(unsigned off, unsigned l)
{
	if (off & 0x8000)
		return (l & ~3u) | (off >> (2 * (l & 3)) & 3);
	return (l & ~31u) | ((((l & 31) & (off & 31)) | (off >> 5 & 31)) ^ (off >> 10 & 31));
}

int sqk_exec_ds(struct sqk_wave *w, const struct sqk_insn *in)
{
	const struct dinfo *d;
	struct sqk_run *r = w->r;
	uint64_t ex = sqk_exec(w);
	const uint32_t *av = w->v + (size_t)in->vaddr * 64;
	unsigned acc = in->acc ? 256 : 0;
	uint32_t *dv = w->v + (size_t)(in->dst - 256 + acc) * 64;
	const uint32_t *d0 = w->v + (size_t)(in->src[0] + acc) * 64,
		       *d1 = w->v + (size_t)(in->src[1] + acc) * 64;
	uint32_t tmp[64];

	pthread_once(&once, init_info);
	d = &di[in->op];
	if (in->op == K_ds_gws_init || in->op == K_ds_gws_barrier || in->op == K_ds_gws_sema_v ||
	    in->op == K_ds_gws_sema_br || in->op == K_ds_gws_sema_p ||
	    in->op == K_ds_gws_sema_release_all)
		return sqk_exec_gws(w, in);
	if (in->gds)
		return sqk_fail(w, in, -ENOTSUP, "GDS is not implemented");
	switch (d->kind) {
	case 9:
		return 0;
	case 6:
		if ((in->offset & 0xffff) >= 0xc000)
			return sqk_fail(w, in, -ENOTSUP,
					"ds_swizzle_b32 rotate and FFT modes are not implemented");
		/* fall through */
	case 7:
	case 8:
		for (unsigned l = 0; l < w->lanes; l++)
			tmp[l] = 0;
		for (uint64_t m = ex; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctzll(m), s;

			if (d->kind == 6) { /* the source is ADDR, not DATA0 */
				s = swz_lane(in->offset & 0xffff, l);
				tmp[l] = (ex >> s & 1) ? av[s] : 0;
			} else {
				s = ((av[l] + (uint32_t)in->offset) >> 2) % w->lanes;
				if (d->kind == 8)
					tmp[l] = (ex >> s & 1) ? d0[s] : 0;
				else
					tmp[s] = d0[l];
			}
		}
		for (uint64_t m = ex; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctzll(m);

			dv[l] = tmp[l];
		}
		return 0;
	case 0:
		return sqk_fail(w, in, -ENOTSUP, "unimplemented instruction");
	default:
		break;
	}
	for (uint64_t m = ex; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m), n = (d->bytes + 3u) / 4;
		uint32_t a = av[l], buf[4] = { 0 };

		switch (d->kind) {
		case 1:
			sqk_lds_read(r, a + (uint32_t)in->offset, buf, d->bytes);
			if (d->bytes == 1)
				buf[0] = d->sx ? (uint32_t)(int32_t)(int8_t)buf[0] : buf[0] & 0xff;
			else if (d->bytes == 2)
				buf[0] = d->sx ? (uint32_t)(int32_t)(int16_t)buf[0]
					       : buf[0] & 0xffff;
			if (d->d16 == 2) /* the high half; the low one kept */
				buf[0] = (dv[l] & 0xffffu) | buf[0] << 16;
			else if (d->d16 == 1) /* the low half; the high one kept */
				buf[0] = (dv[l] & 0xffff0000u) | (buf[0] & 0xffffu);
			for (unsigned i = 0; i < n; i++)
				dv[i * 64 + l] = buf[i];
			break;
		case 2:
			for (unsigned i = 0; i < n; i++)
				buf[i] = d0[i * 64 + l];
			if (d->d16 == 2) /* bits 31:16 of the data */
				buf[0] >>= 16;
			sqk_lds_write(r, a + (uint32_t)in->offset, buf, d->bytes);
			break;
		case 4:
		case 5: {
			uint32_t sc = d->bytes * (d->st64 ? 64u : 1u);
			uint32_t a0 = a + in->offset0 * sc, a1 = a + in->offset1 * sc;

			if (d->kind == 4) {
				sqk_lds_read(r, a0, buf, d->bytes);
				sqk_lds_read(r, a1, buf + n, d->bytes);
				for (unsigned i = 0; i < 2 * n; i++)
					dv[i * 64 + l] = buf[i];
			} else {
				for (unsigned i = 0; i < n; i++)
					buf[i] = d0[i * 64 + l], buf[n + i] = d1[i * 64 + l];
				sqk_lds_write(r, a0, buf, d->bytes);
				sqk_lds_write(r, a1, buf + n, d->bytes);
			}
			break;
		}
		case 3: {
			uint32_t ad = a + (uint32_t)in->offset;
			uint64_t data = d0[l] | (n == 2 ? (uint64_t)d0[64 + l] << 32 : 0), cmp = 0,
				 old;

			if (d->akind == SQK_A_CMPSWAP) { /* data0 compare, data1 new */
				uint64_t v1 = d1[l] | (n == 2 ? (uint64_t)d1[64 + l] << 32 : 0);

				if (d->new0) /* ds_cmpstore: data0 new, data1 compare */
					cmp = v1;
				else
					cmp = data, data = v1;
			}
			if ((uint64_t)ad + d->bytes > r->lds_size || (ad & (d->bytes - 1))) {
				old = 0;
			} else {
				old = sqk_atomic(d->akind, r->lds + ad, d->bytes, data, cmp);
			}
			if (d->rtn) {
				dv[l] = (uint32_t)old;
				if (n == 2)
					dv[64 + l] = (uint32_t)(old >> 32);
			}
			break;
		}
		default:
			break;
		}
	}
	return 0;
}
