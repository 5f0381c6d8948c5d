/* SPDX-License-Identifier: MIT */
/* kfdsig smi: print KFD SMI events live. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void help(FILE *f)
{
	fprintf(f, "usage: kfdsig smi [--events LIST] [-g GPU_ID] [-c N] [-T MS] [-j]\n"
		   "                  [--no-time] [--emulate SPEC]\n\n"
		   "Open an SMI event fd (AMDKFD_IOC_SMI_EVENTS) on each GPU (or one), ask for\n"
		   "the events of LIST and print each event as it arrives, parsed, after the\n"
		   "local time it was read at:\n"
		   "  HH:MM:SS.mmm GPU_ID EVENT key=value ...\n"
		   "On a terminal it first says what it listens to (on stderr, unless -q).\n\n"
		   "  --events LIST   comma-separated names or numbers (default: every event\n"
		   "                  type): vmfault thermal_throttle gpu_pre_reset\n"
		   "                  gpu_post_reset migrate_start migrate_end page_fault_start\n"
		   "                  page_fault_end queue_eviction queue_restore\n"
		   "                  unmap_from_gpu process_start process_end, and all_process\n"
		   "                  for events of every process (needs CAP_SYS_ADMIN)\n"
		   "  -g, --gpu GPU_ID  only this GPU (see kfdsig devices)\n"
		   "  -j, --json      JSON Lines: one object per event as it arrives, with\n"
		   "                  \"time\" (seconds since the epoch); --json-seq: RFC 7464\n"
		   "  -c, --count N   stop after N events\n"
		   "  -T, --timeout MS  stop after MS milliseconds without an event\n"
		   "      --no-time   leave the timestamps out (reproducible output)\n"
		   "  --emulate SPEC  use an emulated KFD (also KFDSIG_EMULATE=SPEC)\n\n"
		   "Runs until interrupted (SIGINT, SIGTERM) otherwise.\n");
	cli_help_exit(f, "on failure (no KFD, KFD older than 1.3, all_process without\n"
			 "the privilege), and when --timeout ends the wait before the --count\n"
			 "events arrived (a timeout without --count, an interrupt, or --count\n"
			 "events: 0)");
}

static bool parse_events(const char *list, uint64_t *mask)
{
	char buf[512], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	*mask = 0;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int ev = kfdsig_smi_event_by_name(t);
		if (ev < 0) {
			cli_usage_error("%s (kfdsig smi --help lists them)", kfdsig_last_error());
			return false;
		}
		*mask |= KFDSIG_SMI_MASK(ev);
	}
	if (!*mask) {
		cli_usage_error("--events names no event");
		return false;
	}
	return true;
}

static void print_event(uint32_t gpu, const struct kfdsig_smi_event *e, bool json, bool stamp)
{
	const char *name = kfdsig_smi_event_name(e->type);
	struct timespec now;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &now);
	if (json) {
		cli_json_record(stdout);
		printf("{");
		if (stamp)
			printf("\"time\": %lld.%03ld, ", (long long)now.tv_sec,
			       now.tv_nsec / 1000000);
		printf("\"gpu_id\": %u, \"type\": %u, \"event\": \"%s\"", gpu, e->type, name);
		switch (e->type) {
		case KFDSIG_SMI_VMFAULT:
		case KFDSIG_SMI_PROCESS_START:
		case KFDSIG_SMI_PROCESS_END:
			printf(", \"pid\": %d, \"task\": ", e->pid);
			cli_json_str(stdout, e->task_name);
			break;
		case KFDSIG_SMI_THERMAL_THROTTLE:
			printf(", \"bitmask\": %llu, \"counter\": %llu",
			       (unsigned long long)e->throttle_bitmask,
			       (unsigned long long)e->throttle_counter);
			break;
		case KFDSIG_SMI_GPU_PRE_RESET:
		case KFDSIG_SMI_GPU_POST_RESET:
			printf(", \"seq\": %u, \"cause\": ", e->reset_seq);
			cli_json_str(stdout, e->reset_cause);
			break;
		default:
			printf(", \"ns\": %llu, \"pid\": %d, \"addr\": %llu, \"size\": %llu, "
			       "\"node\": %u, \"from\": %u, \"to\": %u, \"trigger\": %d, "
			       "\"error\": %d, \"flag\": \"%c\"",
			       (unsigned long long)e->ns, e->pid, (unsigned long long)e->addr,
			       (unsigned long long)e->size, e->node, e->from, e->to, e->trigger,
			       e->error_code, e->flag ? e->flag : '-');
			break;
		}
		printf(", \"line\": ");
		cli_json_str(stdout, e->line);
		printf("}\n");
		return;
	}
	if (stamp && localtime_r(&now.tv_sec, &tm))
		printf("%02d:%02d:%02d.%03ld ", tm.tm_hour, tm.tm_min, tm.tm_sec,
		       now.tv_nsec / 1000000);
	printf("0x%04x %s", gpu, name);
	switch (e->type) {
	case KFDSIG_SMI_VMFAULT:
	case KFDSIG_SMI_PROCESS_START:
	case KFDSIG_SMI_PROCESS_END:
		printf(" pid=%d task=%s", e->pid, e->task_name);
		break;
	case KFDSIG_SMI_THERMAL_THROTTLE:
		printf(" bitmask=0x%llx counter=%llu", (unsigned long long)e->throttle_bitmask,
		       (unsigned long long)e->throttle_counter);
		break;
	case KFDSIG_SMI_GPU_PRE_RESET:
	case KFDSIG_SMI_GPU_POST_RESET:
		printf(" seq=%u cause=%s", e->reset_seq, e->reset_cause[0] ? e->reset_cause : "-");
		break;
	case KFDSIG_SMI_MIGRATE_START:
	case KFDSIG_SMI_MIGRATE_END:
		printf(" ns=%llu pid=%d addr=0x%llx pages=0x%llx from=0x%x to=0x%x trigger=%d",
		       (unsigned long long)e->ns, e->pid, (unsigned long long)e->addr,
		       (unsigned long long)e->size, e->from, e->to, e->trigger);
		if (e->type == KFDSIG_SMI_MIGRATE_END)
			printf(" error=%d", e->error_code);
		break;
	default:
		printf(" ns=%llu pid=%d node=0x%x", (unsigned long long)e->ns, e->pid, e->node);
		if (e->addr || e->size)
			printf(" addr=0x%llx pages=0x%llx", (unsigned long long)e->addr,
			       (unsigned long long)e->size);
		if (e->type == KFDSIG_SMI_QUEUE_EVICTION || e->type == KFDSIG_SMI_UNMAP_FROM_GPU)
			printf(" trigger=%d", e->trigger);
		if (e->flag)
			printf(" flag=%c", e->flag);
		break;
	}
	putchar('\n');
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

enum { OPT_EVENTS = 256, OPT_NO_TIME };

const struct option cmd_smi_options[] = {
	{ "events", required_argument, NULL, OPT_EVENTS },
	{ "gpu", required_argument, NULL, 'g' },
	{ "count", required_argument, NULL, 'c' },
	{ "timeout", required_argument, NULL, 'T' },
	{ "no-time", no_argument, NULL, OPT_NO_TIME },
	CLI_GLOBAL_LONGOPTS,
	{ 0 },
};
const char cmd_smi_shortopts[] = "g:c:T:" CLI_GLOBAL_SHORTOPTS;
const struct cli_complete cmd_smi_complete[] = {
	{ "events", "@smi-event" },
	{ 0 },
};

int cmd_smi(int argc, char **argv)
{
	struct kfdsig_smi *smis[16];
	uint32_t gpus[16];
	size_t nsmi = 0;
	uint64_t mask = 0, count = 0, timeout = UINT64_MAX, gpu = 0, seen = 0;
	bool json, have_gpu = false, stamp = true, timed_out = false;
	struct cli_kfd c;
	int64_t last;
	int opt, r, ret = 0;

	while ((opt = cli_getopt(argc, argv, cmd_smi_shortopts, cmd_smi_options)) != -1) {
		switch (opt) {
		case OPT_NO_TIME:
			stamp = false;
			break;
		case OPT_EVENTS:
			if (!parse_events(optarg, &mask))
				return EXIT_USAGE;
			break;
		case 'g':
			if (!cli_parse_u64("--gpu", optarg, UINT32_MAX, &gpu))
				return EXIT_USAGE;
			have_gpu = true;
			break;
		case 'c':
			if (!cli_parse_range("--count", optarg, 1, UINT64_MAX, &count))
				return EXIT_USAGE;
			break;
		case 'T':
			if (!cli_parse_u64("--timeout", optarg, INT32_MAX, &timeout))
				return EXIT_USAGE;
			break;
		default:
			return cli_opt_default(opt, help);
		}
	}
	r = cli_no_operands(argc, argv);
	if (r)
		return r;
	if (!mask)
		for (int ev = KFDSIG_SMI_VMFAULT; ev <= KFDSIG_SMI_PROCESS_END; ev++)
			mask |= KFDSIG_SMI_MASK(ev);
	json = cli_json();
	r = cli_kfd_open(cli_g.emulate, &c);
	if (r)
		return r;
	for (size_t i = 0; i < kfdsig_kfd_device_count(c.kfd) && nsmi < 16; i++) {
		const struct kfdsig_kfd_device *d = kfdsig_kfd_device(c.kfd, i);
		if (have_gpu && d->gpu_id != gpu)
			continue;
		r = kfdsig_smi_open(c.kfd, d->gpu_id, mask, &smis[nsmi]);
		if (r < 0) {
			ret = cli_error("%s", kfdsig_last_error());
			goto out;
		}
		gpus[nsmi++] = d->gpu_id;
	}
	if (!nsmi) {
		ret = have_gpu ? cli_error("no GPU with gpu_id %llu (kfdsig devices lists them)",
					   (unsigned long long)gpu)
			       : cli_error("no KFD GPU");
		goto out;
	}
	if (isatty(STDERR_FILENO))
		cli_note("listening for SMI events on %zu GPU%s (Ctrl-C to stop)", nsmi,
			 nsmi == 1 ? "" : "s");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	setvbuf(stdout, NULL, _IOLBF, 0);
	last = now_ms();
	while (!stop && (!count || seen < count)) {
		struct pollfd pfd[16];
		int64_t left = timeout == UINT64_MAX ? 1000 : (int64_t)timeout - (now_ms() - last);
		const struct kfdsig_kfd_ops *ops = kfdsig_kfd_ops_of(c.kfd);

		if (left <= 0) {
			timed_out = true;
			break;
		}
		for (size_t i = 0; i < nsmi; i++)
			pfd[i] = (struct pollfd){ .fd = kfdsig_smi_fd(smis[i]), .events = POLLIN };
		r = ops->poll(ops->ctx, pfd, nsmi, left > 1000 ? 1000 : (int)left);
		if (r == -EINTR)
			continue;
		if (r < 0) {
			ret = cli_error("poll failed: %s", strerror(-r));
			break;
		}
		for (size_t i = 0; i < nsmi && r > 0; i++) {
			struct kfdsig_smi_event e;
			if (!(pfd[i].revents & POLLIN))
				continue;
			while ((!count || seen < count) &&
			       (r = kfdsig_smi_read(smis[i], &e, 0)) != 0) {
				if (r == -EBADMSG) {
					fprintf(stderr, "%s: %s\n", cli_prog, kfdsig_last_error());
					continue;
				}
				if (r < 0) {
					ret = cli_error("%s", kfdsig_last_error());
					goto out;
				}
				print_event(gpus[i], &e, json, stamp);
				seen++;
				last = now_ms();
			}
			r = 1;
		}
	}
	if (!ret && timed_out && count && seen < count)
		ret = cli_error("--timeout: %llu of %llu events in time", (unsigned long long)seen,
				(unsigned long long)count);
out:
	for (size_t i = 0; i < nsmi; i++)
		kfdsig_smi_close(smis[i]);
	cli_kfd_close(&c);
	if (ret)
		return ret;
	return cli_close_output(stdout);
}
