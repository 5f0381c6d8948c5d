/* SPDX-License-Identifier: MIT */
/*
 * The d16 loads and stores of the kernel interpreter against a host model
 * written here from the ISA manuals (Vega, CDNA2/3 and RDNA2 ISA:
 * *_LOAD_{UBYTE,SBYTE,SHORT}_D16{,_HI}, *_STORE_{BYTE,SHORT}_D16_HI,
 * DS_READ_{U8,I8,U16}_D16{,_HI}, DS_WRITE_{B8,B16}_D16_HI): a load writes
 * the byte (zero- or sign-extended to 16 bits) or short into the low (_d16)
 * or high (_d16_hi) half of the destination and keeps the other half; a
 * _d16_hi store writes bits 23:16 (byte) or 31:16 (short) of the data.
 * Every form (global with saddr and with a 64-bit vaddr, flat, scratch,
 * MUBUF offen, DS) on every lane of gfx900, gfx90a and gfx942 (wave64) and
 * gfx1030 (wave32 and wave64) under full and mixed EXEC, at every byte
 * (short: every half) of a dword. Code assembled by LLVM 22's llvm-mc, run
 * on sqk_run(). Exit 77 without LLVM 22.
 */
#include <stdio.h>
#include <unistd.h>

#include "emu/sq/sqk.h"
#include "emu_sqk_util.h"

#define CODE_VA 0x10000ull
#define IN_VA 0x40000ull   /* the tables below */
#define OUT_VA 0x80000ull  /* 256 bytes per case */
#define SCR_VA 0x100000ull /* the wave's scratch: 1 KiB per lane */
#define SCR_BYTES 65536u
#define T_SRC 0x0000   /* source bytes, 256 */
#define T_OLD 0x1000   /* the destination's value before a load */
#define T_OFFB 0x1100  /* byte offset of lane l: 4l + l % 4 */
#define T_OFFS 0x1200  /* short offset of lane l: 4l + 2 (l % 2) */
#define T_ADDRB 0x1400 /* IN_VA + offb, 64-bit */
#define T_ADDRS 0x1600 /* IN_VA + offs, 64-bit */
#define T_DATA 0x1800  /* store data */
#define T_PRIVB 0x1900 /* 16 + l % 4 */
#define T_PRIVS 0x1a00 /* 16 + 2 (l % 2) */

static uint8_t code[65536];
static uint32_t in_mem[65536 / 4], out_mem[65536 / 4], scr_mem[SCR_BYTES / 4];
static const struct tvm_range ranges[] = {
	{ CODE_VA, code, sizeof(code), false },
	{ IN_VA, in_mem, sizeof(in_mem), false },
	{ OUT_VA, out_mem, sizeof(out_mem), false },
	{ SCR_VA, scr_mem, sizeof(scr_mem), false },
};
static struct tvm vm = { ranges, 4 };

enum seg { S_GSADDR, S_GVADDR, S_FLAT, S_SCRATCH, S_BUF, S_DS, S_NSEG };
static const char *const seg_name[] = { "global saddr", "global vaddr", "flat",
					"scratch",	"buffer",	"ds" };

struct op {
	const char *mem, *ds; /* the memory mnemonic's tail, the DS one */
	bool store, hi, sx;
	unsigned bytes;
};

static const struct op ops[] = {
	{ "load_ubyte_d16", "read_u8_d16", false, false, false, 1 },
	{ "load_ubyte_d16_hi", "read_u8_d16_hi", false, true, false, 1 },
	{ "load_sbyte_d16", "read_i8_d16", false, false, true, 1 },
	{ "load_sbyte_d16_hi", "read_i8_d16_hi", false, true, true, 1 },
	{ "load_short_d16", "read_u16_d16", false, false, false, 2 },
	{ "load_short_d16_hi", "read_u16_d16_hi", false, true, false, 2 },
	{ "store_byte_d16_hi", "write_b8_d16_hi", true, true, false, 1 },
	{ "store_short_d16_hi", "write_b16_d16_hi", true, true, false, 2 },
};
#define NOPS (sizeof(ops) / sizeof(ops[0]))

static const uint64_t execs[] = { ~0ull, 0x9b3c5e17a4d26f81ull, 0x00ff00fff0f0f00full };

static uint8_t src_byte(unsigned i)
{
	return (uint8_t)(i * 37 + 0x81);
}

static uint32_t off_of(unsigned bytes, unsigned l)
{
	return bytes == 1 ? 4 * l + l % 4 : 4 * l + 2 * (l % 2);
}

