/* SPDX-License-Identifier: MIT */
/*
 * The decoder's input formats (kfdsig/decode_input.h): each format is
 * detected from its first bytes and read back to the same dwords, written
 * here as the dump tools print them (xxd, xxd -e, hexdump -C, od, UMR's
 * ring_read.c lines, amdgpu_debugfs_ring_read()'s 12-byte header,
 * amdgpu_devcoredump_format()'s ring section); input that is not in the
 * named format is refused with -EBADMSG, never read as something else.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"

/* The dwords every sample holds: PACKET3(NOP, 0), then one body dword. */
static const uint32_t want[2] = { 0xc0001000u, 0x00000000u };

struct got {
	uint32_t dw[64];
	size_t n;
	int stop; /* returned by the callback */
};

static int collect(void *ctx, const uint32_t *dw, size_t n)
{
	struct got *g = ctx;

	for (size_t i = 0; i < n && g->n < 64; i++)
		g->dw[g->n++] = dw[i];
	return g->stop;
}

/* Parse @len bytes of @text as kfdsig decode does: read a head, then the
 * rest. @format KFDSIG_DECODE_INPUT_AUTO: the library detects the format from a
 * head of up to 4 KiB (with @path: kfdsig_decode_input_detect() first); else a
 * 16-byte head, which the parsers must join with the rest of the file. */
static int parse(const void *text, size_t len, int format, const char *path, const char *ring_name,
		 struct got *g, struct kfdsig_decode_input_ring *ring)
{
	KFDSIG_OPTS(kfdsig_decode_input_opts, o, .ring_name = ring_name, .ctx = g,
		    .dwords = collect);
	unsigned char head[4096];
	size_t nhead;
	FILE *f;
	int r;

	f = fmemopen((void *)text, len, "rb");
	if (!f)
		return -errno;
	nhead = fread(head, 1, format == KFDSIG_DECODE_INPUT_AUTO ? sizeof(head) : 16, f);
	if (format == KFDSIG_DECODE_INPUT_AUTO && path)
		format = kfdsig_decode_input_detect(head, nhead, path);
	o.format = (uint32_t)format;
	r = kfdsig_decode_input_parse(f, head, nhead, &o, ring);
	fclose(f);
	return r;
}

struct sample {
	const char *name;
	int format;
	const char *path;
	const char *text;
	size_t len; /* 0: strlen(text) */
};

static const struct sample samples[] = {
	{ "bin", KFDSIG_DECODE_INPUT_BIN, NULL, "\x00\x10\x00\xc0\x00\x00\x00\x00", 8 },
	{ "hex", KFDSIG_DECODE_INPUT_HEX, NULL, "# a ring\n0xc0001000 0x00000000\n", 0 },
	{ "xxd", KFDSIG_DECODE_INPUT_XXD, NULL,
	  "00000000: 0010 00c0 0000 0000                      ........\n", 0 },
	{ "xxd-e", KFDSIG_DECODE_INPUT_XXD_E, NULL,
	  "00000000: c0001000 00000000                    ........\n", 0 },
	{ "hexdump", KFDSIG_DECODE_INPUT_HEXDUMP, NULL,
	  "00000000  00 10 00 c0 00 00 00 00                           |........|\n"
	  "00000008\n",
	  0 },
	/* od: octal 2-byte words, 0x1000 = 010000, 0xc000 = 140000 */
	{ "od", KFDSIG_DECODE_INPUT_OD, NULL, "0000000 010000 140000 000000 000000\n0000010\n", 0 },
	{ "umr", KFDSIG_DECODE_INPUT_UMR, NULL,
	  "vega10.gfx.rptr == 0\nvega10.gfx.wptr == 2\nvega10.gfx.drv_wptr == 2\n"
	  "vega10.gfx.ring[   0] == 0xc0001000    r\n"
	  "vega10.gfx.ring[   1] == 0x00000000    w\n",
	  0 },
	/* rptr 1, wptr and driver wptr 0 (2, masked to the 2-dword ring),
	 * then the ring */
	{ "debugfs", KFDSIG_DECODE_INPUT_DEBUGFS, "/sys/kernel/debug/dri/0/amdgpu_ring_gfx",
	  "\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
	  "\x00\x10\x00\xc0\x00\x00\x00\x00",
	  20 },
	{ "devcoredump", KFDSIG_DECODE_INPUT_DEVCOREDUMP, NULL,
	  "**** AMDGPU Device Coredump ****\nring name: gfx_0.0.0\n"
	  "Rptr: 0x0 Wptr: 0x2 RB mask: 1\nRing size in dwords: 2\nRing contents\n"
	  "Offset \t Value\n0x0 \t 0xc0001000\n0x4 \t 0x0\n",
	  0 },
};

