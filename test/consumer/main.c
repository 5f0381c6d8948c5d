/* SPDX-License-Identifier: MIT */
/* A program built against an installed kfdsig, as a user would build it:
 * the emitters only, so no emulator code is in its process. With an
 * argument it prints the shared objects it has mapped, one a line. */
#include <stdio.h>
#include <string.h>

#include <kfdsig/kfdsig.h>

/* Each mapped file once (its mappings are adjacent), to @out if non-NULL;
 * return 1 when libkfdsig-emu is among them. */
static int scan_maps(FILE *out)
{
	char line[4096], last[4096] = "";
	int emu = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *path = strchr(line, '/');

		if (!path || !strstr(path, ".so") || !strcmp(path, last))
			continue;
		snprintf(last, sizeof(last), "%s", path);
		if (strstr(path, "libkfdsig-emu"))
			emu = 1;
		if (out)
			fputs(path, out);
	}
	fclose(f);
	return emu;
}

int main(int argc, char **argv)
{
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx90a");
	struct kfdsig_fence f = { .slot_va = kfdsig_slot_va(0x100000, 5), .event_id = 5 };
	uint32_t buf[KFDSIG_PM4_FENCE_MAX_DW];
	int n;

	if (kfdsig_version() != KFDSIG_VERSION_NUMBER) {
		fprintf(stderr, "headers %d, library %u\n", KFDSIG_VERSION_NUMBER,
			kfdsig_version());
		return 1;
	}
	n = t ? kfdsig_pm4_emit_fence(t, &f, buf, KFDSIG_PM4_FENCE_MAX_DW) : -1;
	if (n != KFDSIG_PM4_RELEASE_MEM_DW || buf[7] != 5) {
		fprintf(stderr, "emit gave %d: %s\n", n, kfdsig_last_error());
		return 1;
	}
	(void)argv;
	if (scan_maps(NULL)) {
		fprintf(stderr, "libkfdsig-emu is loaded in a program using only the emitters\n");
		return 1;
	}
	if (argc > 1) {
		scan_maps(stdout);
		return 0;
	}
	printf("consumer ok: kfdsig %s\n", kfdsig_version_string());
	return 0;
}