#define EMIT(...) (len += (size_t)snprintf(s + len, cap - len, __VA_ARGS__))

/* v1 = 4l, v9 = 8l; v6 old, v4 data, v7 offb, v8 offs, v[2:3] addrb,
 * v[10:11] addrs, v12 privb, v13 privs, v14 the lane's source dword;
 * s[8:11] a V# of IN_VA, s[12:15] one of the case's output; the source
 * dword of each lane at private offset 16 and at LDS 4l. Per case: EXEC,
 * the instruction, EXEC full, the result (loads: v5; stores: the bytes
 * written, read back for private and LDS) at OUT_VA + 256 * case. */
static char *kernel_text(unsigned n, bool gfx10, bool arch)
{
	size_t cap = 1 << 17, len = 0;
	char *s = malloc(cap);
	unsigned c = 0;
	const char *full = n == 64 ? "  s_mov_b32 exec_lo, -1\n  s_mov_b32 exec_hi, -1\n"
				   : "  s_mov_b32 exec_lo, -1\n";

	/* FLAT_SCRATCH at the scratch (architected flat scratch: set at
	 * launch from the dispatch's scratch) */
	if (gfx10)
		EMIT("  s_mov_b32 s2, 0x%llx\n  s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s2\n"
		     "  s_mov_b32 s2, 0\n  s_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s2\n",
		     SCR_VA);
	else if (!arch)
		EMIT("  s_mov_b32 flat_scratch_lo, 0x%llx\n  s_mov_b32 flat_scratch_hi, 0\n",
		     SCR_VA);
	EMIT("  v_lshlrev_b32 v1, 2, v0\n  v_lshlrev_b32 v9, 3, v0\n  s_mov_b32 s3, 0\n");
	EMIT("  s_mov_b32 s2, 0x%llx\n  global_load_dword v6, v1, s[2:3]\n", IN_VA + T_OLD);
	EMIT("  s_mov_b32 s2, 0x%llx\n  global_load_dword v4, v1, s[2:3]\n", IN_VA + T_DATA);
	EMIT("  s_mov_b32 s2, 0x%llx\n  global_load_dword v7, v1, s[2:3]\n", IN_VA + T_OFFB);
	EMIT("  s_mov_b32 s2, 0x%llx\n  global_load_dword v8, v1, s[2:3]\n", IN_VA + T_OFFS);
	EMIT("  s_mov_b32 s2, 0x%llx\n  global_load_dwordx2 v[2:3], v9, s[2:3]\n", IN_VA + T_ADDRB);
	EMIT("  s_mov_b32 s2, 0x%llx\n  global_load_dwordx2 v[10:11], v9, s[2:3]\n",
	     IN_VA + T_ADDRS);
	EMIT("  s_mov_b32 s2, 0x%llx\n  global_load_dword v12, v1, s[2:3]\n", IN_VA + T_PRIVB);
	EMIT("  s_mov_b32 s2, 0x%llx\n  global_load_dword v13, v1, s[2:3]\n", IN_VA + T_PRIVS);
	EMIT("  s_mov_b32 s2, 0x%llx\n  global_load_dword v14, v1, s[2:3]\n", IN_VA + T_SRC);
	EMIT("  s_waitcnt vmcnt(0)\n  v_mov_b32 v15, 16\n"
	     "  scratch_store_dword v15, v14, off\n  ds_write_b32 v1, v14\n"
	     "  s_mov_b32 s2, 0x%llx\n"
	     "  s_mov_b32 s8, s2\n  s_mov_b32 s9, 0\n  s_mov_b32 s10, -1\n  s_mov_b32 s11, 0\n"
	     "  s_mov_b32 s4, 0x%llx\n  s_mov_b32 s5, 0\n"
	     "  s_mov_b32 s13, 0\n  s_mov_b32 s14, -1\n  s_mov_b32 s15, 0\n"
	     "  s_waitcnt vmcnt(0) lgkmcnt(0)\n",
	     IN_VA, OUT_VA);
	for (unsigned sg = 0; sg < S_NSEG; sg++)
		for (unsigned o = 0; o < NOPS; o++, c++) {
			const struct op *p = &ops[o];
			uint64_t ex = execs[c % 3];
			const char *off = p->bytes == 1 ? "v7" : "v8";
			const char *a64 = p->bytes == 1 ? "v[2:3]" : "v[10:11]";
			const char *priv = p->bytes == 1 ? "v12" : "v13";
			const char *d = p->store ? "v4" : "v5";
			/* store areas: LDS 4l + offb/offs from lds_at, private
			 * memory from priv_at */
			unsigned lds_at = 1024 + 256 * o, priv_at = 64 + 16 * o;

			EMIT("  v_mov_b32 v5, v6\n  s_mov_b32 s12, s4\n");
			if (p->store) {
				/* stores to the case's output area: offb/offs from
				 * OUT_VA + 256 c (global, flat, buffer), from
				 * dsoff in LDS and private memory */
				EMIT("  v_add_%s v16, s4, %s\n  v_mov_b32 v17, 0\n",
				     gfx10 ? "nc_u32" : "u32", off);
			}
			EMIT("  s_mov_b32 exec_lo, 0x%x\n", (uint32_t)ex);
			if (n == 64)
				EMIT("  s_mov_b32 exec_hi, 0x%x\n", (uint32_t)(ex >> 32));
			switch (sg) {
			case S_GSADDR:
				EMIT("  global_%s %s, %s, s[%u:%u]\n", p->mem, p->store ? off : d,
				     p->store ? d : off, p->store ? 4 : 8, p->store ? 5 : 9);
				break;
			case S_GVADDR:
				if (p->store)
					EMIT("  global_%s v[16:17], v4, off\n", p->mem);
				else
					EMIT("  global_%s v5, %s, off\n", p->mem, a64);
				break;
			case S_FLAT:
				if (p->store)
					EMIT("  flat_%s v[16:17], v4\n", p->mem);
				else
					EMIT("  flat_%s v5, %s\n", p->mem, a64);
				break;
			case S_SCRATCH:
				if (p->store)
					EMIT("  scratch_%s %s, v4, off offset:%u\n", p->mem, priv,
					     priv_at - 16);
				else
					EMIT("  scratch_%s v5, %s, off\n", p->mem, priv);
				break;
			case S_BUF:
				EMIT("  buffer_%s %s, %s, s[%u:%u], 0 offen\n", p->mem, d, off,
				     p->store ? 12 : 8, p->store ? 15 : 11);
				break;
			case S_DS:
				if (p->store)
					EMIT("  ds_%s %s, v4 offset:%u\n", p->ds, off, lds_at);
				else
					EMIT("  ds_%s v5, %s\n", p->ds,
					     p->bytes == 1 ? "v7" : "v8");
				break;
			}
			EMIT("  s_waitcnt vmcnt(0) lgkmcnt(0)\n%s", full);
			if (p->store && (sg == S_SCRATCH || sg == S_DS)) {
				/* the lane's dword at dsoff, stored at 4l */
				if (sg == S_SCRATCH)
					EMIT("  v_mov_b32 v15, %u\n  scratch_load_dword v5, v15, "
					     "off\n",
					     priv_at);
				else
					EMIT("  ds_read_b32 v5, v1 offset:%u\n", lds_at);
				EMIT("  s_waitcnt vmcnt(0) lgkmcnt(0)\n"
				     "  global_store_dword v1, v5, s[4:5]\n");
			} else if (!p->store) {
				EMIT("  global_store_dword v1, v5, s[4:5]\n");
			}
			EMIT("  s_add_u32 s4, s4, 0x100\n");
		}
	EMIT("  s_endpgm\n");
	return s;
}

