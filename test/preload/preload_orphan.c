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
 *
 * No tree is left however a process using it ends: exit, _exit, a forked
 * child ending last with _exit; the tree of a killed process (no code runs)
 * is removed by the next emulator made in the same TMPDIR, and so is a
 * debugger link page (/dev/shm/kfdsig-dbg-PID-START) of a gone process.
 */
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <sys/mman.h>
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

enum end { END_EXIT, END__EXIT, END_CHILD__EXIT, END_KILL };

/* A process that makes an emulator (reading its sysfs) and ends as @how;
 * return its wait status. */
static int run_one(enum end how)
{
	int status = -1;
	pid_t pid, c;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		pid = getpid();
		if (read_nodes() < 2)
			_exit(3);
		switch (how) {
		case END_EXIT:
			exit(0);
		case END__EXIT:
			_exit(0);
		case END_CHILD__EXIT: /* the child is the last user */
			c = fork();
			if (c == 0) {
				for (int i = 0; i < 5000 && getppid() == pid; i++)
					usleep(1000);
				_exit(read_nodes() < 2 ? 5 : 0);
			}
			_exit(c < 0 ? 4 : 0);
		case END_KILL:
			raise(SIGKILL);
		}
		_exit(6);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

static void no_litter(void)
{
	static const struct {
		const char *name;
		enum end how;
	} ends[] = {
		{ "exit", END_EXIT },
		{ "_exit", END__EXIT },
		{ "forked child's _exit, last", END_CHILD__EXIT },
	};
	char tmpl[] = "/tmp/kfdsig-litter-XXXXXX", shm[64], c = 0;
	int st, fd, up[2], down[2];
	pid_t gone, alive;

	if (!mkdtemp(tmpl)) {
		CHECK(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	setenv("TMPDIR", tmpl, 1);
	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		st = run_one(ends[i].how);
		CHECK(st == 0, "%s: status 0x%x", ends[i].name, st);
		/* the forked child of END_CHILD__EXIT: its end is not waited
		 * (the others removed their tree before they were reaped) */
		for (int j = 0;
		     ends[i].how == END_CHILD__EXIT && j < 5000 && leftover_trees(tmpl) > 0; j++)
			usleep(1000);
		CHECK(leftover_trees(tmpl) == 0, "%s: %d emulated sysfs trees left in %s",
		      ends[i].name, leftover_trees(tmpl), tmpl);
	}
	/* Killed: nothing of it runs, its tree stays until the next emulator
	 * in TMPDIR; so does the link page of a process that is gone. The
	 * tree of a process alive meanwhile stays. */
	st = run_one(END_KILL);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "killed: status 0x%x", st);
	CHECK(leftover_trees(tmpl) == 1, "killed: %d trees before the next emulator",
	      leftover_trees(tmpl));
	if (pipe(up) || pipe(down)) {
		CHECK(0, "pipe: %s", strerror(errno));
		return;
	}
	fflush(NULL);
	alive = fork();
	if (alive == 0) {
		char b = read_nodes() >= 2 ? 'r' : 'x';

		if (write(up[1], &b, 1) != 1 || read(down[0], &b, 1) != 1)
			_exit(7);
		_exit(read_nodes() >= 2 ? 0 : 8);
	}
	CHECK(alive > 0 && read(up[0], &c, 1) == 1 && c == 'r', "alive: its emulator");
	fflush(NULL);
	gone = fork();
	if (gone == 0)
		_exit(0);
	waitpid(gone, NULL, 0);
	snprintf(shm, sizeof(shm), "/kfdsig-dbg-%d-1", (int)gone);
	fd = shm_open(shm, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	CHECK(fd >= 0, "shm_open %s: %s", shm, strerror(errno));
	if (fd >= 0)
		close(fd);
	st = run_one(END_EXIT);
	CHECK(st == 0, "after the kill: status 0x%x", st);
	CHECK(leftover_trees(tmpl) == 1, "after the kill: %d trees in %s, not the live one alone",
	      leftover_trees(tmpl), tmpl);
	CHECK(write(down[1], "g", 1) == 1 && waitpid(alive, &st, 0) == alive && st == 0,
	      "alive: its tree read after the next emulator's: status 0x%x", st);
	CHECK(leftover_trees(tmpl) == 0, "the live one exited: %d trees left in %s",
	      leftover_trees(tmpl), tmpl);
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
	fd = shm_open(shm, O_RDONLY | O_CLOEXEC, 0600);
	CHECK(fd < 0 && errno == ENOENT, "%s of a gone process: not removed", shm);
	if (fd >= 0) {
		close(fd);
		shm_unlink(shm);
	}
	rmdir(tmpl);
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
	no_litter();
	return t_result("preload_orphan");
}
