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
#define KFDSIG_VERSION_MINOR 10
#define KFDSIG_VERSION_PATCH 0

/* Encoded as major * 10000 + minor * 100 + patch, comparable with >=. */
#define KFDSIG_VERSION_NUMBER \
	(KFDSIG_VERSION_MAJOR * 10000 + KFDSIG_VERSION_MINOR * 100 + KFDSIG_VERSION_PATCH)

#if defined(__GNUC__) && !defined(KFDSIG_STATIC_ONLY)
#define KFDSIG_API __attribute__((visibility("default")))
#else
#define KFDSIG_API
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