/* The host model: the 256 bytes case @c leaves at OUT_VA + 256 c. */
static void model(unsigned sg, const struct op *p, unsigned c, unsigned n, uint8_t *want)
{
	uint64_t ex = execs[c % 3] & (n == 64 ? ~0ull : 0xffffffffull);

	memset(want, 0xcc, 256);
	for (unsigned l = 0; l < n; l++) {
		bool on = ex >> l & 1;
		uint32_t old = in_mem[T_OLD / 4 + l], data = in_mem[T_DATA / 4 + l], v;

		if (!p->store) {
			uint32_t off = off_of(p->bytes, l), m;

			/* private memory and LDS hold the lane's source dword at
			 * 16 and at 4l: the same bytes */
			m = p->bytes == 1
				    ? src_byte(off)
				    : (uint32_t)src_byte(off) | (uint32_t)src_byte(off + 1) << 8;
			if (p->bytes == 1 && p->sx)
				m = (uint32_t)(uint16_t)(int16_t)(int8_t)(uint8_t)m;
			v = !on	    ? old
			    : p->hi ? (old & 0x0000ffffu) | m << 16
				    : (old & 0xffff0000u) | m;
			memcpy(want + 4 * l, &v, 4);
			continue;
		}
		if (sg == S_SCRATCH || sg == S_DS) {
			/* the lane's dword of private memory or LDS, zero at first */
			uint32_t w = 0, at = off_of(p->bytes, l) - 4 * l;

			if (on && p->bytes == 1)
				w = ((data >> 16) & 0xffu) << (8 * at);
			else if (on)
				w = ((data >> 16) & 0xffffu) << (8 * at);
			memcpy(want + 4 * l, &w, 4);
		} else if (on) {
			uint32_t at = off_of(p->bytes, l);

			want[at] = (uint8_t)(data >> 16);
			if (p->bytes == 2)
				want[at + 1] = (uint8_t)(data >> 24);
		}
	}
}

