/* SPDX-License-Identifier: MIT */
/*
 * Under kfdsig exec, a forked child that outlives the parent that made the
 * emulator keeps the emulated sysfs tree: after the parent has exited it
 * still reads every node's /sys/class/kfd/kfd/topology/nodes/N/properties.
 * When the last process using the tree has exited, the tree is gone (no
 * kfdsig-emu-* directory left in TMPDIR).
 *
 * main (no emulator) -> parent (makes the emulator, forks, exits) ->
 * child (waits until it is reparented, reads, reports through a pipe).
 */
#include <dirent.h>
#include <limits.h>
#include <sys/wait.h>

#include "preload_util.h"

#define NODES "/sys/class/kfd/kfd/topology/nodes"
#define NEED(cond, ...)                                    \
	do {                                               \
		bool need_ok_ = (cond);                    \
		CHECK(need_ok_, __VA_ARGS__);              \
		if (!need_ok_)                             \
			return t_result("preload_orphan"); \
	} while (0)

/* Nodes whose properties file reads with a gpu_id line; -1 on no dir. */
static int read_nodes(void)
{
	char path[PATH_MAX], line[256];
	struct dirent *de;
	int good = 0;
	DIR *d = opendir(NODES);

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		FILE *f;
		bool seen = false;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), NODES "/%s/properties", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			seen |= !strncmp(line, "simd_count ", 11);
		fclose(f);
		good += seen;
	}
	closedir(d);
	return good;
}

static int leftover_trees(const char *dir)
{
	struct dirent *de;
	int n = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += !strncmp(de->d_name, "kfdsig-emu-", 11);
	closedir(d);
	return n;
}

static void child(int out, pid_t parent)
{
	int before, after, i;

	before = read_nodes();
	/* the parent exits once it sees this byte */
	if (write(out, "r", 1) != 1)
		_exit(1);
	for (i = 0; i < 5000 && getppid() == parent; i++)
		usleep(1000);
	after = getppid() == parent ? -2 : read_nodes();
	dprintf(out, "%d %d\n", before, after);
	exit(0); /* atexit: the last user removes the tree */
}

int main(void)
{
	char tmpl[] = "/tmp/kfdsig-orphan-XXXXXX", buf[64] = { 0 };
	int fds[2], status = 0, before = -9, after = -9;
	size_t got = 0;
	ssize_t n;
	pid_t mid;

	p_require_preload();
	NEED(mkdtemp(tmpl) != NULL, "mkdtemp: %s", strerror(errno));
	setenv("TMPDIR", tmpl, 1);
	NEED(pipe(fds) == 0, "pipe");
	fflush(NULL);
	mid = fork();
	NEED(mid >= 0, "fork");
	if (mid == 0) {
		pid_t c, self = getpid();

		close(fds[0]);
		/* the emulator and its tree are made here */
		if (read_nodes() < 2)
			_exit(3);
		fflush(NULL);
		c = fork();
		if (c < 0)
			_exit(4);
		if (c == 0)
			child(fds[1], self);
		close(fds[1]);
		exit(0); /* atexit runs: the tree must stay for the child */
	}
	close(fds[1]);
	NEED(waitpid(mid, &status, 0) == mid, "waitpid");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "parent: status 0x%x", status);
	while (got < sizeof(buf) - 1 && (n = read(fds[0], buf + got, sizeof(buf) - 1 - got)) > 0)
		got += (size_t)n;
	close(fds[0]);
	CHECK(buf[0] == 'r' && sscanf(buf + 1, "%d %d", &before, &after) == 2,
	      "the child's report: '%s'", buf);
	CHECK(before >= 2, "child, parent alive: %d nodes with properties", before);
	CHECK(after == before,
	      "child, parent gone: %d nodes with properties (%d before; -1: no tree, -2: never "
	      "reparented)",
	      after, before);
	/* EOF: the child has exited, after its atexit handlers */
	CHECK(leftover_trees(tmpl) == 0, "%d emulated sysfs trees left in %s", leftover_trees(tmpl),
	      tmpl);
	rmdir(tmpl);
	return t_result("preload_orphan");
}
