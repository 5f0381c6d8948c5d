/* SPDX-License-Identifier: MIT */
/*
 * kfdsig exec: run an unmodified KFD client on the emulated KFD, with
 * libkfdsig-preload.so in LD_PRELOAD and the emulation spec in
 * KFDSIG_EMULATE. The command replaces kfdsig (execvp): its exit status is
 * the command's.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <getopt.h>
#include <link.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void help(FILE *f)
{
	fprintf(f, "usage: kfdsig exec [--emulate SPEC] [-v] [--stall MS] [--] COMMAND [ARG...]\n\n"
		   "Run COMMAND with the KFD emulated in its own processes: libkfdsig-preload.so\n"
		   "is put first in LD_PRELOAD and answers for /dev/kfd, the emulated GPUs'\n"
		   "/dev/dri/renderD* nodes and their sysfs topology, so a client written for\n"
		   "the kernel (libhsakmt, ROCr, raw ioctls) runs without a GPU, root, kernel\n"
		   "module or daemon. Each client process gets its own KFD process, as with\n"
		   "the kernel; a forked child opens /dev/kfd itself.\n\n"
		   "  --emulate SPEC  the emulated KFD: TARGET[,TARGET...][,kfd=1.N]\n"
		   "                  [,profile=v6.14|v7.1|v7.3][,privileged]\n"
		   "                  [,smi=EVENT[+EVENT...]], after exec or before it\n"
		   "                  (kfdsig --emulate SPEC exec); without it\n"
		   "                  $KFDSIG_EMULATE, else gfx90a\n"
		   "  -v, --verbose   accepted for scripts (sets KFDSIG_EMU_VERBOSE=1): why\n"
		   "                  the emulator stopped a wave or queue is printed on stderr\n"
		   "                  without it\n"
		   "  --stall MS      stall report (sets KFDSIG_EMU_STALL_MS): when a process\n"
		   "                  waits on KFD events while its emulated GPU is idle (every\n"
		   "                  queue halted or empty) and nothing happens in its emulated\n"
		   "                  KFD for MS ms (1 to 86400000), print one line and end it\n"
		   "                  with status 113; a host thread that would still signal\n"
		   "                  must do so (or make any KFD call) within MS\n\n"
		   "The interposer is found in KFDSIG_PRELOAD, else next to kfdsig (build tree\n"
		   "or install prefix: LIBDIR/kfdsig/libkfdsig-preload.so).\n\n"
		   "Exit status: COMMAND's; 2 for bad arguments or a bad spec, 1 when the\n"
		   "interposer is missing, 126/127 when COMMAND cannot be run / is not found,\n"
		   "113 when the stall report ended a process of COMMAND.\n"
		   "Global options (kfdsig --help): --emulate SPEC, -q/--quiet, before the\n"
		   "command or before COMMAND.\n");
}

static bool readable(const char *path)
{
	return path && *path && access(path, R_OK) == 0;
}

/* NULL when @path is a shared object this process's loader can preload (an
 * ELF file of its class and machine, of type ET_DYN), else why not. The
 * loader itself would only warn and run the command without the
 * interposer. */
static bool elf_header(const char *path, ElfW(Ehdr) * eh)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return false;
	n = fread(eh, 1, sizeof(*eh), f);
	fclose(f);
	return n == sizeof(*eh) && !memcmp(eh->e_ident, ELFMAG, SELFMAG);
}