static void run(const char *mcpu, uint32_t gfxv, unsigned n)
{
	struct sqk_env env = { .ctx = &vm, .xlate = tvm_xlate };
	struct sqk_dispatch d;
	struct sqk_result res;
	uint32_t user[16] = { 0 };
	uint8_t want[256];
	bool gfx10 = gfxv >= 100000;
	char *text;
	int rc;
	unsigned c = 0;

	memset(in_mem, 0, sizeof(in_mem));
	for (unsigned i = 0; i < 256; i++)
		((uint8_t *)in_mem)[T_SRC + i] = src_byte(i);
	for (unsigned l = 0; l < 64; l++) {
		uint64_t ab = IN_VA + off_of(1, l), as = IN_VA + off_of(2, l);

		in_mem[T_OLD / 4 + l] = 0x13579bdfu ^ l * 0x01030507u;
		in_mem[T_DATA / 4 + l] = 0xfedcba98u ^ l * 0x05040302u;
		in_mem[T_OFFB / 4 + l] = off_of(1, l);
		in_mem[T_OFFS / 4 + l] = off_of(2, l);
		memcpy((uint8_t *)in_mem + T_ADDRB + 8 * l, &ab, 8);
		memcpy((uint8_t *)in_mem + T_ADDRS + 8 * l, &as, 8);
		in_mem[T_PRIVB / 4 + l] = 16 + l % 4;
		in_mem[T_PRIVS / 4 + l] = 16 + 2 * (l % 2);
	}
	memset(out_mem, 0xcc, sizeof(out_mem));
	text = kernel_text(n, gfx10, gfxv == 90402);
	T_REQUIRE(kco_asm_text(text, mcpu, n == 64 && gfx10 ? "-mattr=+wavefrontsize64" : "", code,
			       sizeof(code)),
		  "llvm-mc for %s", mcpu);
	free(text);
	T_REQUIRE(tvm_dispatch(&d, gfxv, CODE_VA, n, n), "family of %s", mcpu);
	d.wave32 = n == 32;
	d.user_data = user;
	d.lds_bytes = 4096;
	memset(scr_mem, 0, sizeof(scr_mem));
	d.priv_bytes = SCR_BYTES / 64;
	d.scratch_va = SCR_VA;
	d.scratch_waves = 1;
	d.scratch_wave_bytes = SCR_BYTES;
	d.shared_base = 0x1000000000000ull; /* flat apertures away from IN_VA */
	d.private_base = 0x2000000000000ull;
	rc = sqk_run(&d, &env, &res);
	CHECK(rc == 0, "%s wave%u: sqk_run %d (%s)", mcpu, n, rc, res.msg);
	for (unsigned sg = 0; sg < S_NSEG; sg++)
		for (unsigned o = 0; o < NOPS; o++, c++) {
			const uint8_t *got = (const uint8_t *)out_mem + 256 * c;
			unsigned bad = 0, first = 0;

			model(sg, &ops[o], c, n, want);
			for (unsigned i = 0; i < 256; i++)
				if (got[i] != want[i] && !bad++)
					first = i;
			CHECK(bad == 0,
			      "%s wave%u: %s %s exec 0x%llx: %u bytes wrong, byte %u (lane %u) "
			      "0x%x, "
			      "want 0x%x",
			      mcpu, n, seg_name[sg], sg == S_DS ? ops[o].ds : ops[o].mem,
			      (unsigned long long)execs[c % 3], bad, first, first / 4, got[first],
			      want[first]);
		}
}

int main(void)
{
	if (kco_asm_missing())
		return T_EXIT_SKIP;
	run("gfx900", 90000, 64);
	run("gfx90a", 90010, 64);
	run("gfx942", 90402, 64);
	run("gfx1030", 100300, 64);
	run("gfx1030", 100300, 32);
	return t_result("emu_sqk_d16");
}
