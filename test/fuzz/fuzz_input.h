/* SPDX-License-Identifier: MIT */
/* Reading a fuzzer input as a stream of little-endian fields: past its end
 * every field reads as zero, so any input is a complete program. */
#ifndef KFDSIG_FUZZ_INPUT_H
#define KFDSIG_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct in {
	const uint8_t *p;
	size_t n;
};

/* The next @bytes bytes (at most 8) as a little-endian number. */
static inline uint64_t take(struct in *in, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes; i++) {
		v |= (uint64_t)(in->n ? *in->p : 0) << (8 * i);
		if (in->n) {
			in->p++;
			in->n--;
		}
	}
	return v;
}

#endif