static void test_formats(void)
{
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		const struct sample *s = &samples[i];
		size_t len = s->len ? s->len : strlen(s->text);
		struct kfdsig_decode_input_ring ring;
		struct got g;

		CHECK_EQ(kfdsig_decode_input_detect(s->text, len, s->path), s->format,
			 "%s detected", s->name);
		CHECK(!strcmp(kfdsig_decode_input_format_name((unsigned)s->format), s->name),
		      "%s name", s->name);
		CHECK_EQ(kfdsig_decode_input_format_by_name(s->name), s->format, "%s by name",
			 s->name);
		for (int pass = 0; pass < 2; pass++) {
			memset(&g, 0, sizeof(g));
			memset(&ring, 0xa5, sizeof(ring));
			CHECK_EQ(parse(s->text, len, pass ? s->format : KFDSIG_DECODE_INPUT_AUTO,
				       s->path, NULL, &g, &ring),
				 0, "%s parsed (%s): %s", s->name, pass ? "named" : "detected",
				 kfdsig_last_error());
			CHECK_EQ(g.n, 2, "%s: two dwords", s->name);
			t_check_dwords(s->name, g.dw, want, 2);
			CHECK_EQ(ring.reserved_0, 0, "%s: ring filled whole", s->name);
			CHECK_EQ(ring.reserved[3], 0, "%s: ring filled whole", s->name);
		}
		if (s->format == KFDSIG_DECODE_INPUT_DEBUGFS) {
			CHECK_EQ(ring.flags, KFDSIG_DECODE_INPUT_RING_PTRS, "debugfs pointers");
			CHECK_EQ(ring.rptr, 1, "debugfs rptr");
			CHECK_EQ(ring.wptr, 0, "debugfs wptr");
		} else if (s->format == KFDSIG_DECODE_INPUT_UMR) {
			CHECK_EQ(ring.flags,
				 KFDSIG_DECODE_INPUT_RING_PTRS | KFDSIG_DECODE_INPUT_RING_INDEXED,
				 "umr pointers and indexes");
			CHECK_EQ(ring.wptr, 2, "umr wptr");
			CHECK_EQ(ring.first_index, 0, "umr first index");
			CHECK(!strcmp(ring.name, "vega10.gfx"), "umr ring name '%s'", ring.name);
		} else if (s->format == KFDSIG_DECODE_INPUT_DEVCOREDUMP) {
			CHECK_EQ(ring.flags, KFDSIG_DECODE_INPUT_RING_PTRS, "devcoredump pointers");
			CHECK_EQ(ring.wptr, 2, "devcoredump wptr");
			CHECK(!strcmp(ring.name, "gfx_0.0.0"), "devcoredump ring '%s'", ring.name);
		} else {
			CHECK_EQ(ring.flags, 0, "%s: no ring pointers", s->name);
			CHECK_EQ(ring.name[0], 0, "%s: no ring name", s->name);
		}
	}
}

/* Input that is not in the format it is read as: -EBADMSG, with the reason. */
static void bad(const char *what, const char *text, size_t len, int format, const char *ring_name,
		const char *reason)
{
	struct kfdsig_decode_input_ring ring;
	struct got g = { .n = 0 };
	int r = parse(text, len ? len : strlen(text), format, NULL, ring_name, &g, &ring);

	CHECK_EQ(r, -EBADMSG, "%s refused", what);
	CHECK(strstr(kfdsig_last_error(), reason), "%s: reason '%s' lacks '%s'", what,
	      kfdsig_last_error(), reason);
}

