/* SPDX-License-Identifier: MIT */
/* Options and ops structs of any size the ABI rule allows (core/opts.h). */
#include <errno.h>
#include <string.h>

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
