/* SPDX-License-Identifier: MIT */
/*
 * The compiled-kernel matrix of the emulated shader unit: for every target
 * `kfdsig targets` marks llvm22=yes (or those named on the command line),
 * in wave64 and, from gfx10 where the family has both, wave32 and wave64
 * (llc -mattr=+wavefrontsize64), at -O0 and -O2, the kernels of
 * test/emu_sqk_kernels.c (test/kernels/sqk_kernels.ll, the OpenCL kernels;
 * sqk_half.ll, 16-bit math; sqk_signal.ll, a wave's s_sendmsg waking
 * WAIT_EVENTS) compiled by LLVM 22, dispatched through the public API on an
 * AQL queue (kfdsig_aql_emit_dispatch()) and on a PM4 queue
 * (kfdsig_pm4_emit_kernel()) of the emulated KFD, every result compared
 * with the host's (test/emu_sqk_checks.h). Each cell runs in a child
 * process (a crash, an exit or a hang ends that cell alone, after
 * --timeout seconds), each kernel on an emulator of its own; the cell's
 * stderr, with the emulator's diagnostic lines, is kept in --log DIR. Prints one line per cell and, at the end, the matrix
 * as a Markdown table (docs/results.md).
 *
 *   bench_sqk_matrix [--opt N]... [--queue aql|pm4] [--timeout S]
 *                    [--log DIR] [TARGET[:w32|:w64]]...
 *
 * A cell reads "pass", "refused" (kfdsig_pm4_emit_kernel() refused a
 * dispatch on the target with -ENOTSUP: the kernels it did run passed),
 * "no code" (LLVM 22 did not compile the kernels) or the first failure.
 * Exit 0 when no cell failed, 1 otherwise, 77 without LLVM 22.
 */
#include <signal.h>
#include <sys/wait.h>

#include "emu_sqk_checks.h"

#define MAX_CELLS 512

struct cell {
	char target[16];
	bool w64;
	int opt;
	bool pm4;
	char verdict[200];
	bool failed;
	double secs;
};

static struct cell cells[MAX_CELLS];
static unsigned ncells;

/* One code object's kernels (@k: 0 sqk_kernels.ll's kernel @i, 1 hmath,
 * 2 the signal kernels) on an emulator of their own. */
static void run_one(const struct cell *c, const struct kco *co, int k, size_t i, const char *what,
		    unsigned *refused, char *why, size_t len)
{
	const struct kfdsig_target *t = kfdsig_target_by_name(c->target);
	char spec[64];
	struct krig r;

	/* PM4 on a multi-XCC target: a one-XCC node (CPX partition), where
	 * kfdsig_pm4_emit_kernel() takes private memory */
	snprintf(spec, sizeof(spec), "%s%s", c->target,
		 c->pm4 && t && t->max_xcc > 1 ? ",partition=cpx" : "");
	krig_open(&r, spec, 32u << 20);
	emu_host_set_diag(r.emu, krig_diag, NULL);
	if (c->pm4)
		krig_pm4(&r, c->target, 2u << 20);
	check_line[0] = 0;
	krig_load(&r, co);
	if (k == 0) {
		krig_kernels[i](&r, what);
		CHECK(!check_line[0], "%s: the shader unit's checks report LLVM's code: %s", what,
		      check_line);
	} else if (k == 1) {
		t_half(&r, what);
		t_half2(&r, what);
	} else {
		t_signal_on(&r, c->target, what);
	}
	if (r.refused) {
		*refused += r.refused;
		snprintf(why, len, "%s", r.refused_why);
	}
	krig_close(&r);
}

/* The child: one target, wave size, level and queue, each kernel on an
 * emulator of its own (a failure leaves the others to run; a kernel that
 * loops ends the cell at its timeout); exit 0 pass, 3 some dispatch
 * refused by the emitter, 1 a failure (said on stderr). */
static int run_cell(const struct cell *c, const struct kco co[3])
{
	char what[96], why[160] = "";
	unsigned refused = 0;

	snprintf(what, sizeof(what), "%s%s -O%d %s", c->target, c->w64 ? " wave64" : "", c->opt,
		 c->pm4 ? "PM4" : "AQL");
	krig_diag_echo = true;
	for (size_t i = 0; i < sizeof(krig_kernels) / sizeof(krig_kernels[0]); i++)
		run_one(c, &co[0], 0, i, what, &refused, why, sizeof(why));
	run_one(c, &co[1], 1, 0, what, &refused, why, sizeof(why));
	run_one(c, &co[2], 2, 0, what, &refused, why, sizeof(why));
	if (refused)
		printf("refused %u: %s\n", refused, why);
	return t_failures ? 1 : refused ? 3 : 0;
}

