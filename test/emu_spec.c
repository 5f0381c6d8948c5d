/* SPDX-License-Identifier: MIT */
/*
 * Numbers in the emulator's inputs: the spec's kfd=MAJOR.MINOR
 * and the render-node path are parsed with overflow checks, so an
 * out-of-range number is refused instead of wrapping (sscanf's %u made
 * kfd=4294967297.14 KFD 1.14 and renderD4294967424 GPU 0's node). A
 * well-formed version outside the range the emulator knows (1.1 to 1.22)
 * is refused too, in the spec and in kfdsig_emu_config, and the reason
 * names the range.
 */
#include "kfd_util.h"

static void spec_refused(const char *spec)
{
	struct kfdsig_emu *emu;

	errno = 0;
	emu = kfdsig_emu_create_from_spec(spec);
	CHECK(!emu && errno == EINVAL, "'%s' refused (errno %d)", spec, errno);
	kfdsig_emu_destroy(emu);
}

int main(void)
{
	static const char *const bad[] = {
		"gfx90a,kfd=4294967297.14",
		"gfx90a,kfd=1.4294967296",
		"gfx90a,kfd=1.-1",
		"gfx90a,kfd=+1.2",
		"gfx90a,kfd= 1.2",
		"gfx90a,kfd=1.2x",
		"gfx90a,kfd=1.",
		"gfx90a,kfd=.3",
		"gfx90a,kfd=0x1.2",
		"gfx90a,kfd=0.14",
		"gfx90a,kfd=1.0",
		"gfx90a,kfd=1.23",
		"gfx90a,kfd=1.99",
		"gfx90a,kfd=2.0",
		"gfx90a,kfd=1.4294967295",
		"",
	};
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
	const struct kfdsig_kfd_ops *ops;
	uint32_t major = 0, minor = 0;
	int fd;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		spec_refused(bad[i]);
	emu = kfdsig_emu_create_from_spec("gfx90a,kfd=1.99");
	CHECK(!emu && strstr(kfdsig_last_error(), "kfd=1.1 to kfd=1.22"),
	      "kfd=1.99: the reason names the range: %s", kfdsig_last_error());
	kfdsig_emu_destroy(emu);
	{
		struct kfdsig_emu_gpu_desc g = { .target = "gfx90a" };
		KFDSIG_OPTS(kfdsig_emu_config, cfg, .gpus = &g, .ngpus = 1, .kfd_major = 1,
			    .kfd_minor = 23);

		errno = 0;
		emu = kfdsig_emu_create(&cfg);
		CHECK(!emu && errno == EINVAL, "kfdsig_emu_config 1.23 refused (errno %d)", errno);
		kfdsig_emu_destroy(emu);
	}
	emu = t_emu("gfx90a,kfd=1.22");
	kfd = t_open(emu);
	kfdsig_kfd_version(kfd, &major, &minor);
	CHECK(major == 1 && minor == 22, "the newest minor: %u.%u", major, minor);
	kfdsig_kfd_close(kfd);
	ops = kfdsig_emu_ops(emu);
	CHECK_EQ(ops->open(ops->ctx, "/dev/dri/renderD4294967424", 0), -ENOENT,
		 "a render minor that wraps to 128");
	CHECK_EQ(ops->open(ops->ctx, "/dev/dri/renderD128x", 0), -ENOENT, "trailing text");
	CHECK_EQ(ops->open(ops->ctx, "/dev/dri/renderD", 0), -ENOENT, "no number");
	fd = ops->open(ops->ctx, "/dev/dri/renderD128", 0);
	CHECK(fd >= 0, "renderD128 opens: %d", fd);
	if (fd >= 0)
		ops->close(ops->ctx, fd);
	kfdsig_emu_destroy(emu);
	return t_result("emu_spec");
}
