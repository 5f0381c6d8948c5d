/* SPDX-License-Identifier: MIT */
/* Options and ops structs of any size the ABI rule allows (core/opts.h). */
#include <errno.h>
#include <string.h>

#include <kfdsig/signal.h>

#include "core/internal.h"
#include "core/opts.h"

int opts_copy(void *dst, size_t dst_sz, const void *src, const char *name)
{
	const unsigned char *s = src;
	size_t sz;

	memset(dst, 0, dst_sz);
	if (!src) {
		memcpy(dst, &dst_sz, sizeof(dst_sz));
		return 0;
	}
	memcpy(&sz, src, sizeof(sz));
	if (unlikely(sz < sizeof(size_t)))
		return set_error(EINVAL,
				 "%s.sz is %zu: set it to the struct's size "
				 "(declare it with KFDSIG_OPTS())",
				 name, sz);
	if (unlikely(sz > KFDSIG_OPTS_MAX_SZ))
		return set_error(EINVAL, "%s.sz is %zu, not a size of that struct", name, sz);
	for (size_t i = dst_sz; i < sz; i++)
		if (unlikely(s[i]))
			return set_error(EINVAL,
					 "%s: byte %zu is set, beyond the %zu bytes this "
					 "kfdsig %s knows (a field of a newer release)",
					 name, i, dst_sz, kfdsig_version_string());
	memcpy(dst, src, sz < dst_sz ? sz : dst_sz);
	/* the copy is a whole struct of this library's size */
	memcpy(dst, &dst_sz, sizeof(dst_sz));
	return 0;
}

int code_buf_read(struct kfdsig_code_buf *c, const struct kfdsig_code_buf *code, uint64_t align)
{
	int r = opts_copy(c, sizeof(*c), code, "kfdsig_code_buf");

	if (r)
		return r;
	if (unlikely(c->pad_0))
		return set_error(EINVAL, "kfdsig_code_buf.pad_0 must be 0");
	if (unlikely(!c->cpu || !c->va || (c->va & (align - 1)) || c->used > c->size ||
		     (c->va + c->size) >> 48 || c->va + c->size < c->va))
		return set_error(EINVAL,
				 "code buffer: cpu %p va 0x%llx size %llu used %llu (needs memory "
				 "below 2^48 at a %llu-byte aligned address, and used <= size)",
				 c->cpu, (unsigned long long)c->va, (unsigned long long)c->size,
				 (unsigned long long)c->used, (unsigned long long)align);
	return 0;
}