/* The first three lines of @log that say what failed, each with the
 * emulator's line before it on an illegal instruction or a fault, cut to
 * @len. */
static void first_failure(const char *log, char *out, size_t len)
{
	FILE *f = fopen(log, "r");
	char line[1024], diag_ill[400] = "";
	size_t at = 0;
	int n = 0;

	snprintf(out, len, "see %s", log);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && n < 3 && at < len) {
		char *p, *nl = strchr(line, '\n');

		if (nl)
			*nl = 0;
		if (!diag_ill[0] && strncmp(line, "diag: ", 6) == 0 &&
		    (strstr(line, "illegal") || strstr(line, "fault") || strstr(line, "trap") ||
		     strstr(line, "unimplemented")))
			snprintf(diag_ill, sizeof(diag_ill), "%s", line + 6);
		p = strstr(line, ") failed: ");
		if (p)
			p += 10;
		else if ((p = strstr(line, "setup failed: ")))
			p += 0;
		if (!p)
			continue;
		at += (size_t)snprintf(out + at, len - at, "%s%s%s%s", n ? "; " : "", p,
				       diag_ill[0] ? " -- " : "", diag_ill);
		diag_ill[0] = 0;
		n++;
	}
	fclose(f);
}

static void run_forked(struct cell *c, const struct kco co[3], const char *logdir, unsigned timeout)
{
	char log[512], out[512];
	int status = 0;
	pid_t pid;
	uint64_t t0 = t_now_ms();
	bool timed_out = false;
	FILE *f;

	snprintf(log, sizeof(log), "%s/%s%s-O%d-%s.log", logdir, c->target, c->w64 ? "-w64" : "",
		 c->opt, c->pm4 ? "pm4" : "aql");
	snprintf(out, sizeof(out), "%s.out", log);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		exit(2);
	if (pid == 0) {
		if (!freopen(log, "w", stderr) || !freopen(out, "w", stdout))
			_exit(2);
		/* a cell killed at its timeout keeps what it said */
		setvbuf(stderr, NULL, _IONBF, 0);
		setvbuf(stdout, NULL, _IOLBF, 0);
		{
			int rc = run_cell(c, co);

			fflush(stdout);
			fflush(stderr);
			_exit(rc);
		}
	}
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (!timed_out && t_now_ms() - t0 > timeout * 1000ull) {
			kill(pid, SIGKILL);
			timed_out = true;
		}
		usleep(20000);
	}
	c->secs = (double)(t_now_ms() - t0) / 1000.0;
	if (timed_out) {
		char why[300];

		first_failure(log, why, sizeof(why));
		snprintf(c->verdict, sizeof(c->verdict), "timeout after %u s (%s)", timeout, why);
		c->failed = true;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		snprintf(c->verdict, sizeof(c->verdict), "pass");
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
		char line[400] = "";

		f = fopen(out, "r");
		if (f) {
			if (!fgets(line, sizeof(line), f))
				line[0] = 0;
			fclose(f);
		}
		line[strcspn(line, "\n")] = 0;
		snprintf(c->verdict, sizeof(c->verdict), "%s", line[0] ? line : "refused");
	} else {
		char why[300];

		first_failure(log, why, sizeof(why));
		if (WIFSIGNALED(status))
			snprintf(c->verdict, sizeof(c->verdict), "signal %d (%s)", WTERMSIG(status),
				 why);
		else
			snprintf(c->verdict, sizeof(c->verdict), "exit %d: %s", WEXITSTATUS(status),
				 why);
		c->failed = true;
	}
}

static bool has_wave32(const struct kfdsig_target *t)
{
	return t->gfx_target_version >= 100000;
}

/* gfx1250: wave32 only (LLVM 22 drops kernels compiled for it with
 * +wavefrontsize64: amdgpu-remove-incompatible-functions) */
static bool has_wave64(const struct kfdsig_target *t)
{
	return t->gfx_target_version != 120500;
}

static const char *verdict_md(const struct cell *c)
{
	return c ? c->verdict : "-";
}

static const struct cell *find(const char *target, bool w64, int opt, bool pm4)
{
	for (unsigned i = 0; i < ncells; i++)
		if (!strcmp(cells[i].target, target) && cells[i].w64 == w64 &&
		    cells[i].opt == opt && cells[i].pm4 == pm4)
			return &cells[i];
	return NULL;
}

