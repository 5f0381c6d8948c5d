/* SPDX-License-Identifier: MIT */
/*
 * Opening KFD for a command: the real /dev/kfd, or an emulated KFD when
 * the command got --emulate SPEC, or kfdsig got --emulate SPEC before the
 * command, or KFDSIG_EMULATE=SPEC is set (in that order of precedence).
 * SPEC is "TARGET[,TARGET...][,kfd=MAJOR.MINOR][,profile=v6.14|v7.1|v7.3][,privileged][,smi=EVENT[+EVENT...]]".
 * kfdsig test and bench open theirs through the suite (src/suite/devices.c):
 * one emulated KFD per target.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "suite/suite.h"

int cli_no_kfd_error(void)
{
	const char *cmd = strchr(cli_prog, ' ');

	/* The library's reason already says "no KFD: ..."; add how to go on
	 * without one, once. */
	return cli_error("%s\n  without an AMD GPU, use the emulated KFD: kfdsig --emulate "
			 "TARGET[,TARGET...]%s ... (kfdsig targets lists the targets; "
			 "'all' runs every one for test and bench)",
			 kfdsig_last_error(), cmd ? cmd : "");
}

int cli_kfd_open(const char *emulate, struct cli_kfd *c)
{
	const char *spec = emulate;
	int r;

	memset(c, 0, sizeof(*c));
	/* An empty --emulate is a mistake, not "no emulation"; an empty
	 * KFDSIG_EMULATE counts as unset. */
	if (spec && !*spec)
		return cli_usage_error("--emulate: empty SPEC (want TARGET[,TARGET...])");
	if (!spec)
		spec = getenv("KFDSIG_EMULATE");
	if (spec && *spec) {
		c->emu = kfdsig_emu_create_from_spec(spec);
		if (!c->emu)
			return cli_usage_error("bad emulation spec '%s': %s", spec,
					       kfdsig_last_error());
	}
	r = kfdsig_kfd_open(c->emu ? kfdsig_emu_ops(c->emu) : NULL, &c->kfd);
	if (r < 0) {
		bool emulated = c->emu != NULL;

		kfdsig_emu_destroy(c->emu);
		c->emu = NULL;
		if (!emulated)
			return cli_no_kfd_error();
		return cli_error("%s", kfdsig_last_error());
	}
	return 0;
}

void cli_kfd_close(struct cli_kfd *c)
{
	kfdsig_kfd_close(c->kfd);
	kfdsig_emu_destroy(c->emu);
	memset(c, 0, sizeof(*c));
}

int cli_suite_devices(const struct suite_dev_opts *o, struct suite_devset **out)
{
	struct suite_devset *s = calloc(1, sizeof(*s));
	int r;

	*out = NULL;
	if (!s)
		return cli_error("out of memory");
	switch (suite_devices_open(s, o)) {
	case SUITE_DEV_OK:
		*out = s;
		return 0;
	case SUITE_DEV_USAGE:
		r = cli_usage_error("%s", s->why);
		break;
	case SUITE_DEV_NO_KFD:
		r = cli_no_kfd_error();
		break;
	default:
		r = cli_error("%s", s->why);
		break;
	}
	free(s);
	return r;
}

void cli_suite_devices_close(struct suite_devset *s)
{
	if (s)
		suite_devices_close(s);
	free(s);
}

int cli_suite_dev_opt(int c, const char *arg, struct suite_dev_opts *o, void (*help)(FILE *f))
{
	uint64_t v;

	switch (c) {
	case 'd':
		if (!cli_parse_u64("--device", arg, 63, &v))
			return EXIT_USAGE;
		o->device = (int)v;
		return -1;
	case 'g':
		if (!cli_parse_u64("--gpu", arg, UINT32_MAX, &v))
			return EXIT_USAGE;
		if (!v)
			return cli_usage_error("--gpu: 0 is a CPU node's id");
		o->gpu_id = (uint32_t)v;
		return -1;
	case CLI_OPT_KFD_VERSION:
		o->kfd_version = arg;
		return -1;
	case CLI_OPT_KERNEL_PROFILE:
		o->profile = arg;
		return -1;
	}
	return cli_opt_default(c, help);
}