static const char *not_preloadable(const char *path)
{
	ElfW(Ehdr) eh, self;

	if (access(path, R_OK))
		return strerror(errno);
	if (!elf_header(path, &eh))
		return "not an ELF file";
	if (elf_header("/proc/self/exe", &self) &&
	    (eh.e_ident[EI_CLASS] != self.e_ident[EI_CLASS] || eh.e_machine != self.e_machine))
		return "an ELF file of another class or machine";
	if (eh.e_type != ET_DYN)
		return "not a shared object";
	return NULL;
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

#ifndef __has_feature
#define __has_feature(x) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || __has_feature(address_sanitizer)
#define KFDSIG_EXEC_ASAN 1
static int asan_runtime(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	if (info->dlpi_name && strstr(info->dlpi_name, "/libasan.so")) {
		snprintf(data, PATH_MAX, "%s", info->dlpi_name);
		return 1;
	}
	return 0;
}
#endif

/* In an AddressSanitizer build the interposer needs the ASan runtime,
 * which must come first in the load order: preload it too, and keep the
 * leak checker off for programs not built for it (unless asked). */
static void sanitizer_runtime(char *buf, size_t n)
{
	buf[0] = '\0';
#ifdef KFDSIG_EXEC_ASAN
	if (n >= PATH_MAX && dl_iterate_phdr(asan_runtime, buf) == 1 && !getenv("ASAN_OPTIONS"))
		setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
#else
	(void)n;
#endif
}

enum { OPT_STALL = 256 };

const struct option cmd_exec_options[] = {
	CLI_GLOBAL_LONGOPTS,
	{ "verbose", no_argument, NULL, 'v' },
	{ "stall", required_argument, NULL, OPT_STALL },
	{ 0 },
};
/* '+': options end at COMMAND, whose own options are its own */
const char cmd_exec_shortopts[] = "+v" CLI_GLOBAL_SHORTOPTS;
const struct cli_complete cmd_exec_complete[] = {
	{ "", "@command" },
	{ 0 },
};

/* The environment of a client on the emulated KFD: LD_PRELOAD with the
 * interposer first (and the sanitizer runtime before it), KFDSIG_EMULATE.
 * @spec NULL: --emulate, KFDSIG_EMULATE, else gfx90a. Return 0, or the exit
 * code after printing the error. Shared with kfdsig debug. */
int cli_exec_env(const char *spec)
{
	const char *preload, *old, *why;
	char pbuf[PATH_MAX], rt[PATH_MAX], *ld;
	struct kfdsig_emu *emu;
	size_t n;

	if (!spec)
		spec = cli_g.emulate;
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
	why = not_preloadable(preload);
	if (why)
		return cli_error("cannot preload the interposer %s: %s", preload, why);
	old = getenv("LD_PRELOAD");
	sanitizer_runtime(rt, sizeof(rt));
	n = strlen(rt) + strlen(preload) + (old ? strlen(old) : 0) + 3;
	ld = malloc(n);
	if (!ld)
		return cli_error("out of memory");
	snprintf(ld, n, "%s%s%s%s%s", rt, rt[0] ? ":" : "", preload, old && *old ? ":" : "",
		 old && *old ? old : "");
	if (setenv("LD_PRELOAD", ld, 1) || setenv("KFDSIG_EMULATE", spec, 1)) {
		free(ld);
		return cli_error("cannot set the environment: %s", strerror(errno));
	}
	free(ld);
	return 0;
}

int cmd_exec(int argc, char **argv)
{
	char num[24];
	uint64_t ms;
	int c;

	/* '+': options end at COMMAND, whose own options are its own */
	while ((c = cli_getopt(argc, argv, cmd_exec_shortopts, cmd_exec_options)) != -1) {
		switch (c) {
		case 'v':
			if (setenv("KFDSIG_EMU_VERBOSE", "1", 1))
				return cli_usage_error("cannot set KFDSIG_EMU_VERBOSE");
			break;
		case OPT_STALL:
			/* the interposer's limits (src/preload/stall.c) */
			if (!cli_parse_range("--stall", optarg, 1, 86400000, &ms))
				return EXIT_USAGE;
			snprintf(num, sizeof(num), "%llu", (unsigned long long)ms);
			if (setenv("KFDSIG_EMU_STALL_MS", num, 1))
				return cli_usage_error("cannot set KFDSIG_EMU_STALL_MS");
			break;
		default:
			return cli_opt_default(c, help);
		}
	}
	if (optind >= argc)
		return cli_usage_error("no COMMAND to run (kfdsig exec --help)");
	c = cli_exec_env(NULL);
	if (c)
		return c;
	fflush(NULL);
	execvp(argv[optind], argv + optind);
	c = errno;
	cli_error("cannot run '%s': %s", argv[optind], strerror(c));
	return c == ENOENT ? 127 : 126;
}
