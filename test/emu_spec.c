/* SPDX-License-Identifier: MIT */
/*
 * Numbers in the emulator's inputs (issue 16): the spec's kfd=MAJOR.MINOR
 * and the render-node path are parsed with overflow checks, so an
 * out-of-range number is refused instead of wrapping (sscanf's %u made
 * kfd=4294967297.14 KFD 1.14 and renderD4294967424 GPU 0's node).
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
		"",
	};
	struct kfdsig_emu *emu;
	struct kfdsig_kfd *kfd;
	const struct kfdsig_kfd_ops *ops;
	uint32_t major = 0, minor = 0;
	int fd;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		spec_refused(bad[i]);
	emu = t_emu("gfx90a,kfd=1.4294967295");
	kfd = t_open(emu);
	kfdsig_kfd_version(kfd, &major, &minor);
	CHECK(major == 1 && minor == 4294967295u, "the largest minor: %u.%u", major, minor);
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
