/* SPDX-License-Identifier: MIT */
/*
 * The devices `kfdsig test` and `kfdsig bench` run on: every GPU of the real
 * KFD, or one emulated KFD per target of an emulation spec (`all`: every
 * target of the generation table), with the emulator knobs (KFD version,
 * kernel profile) applied to each.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <kfdsig/emu.h>
#include <kfdsig/kfdsig.h>

#include "suite.h"

/* The v6.14-v6.18 drop (de844846f72b, reverted by 88ef4de35f46 for
 * v6.19; kfd_events.c kfd_signal_event_interrupt() / lookup_signaled_event_by_partial_id()) judged from the running kernel's release. Stable and
 * distribution backports are not known (UNVERIFIED): only the mainline
 * numbers decide. */
static bool release_drops_wrong_id(const char *release)
{
	unsigned long major, minor;
	char *end;

	/* "MAJOR.MINOR..." of uname; strtoul, not sscanf's wrapping %u */
	errno = 0;
	major = strtoul(release, &end, 10);
	if (errno || end == release || *end != '.' || end[1] < '0' || end[1] > '9')
		return false;
	minor = strtoul(end + 1, &end, 10);
	return !errno && major == 6 && minor >= 14 && minor <= 18;
}

static int add_emulated(struct suite_devset *s, const char *target, const char *own,
			const char *knobs, bool drops, const char *profile)
{
	struct kfdsig_kfd *kfd = NULL;
	struct suite_device *d;
	struct kfdsig_emu *emu;
	const char *part = strstr(own, "partition=");
	char spec[256];

	if (s->n == SUITE_MAX_DEVICES)
		return -E2BIG;
	snprintf(spec, sizeof(spec), "%s%s%s", target, own, knobs);
	emu = kfdsig_emu_create_from_spec(spec);
	if (!emu)
		return -errno;
	if (kfdsig_kfd_open(kfdsig_emu_ops(emu), &kfd) < 0 || !kfdsig_kfd_device_count(kfd)) {
		kfdsig_kfd_close(kfd);
		kfdsig_emu_destroy(emu);
		return -ENODEV;
	}
	d = &s->dev[s->n++];
	memset(d, 0, sizeof(*d));
	d->emu = emu;
	d->ops = kfdsig_emu_ops(emu);
	d->gpu_id = kfdsig_kfd_device(kfd, 0)->gpu_id;
	d->target = kfdsig_kfd_device(kfd, 0)->target;
	kfdsig_kfd_version(kfd, &d->kfd_major, &d->kfd_minor);
	/* "gfx942" or, partitioned, "gfx942/cpx" */
	snprintf(d->label, sizeof(d->label), "%s%s%.3s", d->target ? d->target->name : target,
		 part ? "/" : "", part ? part + 10 : "");
	d->drops_wrong_id = drops;
	d->profile = profile;
	kfdsig_kfd_close(kfd);
	return 0;
}

/* The emulator's kernel profiles by their spec names (kfdsig_emu_create_from_spec,
 * include/kfdsig/emu.h): v6.14 drops an interrupt whose full id names an
 * unsignalled slot, v7.1 (mailbox-free) trusts the GC 12.1 CP end-of-pipe
 * id (docs/gc12_1.md), v7.3 also allocates no signal page in the kernel. */
static const char *canonical_profile(const char *name)
{
	if (!strcmp(name, "default"))
		return "default";
	if (!strcmp(name, "v6.14") || !strcmp(name, "6.14"))
		return "v6.14";
	if (!strcmp(name, "v7.1") || !strcmp(name, "mailbox-free"))
		return "v7.1";
	if (!strcmp(name, "v7.3"))
		return "v7.3";
	return NULL;
}

/* Record why the open failed (before closing: the reason may quote
 * kfdsig_last_error()), close what it opened, return @st. */
static enum suite_dev_status fail(struct suite_devset *s, enum suite_dev_status st, const char *fmt,
				  ...) __attribute__((format(printf, 3, 4)));
static enum suite_dev_status fail(struct suite_devset *s, enum suite_dev_status st, const char *fmt,
				  ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->why, sizeof(s->why), fmt, ap);
	va_end(ap);
	suite_devices_close(s);
	return st;
}

static enum suite_dev_status devices_open(struct suite_devset *s, const struct suite_dev_opts *o);

/* --gpu GPU_ID: keep the one device of that KFD gpu id. */
static enum suite_dev_status keep_gpu(struct suite_devset *s, uint32_t gpu_id)
{
	size_t keep = s->n;

	for (size_t i = 0; i < s->n; i++)
		if (s->dev[i].gpu_id == gpu_id)
			keep = i;
	if (keep == s->n)
		return fail(s, SUITE_DEV_USAGE,
			    "--gpu 0x%x: no such GPU (kfdsig devices lists the gpu ids)", gpu_id);
	for (size_t i = 0; i < s->n; i++)
		if (i != keep)
			kfdsig_emu_destroy(s->dev[i].emu);
	s->dev[0] = s->dev[keep];
	s->n = 1;
	return SUITE_DEV_OK;
}