int main(int argc, char **argv)
{
	static const char *const ll[3] = { KFDSIG_SOURCE_DIR "/test/kernels/sqk_kernels.ll",
					   KFDSIG_SOURCE_DIR "/test/kernels/sqk_half.ll",
					   KFDSIG_SOURCE_DIR "/test/kernels/sqk_signal.ll" };
	const char *logdir = "/tmp/kfdsig-sqk-matrix", *queue = NULL;
	const char *names[64];
	int opts[4], nopt = 0, nnames = 0, rows = 0, fails = 0;
	unsigned timeout = 300;
	struct {
		char target[16];
		bool w64;
	} row[128];
	char cmd[600];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--opt") && i + 1 < argc && nopt < 4)
			opts[nopt++] = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--queue") && i + 1 < argc)
			queue = argv[++i];
		else if (!strcmp(argv[i], "--timeout") && i + 1 < argc)
			timeout = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--log") && i + 1 < argc)
			logdir = argv[++i];
		else if (argv[i][0] != '-' && nnames < 64)
			names[nnames++] = argv[i];
		else {
			fprintf(stderr,
				"usage: %s [--opt N]... [--queue aql|pm4] [--timeout S] [--log "
				"DIR] "
				"[TARGET[:w32|:w64]]...\n",
				argv[0]);
			return 2;
		}
	}
	if (!kco_llvm()) {
		printf("SKIP: no LLVM 22 (opt, llc, ld.lld) in %s\n", KFDSIG_LLVM22_BIN);
		return T_EXIT_SKIP;
	}
	if (!nopt)
		opts[nopt++] = 0, opts[nopt++] = 2;
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", logdir);
	if (system(cmd) != 0)
		return 2;

	/* the rows: target and wave size */
	for (size_t i = 0; i < kfdsig_target_count(); i++) {
		const struct kfdsig_target *t = kfdsig_target_at(i);
		bool want = !nnames, only32 = false, only64 = false;

		if ((t->llvm_removed_in && t->llvm_removed_in <= 22) || t->llvm_added_in > 22)
			continue;
		for (int k = 0; k < nnames; k++) {
			size_t n = strlen(t->name);

			if (!strncmp(names[k], t->name, n) &&
			    (!names[k][n] || names[k][n] == ':')) {
				want = true;
				only32 |= !strcmp(names[k] + n, ":w32");
				only64 |= !strcmp(names[k] + n, ":w64");
			}
		}
		if (!want)
			continue;
		if (has_wave32(t) && !only64) {
			snprintf(row[rows].target, sizeof(row[rows].target), "%s", t->name);
			row[rows++].w64 = false;
		}
		if (has_wave64(t) && !only32) {
			snprintf(row[rows].target, sizeof(row[rows].target), "%s", t->name);
			row[rows++].w64 = true;
		}
	}

	for (int i = 0; i < rows; i++) {
		const struct kfdsig_target *t = kfdsig_target_by_name(row[i].target);
		const char *attrs = row[i].w64 && has_wave32(t) ? "+wavefrontsize64" : "";

		for (int o = 0; o < nopt; o++) {
			struct kco co[3];
			bool built = true;

			for (int k = 0; k < 3; k++)
				built &= kco_build(ll[k], row[i].target, attrs, opts[o], &co[k]) ==
					 0;
			for (int q = 0; q < 2; q++) {
				struct cell *c = &cells[ncells];

				if ((queue && strcmp(queue, q ? "pm4" : "aql")) ||
				    ncells >= MAX_CELLS)
					continue;
				ncells++;
				snprintf(c->target, sizeof(c->target), "%s", row[i].target);
				c->w64 = row[i].w64;
				c->opt = opts[o];
				c->pm4 = q;
				if (built)
					run_forked(c, co, logdir, timeout);
				else
					snprintf(c->verdict, sizeof(c->verdict), "no code");
				fails += c->failed;
				printf("%-8s %-6s -O%d %s %6.1f s: %s\n", c->target,
				       c->w64 ? "wave64" : "wave32", c->opt, c->pm4 ? "PM4" : "AQL",
				       c->secs, c->verdict);
				fflush(stdout);
			}
			for (int k = 0; k < 3; k++)
				kco_free(&co[k]);
		}
	}

	/* the matrix */
	printf("\n| target | wave |");
	for (int o = 0; o < nopt; o++)
		printf(" -O%d AQL | -O%d PM4 |", opts[o], opts[o]);
	printf("\n|---|---|");
	for (int o = 0; o < nopt; o++)
		printf("---|---|");
	printf("\n");
	for (int i = 0; i < rows; i++) {
		printf("| %s | %d |", row[i].target, row[i].w64 ? 64 : 32);
		for (int o = 0; o < nopt; o++)
			for (int q = 0; q < 2; q++)
				printf(" %s |",
				       verdict_md(find(row[i].target, row[i].w64, opts[o], q)));
		printf("\n");
	}
	printf("\n%u cells, %d failed; logs in %s\n", ncells, fails, logdir);
	return fails ? 1 : 0;
}
