/* SPDX-License-Identifier: MIT */
/*
 * The shader unit's decoder over instruction words (scripts/sq-coverage.py):
 * reads lines "GFX_TARGET_VERSION W0 [W1 [W2]]" (words in hex, one
 * instruction as llvm-objdump printed it) from stdin and writes one line
 * per input: "ok" when the unit's decoder and opcode table of that family
 * take the instruction (an operation the interpreter implements), or
 * "no" and the reason. Exit 2 on malformed input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/sq/sqk.h"

int main(void)
{
	char line[512];

	while (fgets(line, sizeof(line), stdin)) {
		uint32_t w[3] = { 0 }, v;
		unsigned n = 0, size;
		char *p = line, *e;
		const struct sqk_family *f;
		struct sqk_insn in;

		v = (uint32_t)strtoul(p, &e, 10);
		if (e == p)
			return 2;
		p = e;
		while (n < 3) {
			unsigned long x = strtoul(p, &e, 16);

			if (e == p)
				break;
			w[n++] = (uint32_t)x;
			p = e;
		}
		f = sqk_family_of(v);
		if (!f || n == 0) {
			puts("no family");
			continue;
		}
		size = sqk_decode(f, w, n, &in);
		if (size == 0 || in.op == 0)
			puts("no opcode");
		else if (size != 4 * n)
			printf("no size %u of %u\n", size, 4 * n);
		else
			puts("ok");
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