enum suite_dev_status suite_devices_open(struct suite_devset *s, const struct suite_dev_opts *o)
{
	enum suite_dev_status st = devices_open(s, o);

	if (st != SUITE_DEV_OK || !o->gpu_id)
		return st;
	if (o->device >= 0)
		return fail(s, SUITE_DEV_USAGE, "--device and --gpu both choose a GPU: give one");
	return keep_gpu(s, o->gpu_id);
}

static enum suite_dev_status devices_open(struct suite_devset *s, const struct suite_dev_opts *o)
{
	const char *spec = o->emulate ? o->emulate : getenv("KFDSIG_EMULATE");
	char knobs[128] = "", buf[512], *save = NULL;
	const char *targets[SUITE_MAX_DEVICES];
	/* a target's own knobs (",partition=cpx,xcc=6": multi-XCC devices,
	 * docs/multi-xcc.md); the suite runs on the first KFD node */
	char own[SUITE_MAX_DEVICES][48] = { { 0 } };
	size_t nt = 0;
	bool drops = false;
	int r;

	memset(s, 0, sizeof(*s));
	if (o->emulate && !*o->emulate)
		return fail(s, SUITE_DEV_USAGE, "--emulate needs TARGET[,TARGET...] or all");
	if (!spec || !*spec) {
		struct kfdsig_kfd *kfd = NULL;
		struct utsname u;

		if (o->kfd_version)
			return fail(s, SUITE_DEV_USAGE,
				    "--kfd-version only applies to the emulated KFD "
				    "(--emulate); a real KFD reports its own version");
		if (o->profile)
			return fail(s, SUITE_DEV_USAGE,
				    "--kernel-profile only applies to the emulated KFD "
				    "(--emulate); on hardware the running kernel decides");
		r = kfdsig_kfd_open(NULL, &kfd);
		if (r < 0)
			return SUITE_DEV_NO_KFD;
		if (uname(&u) == 0) {
			drops = release_drops_wrong_id(u.release);
			snprintf(s->release, sizeof(s->release), "linux %s", u.release);
		}
		for (size_t i = 0; i < kfdsig_kfd_device_count(kfd); i++) {
			const struct kfdsig_kfd_device *kd = kfdsig_kfd_device(kfd, i);
			struct suite_device *d;

			if (o->device >= 0 && (size_t)o->device != i)
				continue;
			if (!kd->target) {
				fprintf(stderr, "%s: node %u skipped: %s\n", o->prog, kd->node_id,
					kd->note ? kd->note : "unknown target");
				continue;
			}
			if (s->n == SUITE_MAX_DEVICES)
				break;
			d = &s->dev[s->n++];
			d->ops = kfdsig_kfd_linux_ops();
			d->gpu_id = kd->gpu_id;
			d->target = kd->target;
			kfdsig_kfd_version(kfd, &d->kfd_major, &d->kfd_minor);
			snprintf(d->label, sizeof(d->label), "%s", kd->target->name);
			d->drops_wrong_id = drops;
			d->profile = s->release;
		}
		size_t count = kfdsig_kfd_device_count(kfd);
		kfdsig_kfd_close(kfd);
		if (o->device >= 0 && (size_t)o->device >= count)
			return fail(s, SUITE_DEV_USAGE, "--device %d: there %s %zu GPU%s",
				    o->device, count == 1 ? "is" : "are", count,
				    count == 1 ? "" : "s");
		if (!s->n)
			return fail(s, SUITE_DEV_FAILED, "no supported GPU to run on");
		return SUITE_DEV_OK;
	}

