/* SPDX-License-Identifier: MIT */
/* Internal helpers shared by every component of libkfdsig. */
#ifndef KFDSIG_CORE_INTERNAL_H
#define KFDSIG_CORE_INTERNAL_H

#include <kfdsig/kfdsig.h>

#if defined(__GNUC__)
#define KFDSIG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#else
#define KFDSIG_PRINTF(a, b)
#define likely(x) (x)
#define unlikely(x) (x)
#endif

#define KFDSIG_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Record why a call failed, for kfdsig_last_error(), and return -err so a
 * failing path reads "return set_error(EINVAL, "...", ...);".
 * Only error paths call it; the success paths never touch the message.
 */
int set_error(int err, const char *fmt, ...) KFDSIG_PRINTF(2, 3);

#endif /* KFDSIG_CORE_INTERNAL_H */
