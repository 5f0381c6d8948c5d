/* SPDX-License-Identifier: MIT */
/*
 * kfdsig exec: run an unmodified KFD client on the emulated KFD, with
 * libkfdsig-preload.so in LD_PRELOAD and the emulation spec in
 * KFDSIG_EMULATE. The command replaces kfdsig (execvp): its exit status is
 * the command's.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void help(FILE *f)
{
	fprintf(f, "usage: kfdsig exec [--emulate SPEC] [--] COMMAND [ARG...]\n\n"
		   "Run COMMAND with the KFD emulated in its own processes: libkfdsig-preload.so\n"
		   "is put first in LD_PRELOAD and answers for /dev/kfd, the emulated GPUs'\n"
		   "/dev/dri/renderD* nodes and their sysfs topology, so a client written for\n"
		   "the kernel (libhsakmt, ROCr, raw ioctls) runs without a GPU, root, kernel\n"
		   "module or daemon. Each client process gets its own KFD process, as with\n"
		   "the kernel; a forked child opens /dev/kfd itself.\n\n"
		   "  --emulate SPEC  the emulated KFD: TARGET[,TARGET...][,kfd=1.N]\n"
		   "                  [,profile=v6.14][,privileged] (default: KFDSIG_EMULATE,\n"
		   "                  or kfdsig --emulate SPEC exec, else gfx90a)\n\n"
		   "The interposer is found in KFDSIG_PRELOAD, else next to kfdsig (build tree\n"
		   "or install prefix: LIBDIR/kfdsig/libkfdsig-preload.so).\n\n"
		   "Exit status: COMMAND's; 2 for bad arguments or a bad spec, 1 when the\n"
		   "interposer is missing, 126/127 when COMMAND cannot be run / is not found.\n");
}

static bool readable(const char *path)
{
	return path && *path && access(path, R_OK) == 0;
}

/* The interposer: $KFDSIG_PRELOAD, else beside the executable (relocated
 * install), the build tree's, the configured install path. */
static const char *find_preload(char *buf, size_t n)
{
	const char *env = getenv("KFDSIG_PRELOAD");
	char exe[PATH_MAX];
	ssize_t len;

	if (env && *env)
		return env;
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		char *slash;

		exe[len] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			if ((size_t)snprintf(buf, n, "%s/%s", exe, KFDSIG_PRELOAD_REL) < n &&
			    readable(buf))
				return buf;
		}
	}
#ifdef KFDSIG_PRELOAD_BUILD
	if (readable(KFDSIG_PRELOAD_BUILD))
		return KFDSIG_PRELOAD_BUILD;
#endif
	if (readable(KFDSIG_PRELOAD_INSTALL))
		return KFDSIG_PRELOAD_INSTALL;
	return NULL;
}

int cmd_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "emulate", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *spec = NULL, *preload, *old;
	char pbuf[PATH_MAX], *ld;
	struct kfdsig_emu *emu;
	size_t n;
	int c;

	/* '+': options end at COMMAND, whose own options are its own */
	while ((c = getopt_long(argc, argv, "+e:h", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			spec = optarg;
			break;
		case 'h':
			help(stdout);
			return 0;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return cli_usage_error("no COMMAND to run (kfdsig exec --help)");
	if (!spec)
		spec = getenv("KFDSIG_EMULATE");
	if (!spec || !*spec)
		spec = "gfx90a";
	/* Refuse a bad spec here, not in every process of the command. */
	emu = kfdsig_emu_create_from_spec(spec);
	if (!emu)
		return cli_usage_error("bad emulation spec '%s': %s", spec, kfdsig_last_error());
	kfdsig_emu_destroy(emu);

	preload = find_preload(pbuf, sizeof(pbuf));
	if (!readable(preload))
		return cli_error("cannot find libkfdsig-preload.so%s%s (set KFDSIG_PRELOAD)",
				 preload ? ": " : "", preload ? preload : "");
	old = getenv("LD_PRELOAD");
	n = strlen(preload) + (old ? strlen(old) : 0) + 2;
	ld = malloc(n);
	if (!ld)
		return cli_error("out of memory");
	snprintf(ld, n, "%s%s%s", preload, old && *old ? ":" : "", old && *old ? old : "");
	if (setenv("LD_PRELOAD", ld, 1) || setenv("KFDSIG_EMULATE", spec, 1)) {
		free(ld);
		return cli_error("cannot set the environment: %s", strerror(errno));
	}
	free(ld);
	fflush(NULL);
	execvp(argv[optind], argv + optind);
	c = errno;
	cli_error("cannot run '%s': %s", argv[optind], strerror(c));
	return c == ENOENT ? 127 : 126;
}