static void test_refused(void)
{
	const struct sample *xxd = &samples[2], *od = &samples[5], *hd = &samples[4];

	bad("xxd read as hex", xxd->text, 0, KFDSIG_DECODE_INPUT_HEX, NULL, "is not a hex dword");
	bad("od read as xxd", od->text, 0, KFDSIG_DECODE_INPUT_XXD, NULL, "not an xxd line");
	bad("hexdump read as od", hd->text, 0, KFDSIG_DECODE_INPUT_OD, NULL, "is not an od word");
	bad("a token too long", "0xc0001000 0x123456789\n", 0, KFDSIG_DECODE_INPUT_HEX, NULL,
	    "input line 1: '0x123456789' is not a hex dword");
	bad("a bad token on line 2", "0xc0001000\nzz\n", 0, KFDSIG_DECODE_INPUT_HEX, NULL,
	    "input line 2");
	bad("5 bytes of bin", "\x00\x10\x00\xc0\x01", 5, KFDSIG_DECODE_INPUT_BIN, NULL,
	    "1 stray byte(s)");
	bad("a short debugfs file", "\x01\x00\x00\x00\x02\x00\x00\x00", 8,
	    KFDSIG_DECODE_INPUT_DEBUGFS, NULL, "starts with 12 bytes");
	bad("a missing devcoredump ring", samples[8].text, 0, KFDSIG_DECODE_INPUT_DEVCOREDUMP,
	    "sdma0", "no ring named 'sdma0'");
	bad("a devcoredump of two rings and no ring name",
	    "ring name: gfx_0.0.0\nRing contents\nOffset \t Value\n0x0 \t 0x0\n"
	    "ring name: comp_1.0.0\nRing contents\nOffset \t Value\n0x0 \t 0x0\n",
	    0, KFDSIG_DECODE_INPUT_DEVCOREDUMP, NULL, "holds 2 rings: name one");
	bad("an unknown ring among two", "ring name: gfx_0.0.0\nring name: comp_1.0.0\n", 0,
	    KFDSIG_DECODE_INPUT_DEVCOREDUMP, "nosuch", "its rings: gfx_0.0.0, comp_1.0.0");
	bad("a debugfs ring of 3 dwords",
	    "\0\0\0\0\0\0\0\0\0\0\0\0"
	    "\1\0\0\0\2\0\0\0\3\0\0\0",
	    24, KFDSIG_DECODE_INPUT_DEBUGFS, NULL, "is not a power of two");
	bad("a debugfs wptr beyond its ring",
	    "\0\0\0\0\4\0\0\0\0\0\0\0"
	    "\1\0\0\0\2\0\0\0",
	    20, KFDSIG_DECODE_INPUT_DEBUGFS, NULL, "are not all below its 2 ring dword(s)");
	bad("an offset going back",
	    "00000008  00 10 00 c0 00 00 00 00                           |........|\n", 0,
	    KFDSIG_DECODE_INPUT_HEXDUMP, NULL, "offset 0x8, expected 0x0");
	bad("a '*' with nothing to repeat", "*\n00000010  00 00 00 00  |....|\n", 0,
	    KFDSIG_DECODE_INPUT_HEXDUMP, NULL, "with no line to repeat");
	bad("a UMR ring line without its value", "gfx.rptr == 0\ngfx.ring[ 0] == zz\n", 0,
	    KFDSIG_DECODE_INPUT_UMR, NULL, "not a UMR ring line");
}

