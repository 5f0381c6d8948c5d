/* SPDX-License-Identifier: MIT */
/* Reading a caller's options or ops struct that begins with `size_t sz`
 * (the rule is in include/kfdsig/common.h, KFDSIG_OPTS). */
#ifndef KFDSIG_CORE_OPTS_H
#define KFDSIG_CORE_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "core/internal.h"

/* Larger sz values are refused outright: no struct of the library comes
 * near it, and an uninitialised sz must not make us read far. */
#define KFDSIG_OPTS_MAX_SZ 4096u

/*
 * Copy the caller's struct @src into @dst, the library's struct of @dst_sz
 * bytes: the first min(src->sz, @dst_sz) bytes, the rest of @dst zeroed,
 * and dst->sz set to @dst_sz.
 * @name names the struct in the error. NULL @src gives a zeroed @dst (with
 * sz = @dst_sz).
 *
 * Return: 0, or -EINVAL (recorded) when src->sz is smaller than the sz
 * field itself, larger than KFDSIG_OPTS_MAX_SZ, or larger than @dst_sz with
 * a non-zero byte past @dst_sz.
 */
#define opts_copy kfdsig__opts_copy
KFDSIG_PRIVATE_API int opts_copy(void *dst, size_t dst_sz, const void *src, const char *name);

struct kfdsig_code_buf;

/*
 * opts_copy() of a struct kfdsig_code_buf (kfdsig/signal.h) into @c, then
 * its checks: pad_0 zero, CPU memory, a non-zero GPU address aligned to
 * @align (a power of two), used <= size, [va, va + size) below 2^48.
 * Return: 0 or -EINVAL (recorded).
 */
int code_buf_read(struct kfdsig_code_buf *c, const struct kfdsig_code_buf *code, uint64_t align);

#endif /* KFDSIG_CORE_OPTS_H */
