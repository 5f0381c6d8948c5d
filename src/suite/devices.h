/* SPDX-License-Identifier: MIT */
/* Device selection shared by `kfdsig test` and `kfdsig bench`. */
#ifndef KFDSIG_TOOLS_SUITE_DEVICES_H
#define KFDSIG_TOOLS_SUITE_DEVICES_H

#include "cli.h"
#include "suite.h"

#define SUITE_MAX_DEVICES 64

struct suite_dev_opts {
	const char *emulate;	 /* --emulate SPEC (NULL: KFDSIG_EMULATE, then hardware) */
	int device;		 /* --device N, -1: all */
	const char *kfd_version; /* --kfd-version X.Y (emulator only) */
	const char *profile;	 /* --kernel-profile NAME (emulator only) */
};

struct suite_devset {
	struct suite_device dev[SUITE_MAX_DEVICES];
	size_t n;
	char release[96]; /* "linux 6.8.0-..." on hardware */
};

/* Return 0, or the exit code after printing the error. */
int suite_devices_open(struct suite_devset *s, const struct suite_dev_opts *o);
void suite_devices_close(struct suite_devset *s);

#endif
