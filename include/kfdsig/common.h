/* SPDX-License-Identifier: MIT */
/*
 * kfdsig: make the GPU itself signal KFD events.
 *
 * Shared by every public header: the version, the export macro and the error
 * conventions of every component.
 *
 * Error convention (every function of the library):
 *   - functions returning int return >= 0 on success and a negative errno
 *     value on failure (-EINVAL, -ENOSPC, -ENOENT, ...);
 *   - functions returning a pointer return NULL and set errno on failure;
 *   - on failure, kfdsig_last_error() gives a one-line human-readable reason
 *     for the calling thread. The library never prints and never aborts.
 */
#ifndef KFDSIG_COMMON_H
#define KFDSIG_COMMON_H

#define KFDSIG_VERSION_MAJOR 0
#define KFDSIG_VERSION_MINOR 22
#define KFDSIG_VERSION_PATCH 0

/* Encoded as major * 10000 + minor * 100 + patch, comparable with >=. */
#define KFDSIG_VERSION_NUMBER \
	(KFDSIG_VERSION_MAJOR * 10000 + KFDSIG_VERSION_MINOR * 100 + KFDSIG_VERSION_PATCH)

#if defined(__GNUC__) && !defined(KFDSIG_STATIC_ONLY)
#define KFDSIG_API __attribute__((visibility("default")))
#else
#define KFDSIG_API
#endif

/*
 * Structs that may grow. An options or ops struct the caller fills and the
 * library reads begins with `size_t sz`: the size of the struct the caller
 * was compiled with (libbpf's opts convention). The library accepts a
 * smaller struct from an older caller (the fields it lacks read as 0, NULL:
 * their defaults) and a larger one from a newer caller as long as every
 * byte past the end of the struct the library knows is 0; otherwise the
 * call fails with -EINVAL. Such structs have no implicit padding (explicit
 * pad_N fields, which must be 0), so a zeroed declaration zeroes every byte.
 * Declare them with KFDSIG_OPTS(), which sets sz and zeroes the rest:
 *
 *	KFDSIG_OPTS(kfdsig_queue_opts, o, .ring_size = 4096);
 *
 * or initialise with KFDSIG_OPTS_INIT(type). sz == 0 is refused.
 */
#define KFDSIG_OPTS_INIT(...) KFDSIG_OPTS_INIT_(__VA_ARGS__, )
#define KFDSIG_OPTS(TYPE, ...) KFDSIG_OPTS_(TYPE, __VA_ARGS__, )
/* (the extra empty argument keeps "no fields" valid ISO C11) */
#define KFDSIG_OPTS_INIT_(TYPE, ...)                   \
	{                                              \
		.sz = sizeof(struct TYPE), __VA_ARGS__ \
	}
#define KFDSIG_OPTS_(TYPE, NAME, ...) struct TYPE NAME = KFDSIG_OPTS_INIT_(TYPE, __VA_ARGS__)

/*
 * Compiler builtins of the inline fast paths in the public headers, with
 * portable fallbacks for compilers that lack them.
 */
#if defined(__has_builtin)
#if __has_builtin(__builtin_expect)
#define KFDSIG_EXPECT(x, v) __builtin_expect((x), (v))
#endif
#if __has_builtin(__builtin_memcpy)
#define KFDSIG_MEMCPY(d, s, n) __builtin_memcpy((d), (s), (n))
#endif
#elif defined(__GNUC__) /* GCC before 10 has both but no __has_builtin */
#define KFDSIG_EXPECT(x, v) __builtin_expect((x), (v))
#define KFDSIG_MEMCPY(d, s, n) __builtin_memcpy((d), (s), (n))
#endif
#ifndef KFDSIG_EXPECT
#define KFDSIG_EXPECT(x, v) (x)
#endif
#ifndef KFDSIG_MEMCPY
#include <string.h>
#define KFDSIG_MEMCPY(d, s, n) memcpy((d), (s), (n))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/**
 * kfdsig_version() - version of the library actually linked.
 *
 * Return: major * 10000 + minor * 100 + patch, to compare with
 * KFDSIG_VERSION_NUMBER of the headers the caller was built with.
 */
KFDSIG_API unsigned int kfdsig_version(void);

/** kfdsig_version_string() - "major.minor.patch" of the linked library. */
KFDSIG_API const char *kfdsig_version_string(void);

/**
 * kfdsig_last_error() - why the last failing call of this thread failed.
 *
 * Return: a NUL-terminated message that stays valid until the next failing
 * kfdsig call on the same thread; "" if no call has failed yet.
 */
KFDSIG_API const char *kfdsig_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* KFDSIG_COMMON_H */