static void test_limits(void)
{
	/* one line, then '*' up to 1 MiB: refused above max_repeat, read below */
	static const char text[] = "00000000  00 10 00 c0 00 00 00 00                           "
				   "|........|\n*\n00100000\n";
	KFDSIG_OPTS(kfdsig_decode_input_opts, o, .format = KFDSIG_DECODE_INPUT_HEXDUMP,
		    .max_repeat = 4096);
	struct got g = { .stop = 0 };
	FILE *f;

	o.ctx = &g;
	o.dwords = collect;
	f = fmemopen((void *)text, sizeof(text) - 1, "rb");
	CHECK_EQ(kfdsig_decode_input_parse(f, NULL, 0, &o, NULL), -EBADMSG,
		 "'*' beyond max_repeat");
	CHECK(strstr(kfdsig_last_error(), "more than the 0x1000"), "reason: %s",
	      kfdsig_last_error());
	fclose(f);
	o.max_repeat = 0; /* the default, 1 GiB */
	f = fmemopen((void *)text, sizeof(text) - 1, "rb");
	CHECK_EQ(kfdsig_decode_input_parse(f, NULL, 0, &o, NULL), 0, "'*' within the default");
	fclose(f);

	/* the callback's non-zero return stops the parse and comes back */
	memset(&g, 0, sizeof(g));
	g.stop = 7;
	o.format = KFDSIG_DECODE_INPUT_HEX;
	f = fmemopen((void *)"1 2 3\n", 6, "rb");
	CHECK_EQ(kfdsig_decode_input_parse(f, NULL, 0, &o, NULL), 7, "callback's return");
	fclose(f);
}

static void test_args(void)
{
	KFDSIG_OPTS(kfdsig_decode_input_opts, o, .format = KFDSIG_DECODE_INPUT_HEX,
		    .dwords = collect);
	struct got g = { .n = 0 };
	FILE *f = fmemopen((void *)"1\n", 2, "rb");

	o.ctx = &g;
	CHECK_EQ(kfdsig_decode_input_parse(NULL, NULL, 0, &o, NULL), -EINVAL, "NULL file");
	CHECK_EQ(kfdsig_decode_input_parse(f, NULL, 0, NULL, NULL), -EINVAL, "NULL options");
	CHECK_EQ(kfdsig_decode_input_parse(f, NULL, 4, &o, NULL), -EINVAL, "NULL head of 4 bytes");
	o.format = KFDSIG_DECODE_INPUT_NR;
	CHECK_EQ(kfdsig_decode_input_parse(f, NULL, 0, &o, NULL), -EINVAL, "unknown format");
	o.format = KFDSIG_DECODE_INPUT_HEX;
	o.pad_0 = 1;
	CHECK_EQ(kfdsig_decode_input_parse(f, NULL, 0, &o, NULL), -EINVAL, "pad_0 set");
	o.pad_0 = 0;
	o.dwords = NULL;
	CHECK_EQ(kfdsig_decode_input_parse(f, NULL, 0, &o, NULL), -EINVAL, "no callback");
	o.sz = 0;
	o.dwords = collect;
	CHECK_EQ(kfdsig_decode_input_parse(f, NULL, 0, &o, NULL), -EINVAL, "sz 0");
	CHECK_EQ(g.n, 0, "nothing read on a refused call");
	fclose(f);

	CHECK_EQ(kfdsig_decode_input_format_by_name("xxd -e"), -EINVAL, "unknown name");
	CHECK_EQ(kfdsig_decode_input_format_by_name(NULL), -EINVAL, "NULL name");
	errno = 0;
	CHECK(kfdsig_decode_input_format_name(KFDSIG_DECODE_INPUT_NR) == NULL && errno == EINVAL,
	      "no name past the last format");
	CHECK(!strcmp(kfdsig_decode_input_format_name(KFDSIG_DECODE_INPUT_AUTO), "auto"), "auto");
	CHECK_EQ(kfdsig_decode_input_detect(NULL, 3, NULL), -EINVAL, "NULL head");
	CHECK_EQ(kfdsig_decode_input_detect(NULL, 0, NULL), KFDSIG_DECODE_INPUT_HEX, "empty: hex");
	CHECK_EQ(kfdsig_decode_input_detect("\xef\xbb\xbf"
					    "c0001000\n",
					    12, NULL),
		 KFDSIG_DECODE_INPUT_HEX, "hex after a UTF-8 byte order mark");
	CHECK_EQ(kfdsig_decode_input_detect("0xc0001000 0\n", 13, "dir/amdgpu_ring_sdma0"),
		 KFDSIG_DECODE_INPUT_DEBUGFS, "the debugfs name decides");
}

int main(void)
{
	test_formats();
	test_refused();
	test_limits();
	test_args();
	return t_result("decode_input");
}