	if (strlen(spec) >= sizeof(buf))
		return fail(s, SUITE_DEV_USAGE, "emulation spec too long");
	snprintf(buf, sizeof(buf), "%s", spec);
	const char *profile = "default";
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strncmp(tok, "kfd=", 4)) {
			if (o->kfd_version && strcmp(o->kfd_version, tok + 4))
				return fail(s, SUITE_DEV_USAGE,
					    "--kfd-version %s and --emulate's kfd=%s disagree: "
					    "give one",
					    o->kfd_version, tok + 4);
			if (!o->kfd_version) {
				strncat(knobs, ",", sizeof(knobs) - strlen(knobs) - 1);
				strncat(knobs, tok, sizeof(knobs) - strlen(knobs) - 1);
			}
		} else if (!strncmp(tok, "profile=", 8)) {
			if (o->profile && strcmp(o->profile, tok + 8))
				return fail(s, SUITE_DEV_USAGE,
					    "--kernel-profile %s and --emulate's profile=%s "
					    "disagree: give one",
					    o->profile, tok + 8);
			if (!o->profile) {
				strncat(knobs, ",", sizeof(knobs) - strlen(knobs) - 1);
				strncat(knobs, tok, sizeof(knobs) - strlen(knobs) - 1);
				profile = canonical_profile(tok + 8);
				if (!profile)
					return fail(s, SUITE_DEV_USAGE,
						    "unknown profile '%s' in --emulate "
						    "(default, v6.14, v7.1, v7.3)",
						    tok + 8);
			}
		} else if (!strcmp(tok, "privileged") || !strncmp(tok, "lockup_timeout=", 15) ||
			   !strncmp(tok, "user_queue=", 11)) {
			strncat(knobs, ",", sizeof(knobs) - strlen(knobs) - 1);
			strncat(knobs, tok, sizeof(knobs) - strlen(knobs) - 1);
		} else if (!strncmp(tok, "smi=", 4)) {
			/* injected lines would fail the SMI cases, which check
			 * what the kernel alone sends */
			return fail(s, SUITE_DEV_USAGE,
				    "--emulate: smi= is for SMI consumers (kfdsig smi, "
				    "kfdsig exec), not for the test suite or bench");
		} else if (!strncmp(tok, "partition=", 10) || !strncmp(tok, "xcc=", 4) ||
			   !strncmp(tok, "mec=", 4) || !strncmp(tok, "sdma=", 5)) {
			if (!nt)
				return fail(s, SUITE_DEV_USAGE,
					    "'%s' in --emulate must follow a target", tok);
			if (strlen(own[nt - 1]) + strlen(tok) + 2 > sizeof(own[0]))
				return fail(s, SUITE_DEV_USAGE,
					    "'%s': too many knobs for one target", tok);
			strcat(own[nt - 1], ",");
			strcat(own[nt - 1], tok);
		} else if (!strcmp(tok, "all")) {
			for (size_t i = 0; i < kfdsig_target_count() && nt < SUITE_MAX_DEVICES; i++)
				targets[nt++] = kfdsig_target_at(i)->name;
		} else {
			if (!kfdsig_target_by_name(tok))
				return fail(s, SUITE_DEV_USAGE,
					    "unknown target '%s' in --emulate "
					    "(kfdsig targets lists them, or use all)",
					    tok);
			if (nt == SUITE_MAX_DEVICES)
				return fail(s, SUITE_DEV_USAGE, "at most %d emulated devices",
					    SUITE_MAX_DEVICES);
			/* strtok_r's buffer lives on: keep a copy that outlives it */
			targets[nt++] = kfdsig_target_by_name(tok)->name;
		}
	}
	if (o->kfd_version) {
		unsigned long maj, min;
		const char *v = o->kfd_version;
		char *end;

		/* 1.N, digits only, N within 32 bits (no sscanf: it wraps) */
		errno = 0;
		maj = v[0] >= '0' && v[0] <= '9' ? strtoul(v, &end, 10) : 0;
		if (maj == 1 && *end == '.' && end[1] >= '0' && end[1] <= '9')
			min = strtoul(end + 1, &end, 10);
		else
			min = 0, maj = 0;
		if (errno || maj != 1 || *end || min > UINT32_MAX)
			return fail(s, SUITE_DEV_USAGE,
				    "--kfd-version: '%s' is not 1.N (e.g. 1.13)", o->kfd_version);
		snprintf(knobs + strlen(knobs), sizeof(knobs) - strlen(knobs), ",kfd=%lu.%lu", maj,
			 min);
	}
	if (o->profile) {
		profile = canonical_profile(o->profile);
		if (!profile)
			return fail(s, SUITE_DEV_USAGE,
				    "--kernel-profile: unknown profile '%s' (default, "
				    "v6.14, v7.1, v7.3)",
				    o->profile);
		snprintf(knobs + strlen(knobs), sizeof(knobs) - strlen(knobs), ",profile=%s",
			 profile);
	}
	if (!nt)
		return fail(s, SUITE_DEV_USAGE, "--emulate '%s' names no target", spec);
	drops = !strcmp(profile, "v6.14");
	for (size_t i = 0; i < nt; i++) {
		if (o->device >= 0 && (size_t)o->device != i)
			continue;
		r = add_emulated(s, targets[i], own[i], knobs, drops, profile);
		if (r < 0) {
			return fail(s, SUITE_DEV_USAGE, "bad emulation spec '%s%s%s': %s",
				    targets[i], own[i], knobs, kfdsig_last_error());
		}
	}
	if (o->device >= 0 && (size_t)o->device >= nt)
		return fail(s, SUITE_DEV_USAGE, "--device %d: there %s %zu emulated GPU%s",
			    o->device, nt == 1 ? "is" : "are", nt, nt == 1 ? "" : "s");
	return SUITE_DEV_OK;
}

void suite_devices_close(struct suite_devset *s)
{
	for (size_t i = 0; i < s->n; i++)
		kfdsig_emu_destroy(s->dev[i].emu);
	s->n = 0;
}
