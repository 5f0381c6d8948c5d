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
 * Private exports: libkfdsig-emu (src/emu) shares libkfdsig's per-thread
 * error message, so it calls these from libkfdsig. They are exported under
 * the KFDSIG_PRIVATE node of src/kfdsig.map with double-underscore names
 * declared in no public header; only libkfdsig-emu of the same version
 * may use them (no ABI promise: CONTRIBUTING.md).
 */
#if defined(__GNUC__)
#define KFDSIG_PRIVATE_API __attribute__((visibility("default")))
#else
#define KFDSIG_PRIVATE_API
#endif
#define set_error kfdsig__set_error

/*
 * Record why a call failed, for kfdsig_last_error(), and return -err so a
 * failing path reads "return set_error(EINVAL, "...", ...);".
 * Only error paths call it; the success paths never touch the message.
 */
KFDSIG_PRIVATE_API int set_error(int err, const char *fmt, ...) KFDSIG_PRINTF(2, 3);

#endif /* KFDSIG_CORE_INTERNAL_H */
