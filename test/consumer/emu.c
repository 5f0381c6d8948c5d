/* SPDX-License-Identifier: MIT */
/* A program using the emulated KFD, built against an installed kfdsig-emu:
 * it opens the emulated /dev/kfd and reads its version, and an emulator
 * failure's reason reaches kfdsig_last_error() (libkfdsig's). */
#include <stdio.h>
#include <string.h>

#include <kfdsig/kfdsig.h>

int main(void)
{
	struct kfdsig_emu *emu = kfdsig_emu_create_from_spec("gfx90a");
	struct kfdsig_kfd *kfd = NULL;
	uint32_t major = 0, minor = 0;
	int r;

	if (!emu) {
		fprintf(stderr, "kfdsig_emu_create_from_spec: %s\n", kfdsig_last_error());
		return 1;
	}
	r = kfdsig_kfd_open(kfdsig_emu_ops(emu), &kfd);
	if (r || kfdsig_kfd_version(kfd, &major, &minor) || major != 1) {
		fprintf(stderr, "emulated KFD: %d: %s\n", r, kfdsig_last_error());
		return 1;
	}
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
	if (kfdsig_emu_create_from_spec("gfx90a,xcc=99") ||
	    !strstr(kfdsig_last_error(), "xcc=99")) {
		fprintf(stderr, "the emulator's error is not kfdsig_last_error(): '%s'\n",
			kfdsig_last_error());
		return 1;
	}
	printf("emu consumer ok: emulated KFD %u.%u\n", major, minor);
	return 0;
}
